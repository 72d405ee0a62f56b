import * as z from 'zod/mini';
import type { Access } from '../access.js';
import { defineEndpoint } from '../endpoint.js';
import { boxScanAnswerSchema, inventoryBoxCountSchema } from '../inventory/box-scans.contract.js';
import { defineLifecycle } from '../lifecycle.js';
import { idNumber, idParamsSchema, pickerOptionSchema } from '../list.js';
import { optionalText } from '../master-data/fields.js';
import { isoDate, scanBodyShape } from '../receiving/receiving-fields.js';
import {
  booleanFilter,
  defineList,
  downloadSchema,
  enumFilter,
  FILE_FORMATS,
  idFilter,
  listEndpoints,
} from '../resource.js';
import { STATION_ACCESS } from '../roles.js';
import { timelineEventSchema } from '../timeline.js';

/**
 * Work jobs (DOMAIN.md 2.2 Job, 4.11; migration 0072): a leader or manager creates a job on
 * /report/job (a count of boxes, a move, a production or repair target) for people whose roles
 * allow its kind; they start it, do it and finish it on /report/work; a manager verifies,
 * reassigns or reopens it on /report/admin. A count job locks its boxes until it is done.
 */

export const JOB_CREATE_ACCESS = { permission: 'task-jobs.create' } as const;
export const JOB_WORKER_ACCESS = { permission: 'tasks.worker-list' } as const;
export const JOB_MANAGER_ACCESS = { permission: 'tasks.manager-list' } as const;

export const WORK_JOB_KINDS = ['count', 'move', 'production', 'repair', 'other'] as const;
export type WorkJobKind = (typeof WORK_JOB_KINDS)[number];

export const WORK_JOB_KIND_TEXT: Record<WorkJobKind, string> = {
  count: 'Count',
  move: 'Move',
  production: 'Production',
  repair: 'Repair',
  other: 'Other',
};

/**
 * Who may be given a job of each kind: someone who works on /report/work and whose roles allow
 * the work. A count is the box scan station's verify mode; a move is putaway's; production and
 * repair are their stations' workers (DOMAIN.md 6.3).
 */
export const WORK_JOB_KIND_ACCESS: Record<WorkJobKind, Access> = {
  count: { permission: 'box.scan-device', andPermission: 'tasks.worker-list' },
  move: { permission: 'location.assignment', andPermission: 'tasks.worker-list' },
  production: { ...STATION_ACCESS.productTeamWorker, andPermission: 'tasks.worker-list' },
  repair: { ...STATION_ACCESS.repairWorker, andPermission: 'tasks.worker-list' },
  other: JOB_WORKER_ACCESS,
};

export const WORK_JOB_STATUSES = [
  'assigned',
  'in_progress',
  'done',
  'verified',
  'cancelled',
] as const;
export type WorkJobStatus = (typeof WORK_JOB_STATUSES)[number];
/** States of a job still to be done: what "open" and "overdue" count. */
export const OPEN_WORK_JOB_STATUSES = [
  'assigned',
  'in_progress',
] as const satisfies readonly WorkJobStatus[];

/** The job's state machine (DOMAIN.md 3.7, 4.11). */
export const workJobLifecycle = defineLifecycle({
  name: 'work_job',
  states: WORK_JOB_STATUSES,
  terminal: ['cancelled'],
  actions: {
    start: {
      from: ['assigned'],
      to: 'in_progress',
      label: 'start',
      event: 'started',
      permission: JOB_WORKER_ACCESS,
    },
    finish: {
      from: ['in_progress'],
      to: 'done',
      label: 'finish',
      event: 'finished',
      permission: JOB_WORKER_ACCESS,
    },
    verify: {
      from: ['done'],
      to: 'verified',
      label: 'verify',
      event: 'verified',
      permission: JOB_MANAGER_ACCESS,
    },
    reopen: {
      from: ['done', 'verified'],
      to: 'in_progress',
      label: 'reopen',
      event: 'reopened',
      permission: JOB_MANAGER_ACCESS,
      reason: 'optional',
    },
    cancel: {
      from: ['assigned', 'in_progress'],
      to: 'cancelled',
      label: 'cancel',
      event: 'cancelled',
      permission: JOB_CREATE_ACCESS,
      reason: 'optional',
    },
  },
});
export type WorkJobAction = keyof typeof workJobLifecycle.actions;

