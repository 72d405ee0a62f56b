import type {
  InboundShipment,
  ModelPipeline,
  PurchaseInvoice,
  WarehouseBoxDashboard,
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
  type Catalogue,
} from '../../test/receiving-fixtures.js';
import { bodyOf, type TestApp } from '../../test/test-app.js';

/** Inbound shipments at the dock, and the warehouse box dashboards. */

let t: TestApp;
let admin: ApiClient;
let catalogue: Catalogue;

beforeAll(async () => {
  ({ t, admin } = await createAdminTestApp());
  catalogue = await seedCatalogue(t);
  await importManifest(
    admin,
    manifestCsv([
      ...[1, 2, 3].map((n) => ({ imei: imeiOf(TACS.a15, n) })),
      { imei: imeiOf(TACS.moto, 4), model: 'Motorola Moto G Play 2023' },
      { imei: imeiOf(TACS.a15, 5), vendor: 'Other Wholesale', invoice: 'OW-1' },
    ]),
  );
});
afterAll(() => t.close());

describe('an inbound shipment', () => {
  it('is registered against its vendor, checked in with its damage, then received', async () => {
    const invoiceId = await invoiceIdOf(t, 'INV-1');
    expect(
      await admin.fieldErrors('POST', '/inbound-shipments', {
        vendor_id: catalogue.vendors.other,
        invoice_id: invoiceId,
        eta: 'tomorrow',
      }),
    ).toEqual({ eta: ['Write the expected arrival as YYYY-MM-DD.'] });
    expect(
      await admin.fieldErrors('POST', '/inbound-shipments', {
        vendor_id: catalogue.vendors.other,
        invoice_id: invoiceId,
      }),
    ).toEqual({ invoice_id: ["This invoice is another vendor's."] });
    // A truck may come before its invoice.
    const created = await admin.post('/inbound-shipments', {
      vendor_id: catalogue.vendors.acme,
      carrier: 'FedEx Freight',
      tracking: 'FX-778812',
      pallets_expected: 2,
      boxes_expected: 12,
      eta: '2026-11-25',
    });
    expect(created.statusCode, created.body).toBe(201);
    const shipment = bodyOf<InboundShipment>(created).data;
    expect(shipment).toMatchObject({ status: 'expected', invoice_id: null, eta: '2026-11-25' });

    expect((await admin.post(`/inbound-shipments/${shipment.id}/receive`)).json().message).toBe(
      'Check the shipment in at the dock first.',
    );
    const arrived = bodyOf<InboundShipment>(
      await admin.post(`/inbound-shipments/${shipment.id}/check-in`, {
        pallets_received: 2,
        boxes_received: 11,
        damaged: true,
        damage_notes: 'Pallet 2 crushed on one corner',
      }),
    ).data;
    expect(arrived).toMatchObject({
      status: 'arrived',
      boxes_received: 11,
      damaged: true,
      checked_in_by_name: 'Name of pi',
    });
    expect((await admin.post(`/inbound-shipments/${shipment.id}/receive`)).json().message).toBe(
      'Link the shipment to its invoice before receiving it.',
    );
    await admin.put(`/inbound-shipments/${shipment.id}`, { invoice_id: invoiceId });
    await admin.post(`/inbound-shipments/${shipment.id}/check-in`, {
      pallets_received: 2,
      boxes_received: 12,
    });
    // Checking in starts receiving on the invoice.
    expect(
      bodyOf<PurchaseInvoice>(await admin.get(`/purchase-invoices/${invoiceId}`)).data.status,
    ).toBe('receiving');
    const received = bodyOf<InboundShipment>(
      await admin.post(`/inbound-shipments/${shipment.id}/receive`),
    ).data;
    expect(received.status).toBe('received');
    const listed = bodyOf<{ items: InboundShipment[] }>(
      await admin.get('/inbound-shipments?search=fx-7788'),
    ).data.items;
    expect(listed.map((row) => row.id)).toEqual([shipment.id]);
  });

  it('is offered to a new box until it is received, and must be on the box invoice', async () => {
    const invoiceId = await invoiceIdOf(t, 'INV-1');
    const otherInvoiceId = await invoiceIdOf(t, 'OW-1');
    const register = async (tracking: string, invoice: number, vendor: number) =>
      bodyOf<InboundShipment>(
        await admin.post('/inbound-shipments', {
          vendor_id: vendor,
          invoice_id: invoice,
          carrier: 'UPS',
          tracking,
        }),
      ).data;
    const ours = await register('1Z-BOX-1', invoiceId, catalogue.vendors.acme);
    const theirs = await register('1Z-BOX-2', otherInvoiceId, catalogue.vendors.other);
    const options = bodyOf<{ id: number; label: string }[]>(
      await admin.get('/warehouse-boxes/shipment-options?search=1z-box'),
    ).data;
    expect(options).toEqual([
      { id: theirs.id, label: '1Z-BOX-2 (UPS), Other Wholesale, invoice OW-1' },
      { id: ours.id, label: '1Z-BOX-1 (UPS), Acme Recyclers, invoice INV-1' },
    ]);
    // Received shipments are not offered: their cartons have their boxes.
    expect(
      bodyOf<unknown[]>(await admin.get('/warehouse-boxes/shipment-options?search=FX-778812')).data,
    ).toEqual([]);
    // Given an id, a picker names that one option even when it would not offer it: a filter set
    // from a link shows what it filters by.
    const [received] = await t.db.query<{ id: number }>(
      "SELECT id FROM inbound_shipments WHERE tracking = 'FX-778812'",
    );
    expect(
      bodyOf<unknown[]>(await admin.get(`/warehouse-boxes/shipment-options?id=${received!.id}`))
        .data,
    ).toEqual([
      { id: received!.id, label: 'FX-778812 (FedEx Freight), Acme Recyclers, invoice INV-1' },
    ]);
    expect(
      bodyOf<unknown[]>(await admin.get('/warehouse-boxes/shipment-options?id=987654')).data,
    ).toEqual([]);
    const badId = await admin.get('/warehouse-boxes/shipment-options?id=first');
    expect(badId.statusCode).toBe(422);
    expect(bodyOf(badId).message).toEqual({ id: ['The id must be a whole number.'] });

    expect(
      await admin.fieldErrors('POST', '/warehouse-boxes', {
        invoice_id: invoiceId,
        inbound_shipment_id: theirs.id,
      }),
    ).toEqual({ inbound_shipment_id: ['This shipment belongs to another invoice.'] });
    const box = await openBox(admin, invoiceId, { inbound_shipment_id: ours.id });
    expect(
      bodyOf<{ box: { inbound_shipment: string } }>(
        await admin.get(`/warehouse-boxes/${box}/content`),
      ).data.box.inbound_shipment,
    ).toBe('1Z-BOX-1 (UPS), Acme Recyclers, invoice INV-1');
    await admin.delete(`/warehouse-boxes/${box}`);
  });
});

