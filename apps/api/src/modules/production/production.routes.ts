import {
  deviceCorrectionEndpoints,
  leaderEndpoints,
  productionOverviewEndpoint,
  productRequestEndpoints,
  workerEndpoints,
} from '@inventory/contract';
import { pickerOptions } from '../../toolkit/pickers.js';
import { MODEL_PICKER } from '../master-data/index.js';
import type { AppModule } from '../module.js';
import { COLOR_PICKER, correctableDevice, correctDevice } from './device-corrections.js';
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
  register({ endpoint, db }) {
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

    endpoint(workerEndpoints.queue, ({ principal }) => workerQueue(db, principal.userId));
    endpoint(workerEndpoints.scan, async ({ principal, body }) =>
      scanAnswer(await scannedDevice(db, body.code), body.code.trim(), principal),
    );
    endpoint(workerEndpoints.result, ({ principal, meta, body }) =>
      db.transaction((tx) => recordTest(tx, { actor: principal, meta }, body)),
    );

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

    endpoint(productionOverviewEndpoint, () => productionOverview(db));
  },
};
