import {
  simRequestEndpoints,
  simRequestLabelEndpoint,
  simRequestList,
  simRequestPackingSlipEndpoint,
} from '@inventory/contract';
import { registerPrintable } from '../../toolkit/documents/print.js';
import { registerList, type ListStore } from '../../toolkit/resource.js';
import type { AppModule } from '../module.js';
import { simRequestLabel, simRequestPackingSlip } from './sim-request-documents.js';
import {
  allocationScan,
  approveSimRequest,
  packSimRequest,
  rejectSimRequest,
  shipSimRequest,
  SIM_REQUEST_ROW_COLUMNS,
  simRequestDetail,
  unallocateSim,
} from './sim-requests.service.js';

/**
 * The request queue (/sim/request): a page reads `sim_requests` by an index of its order (or of
 * the status and the creation time) and looks up, for the rows shown, the agent's figures through
 * the SIMs' agent and activation indexes (migration 0046). No kept answers: the SIMs it counts
 * change with every scan.
 */
export const simRequestListStore: ListStore<typeof simRequestList> = {
  contract: simRequestList,
  list: {
    from: 'sim_requests r',
    id: 'r.id',
    columns: SIM_REQUEST_ROW_COLUMNS,
    sorts: { created_at: { sql: 'r.created_at', type: 'timestamptz' } },
    // A request number ("SR-000012", "12").
    search: (_pattern, term) => {
      const number = /^(SR-?)?([0-9]+)$/i.exec(term.trim());
      if (!number) return ['r.number = ?', term.trim().toUpperCase()];
      return ['r.number = ?', `SR-${number[2]!.replace(/^0+(?=.)/, '').padStart(6, '0')}`];
    },
    filters: (query) => [
      query.status !== undefined && ['r.status = ?', query.status],
      query.agent_id !== undefined && ['r.agent_id = ?', query.agent_id],
      query.client_carrier_id !== undefined && ['r.client_carrier_id = ?', query.client_carrier_id],
    ],
  },
};

/** SIM requests (DOMAIN.md 4.6): the queue, approval, allocation, packing, printing, shipping. */
export const simRequestsModule: AppModule = {
  name: 'sim-requests',
  register(context) {
    const { endpoint, db } = context;
    registerList(context, simRequestListStore);
    endpoint(simRequestEndpoints.detail, ({ params }) => simRequestDetail(db, params.id));
    endpoint(simRequestEndpoints.approve, ({ principal, params, body, meta }) =>
      db.transaction((tx) =>
        approveSimRequest(tx, { actor: principal, meta }, params.id, body.qty_approved),
      ),
    );
    endpoint(simRequestEndpoints.reject, ({ principal, params, body, meta }) =>
      db.transaction((tx) =>
        rejectSimRequest(tx, { actor: principal, meta }, params.id, body.reason),
      ),
    );
    endpoint(simRequestEndpoints.scan, ({ principal, params, body, meta }) =>
      db.transaction((tx) =>
        allocationScan(tx, { actor: principal, meta }, params.id, body.code, body.station ?? null),
      ),
    );
    endpoint(simRequestEndpoints.unallocate, ({ principal, params, body, meta }) =>
      db.transaction((tx) => unallocateSim(tx, { actor: principal, meta }, params.id, body.iccid)),
    );
    endpoint(simRequestEndpoints.pack, ({ principal, params, meta }) =>
      db.transaction((tx) => packSimRequest(tx, { actor: principal, meta }, params.id, 'pack')),
    );
    endpoint(simRequestEndpoints.unpack, ({ principal, params, meta }) =>
      db.transaction((tx) => packSimRequest(tx, { actor: principal, meta }, params.id, 'unpack')),
    );
    endpoint(simRequestEndpoints.ship, ({ principal, params, body, meta }) =>
      db.transaction((tx) =>
        shipSimRequest(tx, { actor: principal, meta }, params.id, body.tracking_number ?? null),
      ),
    );
    registerPrintable(context, {
      endpoint: simRequestPackingSlipEndpoint,
      ask: async ({ params }) => ({ requestId: (await simRequestDetail(db, params.id)).id }),
      content: async (request) =>
        simRequestPackingSlip(await simRequestDetail(db, Number(request.requestId))),
    });
    registerPrintable(context, {
      endpoint: simRequestLabelEndpoint,
      ask: async ({ params }) => ({ requestId: (await simRequestDetail(db, params.id)).id }),
      content: async (request) =>
        simRequestLabel(await simRequestDetail(db, Number(request.requestId))),
    });
  },
};
