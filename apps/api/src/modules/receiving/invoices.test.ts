import type {
  ImportCheck,
  InvoiceImei,
  PickerOption,
  PurchaseInvoice,
  PurchaseInvoiceDetail,
} from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminTestApp, type ApiClient } from '../../test/api-client.js';
import {
  imeiOf,
  importManifest,
  invoiceIdOf,
  manifestCsv,
  openBox,
  scan,
  seedCatalogue,
  TACS,
  withBadCheckDigit,
  type Catalogue,
} from '../../test/receiving-fixtures.js';
import { bodyOf, type TestApp } from '../../test/test-app.js';

/** Purchase invoices: the manifest import, invoices by hand, reconciliation and closing. */

let t: TestApp;
let admin: ApiClient;
let catalogue: Catalogue;

beforeAll(async () => {
  ({ t, admin } = await createAdminTestApp());
  catalogue = await seedCatalogue(t);
});
afterAll(() => t.close());

const invoice = async (id: number) =>
  bodyOf<PurchaseInvoice>(await admin.get(`/purchase-invoices/${id}`)).data;

describe('the manifest import', () => {
  it('shows every bad row at the dry run and writes nothing', async () => {
    const good = imeiOf(TACS.a15, 1);
    const { id, check } = await admin.uploadAndCheck(
      'invoice-imeis',
      'manifest.csv',
      manifestCsv([
        { imei: good },
        { imei: good },
        { imei: withBadCheckDigit(imeiOf(TACS.a15, 2)) },
        { imei: `${imeiOf(TACS.a15, 3).slice(0, 14)}01` },
        { imei: imeiOf(TACS.a15, 4), vendor: 'Nobody Ltd' },
        { imei: imeiOf(TACS.a15, 5), model: 'Nokia 3310' },
        {},
      ]),
    );
    expect(check.errors.map((error) => [error.row, error.column, error.message])).toEqual([
      [3, 'IMEI', 'Repeats row 2.'],
      [4, 'IMEI', "The IMEI's check digit is wrong: rescan it."],
      [5, 'IMEI', 'This is an IMEISV (16 digits): scan the IMEI, not the IMEISV.'],
      [6, 'Vendor', 'No vendor named "Nobody Ltd".'],
      [7, 'Model', 'No model named "Nokia 3310".'],
      [8, 'IMEI', 'Give the IMEI, or the MEID of a device without one.'],
    ]);
    expect((await admin.commitImport('invoice-imeis', id)).statusCode).toBe(422);
    const [count] = await t.db.query<{ n: number }>(
      'SELECT (SELECT count(*) FROM purchase_invoices) + (SELECT count(*) FROM invoice_imeis) AS n',
    );
    expect(Number(count!.n)).toBe(0);
  });

  it('creates the invoices it names, with lines grouped by model, colour, grade and cost', async () => {
    const batch = await importManifest(
      admin,
      manifestCsv([
        ...[1, 2, 3, 4].map((n) => ({ imei: imeiOf(TACS.a15, n) })),
        { imei: imeiOf(TACS.a15, 5), grade: 'A', cost: '55.50' },
        // The vendor claims an A15, but the TAC says A14.
        { imei: imeiOf(TACS.a14, 6) },
        { imei: imeiOf(TACS.moto, 7), model: 'XT2271DL', invoice: 'INV-2', color: '' },
      ]),
    );
    expect(batch).toMatchObject({ status: 'committed', created_count: 7, updated_count: 0 });

    const first = await invoiceIdOf(t, 'INV-1');
    const detail = bodyOf<PurchaseInvoiceDetail>(
      await admin.get(`/purchase-invoices/${first}/detail`),
    ).data;
    expect(detail.invoice).toMatchObject({
      vendor: 'Acme Recyclers',
      invoice_date: '2026-11-02',
      status: 'expected',
      has_manifest: true,
      qty_ordered: 6,
      lines_total_cents: 5 * 4500 + 5550,
      counts: { manifest: 6, expected: 6, received: 0, undecided: 0 },
    });
    expect(
      detail.lines.map((line) => [
        line.model,
        line.color,
        line.grade,
        line.qty,
        line.unit_cost_cents,
      ]),
    ).toEqual([
      ['Samsung Galaxy A15', 'Black', 'B', 5, 4500],
      ['Samsung Galaxy A15', 'Black', 'A', 1, 5550],
    ]);
    const second = await invoice(await invoiceIdOf(t, 'INV-2'));
    expect(second).toMatchObject({ qty_ordered: 1, counts: { manifest: 1 } });
  });

  it('updates the rows a second file repeats, and refuses an IMEI still open on another invoice', async () => {
    const again = await admin.uploadAndCheck(
      'invoice-imeis',
      'manifest.csv',
      manifestCsv([{ imei: imeiOf(TACS.a15, 1), cost: '40.00' }, { imei: imeiOf(TACS.a15, 8) }]),
    );
    expect(again.check).toMatchObject({ errors: [], willCreate: 1, willUpdate: 1 });
    await admin.commitImport('invoice-imeis', again.id);
    const [row] = await t.db.query<{ unit_cost_cents: number }>(
      'SELECT unit_cost_cents FROM invoice_imeis WHERE imei = $1',
      [imeiOf(TACS.a15, 1)],
    );
    expect(row!.unit_cost_cents).toBe(4000);

    const elsewhere = await admin.uploadAndCheck(
      'invoice-imeis',
      'manifest.csv',
      manifestCsv([{ imei: imeiOf(TACS.a15, 2), invoice: 'INV-9' }]),
    );
    expect(elsewhere.check.errors).toEqual([
      expect.objectContaining({
        row: 2,
        message: 'On invoice INV-1 of Acme Recyclers, which is still open.',
      }),
    ]);
  });

  it('lists the register with its filters, and exports the discrepancy report', async () => {
    const rows = bodyOf<{ items: InvoiceImei[] }>(
      await admin.get(`/invoice-imeis?invoice_id=${await invoiceIdOf(t, 'INV-1')}&limit=200`),
    ).data.items;
    expect(rows).toHaveLength(7);
    expect(rows.find((row) => row.imei === imeiOf(TACS.a14, 6))).toMatchObject({
      model: 'Samsung Galaxy A15',
      tac_model: 'Samsung Galaxy A14',
      match_status: 'expected',
      // Not yet a discrepancy: the device has not arrived.
      model_mismatch: false,
    });
    const byPrefix = bodyOf<{ items: InvoiceImei[] }>(
      await admin.get(`/invoice-imeis?search=${TACS.moto}`),
    ).data.items;
    expect(byPrefix.map((row) => row.invoice_no)).toEqual(['INV-2']);
  });

  it("offers the register's vendors and invoices to its filters", async () => {
    const options = async (path: string) =>
      bodyOf<PickerOption[]>(await admin.get(`/invoice-imeis/${path}`)).data;
    expect((await options('invoice-options?search=INV-2')).map((o) => o.label)).toEqual([
      'INV-2 (Acme Recyclers)',
    ]);
    expect((await options('vendor-options')).map((o) => o.id)).toContain(catalogue.vendors.acme);
  });
});

