import { simReturnEndpoints } from '@inventory/contract';
import { registerPrintable } from '../../toolkit/documents/print.js';
import { pickerOptions } from '../../toolkit/pickers.js';
import { registerList } from '../../toolkit/resource.js';
import type { AppModule } from '../module.js';
import {
  AGENT_PICKER,
  cancelSimReturn,
  closeSimReturn,
  createSimReturn,
  disposeAll,
  disposeLine,
  scanIntoReturn,
  simReturnDetail,
  simReturnLabel,
  simReturnStore,
} from './sim-returns.service.js';

/**
 * SIM returns (DOMAIN.md 4.6 /sim/return): the list, a return with its lines, creating one, the
 * receiving station's scan (one transaction each), dispositions, close, cancel and the label.
 */
export const simReturnsModule: AppModule = {
  name: 'sim-returns',
  register(context) {
    const { endpoint, db } = context;
    registerList(context, simReturnStore);
    endpoint(simReturnEndpoints.agentOptions, ({ query }) =>
      pickerOptions(db, AGENT_PICKER, query),
    );
    endpoint(simReturnEndpoints.detail, ({ params }) => simReturnDetail(db, params.id));
    endpoint(simReturnEndpoints.create, ({ principal, meta, body }) =>
      db.transaction((tx) => createSimReturn(tx, { actor: principal, meta }, body)),
    );
    endpoint(simReturnEndpoints.scan, ({ principal, meta, params, body }) =>
      db.transaction((tx) => scanIntoReturn(tx, { actor: principal, meta }, params.id, body)),
    );
    endpoint(simReturnEndpoints.dispose, ({ principal, meta, params, body }) =>
      db.transaction((tx) =>
        disposeLine(tx, { actor: principal, meta }, params.id, params.line_id, body),
      ),
    );
    endpoint(simReturnEndpoints.disposeAll, ({ principal, meta, params, body }) =>
      db.transaction((tx) => disposeAll(tx, { actor: principal, meta }, params.id, body)),
    );
    endpoint(simReturnEndpoints.close, ({ principal, meta, params }) =>
      db.transaction((tx) => closeSimReturn(tx, { actor: principal, meta }, params.id)),
    );
    endpoint(simReturnEndpoints.cancel, ({ principal, meta, params, body }) =>
      db.transaction((tx) =>
        cancelSimReturn(tx, { actor: principal, meta }, params.id, body.reason),
      ),
    );
    registerPrintable(context, {
      endpoint: simReturnEndpoints.label,
      ask: async ({ params }) => {
        await simReturnLabel(db, params.id);
        return { id: params.id };
      },
      content: (request) => simReturnLabel(db, Number(request.id)),
    });
  },
};
