import * as z from 'zod/mini';
import { defineEndpoint } from '../endpoint.js';
import { isoDate } from '../receiving/receiving-fields.js';
import {
  booleanFilter,
  defineList,
  downloadSchema,
  enumFilter,
  FILE_FORMATS,
  idFilter,
  listEndpoints,
  type FileColumn,
} from '../resource.js';

/**
 * The working report (DOMAIN.md 4.11 `/report/dashboard`, 2.2 WorkLog; migration 0071): every
 * station step counts as work for the person who took it, kept per person, business day and
 * action, so the report reads a row per person, day and action whatever the business's size. A
 * team is a role: a person counts under every role they hold.
 */

export const WORK_REPORT_ACCESS = { permission: 'tasks.manager-report' } as const;

/** The actions of work_logs (migration 0071), in the order of a day's flow. */
export const WORK_ACTIONS = [
  'receive_scan',
  'grade',
  'consolidate',
  'putaway',
  'pick',
  'label',
  'scan_ship',
  'unpack',
  'repair',
  'test',
  'sim_allocate',
  'count',
  'move',
] as const;
export type WorkAction = (typeof WORK_ACTIONS)[number];

/** An action as the report names its units. */
export const WORK_ACTION_TEXT: Record<WorkAction, string> = {
  receive_scan: 'Received',
  grade: 'Graded',
  consolidate: 'Consolidated',
  putaway: 'Put away',
  pick: 'Picked',
  label: 'Labelled',
  scan_ship: 'Shipped',
  unpack: 'Unpacked',
  repair: 'Repaired',
  test: 'Tested',
  sim_allocate: 'SIMs allocated',
  count: 'Counted',
  move: 'Moved',
};

/** The actions the per-team and day table shows as its columns (DOMAIN.md 4.11). */
export const WORK_REPORT_COLUMNS = [
  'receive_scan',
  'grade',
  'consolidate',
  'pick',
  'label',
  'scan_ship',
  'unpack',
  'repair',
  'test',
] as const satisfies readonly WorkAction[];

/** The longest date range the report reads at once. */
export const WORK_REPORT_MAX_DAYS = 92;
/** The range the report opens on: the last seven business days, today included. */
export const WORK_REPORT_DEFAULT_DAYS = 7;

export const workReportQuerySchema = z.object({
  /** First business day (YYYY-MM-DD, the business's time zone); by default six days before `to`. */
  from: z.optional(isoDate('first day')),
  /** Last business day; by default today. */
  to: z.optional(isoDate('last day')),
  /** A team (a role's id); all teams when left out. */
  team_id: idFilter,
});
export type WorkReportQuery = z.infer<typeof workReportQuerySchema>;

/** Units of each action (every action of WORK_ACTIONS, 0 when none). */
const actionCountsSchema = z.record(z.enum(WORK_ACTIONS), z.int());
export type ActionCounts = z.infer<typeof actionCountsSchema>;

export const teamOptionSchema = z.object({ id: z.int(), name: z.string() });

export const workReportSchema = z.object({
  from: z.string(),
  to: z.string(),
  time_zone: z.string(),
  /** The team read; null: everyone. */
  team: z.nullable(teamOptionSchema),
  /** The teams (roles) a person may be counted under, for the filter. */
  teams: z.array(teamOptionSchema),
  /**
   * Units per team and day: the team read (or everyone, team null) first, then, when no team was
   * asked, each team with work in the range. Every day of the range is present for the first.
   */
  days: z.array(
    z.object({
      team_id: z.nullable(z.int()),
      team: z.string(),
      day: z.string(),
      counts: actionCountsSchema,
    }),
  ),
  /** The range's totals per action, of the team read. */
  totals: actionCountsSchema,
  /**
   * Units per hour per worker and action. Hours: the station's own timing where it keeps one (the
   * repair clock); otherwise, per day, the span from the worker's first to last unit of the action.
   * Null when neither gives time (a single unit in a day).
   */
  workers: z.array(
    z.object({
      user_id: z.int(),
      name: z.string(),
      action: z.enum(WORK_ACTIONS),
      qty: z.int(),
      rework: z.int(),
      hours: z.number(),
      units_per_hour: z.nullable(z.number()),
    }),
  ),
  /** Rework per action (re-grades, mismatches, tests failed after repair): of the team read. */
  rework: z.array(
    z.object({
      action: z.enum(WORK_ACTIONS),
      qty: z.int(),
      rework: z.int(),
      /** rework / qty, 0 to 1. */
      rate: z.number(),
    }),
  ),
  /** Work jobs open now (assigned or in progress) and those of them past due, of the team read. */
  jobs: z.object({ open: z.int(), overdue: z.int() }),
});
export type WorkReport = z.infer<typeof workReportSchema>;

