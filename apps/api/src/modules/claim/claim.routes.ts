import { claimAttachments, claimEndpoints as claims } from '@inventory/contract';
import { registerAttachments } from '../../toolkit/attachments.js';
import type { AppModule } from '../module.js';
import {
  claimBoard,
  claimDetail,
  claimParcel,
  claimStep,
  createClaim,
  fileClaim,
  payClaim,
  updateCarrierTerms,
} from './claim.service.js';

/**
 * Carrier claims (DOMAIN.md 4.16 /shipment-management/claim): the board, a parcel's values, the
 * claim's steps and its proof files, and the carriers' filing terms. Each write is one
 * transaction with its audit entry.
 */
export const claimModule: AppModule = {
  name: 'claim',
  register(context) {
    const { endpoint, db } = context;
    endpoint(claims.board, () => claimBoard(db));
    endpoint(claims.detail, ({ params }) => claimDetail(db, params.id));
    endpoint(claims.parcel, ({ query }) => claimParcel(db, query.tracking_number));
    endpoint(claims.create, ({ principal, meta, body }) =>
      db.transaction((tx) => createClaim(tx, { actor: principal, meta }, body)),
    );
    endpoint(claims.file, ({ principal, meta, params, body }) =>
      db.transaction((tx) =>
        fileClaim(tx, { actor: principal, meta }, params.id, body.carrier_claim_number),
      ),
    );
    endpoint(claims.review, ({ principal, meta, params }) =>
      db.transaction((tx) => claimStep(tx, { actor: principal, meta }, params.id, 'review')),
    );
    endpoint(claims.pay, ({ principal, meta, params, body }) =>
      db.transaction((tx) => payClaim(tx, { actor: principal, meta }, params.id, body.paid_cents)),
    );
    endpoint(claims.deny, ({ principal, meta, params, body }) =>
      db.transaction((tx) =>
        claimStep(tx, { actor: principal, meta }, params.id, 'deny', { reason: body.reason }),
      ),
    );
    endpoint(claims.close, ({ principal, meta, params, body }) =>
      db.transaction((tx) =>
        claimStep(tx, { actor: principal, meta }, params.id, 'close', { reason: body.reason }),
      ),
    );
    endpoint(claims.updateTerms, ({ principal, meta, params, body }) =>
      db.transaction((tx) =>
        updateCarrierTerms(tx, { actor: principal, meta }, params.carrier, body),
      ),
    );
    registerAttachments(context, { contract: claimAttachments, table: 'claims' });
  },
};
