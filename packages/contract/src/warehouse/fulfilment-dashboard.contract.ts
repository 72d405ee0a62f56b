import * as z from 'zod/mini';
import { defineEndpoint } from '../endpoint.js';
import { assignmentDemandSchema } from '../fulfilment/fulfilment.contract.js';
import { FULFILMENT_DASHBOARD_ACCESS } from '../guards.js';
import {
  FULFILMENT_TYPES,
  ORDER_HOLD_REASONS,
  type OPEN_ORDER_STATUSES,
} from '../order/orders.contract.js';
import { downloadSchema, FILE_FORMATS, type FileColumn } from '../resource.js';
import { snapshotRefreshSchema, snapshotSchema } from '../snapshots.js';

/**
 * The fulfilment dashboard (DOMAIN.md 4.18, `/warehouse/dashboard-fulfill`): the day's work by
 * queue (ready, assigned, being picked, picked, labelled, shipped today), the carrier cut-off
 * countdown, the backlog by reason, SLA breaches, demand against available stock and the
 * throughput per hour of the business day. Read-only. Its figures are kept by the server (decision
 * 0023's snapshots), at most FULFILMENT_DASHBOARD_MAX_AGE_MINUTES old, so that a request reads
 * one row whatever the orders number; those who read them may refresh them.
 */

/** How old the figures may get before the server reads them again. */
export const FULFILMENT_DASHBOARD_MAX_AGE_MINUTES = 1;

/** The variants of ready orders the dashboard shows against stock: the shortest of stock first. */
export const FULFILMENT_DASHBOARD_DEMAND_ROWS = 25;

/** The stages an order waits in, in the pipeline's order: what each queue holds now. */
export const QUEUE_STAGES = ['ready', 'assigned', 'in_progress', 'fulfilled', 'labeled'] as const;
export type QueueStage = (typeof QUEUE_STAGES)[number];

/** A stage as the dashboard names it. */
export const QUEUE_STAGE_TEXT: Record<QueueStage, string> = {
  ready: 'Ready',
  assigned: 'Assigned',
  in_progress: 'Being picked',
  fulfilled: 'Picked, to label',
  labeled: 'Labelled, to scan out',
};

/** An hour of the business day as the dashboard shows it: "09:00". */
export const hourText = (hour: number) => `${String(hour).padStart(2, '0')}:00`;

/** Orders not shipped yet and not ended: those whose SLA can be breached. */
export const SLA_OPEN_STATUSES = [
  'pending',
  'ready',
  'assigned',
  'in_progress',
  'fulfilled',
  'labeled',
  'on_hold',
  'substitution_pending',
  'cancel_requested',
] as const satisfies readonly Exclude<(typeof OPEN_ORDER_STATUSES)[number], 'shipped'>[];
export type SlaOpenStatus = (typeof SLA_OPEN_STATUSES)[number];

/** What a queue holds now, by stage, and the orders of it shipped since the day began. */
const queueShape = {
  ready: z.int(),
  assigned: z.int(),
  /** Being picked: the first unit picked, not all of them. */
  in_progress: z.int(),
  /** Picked (fulfilled), waiting for a label. */
  fulfilled: z.int(),
  /** Labelled, waiting to be scanned out. */
  labeled: z.int(),
  /** Parcels of the queue scanned out since the business day began. */
  shipped_today: z.int(),
};

export const fulfilmentFiguresSchema = z.object({
  /** The business day the figures are of (YYYY-MM-DD in the time zone). */
  day: z.string(),
  time_zone: z.string(),
  /** The same-day carrier cut-off, HH:MM in the time zone, and that moment of the day (ISO). */
  cutoff: z.string(),
  cutoff_at: z.string(),
  /** Every fulfilment type (the queues of DOMAIN.md 4.14), in FULFILMENT_TYPES' order. */
  queues: z.array(z.object({ fulfilment_type: z.enum(FULFILMENT_TYPES), ...queueShape })),
  totals: z.object(queueShape),
  /** Orders on hold by reason (those with any), in ORDER_HOLD_REASONS' order. */
  backlog: z.array(
    z.object({
      hold_reason: z.enum(ORDER_HOLD_REASONS),
      orders: z.int(),
      /** Of them, past their SLA. */
      sla_breached: z.int(),
    }),
  ),
  /** Orders past their SLA and not shipped, by status (those with any). */
  sla: z.object({
    breached: z.int(),
    by_status: z.array(z.object({ status: z.enum(SLA_OPEN_STATUSES), orders: z.int() })),
  }),
  /**
   * The day's work per hour of the business day (0 to 23, every hour): device units picked (a
   * unit unpicked since no longer counts), labels created (not voided) and parcels scanned out,
   * with the day's totals.
   */
  throughput: z.object({
    picked: z.int(),
    labelled: z.int(),
    scanned_out: z.int(),
    by_hour: z.array(
      z.object({ hour: z.int(), picked: z.int(), labelled: z.int(), scanned_out: z.int() }),
    ),
  }),
  /**
   * The ready orders' demand against available stock, per model and variant: the
   * FULFILMENT_DASHBOARD_DEMAND_ROWS variants shortest of stock (then most wanted), so that the
   * dashboard reads the same at any size; `/fulfill/assignment` lists them all.
   */
  demand: z.array(assignmentDemandSchema),
  /** How many variants the ready orders want in all. */
  demand_variants: z.int(),
});
export type FulfilmentFigures = z.infer<typeof fulfilmentFiguresSchema>;