const personSchema = z.object({ id: z.int(), name: z.string() });

/** A job as the lists show it. */
export const workJobRowSchema = z.object({
  id: z.int(),
  kind: z.enum(WORK_JOB_KINDS),
  title: z.string(),
  instructions: z.nullable(z.string()),
  target_qty: z.nullable(z.int()),
  done_qty: z.int(),
  due_at: z.nullable(z.string()),
  status: z.enum(WORK_JOB_STATUSES),
  /** Open and past its due time. */
  overdue: z.boolean(),
  assignees: z.array(personSchema),
  assignees_text: z.string(),
  boxes_text: z.string(),
  locations_text: z.string(),
  product_request_id: z.nullable(z.int()),
  product_request_number: z.nullable(z.string()),
  created_by_name: z.nullable(z.string()),
  created_at: z.string(),
  started_at: z.nullable(z.string()),
  done_at: z.nullable(z.string()),
  verified_at: z.nullable(z.string()),
});
export type WorkJobRow = z.infer<typeof workJobRowSchema>;

/** A box of a job, with its count while a count job runs or as it finished. */
export const workJobBoxSchema = z.object({
  box_id: z.int(),
  code: z.string(),
  status: z.string(),
  qty: z.int(),
  count: z.nullable(inventoryBoxCountSchema),
});
export type WorkJobBox = z.infer<typeof workJobBoxSchema>;

export const workJobDetailSchema = z.object({
  job: workJobRowSchema,
  boxes: z.array(workJobBoxSchema),
  locations: z.array(z.object({ id: z.int(), code: z.string() })),
  events: z.array(timelineEventSchema),
});
export type WorkJobDetail = z.infer<typeof workJobDetailSchema>;

const jobFilters = {
  status: enumFilter(WORK_JOB_STATUSES),
  kind: enumFilter(WORK_JOB_KINDS),
  assignee_id: idFilter,
  overdue: booleanFilter,
};
const jobExportColumns = [
  { key: 'id', header: 'Job', example: '12' },
  { key: 'kind', header: 'Kind', example: 'count' },
  { key: 'title', header: 'Title', example: 'Count aisle A boxes' },
  { key: 'assignees_text', header: 'Assignees', example: 'Ana Lima, Joe Park' },
  { key: 'target_qty', header: 'Target', example: '120' },
  { key: 'done_qty', header: 'Done', example: '118' },
  { key: 'due_at', header: 'Due', example: '2026-11-02T17:00:00Z' },
  { key: 'status', header: 'Status', example: 'done' },
  { key: 'overdue', header: 'Overdue', example: 'false' },
  { key: 'boxes_text', header: 'Boxes', example: 'IB-000012, IB-000013' },
  { key: 'locations_text', header: 'Locations', example: 'A-01-02' },
  { key: 'product_request_number', header: 'Product request', example: 'PR-000004' },
  { key: 'created_by_name', header: 'Created by', example: 'Mia Cruz' },
  { key: 'created_at', header: 'Created', example: '2026-11-01T08:00:00Z' },
] as const;

/**
 * The jobs' list, once per page that shows it: /report/job (who creates jobs) and /report/admin
 * (managers), each under its own guard, the same rows.
 */
const jobList = <const Name extends string>(
  name: Name,
  view: Access & { readonly permission: string },
) =>
  defineList({
    name,
    singular: 'job',
    plural: 'Jobs',
    tag: 'Working report',
    view,
    item: workJobRowSchema,
    filters: jobFilters,
    sorts: ['created_at', 'due_at'],
    defaultSort: 'created_at',
    defaultOrder: 'desc',
    exportColumns: jobExportColumns,
  });

