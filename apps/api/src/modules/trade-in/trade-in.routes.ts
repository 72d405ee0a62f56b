import { tradeInEndpoints as tradeIns } from '@inventory/contract';
import type { AppModule } from '../module.js';
import {
  acceptTradeIn,
  createTradeIn,
  declineTradeIn,
  inspectTradeIn,
  receiveTradeIn,
  revalueTradeIn,
  sendBackTradeIn,
  tradeInBoard,
  tradeInDetail,
  updateTradeInSettings,
} from './trade-in.service.js';

/**
 * Trade-ins (DOMAIN.md 4.16 /shipment-management/trade-in): the board, each step of a trade-in
 * and the offer settings. Each write is one transaction with its audit entry.
 */
export const tradeInModule: AppModule = {
  name: 'trade-in',
  register({ endpoint, db, config }) {
    endpoint(tradeIns.board, () => tradeInBoard(db));
    endpoint(tradeIns.detail, ({ params }) => tradeInDetail(db, params.id));
    endpoint(tradeIns.create, ({ principal, meta, body }) =>
      db.transaction((tx) => createTradeIn(tx, { actor: principal, meta }, body)),
    );
    endpoint(tradeIns.receive, ({ principal, meta, params, body }) =>
      db.transaction((tx) => receiveTradeIn(tx, { actor: principal, meta }, params.id, body)),
    );
    endpoint(tradeIns.inspect, ({ principal, meta, params, body }) =>
      db.transaction((tx) => inspectTradeIn(tx, { actor: principal, meta }, params.id, body)),
    );
    endpoint(tradeIns.revalue, ({ principal, meta, params, body }) =>
      db.transaction((tx) =>
        revalueTradeIn(tx, { actor: principal, meta }, params.id, body.offer_cents),
      ),
    );
    endpoint(tradeIns.accept, ({ principal, meta, params }) =>
      db.transaction((tx) => acceptTradeIn(tx, { actor: principal, meta }, params.id)),
    );
    endpoint(tradeIns.decline, ({ principal, meta, params, body }) =>
      db.transaction((tx) =>
        declineTradeIn(tx, { actor: principal, meta }, params.id, body.reason),
      ),
    );
    endpoint(tradeIns.sendBack, ({ principal, meta, params }) =>
      db.transaction((tx) =>
        sendBackTradeIn(tx, { actor: principal, meta }, params.id, config.carrier),
      ),
    );
    endpoint(tradeIns.updateSettings, ({ principal, meta, body }) =>
      db.transaction((tx) =>
        updateTradeInSettings(tx, { actor: principal, meta }, body.offer_valid_days),
      ),
    );
  },
};
