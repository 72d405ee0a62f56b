import {
  ADMIN_ROLE_KEY,
  describeAccess,
  roleKeyOf,
  WORK_JOB_KIND_ACCESS,
  type Access,
  type BoxScanAnswer,
  type InventoryBoxCount,
  type CountScanAnswer,
  type PickerOption,
  type WorkJobAction,
  type WorkJobDetail,
  type WorkJobKind,
  type WorkJobTemplate,
} from '@inventory/contract';
import type * as z from 'zod/mini';
import type { createWorkJobSchema, countScanBodySchema } from '@inventory/contract';
import type { Queryable, Transaction } from '../../db/db.js';
import { ConflictError, fieldError, NotFoundError, ValidationError } from '../../http/errors.js';
import type { Principal, RequestMeta } from '../../http/principal.js';
import type { Writer as Acting } from '../../toolkit/stores.js';
import { runTransition } from '../../toolkit/lifecycle.js';
import { auditActor, recordAudit } from '../audit/index.js';
import { jobDetail, workJobStore } from './jobs.store.js';

/**
 * Work jobs (DOMAIN.md 4.11): created on /report/job for people whose roles allow the kind, done
 * on /report/work, verified, reassigned or reopened on /report/admin. Every step is the lifecycle
 * toolkit's (state checked under the job's row lock, timeline and audit written); a count job's
 * boxes are counted by the inventory area's counts (migration 0028), which lock them.
 */

type CreateInput = z.output<typeof createWorkJobSchema>;

/**
 * The inventory area's counts of boxes (box-scans.service.ts), given by the module registry: the
 * inventory area and the devices area use each other, so its index cannot offer them.
 */
export type BoxCounts = {
  readonly start: (
    tx: Transaction,
    actor: Principal,
    meta: RequestMeta,
    boxId: number,
  ) => Promise<InventoryBoxCount>;
  readonly finish: (
    tx: Transaction,
    actor: Principal,
    meta: RequestMeta,
    countId: number,
  ) => Promise<unknown>;
  readonly scan: (
    tx: Transaction,
    actor: Principal,
    meta: RequestMeta,
    input: { mode: 'verify'; code: string; box_code: string; station?: string | undefined },
  ) => Promise<BoxScanAnswer>;
};
type CountScanInput = z.output<typeof countScanBodySchema>;

/**
 * Whether the user `u` meets an access rule, in SQL: the administrator role passes; a permission
 * is held through a role; a role list is met by a role's stable key (never its name).
 */
function accessSql(access: Access, params: unknown[]): string {
  const holdsPermission = (permission: string) => {
    params.push(permission.toLowerCase());
    return `EXISTS (SELECT 1 FROM user_roles ur JOIN role_permissions rp ON rp.role_id = ur.role_id
      JOIN permissions p ON p.id = rp.permission_id
      WHERE ur.user_id = u.id AND lower(p.name) = $${params.length})`;
  };
  const conditions: string[] = [];
  if (access.permission === 'roles') {
    params.push((access.roles ?? []).map(roleKeyOf));
    conditions.push(`EXISTS (SELECT 1 FROM user_roles ur JOIN roles r ON r.id = ur.role_id
      WHERE ur.user_id = u.id AND r.key = ANY ($${params.length}::text[]))`);
  } else if (access.permission) {
    conditions.push(holdsPermission(access.permission));
  }
  if (access.andPermission) conditions.push(holdsPermission(access.andPermission));
  params.push(ADMIN_ROLE_KEY);
  const admin = `EXISTS (SELECT 1 FROM user_roles ur JOIN roles r ON r.id = ur.role_id
    WHERE ur.user_id = u.id AND r.key = $${params.length})`;
  return `(${admin} OR (${conditions.join(' AND ') || 'true'}))`;
}

/** Active staff who may be given a job of the kind, by name (the assignee pickers). */
export async function eligibleAssignees(db: Queryable, kind: WorkJobKind): Promise<PickerOption[]> {
  const params: unknown[] = [];
  const allowed = accessSql(WORK_JOB_KIND_ACCESS[kind], params);
  return db.query<PickerOption>(
    `SELECT u.id::int AS id, u.name AS label FROM users u
     WHERE u.status = 'active' AND u.type = 'staff' AND ${allowed}
     ORDER BY u.name, u.id LIMIT 200`,
    params,
  );
}