describe('an invoice by hand', () => {
  it('checks its vendor and lines, and keeps a vendor and number unique', async () => {
    expect(
      await admin.fieldErrors('POST', '/purchase-invoices', {
        vendor_id: catalogue.vendors.acme,
        invoice_no: 'inv-1',
        lines: [],
      }),
    ).toEqual({ invoice_no: ['This vendor has an invoice with this number already.'] });
    expect(
      await admin.fieldErrors('POST', '/purchase-invoices', {
        vendor_id: catalogue.vendors.acme,
        invoice_no: 'H-1',
        invoice_date: '2026-13-40',
        lines: [{ model_id: 999_999, qty: 0 }],
      }),
    ).toEqual({
      invoice_date: ['The invoice date is not a date.'],
      'lines.0.qty': ['The quantity must be at least 1.'],
    });
    expect(
      await admin.fieldErrors('POST', '/purchase-invoices', {
        vendor_id: catalogue.vendors.acme,
        invoice_no: 'H-1',
        lines: [{ model_id: 999_999, qty: 2 }],
      }),
    ).toEqual({ 'lines.0.model_id': ['Choose an active model.'] });
  });

  it('receives against the lines of an invoice without a manifest, and edits its lines', async () => {
    const created = await admin.post('/purchase-invoices', {
      vendor_id: catalogue.vendors.other,
      invoice_no: 'H-1',
      invoice_date: '2026-11-10',
      total_cents: 9000,
      lines: [{ model_id: catalogue.models.a15, qty: 2, unit_cost_cents: 4500 }],
    });
    expect(created.statusCode, created.body).toBe(201);
    const invoiceId = bodyOf<PurchaseInvoice>(created).data.id;
    const box = await openBox(admin, invoiceId);
    expect((await scan(admin, box, imeiOf(TACS.a15, 100))).result).toBe('added');
    expect((await scan(admin, box, imeiOf(TACS.a14, 101))).result).toBe('unexpected');

    const detail = bodyOf<PurchaseInvoiceDetail>(
      await admin.get(`/purchase-invoices/${invoiceId}/detail`),
    ).data;
    expect(detail.lines.map((line) => [line.qty, line.received_count])).toEqual([[2, 1]]);
    expect(detail.invoice.counts).toMatchObject({ received: 1, unexpected: 1, undecided: 1 });
    expect(detail.invoice.status).toBe('receiving');

    // A line with a device on it stays; a new one is added.
    const lineId = detail.lines[0]!.id;
    const removed = await admin.put(`/purchase-invoices/${invoiceId}`, { lines: [] });
    expect(removed.statusCode).toBe(409);
    const edited = await admin.put(`/purchase-invoices/${invoiceId}`, {
      lines: [
        { id: lineId, model_id: catalogue.models.a15, qty: 3, unit_cost_cents: 4500 },
        { model_id: catalogue.models.a14, qty: 1, unit_cost_cents: 3000 },
      ],
    });
    expect(bodyOf<PurchaseInvoice>(edited).data).toMatchObject({
      qty_ordered: 4,
      lines_total_cents: 3 * 4500 + 3000,
    });
    expect((await admin.delete(`/purchase-invoices/${invoiceId}`)).json().message).toBe(
      'This invoice has 2 devices and 1 boxes: it cannot be deleted.',
    );
  });

  it('deletes an invoice nothing was received on', async () => {
    const created = bodyOf<PurchaseInvoice>(
      await admin.post('/purchase-invoices', {
        vendor_id: catalogue.vendors.other,
        invoice_no: 'TYPO-1',
      }),
    ).data;
    expect((await admin.delete(`/purchase-invoices/${created.id}`)).statusCode).toBe(200);
    expect((await admin.get(`/purchase-invoices/${created.id}`)).statusCode).toBe(404);
  });
});

