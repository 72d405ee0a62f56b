import * as z from 'zod/mini';
import type { Access } from '../access.js';
import { defineEndpoint } from '../endpoint.js';
import {
  MAIN_DASHBOARD_ACCESS,
  ORDER_ACCESS,
  SIM_DASHBOARD_ACCESS,
  UNPACK_STATISTICS_ACCESS,
} from '../guards.js';
import { DEVICE_OSES } from '../master-data/models.contract.js';
import { isoDate } from '../receiving/receiving-fields.js';
import { downloadSchema, FILE_FORMATS, idFilter, type FileColumn } from '../resource.js';
import { RMA_INDEX_ACCESS } from '../rma/rma-lifecycle.js';
import { snapshotRefreshSchema, snapshotSchema } from '../snapshots.js';

/**
 * The main dashboard (DOMAIN.md 4.1, `/dashboard`): ready-to-sell stock by OS, model and grade,
 * the production pipeline, today's orders, SIMs with agents and their activations, the week's
 * returns and 30 days of orders shipped against received. Read-only. The server keeps the figures
 * (the snapshot toolkit), at most MAIN_DASHBOARD_MAX_AGE_MINUTES old, with a row per business day
 * and client carrier for the last MAIN_DASHBOARD_KEPT_DAYS days, so that a request reads one row
 * and sums a bounded number of days whatever the registry holds. Each widget needs its source's
 * access besides the page's: the server answers only the widgets the reader may see.
 */

/** How old the figures may get before the server reads them again. */
export const MAIN_DASHBOARD_MAX_AGE_MINUTES = 5;

/** Business days of daily figures kept: the date range can reach this far back. */
export const MAIN_DASHBOARD_KEPT_DAYS = 60;

/** The models of most ready-to-sell units the stock widget names. */
export const MAIN_DASHBOARD_TOP_MODELS = 10;

/** Without a date range: SIM activations over this many days, the chart over that many. */
export const DASHBOARD_ACTIVATION_DAYS = 7;
export const SHIPPED_RECEIVED_DAYS = 30;

export const DASHBOARD_WIDGETS = [
  'stock',
  'pipeline',
  'orders',
  'sims',
  'rmas',
  'unpacks',
  'shipped_received',
] as const;
export type DashboardWidget = (typeof DASHBOARD_WIDGETS)[number];

/** What each widget's source needs (DOMAIN.md 6.1), on top of the page's own guard. */
export const DASHBOARD_WIDGET_ACCESS: Record<DashboardWidget, Access> = {
  // statistics.list-os is "stock by OS and pipeline figures" itself.
  stock: MAIN_DASHBOARD_ACCESS,
  pipeline: MAIN_DASHBOARD_ACCESS,
  orders: ORDER_ACCESS,
  sims: SIM_DASHBOARD_ACCESS,
  rmas: RMA_INDEX_ACCESS,
  unpacks: UNPACK_STATISTICS_ACCESS,
  shipped_received: ORDER_ACCESS,
};

/** The pipeline's stages: the device statuses counted, in the order devices move. */
export const PIPELINE_STAGES = [
  'received',
  'in_production',
  'graded',
  'in_repair',
  'hold',
] as const;
export type PipelineStage = (typeof PIPELINE_STAGES)[number];

export const PIPELINE_STAGE_TEXT: Record<PipelineStage, string> = {
  received: 'Received',
  in_production: 'In production',
  graded: 'Graded',
  in_repair: 'In repair',
  hold: 'On hold',
};

/* ---- The kept figures: every client carrier, every kept day. ---- */

const carrierKey = z.nullable(z.int());

