import type { WorkLogRow, WorkReport } from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAdminTestApp,
  dataOf,
  refusalOf,
  signedInClient,
  type ApiClient,
} from '../../test/api-client.js';
import { ALL_PASS } from '../../test/production-fixtures.js';
import {
  imeiOf,
  importManifest,
  invoiceIdOf,
  manifestCsv,
  openBox,
  scan,
  TACS,
} from '../../test/receiving-fixtures.js';
import { devicesIn, seedRepair, type RepairPlaces } from '../../test/repair-fixtures.js';
import type { TestApp } from '../../test/test-app.js';

/** A page of the registered work-log list. */
type WorkLogPage = { items: WorkLogRow[]; nextCursor: string | null };

/**
 * Station work counted for the person who did it (migration 0071's triggers), and the report
 * reading it: on PostgreSQL (TEST_DATABASE_URL) the concurrent scans run on separate connections.
 */

let t: TestApp;
let admin: ApiClient;
let places: RepairPlaces;
const IMEIS = Array.from({ length: 12 }, (_, n) => imeiOf(TACS.a14, n + 1));

beforeAll(async () => {
  ({ t, admin } = await createAdminTestApp());
  places = await seedRepair(t, admin);
  await importManifest(
    admin,
    manifestCsv(IMEIS.map((imei) => ({ imei, invoice: 'INV-W', model: 'SM-A145U' }))),
  );
});
afterAll(() => t.close());

const report = (query = '') => dataOf<WorkReport>(admin.get(`/report/dashboard${query}`));
const dayCount = async (userName: string, action: string) =>
  (
    await t.db.query<{ qty: number; rework: number; duration_s: number }>(
      `SELECT c.qty, c.rework, c.duration_s::int AS duration_s FROM work_day_totals c
       JOIN users u ON u.id = c.user_id WHERE u.user_name = $1 AND c.action = $2`,
      [userName, action],
    )
  )[0];
const userId = async (userName: string) =>
  (
    await t.db.query<{ id: number }>('SELECT id::int AS id FROM users WHERE user_name = $1', [
      userName,
    ])
  )[0]!.id;

