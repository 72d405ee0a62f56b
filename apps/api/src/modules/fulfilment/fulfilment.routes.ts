import {
  carrierUpdateEndpoints,
  fulfilmentEndpoints,
  ORDER_FULFIL_ACCESS,
  packingSlipEndpoint,
  pickListEndpoint,
} from '@inventory/contract';
import * as z from 'zod/mini';
import { registerPrintable } from '../../toolkit/documents/print.js';
import { CONTENT_TYPES, fileStream } from '../../toolkit/files.js';
import { registerImports } from '../../toolkit/imports.js';
import { defineJob, registerJobs } from '../../toolkit/jobs.js';
import { registerList } from '../../toolkit/resource.js';
import { auditActor, recordAudit } from '../audit/index.js';
import type { AppModule } from '../module.js';
import {
  assignmentOverview,
  assignOrders,
  autoAssign,
  reassignOrder,
  unassignOrder,
} from './assignment.service.js';
import { backlogAgeingJob } from './backlog-ageing.js';
import { carrierUpdateSendJob } from './carrier-updates.js';
import {
  carrierAnswerImportStore,
  carrierUpdateBoard,
  clientCarrierLink,
  exportUpdates,
  retryUpdate,
  saveClientCarrierLink,
  sweepFailedUpdates,
  updateFileContent,
} from './carrier-updates.service.js';
import { orderPackingSlip, orderPickList } from './fulfilment-documents.js';
import {
  backlogOrderStore,
  fulfilmentOrderRow,
  pipelineOrderStore,
  readyOrderStore,
} from './fulfilment-lists.store.js';
import {
  confirmAccessories,
  myPicks,
  pickLookup,
  pickScan,
  pushToBacklog,
  recordMdn,
  rePairOrder,
  unpickOrder,
} from './pick.service.js';

/**
 * The sweep of orders whose carrier update failed longer than the setting (default 24 hours):
 * they go to the backlog `pairing_failed`. Every 15 minutes, once across all app servers.
 */
export const carrierUpdateSweepJob = defineJob({
  name: 'carrier-update.sweep-failed',
  schema: z.object({}),
  retry: { limit: 0, delaySeconds: 0, backoff: false },
  expireInSeconds: 600,
  every: '*/15 * * * *',
  handler: (_data, { db }) => sweepFailedUpdates(db),
});

/** The batch files of carrier updates, made again from their updates whenever downloaded. */
const UPDATE_FILE_PRODUCER = 'carrier-updates:file';

/**
 * Fulfilment (DOMAIN.md 4.14): the assignment queue and its batches, the pick station of each
 * worker's orders in its queue, the pipeline's actions and the pick's documents; the carrier
 * updates of OTA and existing-customer orders (board, batch file, answer file, retry, re-pair,
 * each carrier's link, the HTTP endpoint's job and the sweep).
 */
