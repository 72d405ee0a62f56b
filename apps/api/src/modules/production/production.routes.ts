import {
  deviceCorrectionEndpoints,
  leaderEndpoints,
  productionOverviewEndpoint,
  productRequestEndpoints,
  workerEndpoints,
} from '@inventory/contract';
import { fieldError } from '../../http/errors.js';
import { registerAttachments } from '../../toolkit/attachments.js';
import { acceptFileBodies } from '../../toolkit/files.js';
import { registerImports } from '../../toolkit/imports.js';
import { pickerOptions } from '../../toolkit/pickers.js';
import { MODEL_PICKER } from '../master-data/index.js';
import type { AppModule } from '../module.js';
import { deviceCorrectionImportStore } from './device-corrections-import.js';
import { COLOR_PICKER, correctableDevice, correctDevice } from './device-corrections.js';
import { devicePhotoStore } from './device-photos.js';
import { diagnosticsOf, storeDiagnostics } from './diagnostics.js';
import { boxDevices, productionFailures, regradeDevice } from './leader-review.js';
import { productionOverview } from './production-overview.js';
import { recordTest } from './production-tests.js';
import {
  approveProductRequest,
  assignBox,
  closeProductRequest,
  createProductRequest,
  leaderBoxes,
  listProductRequests,
  productionWorkers,
  reassignDevices,
  requestProposal,
  scanAnswer,
  scannedDevice,
  workerQueue,
} from './production.service.js';

/** Production: product requests, the leader console, the worker station, corrections, overview. */
export const productionModule: AppModule = {
  name: 'production',
  register(context) {
    const { endpoint, db, app } = context;
    endpoint(productRequestEndpoints.list, () => listProductRequests(db));
    endpoint(productRequestEndpoints.create, ({ principal, meta, body }) =>
      db.transaction((tx) => createProductRequest(tx, { actor: principal, meta }, body)),
    );
    endpoint(productRequestEndpoints.proposal, ({ params }) => requestProposal(db, params.id));
    endpoint(productRequestEndpoints.approve, ({ principal, meta, params, body }) =>
      db.transaction((tx) =>
        approveProductRequest(tx, { actor: principal, meta }, params.id, body.warehouse_box_ids),
      ),
    );
    endpoint(productRequestEndpoints.cancel, ({ principal, meta, params, body }) =>
      db.transaction((tx) =>
        closeProductRequest(tx, { actor: principal, meta }, params.id, 'cancel', body.reason),
      ),
    );
    endpoint(productRequestEndpoints.complete, ({ principal, meta, params, body }) =>
      db.transaction((tx) =>
        closeProductRequest(tx, { actor: principal, meta }, params.id, 'complete', body.reason),
      ),
    );
    endpoint(productRequestEndpoints.modelOptions, ({ query }) =>
      pickerOptions(db, MODEL_PICKER, query),
    );

    endpoint(leaderEndpoints.boxes, () => leaderBoxes(db));
    endpoint(leaderEndpoints.workers, () => productionWorkers(db));
    endpoint(leaderEndpoints.assign, ({ principal, meta, body }) =>
      db.transaction((tx) => assignBox(tx, { actor: principal, meta }, body)),
    );
    endpoint(leaderEndpoints.reassign, ({ principal, meta, body }) =>
      db.transaction((tx) => reassignDevices(tx, { actor: principal, meta }, body)),
    );
    endpoint(leaderEndpoints.boxDevices, ({ params }) => boxDevices(db, params.id));
    endpoint(leaderEndpoints.failures, () => productionFailures(db));
    endpoint(leaderEndpoints.regrade, ({ principal, meta, body }) =>
      db.transaction((tx) => regradeDevice(tx, { actor: principal, meta }, body)),
    );

    endpoint(workerEndpoints.queue, ({ principal }) => workerQueue(db, principal.userId));
    endpoint(workerEndpoints.scan, async ({ principal, body }) => {
      const found = scanAnswer(await scannedDevice(db, body.code), body.code.trim(), principal);
      return { ...found, diagnostics: await diagnosticsOf(db, found.device.id) };
    });
    endpoint(workerEndpoints.result, ({ principal, meta, body }) =>
      db.transaction((tx) => recordTest(tx, { actor: principal, meta }, body)),
    );
    endpoint(workerEndpoints.diagnostics, ({ request, principal, meta, query }) => {
      if (!Buffer.isBuffer(request.body)) {
        throw fieldError('file', 'Send the file itself as the body (CSV or XLSX).');
      }
      return storeDiagnostics(db, { actor: principal, meta }, query.fileName, request.body);
    });
    acceptFileBodies(app);
    registerAttachments(context, devicePhotoStore);

    endpoint(deviceCorrectionEndpoints.lookup, ({ body }) => correctableDevice(db, body.code));
    endpoint(deviceCorrectionEndpoints.correct, ({ principal, meta, body }) =>
      db.transaction((tx) => correctDevice(tx, { actor: principal, meta }, body)),
    );
    endpoint(deviceCorrectionEndpoints.modelOptions, ({ query }) =>
      pickerOptions(db, MODEL_PICKER, query),
    );
    endpoint(deviceCorrectionEndpoints.colorOptions, ({ query }) =>
      pickerOptions(db, COLOR_PICKER, query),
    );
    registerImports(context, deviceCorrectionImportStore);

    endpoint(productionOverviewEndpoint, () => productionOverview(db));
  },
};
