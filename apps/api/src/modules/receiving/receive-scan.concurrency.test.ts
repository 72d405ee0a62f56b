import type { ReceiveScan } from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminTestApp, type ApiClient } from '../../test/api-client.js';
import {
  imeiOf,
  importManifest,
  invoiceIdOf,
  manifestCsv,
  openBox,
  seedCatalogue,
  TACS,
} from '../../test/receiving-fixtures.js';
import { bodyOf, type TestApp } from '../../test/test-app.js';

/**
 * Stations racing for the same devices. On PostgreSQL (TEST_DATABASE_URL) the scans run on
 * concurrent connections of the pool; on PGlite they run one at a time, and the rules must hold
 * there too.
 */

let t: TestApp;
let admin: ApiClient;
let invoiceId: number;
const IMEIS = Array.from({ length: 40 }, (_, n) => imeiOf(TACS.a15, n + 1));

beforeAll(async () => {
  ({ t, admin } = await createAdminTestApp());
  await seedCatalogue(t);
  await importManifest(admin, manifestCsv(IMEIS.map((imei) => ({ imei }))));
  invoiceId = await invoiceIdOf(t, 'INV-1');
});
afterAll(() => t.close());

const scanAnswer = async (box: number, code: string) => {
  const response = await admin.post(`/warehouse-boxes/${box}/scans`, { code });
  expect(response.statusCode, response.body).toBe(200);
  return bodyOf<ReceiveScan>(response).data;
};

describe('two stations scanning the same device at the same moment', () => {
  it('receive it once; the other station is told which box it went to', async () => {
    const [left, right] = [await openBox(admin, invoiceId), await openBox(admin, invoiceId)];
    const codes = await t.db.query<{ code: string }>(
      'SELECT code FROM warehouse_boxes ORDER BY id',
    );
    for (const imei of IMEIS.slice(0, 10)) {
      const answers = await Promise.all([scanAnswer(left, imei), scanAnswer(right, imei)]);
      const results = answers.map((answer) => answer.result).sort();
      expect(results).toEqual(['added', 'in_other_box']);
      const winner = answers.findIndex((answer) => answer.result === 'added');
      const loser = answers[1 - winner]!;
      expect(loser.message).toContain(`Already received in ${codes[winner]!.code}`);
      expect(loser.device?.imei).toBe(imei);
      // Only the winner's station may take it back: it is in the other's box, not its own.
      expect(answers[winner]!.device?.undoable).toBe(true);
      expect(loser.device?.undoable).toBe(false);
    }
  });
});

describe('two stations scanning a blacklisted device at the same moment', () => {
  it('register it once in quarantine; neither box counts it', async () => {
    const [left, right] = [await openBox(admin, invoiceId), await openBox(admin, invoiceId)];
    const listed = imeiOf(TACS.a15, 90);
    await admin.post('/blacklist-entries', { imei: listed, source: 'gsma', reason: 'stolen' });
    const answers = await Promise.all([scanAnswer(left, listed), scanAnswer(right, listed)]);
    expect(answers.map((answer) => answer.result).sort()).toEqual(['blacklisted', 'quarantined']);
    expect(answers.map((answer) => answer.box.qty_scanned)).toEqual([0, 0]);
    const [device] = await t.db.query<{ n: number; boxed: number }>(
      'SELECT count(*)::int AS n, count(warehouse_box_id)::int AS boxed FROM devices WHERE imei = $1',
      [listed],
    );
    expect(device).toEqual({ n: 1, boxed: 0 });
  });
});

describe('many stations scanning a few devices', () => {
  it('give each device exactly one winner, and the counts add up', async () => {
    const boxes = await Promise.all(Array.from({ length: 6 }, () => openBox(admin, invoiceId)));
    const contested = IMEIS.slice(10);
    // Every box scans every device, each in its own order, all at once.
    const answers = await Promise.all(
      boxes.flatMap((box, i) =>
        contested.map((_, j) => scanAnswer(box, contested[(j * (i + 1)) % contested.length]!)),
      ),
    );
    const added = answers.filter((answer) => answer.result === 'added');
    expect(added).toHaveLength(contested.length);
    expect(new Set(added.map((answer) => answer.device!.imei)).size).toBe(contested.length);
    expect(
      answers.every((answer) =>
        ['added', 'in_other_box', 'already_in_box'].includes(answer.result),
      ),
    ).toBe(true);

    const [state] = await t.db.query<{
      devices: number;
      events: number;
      scanned: number;
      received_rows: number;
      audits: number;
    }>(
      `SELECT (SELECT count(*) FROM devices WHERE imei = ANY ($1::text[]))::int AS devices,
         (SELECT count(*) FROM device_events e JOIN devices d ON d.id = e.device_id
          WHERE d.imei = ANY ($1::text[]))::int AS events,
         (SELECT sum(qty_scanned) FROM warehouse_boxes WHERE id = ANY ($2::bigint[]))::int AS scanned,
         (SELECT count(*) FROM invoice_imeis WHERE imei = ANY ($1::text[])
            AND match_status = 'received')::int AS received_rows,
         (SELECT count(*) FROM audit_events WHERE action = 'device.received'
            AND after->>'imei' = ANY ($1::text[]))::int AS audits`,
      [contested, boxes],
    );
    expect(state).toEqual({
      devices: contested.length,
      events: contested.length,
      scanned: contested.length,
      received_rows: contested.length,
      audits: contested.length,
    });
  });
});
