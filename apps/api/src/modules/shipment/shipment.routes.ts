import { packageEndpoints } from '@inventory/contract';
import { registerPrintable } from '../../toolkit/documents/print.js';
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
import { packageDetail, packageListStore } from './packages.store.js';
import { parcelOf, shippedToday, shipScan } from './ship-scan.service.js';
import { labelledPackages, shippingLabel, shippingSettings } from './shipping-label.js';

/** The labels of the packages `where` chooses (over `packages p`), in id order. */
async function labelsOf(db: Parameters<typeof labelledPackages>[0], where: string, id: unknown) {
  const { ship_from } = await shippingSettings(db);
  const parcels = await labelledPackages(db, where, [id]);
  return parcels.map((parcel) => shippingLabel(parcel, ship_from));
}

/**
 * Outbound shipping (DOMAIN.md 4.14 /fulfill/print-label and /fulfill/scan-to-ship, 4.16
 * /shipment-management/package): the label desk's queue, batches and their steps, prints and
 * reprints, voids; the dock's scan; the packages list and a package's record.
 */
export const shipmentModule: AppModule = {
  name: 'shipment',
  register(context) {
    const { endpoint, db } = context;
    registerList(context, packageListStore);
    endpoint(packageEndpoints.labelQueue, () => labelQueue(db));
    endpoint(packageEndpoints.createBatch, ({ principal, meta, body }) =>
      db.transaction((tx) => createLabelBatch(tx, { principal, meta }, body.format)),
    );
    endpoint(packageEndpoints.labelStep, ({ principal, meta, params, body }) =>
      db.transaction((tx) => labelStep(tx, { principal, meta }, params.id, body.order_ids)),
    );
    endpoint(packageEndpoints.void, ({ principal, meta, params, body }) =>
      db.transaction((tx) =>
        voidLabel(tx, { principal, meta }, params.id, body.reason?.trim() || null),
      ),
    );
    endpoint(packageEndpoints.detail, ({ params }) => packageDetail(db, params.id));
    endpoint(packageEndpoints.lookup, ({ query }) => parcelOf(db, query.code));
    endpoint(packageEndpoints.today, () => shippedToday(db));
    endpoint(packageEndpoints.scan, ({ principal, meta, body }) =>
      db.transaction((tx) => shipScan(tx, { principal, meta }, body)),
    );
    // A print is counted when its link is asked for: the active labels of the batch, or one.
    registerPrintable(context, {
      endpoint: packageEndpoints.printBatch,
      ask: ({ principal, meta, params }) =>
        db.transaction((tx) => printBatch(tx, { principal, meta }, params.id)),
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
      ask: ({ principal, meta, params }) =>
        db.transaction((tx) => reprintLabel(tx, { principal, meta }, params.id)),
      content: async (request) => ({
        fileName: `label-package-${Number(request.package_id)}`,
        labels: await labelsOf(db, 'p.id = $1', Number(request.package_id)),
      }),
    });
  },
};
