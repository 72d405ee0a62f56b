import type { Db } from '../db/db.js';
import { apiClient, dataOf, type ApiClient } from './api-client.js';
import { imeiOf, seedCatalogue, TACS, type Catalogue } from './receiving-fixtures.js';
import { seedStockPlaces, type StockPlaces } from './stock-fixtures.js';
import { createUser, login, type TestApp } from './test-app.js';

/** The repair staff, a catalogue and parts in stock, for the repair tests. */
export type RepairPlaces = {
  catalogue: Catalogue;
  stock: StockPlaces;
  invoiceId: number;
  sorter: ApiClient;
  leader: ApiClient;
  technician: { id: number; client: ApiClient };
  otherTechnician: { id: number; client: ApiClient };
  tester: ApiClient;
};

const staff = async (t: TestApp, userName: string, role: string) => {
  const password = `${userName}-password-1`;
  const id = await createUser(t.db, { userName, password, roles: [role] });
  return { id, client: apiClient(t, await login(t.app, userName, password)) };
};

export async function seedRepair(
  t: TestApp,
  admin: ApiClient,
  partsInStock = 5,
): Promise<RepairPlaces> {
  const catalogue = await seedCatalogue(t);
  const stock = await seedStockPlaces(t.db);
  const [invoice] = await t.db.query<{ id: number }>(
    "INSERT INTO purchase_invoices (vendor_id, invoice_no) VALUES ($1, 'REPAIR-1') RETURNING id",
    [catalogue.vendors.acme],
  );
  await dataOf(
    admin.post('/part-stock/receipts', {
      part_id: stock.part,
      location_id: stock.bins[0],
      qty: partsInStock,
      reference: 'PO-REPAIR',
      vendor_id: stock.vendor,
      unit_cost_cents: 1000,
    }),
    201,
  );
  return {
    catalogue,
    stock,
    invoiceId: invoice!.id,
    sorter: (await staff(t, 'sorter', 'Repair Sorting')).client,
    leader: (await staff(t, 'repairlead', 'Repair Leader')).client,
    technician: await staff(t, 'tech1', 'Repair Worker'),
    otherTechnician: await staff(t, 'tech2', 'Repair Worker'),
    tester: (await staff(t, 'tester', 'Repair Testing')).client,
  };
}

let serial = 9_000;

/** Galaxy A15s in a status (failed QC by default): their ids and IMEIs. */
export async function devicesIn(db: Db, places: RepairPlaces, count: number, status = 'failed_qc') {
  const imeis = Array.from({ length: count }, () => imeiOf(TACS.a15, ++serial));
  const rows = await db.query<{ id: number; identifier: string }>(
    `INSERT INTO devices (imei, tac, model_id, status, invoice_id)
     SELECT i, $2, $3, $4, $5 FROM unnest($1::text[]) AS i
     RETURNING id::int AS id, identifier`,
    [imeis, TACS.a15, places.catalogue.models.a15, status, places.invoiceId],
  );
  return rows;
}
