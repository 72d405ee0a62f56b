import type { WorkJobDetail } from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminTestApp, signedInClient, type ApiClient } from '../../test/api-client.js';
import { boxOf, createBins, grade, receiveDevices } from '../../test/inventory-fixtures.js';
import { bodyOf, type TestApp } from '../../test/test-app.js';

/**
 * Two people stepping one job at once: two assignees finishing it, two managers verifying it,
 * scans racing the finish. On PostgreSQL (TEST_DATABASE_URL) the requests run on concurrent
 * connections of the pool; on PGlite one at a time, and the rules hold there too.
 */

let t: TestApp;
let managers: ApiClient[];
let workers: ApiClient[];
let workerIds: number[];
let imeis: string[];

beforeAll(async () => {
  let catalogue;
  let admin: ApiClient;
  ({ t, admin } = await createAdminTestApp());
  ({ catalogue, imeis } = await receiveDevices(t, admin, 8));
  await grade(t, imeis, { grade: 'A', colorId: catalogue.colors.black });
  await createBins(t, 'R', 2, { capacity: 10 });
  managers = [
    await signedInClient(t, 'wm1', ['Warehouse Manager']),
    await signedInClient(t, 'wm2', ['Warehouse Manager']),
  ];
  workers = [
    await signedInClient(t, 'cw1', ['Consolidation Worker']),
    await signedInClient(t, 'cw2', ['Consolidation Worker']),
  ];
  workerIds = (
    await t.db.query<{ id: number }>(
      "SELECT id::int AS id FROM users WHERE user_name IN ('cw1', 'cw2') ORDER BY user_name",
    )
  ).map((row) => row.id);
});
afterAll(() => t.close());

async function countJob(boxCode: string): Promise<number> {
  const created = await managers[0]!.post('/work-jobs', {
    kind: 'count',
    title: `Count ${boxCode}`,
    assignee_ids: workerIds,
    box_codes: [boxCode],
  });
  expect(created.statusCode, created.body).toBe(201);
  const id = bodyOf<WorkJobDetail>(created).data.job.id;
  expect((await workers[0]!.post(`/my-work/jobs/${id}/start`, {})).statusCode).toBe(200);
  return id;
}

const statuses = (answers: { statusCode: number }[]) =>
  answers.map((answer) => answer.statusCode).sort();

describe('one job stepped by two people at once', () => {
  it('two assignees finishing it: one finishes, the other is told it is done; the box unlocks once', async () => {
    const box = await boxOf(t, imeis.slice(0, 4), { location: 'R-01' });
    const id = await countJob(box.code);
    const answers = await Promise.all(
      workers.map((worker) => worker.post(`/my-work/jobs/${id}/finish`, {})),
    );
    expect(statuses(answers)).toEqual([200, 409]);
    const [row] = await t.db.query<{ status: string; finished: number }>(
      `SELECT b.status, (SELECT count(*)::int FROM inventory_box_counts c
         WHERE c.box_id = b.id AND c.finished_at IS NOT NULL) AS finished
       FROM inventory_boxes b WHERE b.id = $1`,
      [box.id],
    );
    expect(row).toEqual({ status: 'located', finished: 1 });
    const events = await t.db.query(
      "SELECT 1 FROM work_job_events WHERE job_id = $1 AND type = 'finished'",
      [id],
    );
    expect(events).toHaveLength(1);

    const verified = await Promise.all(
      managers.map((manager) => manager.post(`/team-jobs/${id}/verification`, {})),
    );
    expect(statuses(verified)).toEqual([200, 409]);
    const audits = await t.db.query(
      "SELECT 1 FROM audit_events WHERE action = 'work_job.verified' AND entity_id = $1",
      [id],
    );
    expect(audits).toHaveLength(1);
  });

  it('scans racing the finish: each scan lands before it or is refused after it', async () => {
    const box = await boxOf(t, imeis.slice(4, 8), { location: 'R-02' });
    const id = await countJob(box.code);
    const answers = await Promise.all([
      ...imeis
        .slice(4, 8)
        .map((code) =>
          workers[1]!.post(`/my-work/jobs/${id}/count-scans`, { box_code: box.code, code }),
        ),
      workers[0]!.post(`/my-work/jobs/${id}/finish`, {}),
    ]);
    const finish = answers.at(-1)!;
    expect(finish.statusCode, finish.body).toBe(200);
    const counted = answers.slice(0, 4).filter((answer) => answer.statusCode === 200).length;
    expect(counted + answers.slice(0, 4).filter((a) => a.statusCode === 409).length).toBe(4);
    const [job] = await t.db.query<{ done_qty: number }>(
      'SELECT done_qty FROM work_jobs WHERE id = $1',
      [id],
    );
    // What the finished job keeps is what was counted before it finished, and nothing after.
    expect(job!.done_qty).toBe(counted);
    const [logs] = await t.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM work_logs WHERE action = 'count' AND user_id = $1",
      [workerIds[1]],
    );
    expect(logs!.n).toBe(counted);
  });
});