describe('reconciling and closing', () => {
  it('needs closed boxes, marks what did not come as missing, and a decision on each discrepancy', async () => {
    const invoiceId = await invoiceIdOf(t, 'INV-1');
    const box = await openBox(admin, invoiceId, { qty_expected: 3 });
    expect((await scan(admin, box, imeiOf(TACS.a15, 1))).result).toBe('added');
    expect((await scan(admin, box, imeiOf(TACS.a14, 6))).result).toBe('model_mismatch');
    expect((await scan(admin, box, imeiOf(TACS.a15, 200))).result).toBe('unexpected');

    expect((await admin.post(`/purchase-invoices/${invoiceId}/reconcile`)).json().message).toMatch(
      /^Close the boxes still receiving first: WB-/,
    );
    const closed = await admin.post(`/warehouse-boxes/${box}/close`, {});
    expect(closed.statusCode, closed.body).toBe(200);

    const reconciled = bodyOf<PurchaseInvoice>(
      await admin.post(`/purchase-invoices/${invoiceId}/reconcile`),
    ).data;
    expect(reconciled).toMatchObject({
      status: 'reconciled',
      counts: { manifest: 7, received: 2, missing: 5, unexpected: 1, mismatched: 1, undecided: 7 },
    });

    const closing = await admin.post(`/purchase-invoices/${invoiceId}/close`);
    expect(closing.statusCode).toBe(409);
    expect(closing.json().message).toBe(
      '7 discrepancies have no decision yet: decide each before closing.',
    );

    const discrepancies = bodyOf<{ items: InvoiceImei[] }>(
      await admin.get(`/invoice-imeis?invoice_id=${invoiceId}&discrepancy=true&limit=200`),
    ).data.items;
    expect(discrepancies).toHaveLength(7);
    const received = bodyOf<{ items: InvoiceImei[] }>(
      await admin.get(`/invoice-imeis?invoice_id=${invoiceId}&match_status=received`),
    ).data.items;
    const plain = received.find((row) => !row.model_mismatch)!;
    expect(
      await admin.fieldErrors('POST', `/purchase-invoices/${invoiceId}/decisions`, {
        ids: [plain.id],
        decision: 'accepted',
      }),
    ).toEqual({ ids: [`Not a discrepancy of this invoice: ${plain.id}.`] });

    const missing = discrepancies.filter((row) => row.match_status === 'missing');
    await admin.post(`/purchase-invoices/${invoiceId}/decisions`, {
      ids: missing.map((row) => row.id),
      decision: 'vendor_credit',
      note: 'Short-shipped: credit requested',
    });
    const rest = discrepancies.filter((row) => row.match_status !== 'missing');
    const decided = bodyOf<PurchaseInvoice>(
      await admin.post(`/purchase-invoices/${invoiceId}/decisions`, {
        ids: rest.map((row) => row.id),
        decision: 'accepted',
      }),
    ).data;
    expect(decided.counts.undecided).toBe(0);

    const report = await admin.download('/invoice-imeis/exports', {
      format: 'csv',
      invoice_id: invoiceId,
      discrepancy: 'true',
    });
    const lines = report.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines).toHaveLength(8);
    expect(lines.filter((line) => line.includes(',missing,'))).toHaveLength(5);
    expect(lines.some((line) => line.includes('Short-shipped: credit requested'))).toBe(true);

    const done = bodyOf<PurchaseInvoice>(
      await admin.post(`/purchase-invoices/${invoiceId}/close`),
    ).data;
    expect(done.status).toBe('closed');
    const [open] = await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM invoice_imeis WHERE invoice_id = $1 AND open',
      [invoiceId],
    );
    expect(open!.n).toBe(0);
    // Closed means closed: no more boxes, scans or imports on it.
    expect(await admin.fieldErrors('POST', '/warehouse-boxes', { invoice_id: invoiceId })).toEqual({
      invoice_id: ['This invoice is closed.'],
    });
    const late = await admin.uploadAndCheck(
      'invoice-imeis',
      'manifest.csv',
      manifestCsv([{ imei: imeiOf(TACS.a15, 300) }]),
    );
    expect(late.check.errors.map((error) => error.message)).toEqual([
      'Invoice INV-1 of Acme Recyclers is closed.',
    ]);
  });

  it('writes an audit event for each step', async () => {
    const actions = await t.db.query<{ action: string }>(
      `SELECT DISTINCT action FROM audit_events WHERE action LIKE 'purchase_invoice.%' ORDER BY 1`,
    );
    expect(actions.map((row) => row.action)).toEqual([
      'purchase_invoice.closed',
      'purchase_invoice.created',
      'purchase_invoice.deleted',
      'purchase_invoice.discrepancies_decided',
      'purchase_invoice.reconciled',
      'purchase_invoice.updated',
    ]);
  });
});