describe('station work', () => {
  it('counts every receiving scan for the scanner; two at once both count', async () => {
    const box = await openBox(admin, await invoiceIdOf(t, 'INV-W'));
    for (const imei of IMEIS.slice(0, 4))
      expect((await scan(admin, box, imei)).result).toBe('added');
    // A repeat of a scan is no new work.
    expect((await scan(admin, box, IMEIS[0]!)).result).toBe('already_in_box');
    await Promise.all(IMEIS.slice(4).map((imei) => scan(admin, box, imei)));
    expect(await dayCount('pi', 'receive_scan')).toMatchObject({ qty: 12, rework: 0 });
    const [logs] = await t.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM work_logs WHERE action = 'receive_scan'",
    );
    expect(logs!.n).toBe(12);
  });

  it('counts a repair with its clock time, a failed test as rework and the second repair as rework', async () => {
    const [device] = await devicesIn(t.db, places, 1);
    const { id } = await dataOf<{ id: number }>(
      places.sorter.post('/repair-tickets', {
        code: device!.identifier,
        issue_codes: ['LCD-CRACK'],
      }),
      201,
    );
    await dataOf(
      places.sorter.post(`/repair-tickets/${id}/sorting`, {
        issue_codes: ['LCD-CRACK'],
        priority: 'high',
        estimated_cost_cents: 2500,
        resale_value_cents: 12000,
        ber_candidate: false,
      }),
    );
    await dataOf(
      places.leader.post(`/repair-tickets/${id}/assignment`, {
        technician_id: places.technician.id,
      }),
    );
    const tech = places.technician.client;
    await dataOf(tech.post(`/repair-tickets/${id}/clock`, { running: true }));
    // The clock ran a minute and a half.
    await t.db.query(
      "UPDATE repair_labour SET started_at = started_at - interval '90 seconds' WHERE ticket_id = $1",
      [id],
    );
    await dataOf(tech.post(`/repair-tickets/${id}/completion`, {}));
    await dataOf(
      places.tester.post(`/repair-tickets/${id}/test`, { items: { ...ALL_PASS, touch: 'fail' } }),
    );
    await dataOf(tech.post(`/repair-tickets/${id}/clock`, { running: true }));
    await dataOf(tech.post(`/repair-tickets/${id}/completion`, {}));
    await dataOf(places.tester.post(`/repair-tickets/${id}/test`, { items: ALL_PASS, grade: 'B' }));

    const repair = await dayCount('tech1', 'repair');
    expect(repair).toMatchObject({ qty: 2, rework: 1 });
    expect(repair!.duration_s).toBeGreaterThanOrEqual(90);
    expect(await dayCount('tester', 'test')).toMatchObject({ qty: 2, rework: 1 });
    // The sorter's and the leader's steps are no station work.
    const [others] = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM work_logs w JOIN users u ON u.id = w.user_id
       WHERE u.user_name IN ('sorter', 'repairlead')`,
    );
    expect(others!.n).toBe(0);
  });

  it('counts a re-grade as rework: the unit was graded before', async () => {
    const [device] = await devicesIn(t.db, places, 1, 'in_production');
    const worker = await userId('tech2');
    const step = (type: string) =>
      t.db.query(
        `INSERT INTO device_events (device_id, actor_id, actor_name, type, ref_type)
         VALUES ($1, $2, 'tech2', $3, 'device_test')`,
        [device!.id, worker, type],
      );
    await step('failed_qc');
    await step('graded');
    expect(await dayCount('tech2', 'grade')).toMatchObject({ qty: 2, rework: 1 });
  });
});

describe('the report', () => {
  it('shows the range’s work per day and team, units per hour and rework', async () => {
    const figures = await report();
    expect(figures.days.filter((row) => row.team_id === null)).toHaveLength(7);
    const today = figures.days[0]!;
    expect(today).toMatchObject({ team_id: null, team: 'Everyone', day: figures.to });
    expect(today.counts).toMatchObject({ receive_scan: 12, repair: 2, test: 2, grade: 2 });
    expect(figures.totals.receive_scan).toBe(12);
    expect(figures.rework).toContainEqual({ action: 'test', qty: 2, rework: 1, rate: 0.5 });

    const testers = figures.teams.find((team) => team.name === 'Repair Testing')!;
    expect(figures.days).toContainEqual(
      expect.objectContaining({ team_id: testers.id, day: figures.to }),
    );
    const technician = figures.workers.find(
      (row) => row.user_id === places.technician.id && row.action === 'repair',
    )!;
    expect(technician.hours).toBeGreaterThan(0);
    expect(technician.units_per_hour).toBeCloseTo(2 / technician.hours, 0);

    const team = await report(`?team_id=${testers.id}`);
    expect(team.team).toEqual(testers);
    expect(team.totals).toMatchObject({ test: 2, receive_scan: 0 });
    expect(team.days.every((row) => row.team_id === testers.id)).toBe(true);
  });

  it('counts the open work jobs and those past due, of the team read', async () => {
    const before = await report();
    const jobs = await t.db.query<{ id: number }>(
      `INSERT INTO work_jobs (kind, title, due_at, status)
       VALUES ('repair', 'Overdue repairs', now() - interval '1 day', 'in_progress'),
              ('other', 'Due next week', now() + interval '7 days', 'assigned'),
              ('other', 'Done already', now() - interval '1 day', 'done')
       RETURNING id::int AS id`,
    );
    await t.db.query('INSERT INTO work_job_assignees (job_id, user_id) VALUES ($1, $2)', [
      jobs[0]!.id,
      places.technician.id,
    ]);
    const after = await report();
    expect(after.jobs.open - before.jobs.open).toBe(2);
    expect(after.jobs.overdue - before.jobs.overdue).toBe(1);
    const technicians = after.teams.find((team) => team.name === 'Repair Worker')!;
    expect((await report(`?team_id=${technicians.id}`)).jobs).toEqual({ open: 1, overdue: 1 });
  });

  it('drills down to the rows behind a figure and exports them', async () => {
    const { to } = await report();
    const page = await dataOf<WorkLogPage>(
      admin.get(`/report/work-logs?from=${to}&to=${to}&action=test&rework=true`),
    );
    expect(page.items).toHaveLength(1);
    expect(page.items[0]).toMatchObject({
      action: 'test',
      rework: true,
      entity_type: 'repair_ticket',
    });
    expect(page.items[0]!.entity).toMatch(/^RT-/);
    const scans = await dataOf<WorkLogPage>(
      admin.get(`/report/work-logs?action=receive_scan&user_id=${await userId('pi')}&limit=5`),
    );
    expect(scans.items).toHaveLength(5);
    expect(IMEIS).toContain(scans.items[0]!.entity);

    const file = await admin.download('/report/work-logs/exports', {
      action: 'repair',
      format: 'csv',
    });
    expect(file.statusCode).toBe(200);
    expect(file.body.split('\n')[0]).toContain('Worker');
    expect(file.body).toContain('tech1');
    const table = await admin.download('/report/dashboard/exports', { table: 'rework' });
    expect(table.statusCode).toBe(200);
    expect(table.body).toContain('test,2,1,0.5');
  });

  it('refuses a range it cannot read and a person without the permission', async () => {
    const wrong = await admin.get('/report/dashboard?from=2026-11-10&to=2026-11-01');
    expect(wrong.statusCode).toBe(422);
    expect(Object.keys(wrong.json().message as object)).toEqual(['to']);
    expect((await admin.get('/report/dashboard?from=2026-01-01&to=2026-11-01')).statusCode).toBe(
      422,
    );
    expect((await admin.get('/report/dashboard?team_id=999999')).statusCode).toBe(422);
    await refusalOf(places.technician.client.get('/report/dashboard'), 403);
    await refusalOf(places.technician.client.get('/report/work-logs'), 403);
    const clerk = await signedInClient(t, 'clerk', ['Shipping Clerk']);
    await refusalOf(clerk.post('/report/dashboard/exports', { table: 'days' }), 403);
  });
});
