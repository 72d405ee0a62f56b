import { luhnCheckDigit, type ImportBatch, type ReceiveScan } from '@inventory/contract';
import { expect } from 'vitest';
import type { ApiClient } from './api-client.js';
import { bodyOf, type TestApp } from './test-app.js';

/** A valid IMEI: the TAC, a 6-digit serial and its Luhn check digit. */
export function imeiOf(tac: string, serial: number): string {
  const body = `${tac}${String(serial).padStart(6, '0')}`;
  return `${body}${luhnCheckDigit(body)}`;
}

/** The same IMEI with a wrong check digit. */
export const withBadCheckDigit = (imei: string) =>
  `${imei.slice(0, 14)}${(Number(imei.at(-1)) + 1) % 10}`;

/** The TACs of the catalogue below: each maps to its model. */
export const TACS = { a15: '35000001', a14: '35000002', moto: '35000003' } as const;

export type Catalogue = {
  models: { a15: number; a14: number; moto: number };
  colors: { black: number; blue: number };
  vendors: { acme: number; other: number };
};

/** Brands, models, colours, TACs and vendors for receiving tests, straight into the database. */
export async function seedCatalogue(t: TestApp): Promise<Catalogue> {
  const id = async (sql: string, params: unknown[]) =>
    (await t.db.query<{ id: number }>(sql, params))[0]!.id;
  await t.db.query("INSERT INTO brands (name) VALUES ('Samsung'), ('Motorola')");
  const model = (brand: string, name: string, numbers: string[]) =>
    id(
      `INSERT INTO device_models (brand_id, name, model_numbers, device_type, os, network)
       SELECT id, $2, $3, 'phone', 'android', '5G' FROM brands WHERE name = $1 RETURNING id`,
      [brand, name, numbers],
    );
  const models = {
    a15: await model('Samsung', 'Galaxy A15', ['SM-A155U']),
    a14: await model('Samsung', 'Galaxy A14', ['SM-A145U']),
    moto: await model('Motorola', 'Moto G Play 2023', ['XT2271DL']),
  };
  const color = (name: string) => id('INSERT INTO colors (name) VALUES ($1) RETURNING id', [name]);
  const colors = { black: await color('Black'), blue: await color('Blue') };
  await t.db.query(
    `INSERT INTO tac_numbers (tac, model_id, capacity_gb, source)
     VALUES ($1, $2, 128, 'gsma'), ($3, $4, 64, 'gsma'), ($5, $6, 32, 'gsma')`,
    [TACS.a15, models.a15, TACS.a14, models.a14, TACS.moto, models.moto],
  );
  const vendor = (name: string) =>
    id("INSERT INTO vendors (name, type) VALUES ($1, 'supplier') RETURNING id", [name]);
  const vendors = { acme: await vendor('Acme Recyclers'), other: await vendor('Other Wholesale') };
  return { models, colors, vendors };
}

export type ManifestLine = {
  vendor?: string;
  invoice?: string;
  imei?: string;
  imei2?: string;
  meid?: string;
  model?: string;
  color?: string;
  grade?: string;
  cost?: string;
};

const MANIFEST_HEADER =
  'Vendor,Invoice no,Invoice date,IMEI,IMEI2,MEID,Model,Colour,Grade,Unit cost';

/** A manifest file: one row per device, Acme's INV-1 of Galaxy A15s unless a line says else. */
export const manifestCsv = (lines: readonly ManifestLine[]) =>
  [
    MANIFEST_HEADER,
    ...lines.map((line) =>
      [
        line.vendor ?? 'Acme Recyclers',
        line.invoice ?? 'INV-1',
        '2026-11-02',
        line.imei ?? '',
        line.imei2 ?? '',
        line.meid ?? '',
        line.model ?? 'Samsung Galaxy A15',
        line.color ?? 'Black',
        line.grade ?? 'B',
        line.cost ?? '45.00',
      ].join(','),
    ),
  ].join('\n');

/** Uploads, checks and commits a manifest that must be right; answers the committed batch. */
export async function importManifest(admin: ApiClient, csv: string): Promise<ImportBatch> {
  const { id, check } = await admin.uploadAndCheck('invoice-imeis', 'manifest.csv', csv);
  expect(check.errors).toEqual([]);
  const committed = await admin.commitImport('invoice-imeis', id);
  expect(committed.statusCode, committed.body).toBe(200);
  return bodyOf<ImportBatch>(committed).data;
}

export const invoiceIdOf = async (t: TestApp, invoiceNo: string) =>
  (
    await t.db.query<{ id: number }>('SELECT id FROM purchase_invoices WHERE invoice_no = $1', [
      invoiceNo,
    ])
  )[0]!.id;

/** Opens a warehouse box on an invoice; answers its id. */
export async function openBox(
  client: ApiClient,
  invoiceId: number,
  extra: Record<string, unknown> = {},
): Promise<number> {
  const response = await client.post('/warehouse-boxes', { invoice_id: invoiceId, ...extra });
  expect(response.statusCode, response.body).toBe(201);
  return bodyOf<{ id: number }>(response).data.id;
}

/** Scans a code into a box as a station does; the scan itself must be answered 200. */
export async function scan(client: ApiClient, boxId: number, code: string): Promise<ReceiveScan> {
  const response = await client.post(`/warehouse-boxes/${boxId}/scans`, {
    code,
    station: 'dock-1',
  });
  expect(response.statusCode, response.body).toBe(200);
  return bodyOf<ReceiveScan>(response).data;
}
