import { campaignEndpoints } from '@inventory/contract';
import { registerImports } from '../../toolkit/imports.js';
import { pickerOptions, type PickerSql } from '../../toolkit/pickers.js';
import type { AppModule } from '../module.js';
import { ORDER_PICKERS } from '../order/index.js';
import { campaignImportStore } from './campaign-import.js';
import {
  campaignDetail,
  closeCampaign,
  listCampaigns,
  outboundCampaigns,
} from './campaigns.service.js';

const CAMPAIGN_PICKER = {
  from: 'campaigns',
  id: 'id',
  label: 'name',
  where: '($1::text IS NULL OR name ILIKE $1)',
  order: 'created_at DESC, id DESC',
} as const satisfies PickerSql;

/**
 * Campaigns (DOMAIN.md 4.15): the campaign file's import (toolkit import steps with the
 * campaign as the batch's options), the campaigns with their orders' progress, and closing one.
 */
export const campaignModule: AppModule = {
  name: 'campaign',
  register(context) {
    const { endpoint, db } = context;
    registerImports(context, campaignImportStore);
    endpoint(campaignEndpoints.list, ({ query }) => listCampaigns(db, query.status));
    endpoint(campaignEndpoints.outbound, () => outboundCampaigns(db));
    endpoint(campaignEndpoints.carrierOptions, ({ query }) =>
      pickerOptions(db, ORDER_PICKERS.carriers, query),
    );
    endpoint(campaignEndpoints.options, ({ query }) => pickerOptions(db, CAMPAIGN_PICKER, query));
    endpoint(campaignEndpoints.detail, ({ params }) => campaignDetail(db, params.id));
    endpoint(campaignEndpoints.close, ({ principal, params, meta }) =>
      db.transaction((tx) => closeCampaign(tx, { actor: principal, meta }, params.id)),
    );
  },
};
