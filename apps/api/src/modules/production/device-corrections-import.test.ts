import type { ImportBatch } from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminTestApp, type ApiClient } from '../../test/api-client.js';
import {
  seedProduction,
  stagedBox,
  type ProductionPlaces,
} from '../../test/production-fixtures.js';
import { bodyOf, type TestApp } from '../../test/test-app.js';

/** Corrections by file: the dry run's errors by line, then every row in one transaction. */

let t: TestApp;
let admin: ApiClient;
let places: ProductionPlaces;

beforeAll(async () => {
  ({ t, admin } = await createAdminTestApp());
  places = await seedProduction(t);
});
afterAll(() => t.close());

const RESOURCE = 'device-corrections';
const csv = (rows: string[]) => ['IMEI,Field,New value,Reason', ...rows].join('\n');

const deviceOf = async (imei: string) =>
  (
    await t.db.query<{
      id: number;
      grade: string | null;
      color_id: number | null;
      capacity_gb: number | null;
      model_id: number;
      condition: string | null;
    }>(
      'SELECT id, grade, color_id, capacity_gb, model_id, condition FROM devices WHERE imei = $1',
      [imei],
    )
  )[0]!;

describe('corrections by file', () => {
  it('checks every row and says what is wrong, line by line; nothing is written', async () => {
    const { imeis } = await stagedBox(t.db, places, 3);
    await t.db.query("UPDATE devices SET status = 'shipped' WHERE imei = $1", [imeis[1]]);
    await t.db.query("UPDATE devices SET grade = 'B' WHERE imei = $1", [imeis[2]]);
    const { check } = await places.leader.uploadAndCheck(
      RESOURCE,
      'fixes.csv',
      csv([
        `${imeis[0]},grade,A,`,
        `${imeis[1]},grade,A,Regraded`,
        `000000000000000,grade,A,Regraded`,
        `${imeis[0]},size,XL,Regraded`,
        `${imeis[0]},model,Galaxy Nothing,Regraded`,
        `${imeis[0]},model,,Regraded`,
        `${imeis[2]},grade,B,Regraded`,
        `${imeis[0]},capacity,lots,Regraded`,
        `${imeis[0]},colour,Blue,Housing swap`,
        `${imeis[0]},Color,Black,Housing swap`,
      ]),
    );
    expect(check.batch.error_count).toBe(9);
    expect(check.errors.map(({ row, column, message }) => [row, column, message])).toEqual([
      [2, 'Reason', 'Say why you correct the device.'],
      [
        3,
        'IMEI',
        `${imeis[1]} is shipped: a unit promised or gone to a customer keeps its attributes.`,
      ],
      [4, 'IMEI', 'No device has the IMEI 000000000000000.'],
      [5, 'Field', 'Write one of model, colour, capacity, grade, carrier lock or condition.'],
      [6, 'New value', 'No model named "Galaxy Nothing".'],
      [7, 'New value', 'Name the model: a device always has one.'],
      [8, 'New value', 'The grade is B already.'],
      [9, 'New value', 'Write the capacity in whole GB, like 128.'],
      [11, 'Field', 'Repeats row 10.'],
    ]);
    const commit = await places.leader.commitImport(RESOURCE, check.batch.id);
    expect(commit.statusCode).toBe(422);
    expect((await deviceOf(imeis[0]!)).color_id).toBeNull();
  });

  it('writes every row in one transaction, each edit on its device’s timeline', async () => {
    const { imeis } = await stagedBox(t.db, places, 2);
    const { id, check } = await places.leader.uploadAndCheck(
      RESOURCE,
      'fixes.csv',
      csv([
        `${imeis[0]},grade,c,Scratched back`,
        `${imeis[0]},colour,Blue,Housing is blue`,
        `${imeis[0]},capacity,128 GB,Storage test`,
        `${imeis[1]},model,Samsung Galaxy A14,TAC of an A14 housing`,
        `${imeis[1]},Condition,refurbished,Vendor refurbished it`,
      ]),
    );
    expect(check).toMatchObject({ willCreate: 0, willUpdate: 5 });
    expect(check.batch.error_count).toBe(0);
    const committed = await places.leader.commitImport(RESOURCE, id);
    expect(committed.statusCode, committed.body).toBe(200);
    expect(bodyOf<ImportBatch>(committed).data).toMatchObject({
      status: 'committed',
      updated_count: 5,
    });
    expect(await deviceOf(imeis[0]!)).toMatchObject({
      grade: 'C',
      color_id: places.catalogue.colors.blue,
      capacity_gb: 128,
    });
    expect(await deviceOf(imeis[1]!)).toMatchObject({
      model_id: places.catalogue.models.a14,
      condition: 'refurbished',
    });
    const events = await t.db.query<{ data: { before: object; after: object; reason: string } }>(
      `SELECT e.data FROM device_events e JOIN devices d ON d.id = e.device_id
       WHERE d.imei = $1 AND e.type = 'corrected' ORDER BY e.id`,
      [imeis[0]],
    );
    expect(events.map((event) => event.data)).toEqual([
      {
        before: { grade: null },
        after: { grade: 'C' },
        reason: 'Scratched back',
        source: 'corrections file',
      },
      {
        before: { color_id: null },
        after: { color_id: places.catalogue.colors.blue },
        reason: 'Housing is blue',
        source: 'corrections file',
      },
      {
        before: { capacity_gb: null },
        after: { capacity_gb: 128 },
        reason: 'Storage test',
        source: 'corrections file',
      },
    ]);
    const [audits] = await t.db.query<{ corrected: number; imported: number }>(
      `SELECT count(*) FILTER (WHERE action = 'device.corrected')::int AS corrected,
         count(*) FILTER (WHERE action = 'device_correction.imported')::int AS imported
       FROM audit_events`,
    );
    expect(audits).toEqual({ corrected: 5, imported: 1 });
  });

  it('stops at the commit when a unit was reserved after the check', async () => {
    const { imeis } = await stagedBox(t.db, places, 2);
    const { id } = await places.leader.uploadAndCheck(
      RESOURCE,
      'late.csv',
      csv([`${imeis[0]},grade,A,Regraded`, `${imeis[1]},grade,A,Regraded`]),
    );
    await t.db.query("UPDATE devices SET status = 'reserved' WHERE imei = $1", [imeis[1]]);
    const commit = await places.leader.commitImport(RESOURCE, id);
    expect(commit.statusCode).toBe(422);
    expect((await deviceOf(imeis[0]!)).grade).toBeNull();
  });

  it('belongs to those who correct devices (403)', async () => {
    const upload = await places.workers[0]!.client.uploadImport(RESOURCE, 'x.csv', csv([]));
    expect(upload.statusCode).toBe(403);
    expect((await admin.post(`/${RESOURCE}/import-template`, { format: 'csv' })).statusCode).toBe(
      201,
    );
  });
});
