import type {
  CountScanAnswer,
  MyWork,
  PickerOption,
  WorkerSummary,
  WorkJobDetail,
  WorkJobRow,
} from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, createAdminTestApp, type ApiClient } from '../../test/api-client.js';
import { boxOf, createBins, grade, receiveDevices } from '../../test/inventory-fixtures.js';
import { bodyOf, createUser, login, type TestApp } from '../../test/test-app.js';

/**
 * Work jobs (DOMAIN.md 4.11): created on /report/job for people whose roles allow the kind, done
 * on /report/work (a count job scanned box by box), verified, reassigned and reopened on
 * /report/admin; every refusal and what each step writes.
 */

let t: TestApp;
let admin: ApiClient;
let manager: ApiClient;
let counter: ApiClient;
let other: ApiClient;
let imeis: string[];
let ids: { counter: number; other: number; repairer: number; sorter: number };
let boxes: { id: number; code: string }[];

const userWith = async (userName: string, roles: string[]) => {
  await createUser(t.db, { userName, password: `${userName}-password-1`, roles });
  return apiClient(t, await login(t.app, userName, `${userName}-password-1`));
};
const idOf = async (userName: string) =>
  (
    await t.db.query<{ id: number }>('SELECT id::int AS id FROM users WHERE user_name = $1', [
      userName,
    ])
  )[0]!.id;

beforeAll(async () => {
  let catalogue;
  ({ t, admin } = await createAdminTestApp());
  ({ catalogue, imeis } = await receiveDevices(t, admin, 12));
  await grade(t, imeis, { grade: 'A', colorId: catalogue.colors.black });
  await createBins(t, 'J', 3, { capacity: 10 });
  boxes = [
    await boxOf(t, imeis.slice(0, 3), { location: 'J-01' }),
    await boxOf(t, imeis.slice(3, 5), { location: 'J-02' }),
    await boxOf(t, imeis.slice(5, 6), { location: 'J-03' }),
  ];
  manager = await userWith('wm', ['Warehouse Manager']);
  counter = await userWith('cw', ['Consolidation Worker']);
  other = await userWith('cw2', ['Consolidation Worker']);
  await createUser(t.db, { userName: 'rw', password: 'rw-password-1', roles: ['Repair Worker'] });
  await createUser(t.db, {
    userName: 'ws',
    password: 'ws-password-1',
    roles: ['Warehouse Sorting'],
  });
  ids = {
    counter: await idOf('cw'),
    other: await idOf('cw2'),
    repairer: await idOf('rw'),
    sorter: await idOf('ws'),
  };
});
afterAll(() => t.close());

const ok = <T>(response: { statusCode: number; body: string }, status = 200) => {
  expect(response.statusCode, response.body).toBe(status);
  return bodyOf<T>(response as never).data;
};
const boxStatus = async (code: string) =>
  (
    await t.db.query<{ status: string }>('SELECT status FROM inventory_boxes WHERE code = $1', [
      code,
    ])
  )[0]!.status;