export const fulfilmentDashboardSchema = snapshotSchema(fulfilmentFiguresSchema);
export type FulfilmentDashboard = z.infer<typeof fulfilmentDashboardSchema>;

export const fulfilmentDashboardEndpoint = defineEndpoint({
  method: 'GET',
  path: '/warehouse/dashboard-fulfill',
  summary:
    'The day’s fulfilment by queue and stage, the carrier cut-off, the backlog by reason, SLA breaches, demand against stock and throughput per hour, with the moment they were read',
  tag: 'Warehouse',
  guard: FULFILMENT_DASHBOARD_ACCESS,
  response: fulfilmentDashboardSchema,
});

export const fulfilmentDashboardRefreshSchema = snapshotRefreshSchema(fulfilmentFiguresSchema);
export type FulfilmentDashboardRefresh = z.infer<typeof fulfilmentDashboardRefreshSchema>;

export const refreshFulfilmentDashboardEndpoint = defineEndpoint({
  method: 'POST',
  path: '/warehouse/dashboard-fulfill/refresh',
  summary:
    'Read the fulfilment figures again now (one refresh at a time across servers: a refresh already running is waited for and answered)',
  tag: 'Warehouse',
  guard: FULFILMENT_DASHBOARD_ACCESS,
  response: fulfilmentDashboardRefreshSchema,
});

/** The dashboard's widgets, each exported as the figures it shows (UX.md: every widget exports). */
export const FULFILMENT_WIDGET_FILES = {
  queues: {
    title: 'Today by queue',
    columns: [
      { key: 'queue', header: 'Queue', example: 'new_lifeline' },
      { key: 'ready', header: QUEUE_STAGE_TEXT.ready, example: '40' },
      { key: 'assigned', header: QUEUE_STAGE_TEXT.assigned, example: '25' },
      { key: 'in_progress', header: QUEUE_STAGE_TEXT.in_progress, example: '3' },
      { key: 'fulfilled', header: QUEUE_STAGE_TEXT.fulfilled, example: '12' },
      { key: 'labeled', header: QUEUE_STAGE_TEXT.labeled, example: '8' },
      { key: 'shipped_today', header: 'Shipped today', example: '120' },
    ],
  },
  backlog: {
    title: 'Backlog by reason',
    columns: [
      { key: 'hold_reason', header: 'Reason', example: 'no_stock' },
      { key: 'orders', header: 'Orders', example: '14' },
      { key: 'sla_breached', header: 'Past SLA', example: '3' },
    ],
  },
  sla: {
    title: 'SLA breaches',
    columns: [
      { key: 'status', header: 'Status', example: 'assigned' },
      { key: 'orders', header: 'Orders past SLA', example: '5' },
    ],
  },
  throughput: {
    title: 'Throughput per hour',
    columns: [
      { key: 'hour', header: 'Hour', example: '09:00' },
      { key: 'picked', header: 'Units picked', example: '60' },
      { key: 'labelled', header: 'Labels', example: '55' },
      { key: 'scanned_out', header: 'Scanned out', example: '50' },
    ],
  },
  demand: {
    title: 'Demand against stock',
    columns: [
      { key: 'model', header: 'Model', example: 'Moto G Play 2023' },
      { key: 'sku', header: 'SKU', example: 'MOTO-G-BLK-A' },
      { key: 'orders', header: 'Ready orders', example: '30' },
      { key: 'units', header: 'Units wanted', example: '30' },
      { key: 'available', header: 'Available', example: '24' },
    ],
  },
} as const satisfies Record<string, { title: string; columns: readonly FileColumn[] }>;
export type FulfilmentWidget = keyof typeof FULFILMENT_WIDGET_FILES;
const FULFILMENT_WIDGETS = Object.keys(FULFILMENT_WIDGET_FILES) as [
  FulfilmentWidget,
  ...FulfilmentWidget[],
];

export const fulfilmentDashboardExportEndpoint = defineEndpoint({
  method: 'POST',
  path: '/warehouse/dashboard-fulfill/exports',
  summary: 'A download link for one widget of the fulfilment dashboard, as its kept figures',
  tag: 'Warehouse',
  guard: FULFILMENT_DASHBOARD_ACCESS,
  body: z.object({
    widget: z.enum(FULFILMENT_WIDGETS, 'Choose the widget to export.'),
    format: z._default(z.enum(FILE_FORMATS), 'csv'),
  }),
  response: downloadSchema,
  successStatus: 201,
});