export const workReportEndpoint = defineEndpoint({
  method: 'GET',
  path: '/report/dashboard',
  summary:
    'Work per team and business day by action, units per hour per worker and rework, over a date range',
  description:
    'Reads the kept daily sums (`work_day_counts`), never the events: its cost follows the people and days read, not the registry. The range defaults to the last 7 business days (the business time zone) and spans at most 92 days.',
  tag: 'Report',
  guard: WORK_REPORT_ACCESS,
  query: workReportQuerySchema,
  response: workReportSchema,
});

/** The report's tables, each exported as the page shows it. */
export const WORK_REPORT_FILES = {
  days: {
    title: 'Work per team and day',
    columns: [
      { key: 'team', header: 'Team', example: 'Receiving' },
      { key: 'day', header: 'Day', example: '2026-11-02' },
      ...WORK_ACTIONS.map((action) => ({
        key: action,
        header: WORK_ACTION_TEXT[action],
        example: '120',
      })),
    ],
  },
  workers: {
    title: 'Units per hour per worker',
    columns: [
      { key: 'name', header: 'Worker', example: 'Dana Cruz' },
      { key: 'action', header: 'Action', example: 'receive_scan' },
      { key: 'qty', header: 'Units', example: '480' },
      { key: 'rework', header: 'Rework', example: '3' },
      { key: 'hours', header: 'Hours', example: '6.5' },
      { key: 'units_per_hour', header: 'Units per hour', example: '73.8' },
    ],
  },
  rework: {
    title: 'Rework per action',
    columns: [
      { key: 'action', header: 'Action', example: 'grade' },
      { key: 'qty', header: 'Units', example: '900' },
      { key: 'rework', header: 'Rework', example: '27' },
      { key: 'rate', header: 'Rework rate', example: '0.03' },
    ],
  },
} as const satisfies Record<string, { title: string; columns: readonly FileColumn[] }>;
export type WorkReportTable = keyof typeof WORK_REPORT_FILES;
const WORK_REPORT_TABLES = Object.keys(WORK_REPORT_FILES) as [
  WorkReportTable,
  ...WorkReportTable[],
];

export const workReportExportEndpoint = defineEndpoint({
  method: 'POST',
  path: '/report/dashboard/exports',
  summary: 'A download link for one table of the working report, for its range and team',
  tag: 'Report',
  guard: WORK_REPORT_ACCESS,
  body: z.object({
    ...workReportQuerySchema.shape,
    table: z.enum(WORK_REPORT_TABLES, 'Choose the table to export.'),
    format: z._default(z.enum(FILE_FORMATS), 'csv'),
  }),
  response: downloadSchema,
  successStatus: 201,
});

/** One unit of work as the drill-down lists it. */
export const workLogRowSchema = z.object({
  id: z.int(),
  at: z.string(),
  business_day: z.string(),
  user_id: z.int(),
  user_name: z.string(),
  action: z.enum(WORK_ACTIONS),
  entity_type: z.string(),
  entity_id: z.int(),
  /** The unit in words: an IMEI, an ICCID, a tracking number, a ticket, RMA or box number. */
  entity: z.nullable(z.string()),
  qty: z.int(),
  duration_s: z.nullable(z.int()),
  rework: z.boolean(),
});
export type WorkLogRow = z.infer<typeof workLogRowSchema>;

/** The work behind a figure of the report: its day range, action, worker or team. */
export const workLogList = defineList({
  name: 'report/work-logs',
  singular: 'work log entry',
  plural: 'Work log',
  tag: 'Report',
  view: WORK_REPORT_ACCESS,
  item: workLogRowSchema,
  filters: {
    /** First business day. */
    from: z.optional(isoDate('first day')),
    /** Last business day. */
    to: z.optional(isoDate('last day')),
    action: enumFilter(WORK_ACTIONS),
    user_id: idFilter,
    /** A team: a role's id. */
    team_id: idFilter,
    rework: booleanFilter,
  },
  sorts: ['business_day'],
  defaultSort: 'business_day',
  defaultOrder: 'desc',
  exportColumns: [
    { key: 'at', header: 'At', example: '2026-11-02T15:04:05.000Z' },
    { key: 'business_day', header: 'Day', example: '2026-11-02' },
    { key: 'user_name', header: 'Worker', example: 'Dana Cruz' },
    { key: 'action', header: 'Action', example: 'grade' },
    { key: 'entity_type', header: 'Unit kind', example: 'device' },
    { key: 'entity', header: 'Unit', example: '356938035643809' },
    { key: 'qty', header: 'Qty', example: '1' },
    { key: 'duration_s', header: 'Seconds', example: '' },
    { key: 'rework', header: 'Rework', example: 'no' },
  ],
});
export const workLogListEndpoints = listEndpoints(workLogList);