export const fulfilmentModule: AppModule = {
  name: 'fulfilment',
  register(context) {
    const { endpoint, db } = context;
    registerList(context, readyOrderStore);
    registerList(context, pipelineOrderStore);
    registerList(context, backlogOrderStore);
    endpoint(fulfilmentEndpoints.overview, () => assignmentOverview(db));
    endpoint(fulfilmentEndpoints.assign, ({ principal, body, meta }) =>
      db.transaction((tx) =>
        assignOrders(tx, { actor: principal, meta }, body.assignee_id, body.order_ids),
      ),
    );
    endpoint(fulfilmentEndpoints.autoAssign, ({ principal, body, meta }) =>
      db.transaction((tx) => autoAssign(tx, { actor: principal, meta }, body)),
    );
    endpoint(fulfilmentEndpoints.reassign, ({ principal, params, body, meta }) =>
      db.transaction((tx) =>
        reassignOrder(tx, { actor: principal, meta }, params.id, body.assignee_id),
      ),
    );
    endpoint(fulfilmentEndpoints.unassign, ({ principal, params, meta }) =>
      db.transaction((tx) => unassignOrder(tx, { actor: principal, meta }, params.id)),
    );
    endpoint(fulfilmentEndpoints.unpick, ({ principal, params, meta }) =>
      db.transaction((tx) => unpickOrder(tx, { actor: principal, meta }, params.id)),
    );
    endpoint(fulfilmentEndpoints.backlog, ({ principal, params, body, meta }) =>
      db.transaction((tx) =>
        pushToBacklog(tx, { actor: principal, meta }, params.id, body.reason, body.note),
      ),
    );
    endpoint(fulfilmentEndpoints.myPicks, ({ principal, query }) =>
      myPicks(db, principal, query.queue ?? 'standard'),
    );
    endpoint(fulfilmentEndpoints.pickLookup, ({ principal, query }) =>
      pickLookup(db, principal, query.number, query.queue ?? 'standard'),
    );
    endpoint(fulfilmentEndpoints.pickScan, ({ principal, params, body, meta }) =>
      db.transaction((tx) =>
        pickScan(
          tx,
          { actor: principal, meta },
          params.id,
          body.code,
          body.station ?? null,
          body.queue ?? 'standard',
        ),
      ),
    );
    endpoint(fulfilmentEndpoints.recordMdn, ({ principal, params, body, meta }) =>
      db.transaction((tx) => recordMdn(tx, { actor: principal, meta }, params.id, body.mdn)),
    );
    endpoint(fulfilmentEndpoints.confirmAccessories, ({ principal, params, meta }) =>
      db.transaction((tx) => confirmAccessories(tx, { actor: principal, meta }, params.id)),
    );
    registerPrintable(context, {
      endpoint: packingSlipEndpoint,
      // The slip carries the ship-to in full (it travels in the parcel): each print is audited.
      ask: async ({ principal, params, meta }) => {
        const order = await fulfilmentOrderRow(db, params.id);
        await db.transaction((tx) =>
          recordAudit(tx, {
            ...auditActor(principal, meta),
            action: 'order.packing_slip_printed',
            entityType: 'order',
            entityId: order.id,
            after: { number: order.number },
          }),
        );
        return { orderId: order.id };
      },
      content: (request) => orderPackingSlip(db, Number(request.orderId)),
    });
    registerPrintable(context, {
      endpoint: pickListEndpoint,
      ask: async ({ params }) => ({ orderId: (await fulfilmentOrderRow(db, params.id)).id }),
      content: (request) => orderPickList(db, Number(request.orderId)),
    });

    endpoint(carrierUpdateEndpoints.board, ({ query }) => carrierUpdateBoard(db, query.kind));
    context.downloads.addProducer(UPDATE_FILE_PRODUCER, async (request) => {
      const file = await updateFileContent(db, Number(request.fileId));
      return {
        fileName: file.fileName,
        contentType: CONTENT_TYPES.csv,
        stream: fileStream(
          'csv',
          'Updates',
          file.columns,
          (async function* rows() {
            yield [...file.rows];
          })(),
        ),
      };
    });
    endpoint(carrierUpdateEndpoints.export, async ({ principal, body, meta }) => {
      const file = await db.transaction((tx) =>
        exportUpdates(tx, { actor: principal, meta }, body.client_carrier_id, body.kind),
      );
      const download = await context.downloads.issue(principal, {
        producer: UPDATE_FILE_PRODUCER,
        access: ORDER_FULFIL_ACCESS,
        fileId: file.id,
      });
      return { ...file, download };
    });
    endpoint(carrierUpdateEndpoints.retry, ({ principal, params, meta }) =>
      db.transaction((tx) => retryUpdate(tx, { actor: principal, meta }, params.id)),
    );
    endpoint(carrierUpdateEndpoints.rePair, ({ principal, params, meta }) =>
      db.transaction((tx) => rePairOrder(tx, { actor: principal, meta }, params.id)),
    );
    endpoint(carrierUpdateEndpoints.link, ({ params }) => clientCarrierLink(db, params.id));
    endpoint(carrierUpdateEndpoints.saveLink, ({ principal, params, body, meta }) =>
      db.transaction((tx) =>
        saveClientCarrierLink(tx, { actor: principal, meta }, params.id, body),
      ),
    );
    registerImports(context, carrierAnswerImportStore);
    registerJobs(context, [carrierUpdateSendJob, carrierUpdateSweepJob, backlogAgeingJob]);
  },
};