/**
 * The assignees of a job of the kind, checked: 422 on `assignee_ids` naming each one who is not
 * an active staff member or whose roles do not allow the kind.
 */
async function checkAssignees(
  db: Queryable,
  kind: WorkJobKind,
  ids: readonly number[],
): Promise<{ id: number; name: string }[]> {
  const unique = [...new Set(ids)];
  const params: unknown[] = [unique];
  const allowed = accessSql(WORK_JOB_KIND_ACCESS[kind], params);
  const people = await db.query<{ id: number; name: string; active: boolean; allowed: boolean }>(
    `SELECT u.id::int AS id, u.name, u.status = 'active' AND u.type = 'staff' AS active,
       ${allowed} AS allowed
     FROM users u WHERE u.id = ANY ($1::bigint[])`,
    params,
  );
  const problems = unique.flatMap((id) => {
    const person = people.find((each) => each.id === id);
    if (!person) return [`There is no user ${id}.`];
    if (!person.active) return [`${person.name} is not an active staff member.`];
    if (!person.allowed) {
      return [
        `${person.name} cannot be given a ${kind} job: it needs ${describeAccess(WORK_JOB_KIND_ACCESS[kind])}.`,
      ];
    }
    return [];
  });
  if (problems.length > 0) throw new ValidationError({ assignee_ids: problems });
  return people;
}

/** Codes resolved to ids, 422 on `field` naming the codes nothing has. */
async function idsOfCodes(
  tx: Queryable,
  table: 'inventory_boxes' | 'locations',
  field: string,
  codes: readonly string[],
): Promise<{ id: number; code: string }[]> {
  const wanted = [...new Set(codes.map((code) => code.toUpperCase()))];
  if (wanted.length === 0) return [];
  const found = await tx.query<{ id: number; code: string }>(
    `SELECT id::int AS id, code FROM ${table} WHERE code = ANY ($1::text[]) ORDER BY id`,
    [wanted],
  );
  const unknown = wanted.filter((code) => !found.some((each) => each.code === code));
  if (unknown.length > 0) {
    const what = table === 'locations' ? 'location' : 'inventory box';
    throw fieldError(field, `No ${what} has the code ${unknown.join(', ')}.`);
  }
  return found;
}

const writeAssignees = (tx: Transaction, jobId: number, ids: readonly number[]) =>
  tx.query(
    `INSERT INTO work_job_assignees (job_id, user_id)
     SELECT $1, unnest($2::bigint[]) ON CONFLICT DO NOTHING`,
    [jobId, ids],
  );

/** Starts a count on each box of a count job (each locks its box), in box id order. */
async function startCounts(
  tx: Transaction,
  counts: BoxCounts,
  acting: Acting,
  jobId: number,
): Promise<void> {
  const boxes = await tx.query<{ box_id: number }>(
    'SELECT box_id::int AS box_id FROM work_job_boxes WHERE job_id = $1 ORDER BY box_id',
    [jobId],
  );
  for (const { box_id } of boxes) {
    const count = await counts.start(tx, acting.actor, acting.meta, box_id);
    await tx.query('UPDATE work_job_boxes SET count_id = $3 WHERE job_id = $1 AND box_id = $2', [
      jobId,
      box_id,
      count.id,
    ]);
  }
}

/**
 * Finishes the counts of a count job still running (each unlocks its box; one finished at the box
 * station already stays as it was) and answers the devices found by all of them.
 */
async function finishCounts(
  tx: Transaction,
  counts: BoxCounts,
  acting: Acting,
  jobId: number,
): Promise<number> {
  const running = await tx.query<{ count_id: number }>(
    `SELECT jb.count_id::int AS count_id FROM work_job_boxes jb
     JOIN inventory_box_counts c ON c.id = jb.count_id
     WHERE jb.job_id = $1 AND c.finished_at IS NULL ORDER BY jb.box_id`,
    [jobId],
  );
  for (const { count_id } of running) await counts.finish(tx, acting.actor, acting.meta, count_id);
  const [found] = await tx.query<{ found: number }>(
    `SELECT count(*)::int AS found FROM work_job_boxes jb
     JOIN inventory_box_count_scans s ON s.count_id = jb.count_id AND s.in_box
     WHERE jb.job_id = $1`,
    [jobId],
  );
  return found!.found;
}

/**
 * Creates a job (/report/job). Its assignees must be allowed its kind (422 naming who is not); a
 * count job needs boxes, each countable now, and locks them; its target is what they hold unless
 * given.
 */
