import type { ConsolidationAnswer } from '@inventory/contract';
import { expect } from 'vitest';
import type { ApiClient } from './api-client.js';
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
} from './receiving-fixtures.js';
import { bodyOf, type TestApp } from './test-app.js';

/**
 * Graded devices for consolidation tests: received through the receiving API, then graded in the
 * database (the production station's grading is another area's).
 */
export async function receiveDevices(
  t: TestApp,
  admin: ApiClient,
  count: number,
  firstSerial = 1,
): Promise<{ catalogue: Catalogue; imeis: string[] }> {
  const catalogue = await seedCatalogue(t);
  const imeis = Array.from({ length: count }, (_, n) => imeiOf(TACS.a15, firstSerial + n));
  await importManifest(admin, manifestCsv(imeis.map((imei) => ({ imei }))));
  const box = await openBox(admin, await invoiceIdOf(t, 'INV-1'));
  for (const imei of imeis) expect((await scan(admin, box, imei)).result).toBe('added');
  return { catalogue, imeis };
}

/** Sets devices graded with these attributes (capacity 128 GB, unlocked, unless said). */
export async function grade(
  t: TestApp,
  imeis: readonly string[],
  attributes: { grade: string; colorId: number; capacityGb?: number; carrierLock?: string | null },
) {
  await t.db.query(
    `UPDATE devices SET status = 'graded', grade = $2, color_id = $3, capacity_gb = $4,
       carrier_lock = $5, blacklist_state = 'clean'
     WHERE imei = ANY ($1::text[])`,
    [
      imeis,
      attributes.grade,
      attributes.colorId,
      attributes.capacityGb ?? 128,
      attributes.carrierLock ?? null,
    ],
  );
}

/** Scans a device at the consolidation station (must answer 200). */
export async function consolidationScan(client: ApiClient, code: string) {
  const response = await client.post('/consolidation/scans', { code, station: 'cons-1' });
  expect(response.statusCode, response.body).toBe(200);
  return bodyOf<ConsolidationAnswer>(response).data;
}

/** Scans the box to put a device in it (must answer 200). */
export async function place(client: ApiClient, code: string, boxCode: string) {
  const response = await client.post('/consolidation/placements', {
    code,
    box_code: boxCode,
    station: 'cons-1',
  });
  expect(response.statusCode, response.body).toBe(200);
  return bodyOf<ConsolidationAnswer>(response).data;
}

/** A zone of active bins ("<zone>-01"…) holding `capacity` boxes each. */
export async function createBins(
  t: TestApp,
  zone: string,
  bins: number,
  options: { capacity?: number; quarantine?: boolean; active?: boolean } = {},
): Promise<void> {
  const [zoneRow] = await t.db.query<{ id: number }>(
    `INSERT INTO locations (code, kind, quarantine, active) VALUES ($1, 'zone', $2, $3)
     RETURNING id`,
    [zone, options.quarantine ?? false, options.active ?? true],
  );
  await t.db.query(
    `INSERT INTO locations (code, kind, parent_id, capacity_boxes, active)
     SELECT $1 || '-' || lpad(n::text, 2, '0'), 'bin', $2, $4, $5 FROM generate_series(1, $3) n`,
    [zone, zoneRow!.id, bins, options.capacity ?? 2, options.active ?? true],
  );
}

/**
 * An inventory box holding these devices in stock, as consolidation and putaway leave it: the box
 * takes the first device's attributes; a located box is in `location` (a bin's code).
 */
export async function boxOf(
  t: TestApp,
  imeis: readonly string[],
  options: {
    status?: 'open' | 'sealed' | 'located';
    location?: string;
    maxQty?: number;
    sealedDaysAgo?: number;
  } = {},
): Promise<{ id: number; code: string }> {
  const status = options.status ?? 'located';
  const [box] = await t.db.query<{ id: number; code: string }>(
    `INSERT INTO inventory_boxes (model_id, color_id, capacity_gb, grade, carrier_lock, max_qty,
       status, location_id, sealed_at, located_at)
     SELECT model_id, color_id, capacity_gb, grade, carrier_lock, $2, $3,
       (SELECT id FROM locations WHERE code = $4),
       CASE WHEN $3::text <> 'open' THEN now() - make_interval(days => $5::int) END,
       CASE WHEN $3::text = 'located' THEN now() END
     FROM devices WHERE imei = $1
     RETURNING id, code`,
    [imeis[0], options.maxQty ?? 20, status, options.location ?? null, options.sealedDaysAgo ?? 0],
  );
  await t.db.query(
    `UPDATE devices SET status = 'in_stock', inventory_box_id = $2, warehouse_box_id = NULL
     WHERE imei = ANY ($1::text[])`,
    [imeis, box!.id],
  );
  await t.db.query(
    `UPDATE inventory_boxes SET qty = (SELECT count(*) FROM devices WHERE inventory_box_id = $1)
     WHERE id = $1`,
    [box!.id],
  );
  return box!;
}