describe('creating a job (/report/job)', () => {
  it('offers as assignees only people whose roles allow the kind', async () => {
    const count = ok<PickerOption[]>(await manager.get('/work-jobs/assignees?kind=count'));
    expect(count.map((option) => option.id)).toEqual(
      expect.arrayContaining([ids.counter, ids.other]),
    );
    expect(count.map((option) => option.id)).not.toContain(ids.repairer);
    const repair = ok<PickerOption[]>(await manager.get('/work-jobs/assignees?kind=repair'));
    expect(repair.map((option) => option.id)).toContain(ids.repairer);
    expect(repair.map((option) => option.id)).not.toContain(ids.counter);
  });

  it('refuses (422) an assignee whose roles do not allow the kind, naming them', async () => {
    const refused = await manager.post('/work-jobs', {
      kind: 'count',
      title: 'Count J',
      assignee_ids: [ids.counter, ids.repairer, ids.sorter],
      box_codes: [boxes[0]!.code],
    });
    expect(refused.statusCode).toBe(422);
    const { message } = bodyOf<never>(refused) as unknown as { message: Record<string, string[]> };
    expect(message.assignee_ids).toHaveLength(2);
    expect(message.assignee_ids!.join(' ')).toMatch(
      /cannot be given a count job.*box\.scan-device/,
    );
    expect(await boxStatus(boxes[0]!.code)).toBe('located');
  });

  it('refuses a count job without boxes, an unknown box, an unknown product request', async () => {
    const base = { kind: 'count', title: 'Count', assignee_ids: [ids.counter] };
    const none = await manager.post('/work-jobs', base);
    expect(none.statusCode).toBe(422);
    expect(none.body).toContain('box_codes');
    const unknown = await manager.post('/work-jobs', { ...base, box_codes: ['IB-999999'] });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.body).toContain('IB-999999');
    const request = await manager.post('/work-jobs', {
      ...base,
      box_codes: [boxes[0]!.code],
      product_request_number: 'PR-999999',
    });
    expect(request.statusCode).toBe(422);
    expect(await boxStatus(boxes[0]!.code)).toBe('located');
  });

  it('needs task-jobs.create', async () => {
    const refused = await counter.post('/work-jobs', {
      kind: 'other',
      title: 'x',
      assignee_ids: [ids.counter],
    });
    expect(refused.statusCode).toBe(403);
    expect((await counter.get('/work-jobs')).statusCode).toBe(403);
    expect((await counter.get('/team-jobs')).statusCode).toBe(403);
  });
});

