import {
  ptsListingWriteEndpoints,
  ptsUpdateEndpoints,
  MANUAL_LISTING_ACTIONS,
} from '@inventory/contract';
import { registerImports } from '../../toolkit/imports.js';
import { pickerOptions } from '../../toolkit/pickers.js';
import { registerList } from '../../toolkit/resource.js';
import { MODEL_PICKER } from '../master-data/index.js';
import type { AppModule } from '../module.js';
import {
  createListing,
  listingEvents,
  ptsListingListStore,
  runListingAction,
  updateListing,
} from './listings.service.js';
import { ptsListingImportStore } from './pts-update-import.js';
import {
  applyBulkChange,
  batchDetail,
  bulkChange,
  listBatches,
  previewChange,
} from './pts-update.service.js';

/**
 * `/pts-management/list` and `/push-to-sale/update` (DOMAIN.md 4.5): the listings, their writes
 * and lifecycle, the bulk update with its preview, the file of changes and the applied batches.
 */
export const ptsListingsModule: AppModule = {
  name: 'pts-listings',
  register(context) {
    const { endpoint, db } = context;
    const W = ptsListingWriteEndpoints;
    registerList(context, ptsListingListStore);
    endpoint(W.create, ({ principal, meta, body }) =>
      db.transaction((tx) => createListing(tx, { actor: principal, meta }, body)),
    );
    endpoint(W.update, ({ principal, meta, params, body }) =>
      db.transaction((tx) => updateListing(tx, { actor: principal, meta }, params.id, body)),
    );
    for (const action of MANUAL_LISTING_ACTIONS) {
      endpoint(W[action], ({ principal, meta, params, body }) =>
        db.transaction((tx) =>
          runListingAction(tx, { actor: principal, meta }, params.id, action, body.reason),
        ),
      );
    }
    endpoint(W.events, ({ params }) => listingEvents(db, params.id));
    endpoint(W.modelOptions, ({ query }) => pickerOptions(db, MODEL_PICKER, query));

    const U = ptsUpdateEndpoints;
    endpoint(U.preview, ({ principal, body }) => previewChange(db, principal, bulkChange(body)));
    endpoint(U.apply, ({ principal, meta, body }) =>
      db.transaction((tx) => applyBulkChange(tx, { actor: principal, meta }, body)),
    );
    endpoint(U.batches, () => listBatches(db));
    endpoint(U.batch, ({ params }) => batchDetail(db, params.id));
    registerImports(context, ptsListingImportStore);
  },
};
