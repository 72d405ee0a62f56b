import { TEST_ITEMS } from '@inventory/contract';
import type { Db } from '../db/db.js';
import { apiClient, type ApiClient } from './api-client.js';
import { imeiOf, seedCatalogue, TACS, type Catalogue } from './receiving-fixtures.js';
import { createUser, login, type TestApp } from './test-app.js';

/** A test checklist with every item passed. */
export const ALL_PASS = Object.fromEntries(TEST_ITEMS.map((item) => [item, 'pass'] as const));

/** Staged warehouse boxes of received devices and the production staff, for production tests. */
export type ProductionPlaces = {
  catalogue: Catalogue;
  invoiceId: number;
  manager: ApiClient;
  leader: ApiClient;
  workers: { id: number; client: ApiClient }[];
};

let serial = 0;

/** A staged box of `count` received Galaxy A15s, staged `daysAgo` days ago; answers its id and IMEIs. */
export async function stagedBox(db: Db, places: ProductionPlaces, count: number, daysAgo = 0) {
  const [box] = await db.query<{ id: number }>(
    `INSERT INTO warehouse_boxes (invoice_id, expected_model_id, status, qty_scanned, staged_at)
     VALUES ($1, $2, 'staged', $3, now() - make_interval(days => $4)) RETURNING id`,
    [places.invoiceId, places.catalogue.models.a15, count, daysAgo],
  );
  const imeis = Array.from({ length: count }, () => imeiOf(TACS.a15, ++serial));
  await db.query(
    `INSERT INTO devices (imei, tac, model_id, status, warehouse_box_id, invoice_id)
     SELECT i, $2, $3, 'received', $4, $5 FROM unnest($1::text[]) AS i`,
    [imeis, TACS.a15, places.catalogue.models.a15, box!.id, places.invoiceId],
  );
  return { id: box!.id, imeis };
}

const staff = async (t: TestApp, userName: string, role: string) => {
  const password = `${userName}-password-1`;
  const id = await createUser(t.db, { userName, password, roles: [role] });
  return { id, client: apiClient(t, await login(t.app, userName, password)) };
};

export async function seedProduction(t: TestApp): Promise<ProductionPlaces> {
  const catalogue = await seedCatalogue(t);
  const [invoice] = await t.db.query<{ id: number }>(
    "INSERT INTO purchase_invoices (vendor_id, invoice_no) VALUES ($1, 'PROD-1') RETURNING id",
    [catalogue.vendors.acme],
  );
  return {
    catalogue,
    invoiceId: invoice!.id,
    manager: (await staff(t, 'manager', 'Production Manager')).client,
    leader: (await staff(t, 'leader', 'Production Leader')).client,
    workers: [
      await staff(t, 'worker1', 'Production Worker'),
      await staff(t, 'worker2', 'Production Worker'),
    ],
  };
}