export const workJobList = jobList('work-jobs', JOB_CREATE_ACCESS);
export const workJobListEndpoints = listEndpoints(workJobList);
export const teamJobList = jobList('team-jobs', JOB_MANAGER_ACCESS);
export const teamJobListEndpoints = listEndpoints(teamJobList);

const codes = (what: string, max: number) =>
  z._default(
    z
      .array(
        z
          .string(`Write each ${what} code.`)
          .check(z.trim(), z.minLength(1, `Write each ${what} code.`), z.maxLength(40)),
      )
      .check(z.maxLength(max, `Link at most ${max} ${what}es.`)),
    [],
  );
const title = z
  .string('Write the job’s title.')
  .check(
    z.trim(),
    z.minLength(1, 'Write the job’s title.'),
    z.maxLength(200, 'The title is too long (at most 200 characters).'),
  );
const targetQty = z.optional(
  z.nullable(
    z
      .int('Write the target as a whole number of units.')
      .check(z.gte(1, 'The target is at least 1.'), z.lte(1_000_000, 'The target is too large.')),
  ),
);
const assigneeIds = z
  .array(idNumber)
  .check(
    z.minLength(1, 'Choose at least one assignee.'),
    z.maxLength(20, 'Choose at most 20 assignees.'),
  );

export const createWorkJobSchema = z.object({
  kind: z.enum(WORK_JOB_KINDS, 'Choose the kind of job.'),
  title,
  instructions: optionalText('instructions', 1000),
  target_qty: targetQty,
  assignee_ids: assigneeIds,
  due_at: z.optional(
    z.nullable(z.iso.datetime({ offset: true, error: 'Choose the due date and time.' })),
  ),
  box_codes: codes('box', 50),
  location_codes: codes('location', 50),
  product_request_number: optionalText('product request number', 40),
  template_id: z.optional(z.nullable(idNumber)),
});
export type CreateWorkJobInput = z.input<typeof createWorkJobSchema>;

export const workJobTemplateSchema = z.object({
  id: z.int(),
  name: z.string(),
  kind: z.enum(WORK_JOB_KINDS),
  title: z.string(),
  target_qty: z.nullable(z.int()),
  instructions: z.nullable(z.string()),
});
export type WorkJobTemplate = z.infer<typeof workJobTemplateSchema>;

const reasonBody = z.object({ reason: optionalText('reason', 500) });

/** Managers' and workers' eligible people for a kind (the assignee pickers). */
const assigneesEndpoint = (
  path: string,
  guard: typeof JOB_CREATE_ACCESS | typeof JOB_MANAGER_ACCESS,
) =>
  defineEndpoint({
    method: 'GET',
    path,
    summary: 'Active people whose roles allow a job of the kind, by name (at most 200)',
    tag: 'Working report',
    guard,
    query: z.object({ kind: z.enum(WORK_JOB_KINDS, 'Choose the kind of job.') }),
    response: z.array(pickerOptionSchema),
  });

const detailEndpoint = (
  path: string,
  guard: typeof JOB_CREATE_ACCESS | typeof JOB_MANAGER_ACCESS,
) =>
  defineEndpoint({
    method: 'GET',
    path,
    summary: 'A job with its boxes and their counts, its locations and its timeline',
    tag: 'Working report',
    guard,
    params: idParamsSchema,
    response: workJobDetailSchema,
  });