describe('the invoice list', () => {
  it('searches by number or vendor, filters by status, newest first', async () => {
    const list = async (query: string) =>
      bodyOf<{ items: PurchaseInvoice[] }>(await admin.get(`/purchase-invoices?${query}`)).data
        .items;
    expect((await list('')).map((row) => row.invoice_no)).toEqual(['H-1', 'INV-2', 'INV-1']);
    expect((await list('search=other')).map((row) => row.invoice_no)).toEqual(['H-1']);
    expect((await list('status=closed')).map((row) => row.invoice_no)).toEqual(['INV-1']);
    expect((await list('sort=invoice_no&order=asc')).map((row) => row.invoice_no)).toEqual([
      'H-1',
      'INV-1',
      'INV-2',
    ]);
    const check = bodyOf<ImportCheck>(await admin.post('/invoice-imeis/imports/999999/check', {}));
    expect(check.code).toBe(404);
  });
});

describe('the lines of a manifest', () => {
  it('puts rows of the same claims on one line, also when a claim is empty and across files', async () => {
    const lineOf = async (imei: string) =>
      (
        await t.db.query<{ line_id: number | null }>(
          'SELECT line_id FROM invoice_imeis WHERE imei = $1',
          [imei],
        )
      )[0]!.line_id;
    const noColour = (serial: number) => ({
      imei: imeiOf(TACS.moto, serial),
      model: 'XT2271DL',
      invoice: 'LINES-1',
      color: '',
    });
    await importManifest(admin, manifestCsv([noColour(20), noColour(21)]));
    const line = await lineOf(imeiOf(TACS.moto, 20));
    expect(line).not.toBeNull();
    expect(await lineOf(imeiOf(TACS.moto, 21))).toBe(line);

    await importManifest(admin, manifestCsv([noColour(22)]));
    expect(await lineOf(imeiOf(TACS.moto, 22))).toBe(line);
    const [counted] = await t.db.query<{ lines: number; qty: number }>(
      `SELECT count(*)::int AS lines, sum(qty)::int AS qty FROM invoice_lines
       WHERE invoice_id = $1`,
      [await invoiceIdOf(t, 'LINES-1')],
    );
    expect(counted).toEqual({ lines: 1, qty: 3 });
  });
});
