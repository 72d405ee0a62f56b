import {
  accountRepOptionsEndpoint,
  agentOptionsEndpoint,
  createPortalUserEndpoint,
  deactivateRetailerEndpoint,
  linkAgentEndpoint,
  portalUsersEndpoint,
  reactivateRetailerEndpoint,
  retailerDetailEndpoint,
  retailerEndpoints,
  retailerOrdersEndpoint,
  setResaleCertificateEndpoint,
  unlinkAgentEndpoint,
} from '@inventory/contract';
import { Answer } from '../../http/endpoint.js';
import { registerAttachments } from '../../toolkit/attachments.js';
import { pickerOptions } from '../../toolkit/pickers.js';
import { registerList } from '../../toolkit/resource.js';
import type { AppModule } from '../module.js';
import {
  ACCOUNT_REP_PICKER,
  AGENT_PICKER,
  createPortalUser,
  createRetailer,
  deleteRetailer,
  linkAgent,
  portalUsers,
  retailerAttachmentStore,
  retailerDetail,
  retailerOrders,
  retailerStore,
  setResaleCertificate,
  setRetailerStatus,
  unlinkAgent,
  updateRetailer,
} from './retail.service.js';

/**
 * Retail customers (DOMAIN.md 4.8): retailers with their addresses, contacts, terms and resale
 * certificate, their portal users and the field agents linked to them (dealers).
 */
export const retailModule: AppModule = {
  name: 'retail',
  register(context) {
    const { endpoint, db } = context;
    registerList(context, retailerStore);
    endpoint(accountRepOptionsEndpoint, ({ query }) =>
      pickerOptions(db, ACCOUNT_REP_PICKER, query),
    );
    endpoint(retailerEndpoints.create, async ({ principal, body, meta }) => {
      const detail = await db.transaction((tx) => createRetailer(tx, principal, meta, body));
      return detail.retailer;
    });
    endpoint(retailerEndpoints.update, async ({ principal, params, body, meta }) => {
      const detail = await db.transaction((tx) =>
        updateRetailer(tx, principal, meta, params.id, body),
      );
      return detail.retailer;
    });
    endpoint(retailerEndpoints.remove, async ({ principal, params, meta }) => {
      await db.transaction((tx) => deleteRetailer(tx, principal, meta, params.id));
      return new Answer(null, 'The retailer is deleted.');
    });
    endpoint(retailerDetailEndpoint, ({ params }) => retailerDetail(db, params.id));
    registerAttachments(context, retailerAttachmentStore);
    endpoint(setResaleCertificateEndpoint, ({ principal, params, body, meta }) =>
      db.transaction((tx) => setResaleCertificate(tx, principal, meta, params.id, body)),
    );
    endpoint(deactivateRetailerEndpoint, ({ principal, params, meta }) =>
      db.transaction((tx) => setRetailerStatus(tx, principal, meta, params.id, 'inactive')),
    );
    endpoint(reactivateRetailerEndpoint, ({ principal, params, meta }) =>
      db.transaction((tx) => setRetailerStatus(tx, principal, meta, params.id, 'active')),
    );
    endpoint(retailerOrdersEndpoint, ({ params }) => retailerOrders(db, params.id));
    endpoint(portalUsersEndpoint, ({ params }) => portalUsers(db, params.id));
    endpoint(createPortalUserEndpoint, ({ principal, params, body, meta }) =>
      createPortalUser(db, principal, meta, params.id, body),
    );
    endpoint(agentOptionsEndpoint, ({ query }) => pickerOptions(db, AGENT_PICKER, query));
    endpoint(linkAgentEndpoint, ({ principal, params, body, meta }) =>
      db.transaction((tx) => linkAgent(tx, principal, meta, params.id, body)),
    );
    endpoint(unlinkAgentEndpoint, async ({ principal, params, meta }) => {
      const done = await db.transaction((tx) =>
        unlinkAgent(tx, principal, meta, params.id, params.userId),
      );
      return new Answer(null, done);
    });
  },
};