export async function createJob(
  tx: Transaction,
  counts: BoxCounts,
  acting: Acting,
  input: CreateInput,
): Promise<WorkJobDetail> {
  await checkAssignees(tx, input.kind, input.assignee_ids);
  const boxes = await idsOfCodes(tx, 'inventory_boxes', 'box_codes', input.box_codes);
  const locations = await idsOfCodes(tx, 'locations', 'location_codes', input.location_codes);
  if (input.kind === 'count' && boxes.length === 0) {
    throw fieldError('box_codes', 'A count job counts boxes: link at least one box.');
  }
  let productRequestId: number | null = null;
  if (input.product_request_number) {
    const [request] = await tx.query<{ id: number }>(
      'SELECT id::int AS id FROM product_requests WHERE number = upper($1)',
      [input.product_request_number],
    );
    if (!request) {
      throw fieldError(
        'product_request_number',
        `No product request has the number ${input.product_request_number}.`,
      );
    }
    productRequestId = request.id;
  }
  if (input.template_id) {
    const [template] = await tx.query('SELECT 1 FROM work_job_templates WHERE id = $1', [
      input.template_id,
    ]);
    if (!template) throw fieldError('template_id', 'This template no longer exists.');
  }
  const [job] = await tx.query<{ id: number }>(
    `INSERT INTO work_jobs (kind, title, instructions, target_qty, due_at, product_request_id,
       template_id, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id::int AS id`,
    [
      input.kind,
      input.title,
      input.instructions ?? null,
      input.target_qty ?? null,
      input.due_at ?? null,
      productRequestId,
      input.template_id ?? null,
      acting.actor.userId,
    ],
  );
  const id = job!.id;
  await writeAssignees(tx, id, input.assignee_ids);
  await tx.query('INSERT INTO work_job_boxes (job_id, box_id) SELECT $1, unnest($2::bigint[])', [
    id,
    boxes.map((box) => box.id),
  ]);
  await tx.query(
    'INSERT INTO work_job_locations (job_id, location_id) SELECT $1, unnest($2::bigint[])',
    [id, locations.map((location) => location.id)],
  );
  if (input.kind === 'count') {
    await startCounts(tx, counts, acting, id);
    if (input.target_qty == null) {
      await tx.query(
        `UPDATE work_jobs SET target_qty = NULLIF((SELECT sum(c.expected_qty)::int
           FROM work_job_boxes jb JOIN inventory_box_counts c ON c.id = jb.count_id
           WHERE jb.job_id = $1), 0) WHERE id = $1`,
        [id],
      );
    }
  }
  const after = {
    kind: input.kind,
    title: input.title,
    target_qty: input.target_qty ?? null,
    assignee_ids: [...new Set(input.assignee_ids)],
    due_at: input.due_at ?? null,
    boxes: boxes.map((box) => box.code),
    locations: locations.map((location) => location.code),
    product_request_id: productRequestId,
    template_id: input.template_id ?? null,
  };
  await tx.query(
    `INSERT INTO work_job_events (job_id, actor_id, actor_name, type, to_status, data)
     VALUES ($1, $2, $3, 'created', 'assigned', $4::jsonb)`,
    [id, acting.actor.userId, acting.actor.userName, JSON.stringify(after)],
  );
  await recordAudit(tx, {
    ...auditActor(acting.actor, acting.meta),
    action: 'work_job.created',
    entityType: 'work_job',
    entityId: id,
    after,
  });
  return jobDetail(tx, id);
}

/** A job's kind, read with its row locked (FOR SHARE: a step's FOR UPDATE waits for it). */
async function jobKind(
  tx: Transaction,
  id: number,
  lock: 'FOR SHARE' | '' = '',
): Promise<WorkJobKind> {
  const [job] = await tx.query<{ kind: WorkJobKind }>(
    `SELECT kind FROM work_jobs WHERE id = $1 ${lock}`,
    [id],
  );
  if (!job) throw new NotFoundError(`There is no job ${id}.`);
  return job.kind;
}

/** Refuses (404) a worker's step on a job that is not theirs: own data only. */
async function assertAssigned(tx: Queryable, acting: Acting, id: number): Promise<void> {
  const [mine] = await tx.query(
    'SELECT 1 FROM work_job_assignees WHERE job_id = $1 AND user_id = $2',
    [id, acting.actor.userId],
  );
  if (!mine) throw new NotFoundError(`You have no job ${id}.`);
}

