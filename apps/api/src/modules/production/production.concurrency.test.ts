import type { ProductRequest } from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminTestApp, type ApiClient } from '../../test/api-client.js';
import {
  seedProduction,
  stagedBox,
  type ProductionPlaces,
} from '../../test/production-fixtures.js';
import { bodyOf, createUser, type TestApp } from '../../test/test-app.js';

/**
 * Two approvals of overlapping boxes, two leaders handing out, reassigning or re-grading the same
 * devices. On PostgreSQL
 * (TEST_DATABASE_URL) the requests run on concurrent connections; on PGlite one at a time.
 */

let t: TestApp;
let admin: ApiClient;
let places: ProductionPlaces;
let thirdWorker: number;

beforeAll(async () => {
  ({ t, admin } = await createAdminTestApp());
  places = await seedProduction(t);
  thirdWorker = await createUser(t.db, {
    userName: 'worker3',
    password: 'worker3-password-1',
    roles: ['Production Worker'],
  });
});
afterAll(() => t.close());

const newRequest = async () => {
  const response = await admin.post('/product-requests', {
    model_id: places.catalogue.models.a15,
    qty: 4,
  });
  expect(response.statusCode, response.body).toBe(201);
  return bodyOf<{ request: ProductRequest }>(response).data.request.id;
};

describe('at the same time', () => {
  it('two approvals of overlapping boxes: exactly one wins, each box in one active request', async () => {
    for (let round = 0; round < 5; round++) {
      const a = await stagedBox(t.db, places, 2);
      const b = await stagedBox(t.db, places, 2);
      const c = await stagedBox(t.db, places, 2);
      const [first, second] = [await newRequest(), await newRequest()];
      const answers = await Promise.all([
        admin.post(`/product-requests/${first}/approval`, { warehouse_box_ids: [a.id, b.id] }),
        admin.post(`/product-requests/${second}/approval`, { warehouse_box_ids: [c.id, b.id] }),
      ]);
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
      const links = await t.db.query<{ warehouse_box_id: number }>(
        `SELECT warehouse_box_id FROM product_request_boxes
         WHERE active AND warehouse_box_id = ANY ($1::bigint[])`,
        [[a.id, b.id, c.id]],
      );
      expect(links.filter((link) => link.warehouse_box_id === b.id)).toHaveLength(1);
      const approved = await t.db.query(
        "SELECT id FROM product_requests WHERE id = ANY ($1::bigint[]) AND status = 'approved'",
        [[first, second]],
      );
      expect(approved).toHaveLength(1);
    }
  });

  it('two leaders handing out the same box: exactly one wins, every device once', async () => {
    const [one, two] = places.workers;
    for (let round = 0; round < 5; round++) {
      const box = await stagedBox(t.db, places, 3);
      const request = await newRequest();
      const approval = await admin.post(`/product-requests/${request}/approval`, {
        warehouse_box_ids: [box.id],
      });
      expect(approval.statusCode, approval.body).toBe(200);
      const answers = await Promise.all([
        places.leader.post('/product-team/assignments', {
          warehouse_box_id: box.id,
          worker_id: one!.id,
        }),
        admin.post('/product-team/assignments', { warehouse_box_id: box.id, worker_id: two!.id }),
      ]);
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 409]);
      const [counts] = await t.db.query<{ assigned: number; workers: number; events: number }>(
        `SELECT count(*)::int AS assigned, count(DISTINCT pa.worker_id)::int AS workers,
           (SELECT count(*)::int FROM device_events e JOIN devices d ON d.id = e.device_id
            WHERE d.warehouse_box_id = $1 AND e.type = 'production_started') AS events
         FROM production_assignments pa WHERE pa.warehouse_box_id = $1`,
        [box.id],
      );
      expect(counts).toEqual({ assigned: 3, workers: 1, events: 3 });
    }
  });

  it('two leaders reassigning the same box’s devices: exactly one wins, every device moved once', async () => {
    const [one, two] = places.workers;
    for (let round = 0; round < 5; round++) {
      const box = await stagedBox(t.db, places, 3);
      const request = await newRequest();
      await admin.post(`/product-requests/${request}/approval`, { warehouse_box_ids: [box.id] });
      const handed = await admin.post('/product-team/assignments', {
        warehouse_box_id: box.id,
        worker_id: one!.id,
      });
      expect(handed.statusCode, handed.body).toBe(201);
      const move = (client: ApiClient, to: number) =>
        client.post('/product-team/reassignments', {
          warehouse_box_id: box.id,
          from_worker_id: one!.id,
          worker_id: to,
        });
      const answers = await Promise.all([move(places.leader, two!.id), move(admin, thirdWorker)]);
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
      const [counts] = await t.db.query<{ workers: number; moved: number }>(
        `SELECT count(DISTINCT pa.worker_id)::int AS workers,
           (SELECT count(*)::int FROM device_events e JOIN devices d ON d.id = e.device_id
            WHERE d.warehouse_box_id = $1 AND e.type = 'reassigned') AS moved
         FROM production_assignments pa WHERE pa.warehouse_box_id = $1 AND pa.worker_id <> $2`,
        [box.id, one!.id],
      );
      expect(counts).toEqual({ workers: 1, moved: 3 });
    }
  });

  it('two leaders re-grading the same device: exactly one sends it back', async () => {
    const [one] = places.workers;
    for (let round = 0; round < 5; round++) {
      const box = await stagedBox(t.db, places, 1);
      const request = await newRequest();
      await admin.post(`/product-requests/${request}/approval`, { warehouse_box_ids: [box.id] });
      await admin.post('/product-team/assignments', {
        warehouse_box_id: box.id,
        worker_id: one!.id,
      });
      await t.db.query("UPDATE devices SET status = 'failed_qc' WHERE warehouse_box_id = $1", [
        box.id,
      ]);
      const answers = await Promise.all([
        places.leader.post('/product-team/regrades', { code: box.imeis[0], reason: 'first' }),
        admin.post('/product-team/regrades', { code: box.imeis[0], reason: 'second' }),
      ]);
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
      const [events] = await t.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM device_events e JOIN devices d ON d.id = e.device_id
         WHERE d.imei = $1 AND e.type = 'regrade_requested'`,
        [box.imeis[0]],
      );
      expect(events!.n).toBe(1);
    }
  });
});
