import {
  deviceRmasEndpoint,
  reuseEndpoints,
  rmaAttachments,
  rmaEndpoints,
} from '@inventory/contract';
import { registerAttachments, type AttachmentStore } from '../../toolkit/attachments.js';
import { registerPrintable } from '../../toolkit/documents/print.js';
import { registerList } from '../../toolkit/resource.js';
import type { AppModule } from '../module.js';
import { recordChecklist, rmaToReceive, routeRmaDevice, scanRma } from './rma-receiving.service.js';
import { clearRmaMismatch, closeRmaShort } from './rma-supervision.service.js';
import { authorizeRma, createRma, resolveRma, transitionRma } from './rma.service.js';
import { deviceRmas, rmaDetail, rmaListStore } from './rma.store.js';
import { askReturnLabel, returnLabel } from './return-label.js';
import { decideReuse, reuseListStore } from './reuse.service.js';

const rmaAttachmentStore: AttachmentStore = { contract: rmaAttachments, table: 'rmas' };

/**
 * RMAs (DOMAIN.md 4.10): the list and record (/RMA), receiving (/RMA/scan), a supervisor's
 * clearing of a mismatch and closing short, the return label's print, damage photos, and the
 * reuse queue (/RMA/reuse).
 */
export const rmaModule: AppModule = {
  name: 'rma',
  register(context) {
    const { endpoint, db, config } = context;
    registerList(context, rmaListStore);
    registerList(context, reuseListStore);
    registerAttachments(context, rmaAttachmentStore);
    endpoint(rmaEndpoints.create, ({ principal, meta, body }) =>
      db.transaction((tx) => createRma(tx, { actor: principal, meta }, body)),
    );
    endpoint(rmaEndpoints.detail, ({ params }) => rmaDetail(db, params.id));
    endpoint(rmaEndpoints.authorize, ({ principal, meta, params, body }) =>
      db.transaction((tx) =>
        authorizeRma(tx, { actor: principal, meta }, config.carrier, params.id, body.service),
      ),
    );
    endpoint(rmaEndpoints.transition, ({ principal, meta, params, body }) =>
      db.transaction((tx) =>
        transitionRma(tx, { actor: principal, meta }, params.id, body.action, body.reason ?? null),
      ),
    );
    endpoint(rmaEndpoints.resolve, ({ principal, meta, params, body }) =>
      db.transaction((tx) => resolveRma(tx, { actor: principal, meta }, params.id, body)),
    );
    registerPrintable(context, {
      endpoint: rmaEndpoints.printLabel,
      ask: ({ principal, meta, params, body }) =>
        db.transaction((tx) =>
          askReturnLabel(tx, { actor: principal, meta }, params.id, body.format),
        ),
      content: async (request) => {
        const rmaId = Number(request.rma_id);
        return { fileName: `rma-return-label-${rmaId}`, labels: [await returnLabel(db, rmaId)] };
      },
    });
    endpoint(rmaEndpoints.receiving, ({ query }) => rmaToReceive(db, query.code));
    endpoint(rmaEndpoints.scan, ({ principal, meta, params, body }) =>
      db.transaction((tx) => scanRma(tx, { actor: principal, meta }, params.id, body)),
    );
    endpoint(rmaEndpoints.checklist, ({ principal, meta, params, body }) =>
      db.transaction((tx) => recordChecklist(tx, { actor: principal, meta }, params.id, body)),
    );
    endpoint(rmaEndpoints.route, ({ principal, meta, params, body }) =>
      db.transaction((tx) => routeRmaDevice(tx, { actor: principal, meta }, params.id, body)),
    );
    endpoint(rmaEndpoints.clearMismatch, ({ principal, meta, params, body }) =>
      db.transaction((tx) => clearRmaMismatch(tx, { actor: principal, meta }, params.id, body)),
    );
    endpoint(rmaEndpoints.closeShort, ({ principal, meta, params, body }) =>
      db.transaction((tx) => closeRmaShort(tx, { actor: principal, meta }, params.id, body)),
    );
    endpoint(deviceRmasEndpoint, ({ params }) => deviceRmas(db, params.id));
    endpoint(reuseEndpoints.decide, ({ principal, meta, params, body }) =>
      db.transaction((tx) => decideReuse(tx, { actor: principal, meta }, params.id, body)),
    );
  },
};