/** One step of the lifecycle, with what the step does to a count job's boxes. */
async function step(
  tx: Transaction,
  counts: BoxCounts,
  acting: Acting,
  id: number,
  action: WorkJobAction,
  extra: { reason?: string | null; done_qty?: number | null } = {},
): Promise<WorkJobDetail> {
  const kind = await jobKind(tx, id);
  await runTransition(tx, workJobStore, {
    id,
    action,
    actor: acting.actor,
    meta: acting.meta,
    reason: extra.reason ?? null,
  });
  if (kind === 'count' && (action === 'finish' || action === 'cancel')) {
    const found = await finishCounts(tx, counts, acting, id);
    await tx.query('UPDATE work_jobs SET done_qty = $2 WHERE id = $1', [id, found]);
  } else if (kind === 'count' && action === 'reopen') {
    await startCounts(tx, counts, acting, id);
  } else if (action === 'finish' && extra.done_qty != null) {
    await tx.query('UPDATE work_jobs SET done_qty = $2 WHERE id = $1', [id, extra.done_qty]);
  }
  return jobDetail(tx, id);
}

export const cancelJob = (
  tx: Transaction,
  counts: BoxCounts,
  acting: Acting,
  id: number,
  reason: string | null,
) => step(tx, counts, acting, id, 'cancel', { reason });

export const verifyJob = (tx: Transaction, counts: BoxCounts, acting: Acting, id: number) =>
  step(tx, counts, acting, id, 'verify');

export const reopenJob = (
  tx: Transaction,
  counts: BoxCounts,
  acting: Acting,
  id: number,
  reason: string | null,
) => step(tx, counts, acting, id, 'reopen', { reason });

export async function startMyJob(tx: Transaction, counts: BoxCounts, acting: Acting, id: number) {
  await assertAssigned(tx, acting, id);
  return step(tx, counts, acting, id, 'start');
}

export async function finishMyJob(
  tx: Transaction,
  counts: BoxCounts,
  acting: Acting,
  id: number,
  doneQty: number | null,
) {
  await assertAssigned(tx, acting, id);
  return step(tx, counts, acting, id, 'finish', { done_qty: doneQty });
}

/** A note on a job's timeline, by one of its assignees. */
export async function noteMyJob(
  tx: Transaction,
  acting: Acting,
  id: number,
  note: string,
): Promise<WorkJobDetail> {
  await jobKind(tx, id, 'FOR SHARE');
  await assertAssigned(tx, acting, id);
  await tx.query(
    `INSERT INTO work_job_events (job_id, actor_id, actor_name, type, data)
     VALUES ($1, $2, $3, 'note', $4::jsonb)`,
    [id, acting.actor.userId, acting.actor.userName, JSON.stringify({ note })],
  );
  await recordAudit(tx, {
    ...auditActor(acting.actor, acting.meta),
    action: 'work_job.noted',
    entityType: 'work_job',
    entityId: id,
    after: { note },
  });
  return jobDetail(tx, id);
}

/**
 * Gives an open job to other people (/report/admin): 422 naming who may not take its kind, 409
 * once it is done. Its row is locked, so a step and a reassignment take turns.
 */
export async function reassignJob(
  tx: Transaction,
  acting: Acting,
  id: number,
  assigneeIds: readonly number[],
): Promise<WorkJobDetail> {
  const [job] = await tx.query<{ kind: WorkJobKind; status: string }>(
    'SELECT kind, status FROM work_jobs WHERE id = $1 FOR UPDATE',
    [id],
  );
  if (!job) throw new NotFoundError(`There is no job ${id}.`);
  if (job.status !== 'assigned' && job.status !== 'in_progress') {
    throw new ConflictError(
      `A job that is ${job.status.replace(/_/g, ' ')} cannot be reassigned: reopen it first.`,
    );
  }
  const people = await checkAssignees(tx, job.kind, assigneeIds);
  const [before] = await tx.query<{ ids: number[] }>(
    `SELECT COALESCE(array_agg(user_id::int ORDER BY user_id), '{}') AS ids
     FROM work_job_assignees WHERE job_id = $1`,
    [id],
  );
  const ids = people.map((person) => person.id).sort((a, b) => a - b);
  await tx.query('DELETE FROM work_job_assignees WHERE job_id = $1 AND NOT user_id = ANY ($2)', [
    id,
    ids,
  ]);
  await writeAssignees(tx, id, ids);
  await tx.query('UPDATE work_jobs SET updated_at = now() WHERE id = $1', [id]);
  const data = { assignee_ids: ids, assignees: people.map((person) => person.name).sort() };
  await tx.query(
    `INSERT INTO work_job_events (job_id, actor_id, actor_name, type, data)
     VALUES ($1, $2, $3, 'reassigned', $4::jsonb)`,
    [id, acting.actor.userId, acting.actor.userName, JSON.stringify(data)],
  );
  await recordAudit(tx, {
    ...auditActor(acting.actor, acting.meta),
    action: 'work_job.reassigned',
    entityType: 'work_job',
    entityId: id,
    before: { assignee_ids: before!.ids },
    after: data,
  });
  return jobDetail(tx, id);
}

