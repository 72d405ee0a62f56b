import { packageEndpoints } from '@inventory/contract';
import { registerPrintable } from '../../toolkit/documents/print.js';
import { registerJobs } from '../../toolkit/jobs.js';
import { registerList } from '../../toolkit/resource.js';
import type { AppModule } from '../module.js';
import {
  createLabelBatch,
  labelQueue,
  labelStep,
  printBatch,
  reprintLabel,
  voidLabel,
} from './labels.service.js';
import { campaignScope } from './campaign-scope.js';
import { labelBatchJob, labelRunProgress, startLabelRun } from './label-runs.js';
import { carrierLabelFiles } from './carrier-labels.store.js';
import { packageDetail, packageListStore } from './packages.store.js';
import { parcelOf, shippedToday, shipScan } from './ship-scan.service.js';
import { labelledPackages, shippingLabel, shippingSettings } from './shipping-label.js';

/**
 * The labels of the packages `where` chooses (over `packages p`), in id order: the carrier's own
 * file of a label bought from an aggregator, our rendering of the others.
 */
async function labelsOf(db: Parameters<typeof labelledPackages>[0], where: string, id: unknown) {
  const { ship_from } = await shippingSettings(db);
  const parcels = await labelledPackages(db, where, [id]);
  const files = await carrierLabelFiles(
    db,
    parcels.map((parcel) => parcel.id),
  );
  return parcels.map((parcel) => files.get(parcel.id) ?? shippingLabel(parcel, ship_from));
}

/**
 * Outbound shipping (DOMAIN.md 4.14 /fulfill/print-label and /fulfill/scan-to-ship, 4.16
 * /shipment-management/package): the label desk's queue, batches and their steps, prints and
 * reprints, voids; the dock's scan; the packages list and a package's record. The queue, the
 * steps and the dock take a campaign's scope for the campaign's pages (DOMAIN.md 4.15).
 */
export const shipmentModule: AppModule = {
  name: 'shipment',
  register(context) {
    const { endpoint, db, config } = context;
    registerList(context, packageListStore);
    endpoint(packageEndpoints.labelQueue, async ({ query }) =>
      labelQueue(db, await campaignScope(db, query.campaign_id)),
    );
    endpoint(packageEndpoints.createBatch, ({ principal, meta, body }) =>
      db.transaction((tx) => createLabelBatch(tx, { principal, meta }, body.format)),
    );
    endpoint(packageEndpoints.labelStep, ({ principal, meta, params, body }) =>
      db.transaction(async (tx) =>
        labelStep(
          tx,
          { principal, meta, carrier: config.carrier },
          params.id,
          body.order_ids,
          await campaignScope(tx, body.campaign_id),
        ),
      ),
    );
    const labelJob = labelBatchJob(config.carrier);
    registerJobs(context, [labelJob]);
    endpoint(packageEndpoints.startRun, ({ principal, meta, params, body }) =>
      db.transaction((tx) =>
        startLabelRun(
          tx,
          { principal, meta },
          labelJob,
          params.id,
          body.order_ids,
          body.campaign_id,
        ),
      ),
    );
    endpoint(packageEndpoints.runProgress, ({ params }) => labelRunProgress(db, params.id));
    endpoint(packageEndpoints.void, ({ principal, meta, params, body }) =>
      db.transaction((tx) =>
        voidLabel(
          tx,
          { principal, meta, carrier: config.carrier },
          params.id,
          body.reason?.trim() || null,
        ),
      ),
    );
    endpoint(packageEndpoints.detail, ({ params }) => packageDetail(db, params.id));
    endpoint(packageEndpoints.lookup, ({ query }) => parcelOf(db, query.code, query.campaign_id));
    endpoint(packageEndpoints.today, () => shippedToday(db));
    endpoint(packageEndpoints.scan, ({ principal, meta, body }) =>
      db.transaction((tx) => shipScan(tx, { principal, meta }, body)),
    );
    // A print is counted when its link is asked for: the active labels of the batch, or one.
    registerPrintable(context, {
      endpoint: packageEndpoints.printBatch,
      ask: ({ principal, meta, params, body }) =>
        db.transaction((tx) => printBatch(tx, { principal, meta }, params.id, body.format)),
      content: async (request) => ({
        fileName: `labels-batch-${Number(request.batch_id)}`,
        labels: await labelsOf(
          db,
          "p.label_batch_id = $1 AND p.status IN ('label_created', 'in_gaylord')",
          Number(request.batch_id),
        ),
      }),
    });
    registerPrintable(context, {
      endpoint: packageEndpoints.reprint,
      ask: ({ principal, meta, params, body }) =>
        db.transaction((tx) => reprintLabel(tx, { principal, meta }, params.id, body.format)),
      content: async (request) => ({
        fileName: `label-package-${Number(request.package_id)}`,
        labels: await labelsOf(db, 'p.id = $1', Number(request.package_id)),
      }),
    });
  },
};
