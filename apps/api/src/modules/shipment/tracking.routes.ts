import { trackingEndpoints } from '@inventory/contract';
import * as z from 'zod/mini';
import { registerImports } from '../../toolkit/imports.js';
import { defineJob, registerJobs } from '../../toolkit/jobs.js';
import { registerList } from '../../toolkit/resource.js';
import type { AppModule } from '../module.js';
import { trackingImportStore } from './tracking-import.js';
import { flagLost, pollTracking, refreshTracking } from './tracking.service.js';
import { parcelShipmentListStore, parcelTracking } from './tracking.store.js';

/**
 * The carrier is asked every 30 minutes, once across all app servers, about the parcels on their
 * way that nobody asked about for an hour (DOMAIN.md 4.16: tracking by polling).
 */
export const trackingPollJob = defineJob({
  name: 'shipment.track',
  schema: z.object({}),
  retry: { limit: 0, delaySeconds: 0, backoff: false },
  // A run that takes past the next one's turn has stalled: let the next one ask.
  expireInSeconds: 1_800,
  every: '*/30 * * * *',
  handler: (_data, { db }) => pollTracking(db),
});

/**
 * Parcel shipments (DOMAIN.md 4.16 /shipment-management/shipment): the list of parcels that left
 * the dock with their tracking, a parcel's events, the tracking file's import, a refresh from the
 * carrier, flagging a parcel lost, and the polling job.
 */
export const trackingModule: AppModule = {
  name: 'tracking',
  register(context) {
    const { endpoint, db } = context;
    registerList(context, parcelShipmentListStore);
    registerImports(context, trackingImportStore);
    endpoint(trackingEndpoints.tracking, ({ params }) => parcelTracking(db, params.id));
    endpoint(trackingEndpoints.refresh, ({ principal, meta, body }) =>
      refreshTracking(db, { actor: principal, meta }, body.package_ids),
    );
    endpoint(trackingEndpoints.flagLost, ({ principal, meta, params, body }) =>
      db.transaction((tx) => flagLost(tx, { actor: principal, meta }, params.id, body.reason)),
    );
    registerJobs(context, [trackingPollJob]);
  },
};