/**
 * One device counted in a box of the caller's count job: the inventory count's verify scan, and
 * the scan counted as the caller's work (`count`). The job's row is held FOR SHARE, so finishing
 * it waits for the scan, and a scan after the finish finds it done (409).
 */
export async function countScan(
  tx: Transaction,
  counts: BoxCounts,
  acting: Acting,
  id: number,
  input: CountScanInput,
): Promise<CountScanAnswer> {
  const [job] = await tx.query<{ kind: WorkJobKind; status: string }>(
    'SELECT kind, status FROM work_jobs WHERE id = $1 FOR SHARE',
    [id],
  );
  if (!job) throw new NotFoundError(`There is no job ${id}.`);
  await assertAssigned(tx, acting, id);
  if (job.kind !== 'count')
    throw new ConflictError(`Job ${id} is no count: it has nothing to scan.`);
  if (job.status !== 'in_progress') {
    throw new ConflictError(
      job.status === 'assigned'
        ? `Start job ${id} before counting its boxes.`
        : `Job ${id} is ${job.status.replace(/_/g, ' ')}: its counts are finished.`,
    );
  }
  const [box] = await tx.query(
    `SELECT 1 FROM work_job_boxes jb JOIN inventory_boxes b ON b.id = jb.box_id
     WHERE jb.job_id = $1 AND b.code = upper(trim($2))`,
    [id, input.box_code],
  );
  if (!box) throw fieldError('box_code', `${input.box_code.trim()} is not a box of job ${id}.`);
  const scan = await counts.scan(tx, acting.actor, acting.meta, {
    mode: 'verify',
    code: input.code,
    box_code: input.box_code,
    station: input.station,
  });
  if ((scan.result === 'counted' || scan.result === 'extra') && scan.device) {
    await recordWork(tx, acting.actor.userId!, 'count', 'device', scan.device.id);
  }
  return { scan, job: await jobDetail(tx, id) };
}

/**
 * One unit of work for the person (migration 0071): its log row; the log's trigger adds it to the
 * day's sums in the same transaction.
 */
async function recordWork(
  tx: Transaction,
  userId: number,
  action: 'count',
  entityType: string,
  entityId: number,
): Promise<void> {
  await tx.query(
    'INSERT INTO work_logs (user_id, action, entity_type, entity_id) VALUES ($1, $2, $3, $4)',
    [userId, action, entityType, entityId],
  );
}

/** Saves a job as a template: its kind, title, target and instructions (422 on a name taken). */
export async function saveTemplate(
  tx: Transaction,
  acting: Acting,
  id: number,
  name: string,
): Promise<WorkJobTemplate> {
  await jobKind(tx, id);
  const [template] = await tx.query<WorkJobTemplate>(
    `INSERT INTO work_job_templates (name, kind, title, target_qty, instructions, created_by)
     SELECT $2, kind, title, target_qty, instructions, $3 FROM work_jobs WHERE id = $1
     ON CONFLICT ((lower(name))) DO NOTHING
     RETURNING id::int AS id, name, kind, title, target_qty, instructions`,
    [id, name, acting.actor.userId],
  );
  if (!template) throw fieldError('name', `A template is named ${name} already.`);
  await recordAudit(tx, {
    ...auditActor(acting.actor, acting.meta),
    action: 'work_job_template.created',
    entityType: 'work_job_template',
    entityId: template.id,
    after: { ...template, from_job: id },
  });
  return template;
}

export const jobTemplates = (db: Queryable) =>
  db.query<WorkJobTemplate>(
    `SELECT id::int AS id, name, kind, title, target_qty, instructions
     FROM work_job_templates ORDER BY lower(name), id LIMIT 500`,
  );
