import { gaylordEndpoints } from '@inventory/contract';
import { registerPrintable } from '../../toolkit/documents/print.js';
import type { AppModule } from '../module.js';
import { gaylordLabel, scanFormSheet } from './gaylord-documents.js';
import {
  closeGaylord,
  gaylordBoard,
  gaylordDetail,
  gaylordRow,
  openGaylord,
  pickUpGaylord,
  sortIntoGaylord,
  takeOutOfGaylord,
} from './gaylords.service.js';
import { generateScanForm, scanFormRow } from './scan-forms.service.js';

/**
 * Outbound gaylords (DOMAIN.md 4.14 /fulfill/gaylord): the board, a gaylord with its parcels, its
 * label, the scans into it, taking a parcel out, closing with the count, the SCAN forms and the
 * pickup. Each action is one transaction with its audit entry.
 */
export const gaylordsModule: AppModule = {
  name: 'gaylords',
  register(context) {
    const { endpoint, db } = context;
    endpoint(gaylordEndpoints.board, () => gaylordBoard(db));
    endpoint(gaylordEndpoints.detail, ({ params }) => gaylordDetail(db, params.id));
    endpoint(gaylordEndpoints.open, ({ principal, meta, body }) =>
      db.transaction((tx) => openGaylord(tx, { principal, meta }, body.service)),
    );
    endpoint(gaylordEndpoints.scan, ({ principal, meta, params, body }) =>
      db.transaction((tx) => sortIntoGaylord(tx, { principal, meta }, params.id, body)),
    );
    endpoint(gaylordEndpoints.takeOut, ({ principal, meta, params, body }) =>
      db.transaction((tx) => takeOutOfGaylord(tx, { principal, meta }, params.id, body.package_id)),
    );
    endpoint(gaylordEndpoints.close, ({ principal, meta, params, body }) =>
      db.transaction((tx) => closeGaylord(tx, { principal, meta }, params.id, body.count)),
    );
    endpoint(gaylordEndpoints.pickUp, ({ principal, meta, params }) =>
      db.transaction((tx) => pickUpGaylord(tx, { principal, meta }, params.id)),
    );
    endpoint(gaylordEndpoints.generateScanForm, ({ principal, meta, body }) =>
      db.transaction((tx) => generateScanForm(tx, { principal, meta }, body)),
    );
    registerPrintable(context, {
      endpoint: gaylordEndpoints.label,
      ask: async ({ params }) => ({ gaylordId: (await gaylordRow(db, params.id)).id }),
      content: (request) => gaylordLabel(db, Number(request.gaylordId)),
    });
    registerPrintable(context, {
      endpoint: gaylordEndpoints.printScanForm,
      ask: async ({ params }) => ({ formId: (await scanFormRow(db, params.id)).id }),
      content: (request) => scanFormSheet(db, Number(request.formId)),
    });
  },
};
