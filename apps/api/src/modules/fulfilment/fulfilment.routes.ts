import { fulfilmentEndpoints, packingSlipEndpoint, pickListEndpoint } from '@inventory/contract';
import { registerPrintable } from '../../toolkit/documents/print.js';
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
  unpickOrder,
} from './pick.service.js';

/**
 * Fulfilment (DOMAIN.md 4.14): the assignment queue and its batches, the pick station of each
 * worker's orders, the pipeline's actions and the pick's documents.
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
    endpoint(fulfilmentEndpoints.myPicks, ({ principal }) => myPicks(db, principal.userId));
    endpoint(fulfilmentEndpoints.pickLookup, ({ principal, query }) =>
      pickLookup(db, principal.userId, query.number),
    );
    endpoint(fulfilmentEndpoints.pickScan, ({ principal, params, body, meta }) =>
      db.transaction((tx) =>
        pickScan(tx, { actor: principal, meta }, params.id, body.code, body.station ?? null),
      ),
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
  },
};