describe('the dashboards', () => {
  beforeAll(async () => {
    const box = await openBox(admin, await invoiceIdOf(t, 'INV-1'), { qty_expected: 4 });
    for (const imei of [imeiOf(TACS.a15, 1), imeiOf(TACS.a15, 2), imeiOf(TACS.moto, 4)]) {
      await scan(admin, box, imei);
    }
    await admin.post(`/warehouse-boxes/${box}/close`, { override_reason: 'short' });
    await scan(admin, await openBox(admin, await invoiceIdOf(t, 'OW-1')), imeiOf(TACS.a15, 5));
    // Two devices received long ago, by the clock of the database.
    await t.db.query(
      `UPDATE devices SET received_at = now() - interval '20 days' WHERE imei = ANY ($1::text[])`,
      [[imeiOf(TACS.a15, 2), imeiOf(TACS.moto, 4)]],
    );
  });

  it('counts boxes, receipts, unprocessed stock by age, vendor and invoice', async () => {
    const dashboard = bodyOf<WarehouseBoxDashboard>(
      await admin.get('/warehouse-boxes/dashboard?tz=America/Chicago'),
    ).data;
    expect(dashboard.boxes_by_status).toEqual([
      { status: 'receiving', boxes: 1, devices: 1 },
      { status: 'received', boxes: 1, devices: 3 },
    ]);
    expect(dashboard.received_today).toBe(2);
    expect(dashboard.unprocessed_by_age).toEqual([
      { label: '0-1 days', devices: 2 },
      { label: '2-3 days', devices: 0 },
      { label: '4-7 days', devices: 0 },
      { label: '8-14 days', devices: 0 },
      { label: '15-30 days', devices: 2 },
      { label: 'over 30 days', devices: 0 },
    ]);
    expect(dashboard.unprocessed_by_vendor.map((row) => [row.label, row.devices])).toEqual([
      ['Acme Recyclers', 3],
      ['Other Wholesale', 1],
    ]);
    expect(dashboard.unprocessed_by_invoice[0]).toMatchObject({
      label: 'INV-1 (Acme Recyclers)',
      devices: 3,
    });
    expect((await admin.get('/warehouse-boxes/dashboard?tz=Mars/Olympus')).statusCode).toBe(422);
  });

  it('shows the pipeline per model, for one vendor or all, and exports it', async () => {
    const models = bodyOf<ModelPipeline[]>(
      await admin.get('/warehouse-boxes/dashboard/models'),
    ).data;
    expect(models.map((row) => [row.model, row.received, row.graded, row.yield_pct])).toEqual([
      ['Motorola Moto G Play 2023', 1, 0, null],
      ['Samsung Galaxy A15', 3, 0, null],
    ]);
    const other = bodyOf<ModelPipeline[]>(
      await admin.get(`/warehouse-boxes/dashboard/models?vendor_id=${catalogue.vendors.other}`),
    ).data;
    expect(other.map((row) => [row.model, row.received])).toEqual([['Samsung Galaxy A15', 1]]);
    const file = await admin.download('/warehouse-boxes/dashboard/models/exports', {
      format: 'csv',
    });
    const lines = file.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('Model,Received,Requested,In production,Graded,Failed,On hold,Yield %');
    expect(lines[2]).toBe('Samsung Galaxy A15,3,0,0,0,0,0,');
  });
});