export const mainDashboardFiguresSchema = z.object({
  /** The business day the figures were read on (YYYY-MM-DD, the order settings' time zone). */
  business_day: z.string(),
  /** The first kept day. */
  first_day: z.string(),
  /** The client carriers the filter offers. */
  carriers: z.array(z.object({ id: z.int(), name: z.string() })),
  stock: z.object({
    units: z.int(),
    by_os: z.array(z.object({ os: z.enum(DEVICE_OSES), units: z.int() })),
    /** Best grade first; null: not graded. */
    by_grade: z.array(z.object({ grade: z.nullable(z.string()), units: z.int() })),
    /** The MAIN_DASHBOARD_TOP_MODELS models of most units, most first. */
    top_models: z.array(
      z.object({
        model_id: z.int(),
        model: z.string(),
        os: z.enum(DEVICE_OSES),
        units: z.int(),
      }),
    ),
  }),
  pipeline: z.object({
    received: z.int(),
    in_production: z.int(),
    graded: z.int(),
    in_repair: z.int(),
    hold: z.int(),
  }),
  /** Orders on hold now, per client carrier (null: a retailer's order). */
  backlog: z.array(z.object({ client_carrier_id: carrierKey, orders: z.int() })),
  /** SIMs agents hold (not yet assigned), and how many agents hold some, per client carrier. */
  sims_with_agents: z.array(
    z.object({ client_carrier_id: z.int(), sims: z.int(), agents: z.int() }),
  ),
  /** Agents holding SIMs of any carrier (one agent may hold several carriers'). */
  agents_holding: z.int(),
  /** Per business day and client carrier, the days and carriers with any figure. */
  days: z.array(
    z.object({
      day: z.string(),
      client_carrier_id: carrierKey,
      orders_received: z.int(),
      orders_shipped: z.int(),
      activations: z.int(),
      rmas: z.int(),
      unpacks: z.int(),
    }),
  ),
});
export type MainDashboardFigures = z.infer<typeof mainDashboardFiguresSchema>;

/* ---- What a reader gets: the widgets they may see, for the filters they chose. ---- */

export const mainDashboardQuerySchema = z.object({
  /** First day of the range (business day); with `to`, it replaces each widget's own period. */
  from: z.optional(isoDate('first day')),
  to: z.optional(isoDate('last day')),
  client_carrier_id: idFilter,
  /** One widget only: refused (403) when its source is not the reader's. */
  widget: z.optional(z.enum(DASHBOARD_WIDGETS, 'Choose a widget of the dashboard.')),
});
export type MainDashboardQuery = z.infer<typeof mainDashboardQuerySchema>;

const period = { from: z.string(), to: z.string() };

export const dashboardWidgetsSchema = z.object({
  stock: z.optional(mainDashboardFiguresSchema.shape.stock),
  pipeline: z.optional(mainDashboardFiguresSchema.shape.pipeline),
  /** Orders received and shipped in the period (today without a range), on hold now. */
  orders: z.optional(
    z.object({ ...period, received: z.int(), shipped: z.int(), backlog: z.int() }),
  ),
  sims: z.optional(
    z.object({
      ...period,
      with_agents: z.int(),
      agents: z.int(),
      activations: z.int(),
      by_day: z.array(z.object({ day: z.string(), activations: z.int() })),
    }),
  ),
  /** RMAs opened in the period (this week without a range). */
  rmas: z.optional(
    z.object({
      ...period,
      rmas: z.int(),
      by_day: z.array(z.object({ day: z.string(), rmas: z.int() })),
    }),
  ),
  /** Returned parcels unpacked in the period (this week without a range). */
  unpacks: z.optional(
    z.object({
      ...period,
      unpacks: z.int(),
      by_day: z.array(z.object({ day: z.string(), unpacks: z.int() })),
    }),
  ),
  /** Orders received and shipped per business day (the last 30 days without a range). */
  shipped_received: z.optional(
    z.object({
      ...period,
      received: z.int(),
      shipped: z.int(),
      by_day: z.array(z.object({ day: z.string(), received: z.int(), shipped: z.int() })),
    }),
  ),
});
export type DashboardWidgets = z.infer<typeof dashboardWidgetsSchema>;

export const mainDashboardViewSchema = z.object({
  business_day: z.string(),
  first_day: z.string(),
  carriers: mainDashboardFiguresSchema.shape.carriers,
  /** The filters the widgets were read with. */
  from: z.nullable(z.string()),
  to: z.nullable(z.string()),
  client_carrier_id: z.nullable(z.int()),
  widgets: dashboardWidgetsSchema,
});
export type MainDashboardView = z.infer<typeof mainDashboardViewSchema>;