/** /report/job: create, templates, cancel. */
export const workJobEndpoints = {
  create: defineEndpoint({
    method: 'POST',
    path: '/work-jobs',
    summary:
      'Create a job: 422 naming an assignee whose roles do not allow its kind, or a box a count cannot lock; a count job locks its boxes',
    tag: 'Working report',
    guard: JOB_CREATE_ACCESS,
    body: createWorkJobSchema,
    response: workJobDetailSchema,
    successStatus: 201,
  }),
  detail: detailEndpoint('/work-jobs/:id/details', JOB_CREATE_ACCESS),
  assignees: assigneesEndpoint('/work-jobs/assignees', JOB_CREATE_ACCESS),
  cancel: defineEndpoint({
    method: 'POST',
    path: '/work-jobs/:id/cancellation',
    summary: 'Cancel an open job; a count job unlocks its boxes (409 when it is done already)',
    tag: 'Working report',
    guard: JOB_CREATE_ACCESS,
    params: idParamsSchema,
    body: reasonBody,
    response: workJobDetailSchema,
  }),
  templates: defineEndpoint({
    method: 'GET',
    path: '/work-job-templates',
    summary: 'The saved job templates, by name',
    tag: 'Working report',
    guard: JOB_CREATE_ACCESS,
    response: z.array(workJobTemplateSchema),
  }),
  saveTemplate: defineEndpoint({
    method: 'POST',
    path: '/work-jobs/:id/template',
    summary: 'Save a job as a template: its kind, title, target and instructions',
    tag: 'Working report',
    guard: JOB_CREATE_ACCESS,
    params: idParamsSchema,
    body: z.object({
      name: z
        .string('Name the template.')
        .check(
          z.trim(),
          z.minLength(1, 'Name the template.'),
          z.maxLength(120, 'The name is too long (at most 120 characters).'),
        ),
    }),
    response: workJobTemplateSchema,
    successStatus: 201,
  }),
} as const;

/** A worker's job on /report/work: the job with its boxes, counts and notes. */
export const myWorkJobSchema = workJobDetailSchema;
export type MyWorkJob = WorkJobDetail;

export const workDayCountSchema = z.object({
  day: z.string(),
  action: z.string(),
  qty: z.int(),
  rework: z.int(),
  duration_s: z.int(),
});
export type WorkDayCount = z.infer<typeof workDayCountSchema>;

export const myWorkSchema = z.object({
  /** The business day "today" is. */
  today: z.string(),
  today_counts: z.array(workDayCountSchema),
  /** Units the caller's open jobs target and have done. */
  target_qty: z.int(),
  done_qty: z.int(),
  history: z.array(workDayCountSchema),
});
export type MyWork = z.infer<typeof myWorkSchema>;

export const countScanBodySchema = z.object({
  ...scanBodyShape,
  box_code: z
    .string('Scan the box.')
    .check(z.minLength(1, 'Scan the box.'), z.maxLength(40, 'This is no box code.')),
});
export type CountScanInput = z.input<typeof countScanBodySchema>;

export const countScanAnswerSchema = z.object({
  scan: boxScanAnswerSchema,
  job: workJobDetailSchema,
});
export type CountScanAnswer = z.infer<typeof countScanAnswerSchema>;

const myJobAction = <const B extends z.ZodMiniType>(path: string, summary: string, body: B) =>
  defineEndpoint({
    method: 'POST',
    path: `/my-work/jobs/:id/${path}`,
    summary,
    tag: 'Working report',
    guard: JOB_WORKER_ACCESS,
    params: idParamsSchema,
    body,
    response: workJobDetailSchema,
  });

const historyQuery = z.object({
  from: z.optional(isoDate('start date')),
  to: z.optional(isoDate('end date')),
});