describe('a count job from creation to verification', () => {
  let job: WorkJobDetail;

  it('is created for two boxes, locking them, with their devices as its target', async () => {
    job = ok<WorkJobDetail>(
      await manager.post('/work-jobs', {
        kind: 'count',
        title: 'Count J-01 and J-02',
        assignee_ids: [ids.counter],
        box_codes: [boxes[0]!.code.toLowerCase(), boxes[1]!.code],
        location_codes: ['J-01'],
        due_at: '2020-01-01T00:00:00Z',
      }),
      201,
    );
    expect(job.job).toMatchObject({
      kind: 'count',
      status: 'assigned',
      target_qty: 5,
      done_qty: 0,
      overdue: true,
      assignees_text: 'Name of cw',
    });
    expect(job.boxes.map((box) => box.status)).toEqual(['locked', 'locked']);
    expect(job.boxes[0]!.count).toMatchObject({ expected: 3, counted: [] });
    expect(job.locations.map((location) => location.code)).toEqual(['J-01']);
    expect(job.events.map((event) => event.type)).toEqual(['created']);
    const audit = await t.db.query(
      "SELECT 1 FROM audit_events WHERE action = 'work_job.created' AND entity_id = $1",
      [job.job.id],
    );
    expect(audit).toHaveLength(1);
  });

  it('refuses a second count job on a box under count', async () => {
    const refused = await manager.post('/work-jobs', {
      kind: 'count',
      title: 'Again',
      assignee_ids: [ids.other],
      box_codes: [boxes[1]!.code],
    });
    expect(refused.statusCode).toBe(409);
    expect(bodyOf(refused).message).toContain('runs already');
  });

  it('keeps devices from going into or out of a box under count', async () => {
    const into = await admin.post('/box-scans', {
      mode: 'move',
      code: imeis[5],
      box_code: boxes[0]!.code,
      from_box_code: boxes[2]!.code,
    });
    expect(into.statusCode).toBe(409);
    expect(bodyOf(into).message).toContain('locked by a count');
    const out = await admin.post('/box-scans', {
      mode: 'remove',
      code: imeis[0],
      box_code: boxes[0]!.code,
    });
    expect(out.statusCode).toBe(409);
  });

  it('is the assignee’s only: another worker neither sees nor starts it', async () => {
    const mine = ok<WorkJobDetail[]>(await counter.get('/my-work/jobs'));
    expect(mine.map((each) => each.job.id)).toEqual([job.job.id]);
    expect(ok<WorkJobDetail[]>(await other.get('/my-work/jobs'))).toEqual([]);
    expect((await other.post(`/my-work/jobs/${job.job.id}/start`, {})).statusCode).toBe(404);
    const scan = await other.post(`/my-work/jobs/${job.job.id}/count-scans`, {
      box_code: boxes[0]!.code,
      code: imeis[0],
    });
    expect(scan.statusCode).toBe(404);
  });

  it('is started before its boxes are counted', async () => {
    const early = await counter.post(`/my-work/jobs/${job.job.id}/count-scans`, {
      box_code: boxes[0]!.code,
      code: imeis[0],
    });
    expect(early.statusCode).toBe(409);
    expect(bodyOf(early).message).toContain('Start job');
    const started = ok<WorkJobDetail>(await counter.post(`/my-work/jobs/${job.job.id}/start`, {}));
    expect(started.job.status).toBe('in_progress');
    expect((await counter.post(`/my-work/jobs/${job.job.id}/start`, {})).statusCode).toBe(409);
  });

  it('counts found, unexpected and repeated devices per box, as the worker’s work', async () => {
    const scan = (box: string, code: string) =>
      counter.post(`/my-work/jobs/${job.job.id}/count-scans`, {
        box_code: box,
        code,
        station: 'count-1',
      });
    const found = ok<CountScanAnswer>(await scan(boxes[0]!.code, imeis[0]!));
    expect(found.scan.result).toBe('counted');
    expect(found.job.job.done_qty).toBe(1);
    ok(await scan(boxes[0]!.code, imeis[1]!));
    const unexpected = ok<CountScanAnswer>(await scan(boxes[0]!.code, imeis[3]!));
    expect(unexpected.scan.result).toBe('extra');
    const again = ok<CountScanAnswer>(await scan(boxes[0]!.code, imeis[0]!));
    expect(again.scan.result).toBe('duplicate');
    ok(await scan(boxes[1]!.code, imeis[3]!));
    ok(await scan(boxes[1]!.code, imeis[4]!));
    const notOfJob = await scan(boxes[2]!.code, imeis[5]!);
    expect(notOfJob.statusCode).toBe(422);
    expect(notOfJob.body).toContain('is not a box of job');

    const box0 = found.job.boxes.find((box) => box.code === boxes[0]!.code)!;
    expect(box0.count!.expected).toBe(3);
    const logs = await t.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM work_logs WHERE action = 'count' AND user_id = $1",
      [ids.counter],
    );
    expect(logs[0]!.n).toBe(5);
    const work = ok<MyWork>(await counter.get('/my-work/counts'));
    expect(work.today_counts).toEqual([
      expect.objectContaining({ day: work.today, action: 'count', qty: 5 }),
    ]);
    expect(work).toMatchObject({ target_qty: 5, done_qty: 4 });
    expect(work.history).toHaveLength(1);
    // Another worker's counts are not theirs.
    expect(ok<MyWork>(await other.get('/my-work/counts')).today_counts).toEqual([]);
  });

  it('takes notes from its assignee', async () => {
    const noted = ok<WorkJobDetail>(
      await counter.post(`/my-work/jobs/${job.job.id}/notes`, { note: 'Box J-02 label torn' }),
    );
    expect(noted.events.at(-1)).toMatchObject({
      type: 'note',
      data: { note: 'Box J-02 label torn' },
    });
    expect(
      (await counter.post(`/my-work/jobs/${job.job.id}/notes`, { note: ' ' })).statusCode,
    ).toBe(422);
  });

  it('is finished: the counts end with what is missing and unexpected, the boxes unlock', async () => {
    const verifyEarly = await manager.post(`/team-jobs/${job.job.id}/verification`, {});
    expect(verifyEarly.statusCode).toBe(409);
    expect(bodyOf(verifyEarly).message).toContain('cannot verify');
    const done = ok<WorkJobDetail>(await counter.post(`/my-work/jobs/${job.job.id}/finish`, {}));
    expect(done.job).toMatchObject({ status: 'done', done_qty: 4, overdue: false });
    const [first, second] = done.boxes;
    expect(first!.status).toBe('located');
    expect(first!.count).toMatchObject({
      missing: [imeis[2]],
      extra: [{ identifier: imeis[3], box_code: boxes[1]!.code }],
    });
    expect(first!.count!.finished_at).not.toBeNull();
    expect(second!.count!.missing).toEqual([]);
    expect(await boxStatus(boxes[1]!.code)).toBe('located');
    expect(ok<WorkJobDetail[]>(await counter.get('/my-work/jobs'))).toEqual([]);
    const late = await counter.post(`/my-work/jobs/${job.job.id}/count-scans`, {
      box_code: boxes[0]!.code,
      code: imeis[2],
    });
    expect(late.statusCode).toBe(409);
  });

  it('is verified by a manager, once; reopened it locks its boxes again', async () => {
    const verified = ok<WorkJobDetail>(
      await manager.post(`/team-jobs/${job.job.id}/verification`, {}),
    );
    expect(verified.job.status).toBe('verified');
    expect(verified.job.verified_at).not.toBeNull();
    const twice = await manager.post(`/team-jobs/${job.job.id}/verification`, {});
    expect(twice.statusCode).toBe(409);
    expect((await counter.post(`/team-jobs/${job.job.id}/verification`, {})).statusCode).toBe(403);

    const reopened = ok<WorkJobDetail>(
      await manager.post(`/team-jobs/${job.job.id}/reopening`, { reason: 'Recount J-01' }),
    );
    expect(reopened.job).toMatchObject({ status: 'in_progress', done_qty: 0, verified_at: null });
    expect(reopened.boxes.map((box) => box.status)).toEqual(['locked', 'locked']);
    const audits = await t.db.query<{ action: string }>(
      "SELECT action FROM audit_events WHERE entity_type = 'work_job' AND entity_id = $1 ORDER BY id",
      [job.job.id],
    );
    expect(audits.map((audit) => audit.action)).toEqual([
      'work_job.created',
      'work_job.started',
      'work_job.noted',
      'work_job.finished',
      'work_job.verified',
      'work_job.reopened',
    ]);
  });

  it('is reassigned only to people allowed its kind, and cancelled, unlocking its boxes', async () => {
    const refused = await manager.post(`/team-jobs/${job.job.id}/assignees`, {
      assignee_ids: [ids.repairer],
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain('cannot be given a count job');
    const moved = ok<WorkJobDetail>(
      await manager.post(`/team-jobs/${job.job.id}/assignees`, { assignee_ids: [ids.other] }),
    );
    expect(moved.job.assignees.map((person) => person.id)).toEqual([ids.other]);
    expect(ok<WorkJobDetail[]>(await counter.get('/my-work/jobs'))).toEqual([]);
    expect(ok<WorkJobDetail[]>(await other.get('/my-work/jobs'))).toHaveLength(1);

    const cancelled = ok<WorkJobDetail>(
      await manager.post(`/work-jobs/${job.job.id}/cancellation`, { reason: 'Stock take moved' }),
    );
    expect(cancelled.job.status).toBe('cancelled');
    expect(cancelled.boxes.map((box) => box.status)).toEqual(['located', 'located']);
    expect((await manager.post(`/work-jobs/${job.job.id}/cancellation`, {})).statusCode).toBe(409);
    expect(
      (await manager.post(`/team-jobs/${job.job.id}/assignees`, { assignee_ids: [ids.counter] }))
        .statusCode,
    ).toBe(409);
  });
});

describe('other kinds, templates, lists and summaries', () => {
  it('records the units a worker reports for a job that is no count', async () => {
    const job = ok<WorkJobDetail>(
      await manager.post('/work-jobs', {
        kind: 'repair',
        title: 'Repair the screen batch',
        target_qty: 10,
        assignee_ids: [ids.repairer],
      }),
      201,
    );
    const repairer = apiClient(t, await login(t.app, 'rw', 'rw-password-1'));
    ok(await repairer.post(`/my-work/jobs/${job.job.id}/start`, {}));
    const scan = await repairer.post(`/my-work/jobs/${job.job.id}/count-scans`, {
      box_code: boxes[0]!.code,
      code: imeis[0],
    });
    expect(scan.statusCode).toBe(409);
    const done = ok<WorkJobDetail>(
      await repairer.post(`/my-work/jobs/${job.job.id}/finish`, { done_qty: 8 }),
    );
    expect(done.job).toMatchObject({ status: 'done', done_qty: 8, target_qty: 10 });

    const template = ok<{ id: number; name: string }>(
      await manager.post(`/work-jobs/${job.job.id}/template`, { name: 'Screen batch' }),
      201,
    );
    expect(template.name).toBe('Screen batch');
    const taken = await manager.post(`/work-jobs/${job.job.id}/template`, { name: 'screen BATCH' });
    expect(taken.statusCode).toBe(422);
    const templates = ok<{ id: number; kind: string; target_qty: number }[]>(
      await manager.get('/work-job-templates'),
    );
    expect(templates).toEqual([expect.objectContaining({ kind: 'repair', target_qty: 10 })]);
    const fromTemplate = ok<WorkJobDetail>(
      await manager.post('/work-jobs', {
        kind: 'repair',
        title: 'Repair the screen batch',
        target_qty: 10,
        assignee_ids: [ids.repairer],
        template_id: template.id,
      }),
      201,
    );
    expect(fromTemplate.job.status).toBe('assigned');
  });

  it('lists jobs with filters on both pages', async () => {
    const all = ok<{ items: WorkJobRow[] }>(await manager.get('/team-jobs?sort=due_at'));
    expect(all.items.length).toBeGreaterThanOrEqual(3);
    const done = ok<{ items: WorkJobRow[] }>(await manager.get('/work-jobs?status=done'));
    expect(done.items.map((row) => row.kind)).toEqual(['repair']);
    const mine = ok<{ items: WorkJobRow[] }>(
      await manager.get(`/team-jobs?assignee_id=${ids.other}`),
    );
    expect(mine.items.map((row) => row.kind)).toEqual(['count']);
    const overdue = ok<{ items: WorkJobRow[] }>(await manager.get('/team-jobs?overdue=true'));
    expect(overdue.items).toEqual([]);
    const exported = await manager.post('/team-jobs/exports', { format: 'csv' });
    expect(exported.statusCode).toBe(201);
  });

  it('sums units and hours per worker and day, and exports them', async () => {
    const today = ok<MyWork>(await counter.get('/my-work/counts')).today;
    const rows = ok<WorkerSummary[]>(
      await manager.get(`/team-work/summaries?from=${today}&to=${today}`),
    );
    expect(rows.filter((row) => row.user_id === ids.counter)).toEqual([
      expect.objectContaining({ day: today, units: 5, jobs_done: 0 }),
    ]);
    const tooLong = await manager.get('/team-work/summaries?from=2020-01-01&to=2021-01-01');
    expect(tooLong.statusCode).toBe(422);
    const link = ok<{ url: string }>(
      await manager.post('/team-work/summaries/exports', { from: today, to: today }),
      201,
    );
    const file = await t.app.inject({ method: 'GET', url: link.url });
    expect(file.statusCode).toBe(200);
    expect(file.body).toContain('Worker');
    expect(file.body).toContain('cw');
    expect((await counter.get(`/team-work/summaries?from=${today}&to=${today}`)).statusCode).toBe(
      403,
    );
  });
});