export const mainDashboardSchema = snapshotSchema(mainDashboardViewSchema);
export type MainDashboard = z.infer<typeof mainDashboardSchema>;

export const mainDashboardEndpoint = defineEndpoint({
  method: 'GET',
  path: '/dashboard',
  summary:
    'The main dashboard’s widgets the reader may see (stock by OS, model and grade; the pipeline; orders; SIMs; returns; shipped against received), filtered by dates and client carrier, with the moment they were read',
  tag: 'Dashboard',
  guard: MAIN_DASHBOARD_ACCESS,
  query: mainDashboardQuerySchema,
  response: mainDashboardSchema,
});

export const mainDashboardRefreshSchema = snapshotRefreshSchema(mainDashboardViewSchema);
export type MainDashboardRefresh = z.infer<typeof mainDashboardRefreshSchema>;

export const refreshMainDashboardEndpoint = defineEndpoint({
  method: 'POST',
  path: '/dashboard/refresh',
  summary:
    'Read the main dashboard’s figures again now (one refresh at a time across servers), answered as the reader’s widgets',
  tag: 'Dashboard',
  guard: MAIN_DASHBOARD_ACCESS,
  query: mainDashboardQuerySchema,
  response: mainDashboardRefreshSchema,
});

/** Each widget as a file: the figures it shows (UX.md: every widget exports). */
export const DASHBOARD_WIDGET_FILES = {
  stock: {
    title: 'Ready-to-sell stock',
    columns: [
      { key: 'group', header: 'By', example: 'OS' },
      { key: 'name', header: 'Name', example: 'Android' },
      { key: 'units', header: 'Units', example: '120' },
    ],
  },
  pipeline: {
    title: 'Pipeline',
    columns: [
      { key: 'stage', header: 'Stage', example: 'Graded' },
      { key: 'devices', header: 'Devices', example: '40' },
    ],
  },
  orders: {
    title: 'Orders',
    columns: [
      { key: 'figure', header: 'Figure', example: 'Received' },
      { key: 'from', header: 'From', example: '2026-03-02' },
      { key: 'to', header: 'To', example: '2026-03-02' },
      { key: 'orders', header: 'Orders', example: '120' },
    ],
  },
  sims: {
    title: 'SIMs',
    columns: [
      { key: 'figure', header: 'Figure', example: 'Activated' },
      { key: 'day', header: 'Day', example: '2026-03-02' },
      { key: 'sims', header: 'SIMs', example: '12' },
    ],
  },
  rmas: {
    title: 'RMAs',
    columns: [
      { key: 'day', header: 'Day', example: '2026-03-02' },
      { key: 'rmas', header: 'RMAs opened', example: '3' },
    ],
  },
  unpacks: {
    title: 'Unpacked returns',
    columns: [
      { key: 'day', header: 'Day', example: '2026-03-02' },
      { key: 'unpacks', header: 'Parcels unpacked', example: '5' },
    ],
  },
  shipped_received: {
    title: 'Orders shipped against received',
    columns: [
      { key: 'day', header: 'Day', example: '2026-03-02' },
      { key: 'received', header: 'Received', example: '130' },
      { key: 'shipped', header: 'Shipped', example: '121' },
    ],
  },
} as const satisfies Record<DashboardWidget, { title: string; columns: readonly FileColumn[] }>;

export const mainDashboardExportEndpoint = defineEndpoint({
  method: 'POST',
  path: '/dashboard/exports',
  summary:
    'A download link for one widget of the main dashboard, as its kept figures with the filters given (403 for a widget whose source is not the reader’s)',
  tag: 'Dashboard',
  guard: MAIN_DASHBOARD_ACCESS,
  body: z.object({
    widget: z.enum(DASHBOARD_WIDGETS, 'Choose the widget to export.'),
    format: z._default(z.enum(FILE_FORMATS), 'csv'),
    from: z.optional(isoDate('first day')),
    to: z.optional(isoDate('last day')),
    client_carrier_id: idFilter,
  }),
  response: downloadSchema,
  successStatus: 201,
});