/** /report/work: only the caller's jobs and work. */
export const myWorkEndpoints = {
  jobs: defineEndpoint({
    method: 'GET',
    path: '/my-work/jobs',
    summary: "The caller's assigned and in-progress jobs, due first",
    tag: 'Working report',
    guard: JOB_WORKER_ACCESS,
    response: z.array(myWorkJobSchema),
  }),
  counts: defineEndpoint({
    method: 'GET',
    path: '/my-work/counts',
    summary:
      "The caller's units by action today, against the targets of the open jobs, and by day over a range (30 days by default)",
    tag: 'Working report',
    guard: JOB_WORKER_ACCESS,
    query: historyQuery,
    response: myWorkSchema,
  }),
  start: myJobAction('start', 'Start one of my jobs', z.object({})),
  finish: myJobAction(
    'finish',
    'Finish one of my jobs: a count job finishes its boxes’ counts and unlocks them; another records the units done',
    z.object({
      done_qty: z.optional(
        z.nullable(
          z
            .int('Write the units done as a whole number.')
            .check(z.gte(0, 'The units done cannot be negative.'), z.lte(1_000_000)),
        ),
      ),
    }),
  ),
  note: myJobAction(
    'notes',
    'Write a note on one of my jobs',
    z.object({
      note: z
        .string('Write the note.')
        .check(
          z.trim(),
          z.minLength(1, 'Write the note.'),
          z.maxLength(1000, 'The note is too long (at most 1000 characters).'),
        ),
    }),
  ),
  countScan: defineEndpoint({
    method: 'POST',
    path: '/my-work/jobs/:id/count-scans',
    summary:
      'Count a scanned device in a box of my count job: found, unexpected (in another box or none) or already counted',
    tag: 'Working report',
    guard: JOB_WORKER_ACCESS,
    params: idParamsSchema,
    body: countScanBodySchema,
    response: countScanAnswerSchema,
  }),
} as const;

export const workerSummarySchema = z.object({
  user_id: z.int(),
  name: z.string(),
  day: z.string(),
  units: z.int(),
  hours: z.number(),
  rework: z.int(),
  jobs_done: z.int(),
});
export type WorkerSummary = z.infer<typeof workerSummarySchema>;

const rangeQuery = z.object({ from: isoDate('start date'), to: isoDate('end date') });

/** The hours and units file: one row per worker and day. */
export const WORKER_SUMMARY_COLUMNS = [
  { key: 'day', header: 'Day', example: '2026-11-02' },
  { key: 'name', header: 'Worker', example: 'Ana Lima' },
  { key: 'units', header: 'Units', example: '240' },
  { key: 'hours', header: 'Hours', example: '6.5' },
  { key: 'rework', header: 'Rework', example: '3' },
  { key: 'jobs_done', header: 'Jobs done', example: '2' },
] as const;

const teamJobAction = <const B extends z.ZodMiniType>(path: string, summary: string, body: B) =>
  defineEndpoint({
    method: 'POST',
    path: `/team-jobs/:id/${path}`,
    summary,
    tag: 'Working report',
    guard: JOB_MANAGER_ACCESS,
    params: idParamsSchema,
    body,
    response: workJobDetailSchema,
  });

/** /report/admin: every job, per-worker summaries, verify, reassign, reopen, export. */
export const teamJobEndpoints = {
  detail: detailEndpoint('/team-jobs/:id/details', JOB_MANAGER_ACCESS),
  assignees: assigneesEndpoint('/team-jobs/assignees', JOB_MANAGER_ACCESS),
  verify: teamJobAction('verification', 'Verify a done job (409 unless it is done)', z.object({})),
  reopen: teamJobAction(
    'reopening',
    'Reopen a done or verified job: back in progress; a count job locks its boxes again',
    reasonBody,
  ),
  reassign: teamJobAction(
    'assignees',
    'Give an open job to other people (422 naming one whose roles do not allow its kind)',
    z.object({ assignee_ids: assigneeIds }),
  ),
  summaries: defineEndpoint({
    method: 'GET',
    path: '/team-work/summaries',
    summary: 'Units, hours, rework and jobs done per worker and day over a range (at most 92 days)',
    tag: 'Working report',
    guard: JOB_MANAGER_ACCESS,
    query: rangeQuery,
    response: z.array(workerSummarySchema),
  }),
  exportSummaries: defineEndpoint({
    method: 'POST',
    path: '/team-work/summaries/exports',
    summary: 'A download link for the hours and units per worker and day over a range',
    tag: 'Working report',
    guard: JOB_MANAGER_ACCESS,
    body: z.object({
      ...rangeQuery.shape,
      format: z._default(z.enum(FILE_FORMATS), 'csv'),
    }),
    response: downloadSchema,
    successStatus: 201,
  }),
} as const;
