import * as z from 'zod/mini';
import { attachmentEndpoints, defineAttachments } from '../attachments.js';
import { defineEndpoint } from '../endpoint.js';
import { defineLifecycle } from '../lifecycle.js';
import { idNumber, idParamsSchema, pickerOptionSchema } from '../list.js';
import { optionalText } from '../master-data/fields.js';
import {
  PRODUCT_REQUEST_PRIORITIES,
  QC_ISSUE_CODES,
  TEST_ITEMS,
} from '../production/production.contract.js';
import { DEVICE_STATUSES } from '../receiving/device-states.js';
import { DEVICE_GRADES, isoDate } from '../receiving/receiving-fields.js';
import { downloadSchema, FILE_FORMATS } from '../resource.js';
import { DEVICE_SCAN_ACCESS } from '../receiving/devices.contract.js';
import { STATION_ACCESS } from '../roles.js';

/**
 * The repair line (issue 19, DOMAIN.md 3.5 and 4.19): a device that failed QC or came back is
 * raised on a repair ticket, sorted, assigned to a technician by the leader, repaired with parts
 * scanned out of stock, and tested; a passed device goes to reuse as `repaired`, one beyond
 * economical repair (BER) is scrapped or kept for parts.
 */

const S = STATION_ACCESS;
export const REPAIR_REQUEST_ACCESS = { permission: 'repair.request' } as const;

export const REPAIR_TICKET_STATUSES = [
  'requested',
  'sorted',
  'assigned',
  'in_repair',
  'waiting_parts',
  'repaired',
  'testing',
  'passed',
  'failed',
  'released',
  'beyond_repair',
  'cancelled',
] as const;
export type RepairTicketStatus = (typeof REPAIR_TICKET_STATUSES)[number];
export const CLOSED_REPAIR_STATUSES = [
  'released',
  'beyond_repair',
  'cancelled',
] as const satisfies readonly RepairTicketStatus[];

/** Where a device sent to repair comes from. */
export const REPAIR_SOURCES = ['rma', 'unpack', 'production', 'trade_in', 'manual'] as const;
export type RepairSource = (typeof REPAIR_SOURCES)[number];

/** What the leader does with a device beyond economical repair: its device lifecycle action. */
export const BER_OUTCOMES = ['scrapped', 'parts'] as const;

/** A repaired device's grade: F is what failing is. */
export const REPAIR_GRADES = DEVICE_GRADES.filter((grade) => grade !== 'F');

/** The ticket's lifecycle (DOMAIN.md 3.5); the device's own steps go with some of its actions. */
export const repairTicketLifecycle = defineLifecycle({
  name: 'repair_ticket',
  states: REPAIR_TICKET_STATUSES,
  terminal: CLOSED_REPAIR_STATUSES,
  stateText: (status) =>
    status === 'beyond_repair' ? 'beyond economical repair' : status.replace(/_/g, ' '),
  actions: {
    sort: {
      from: ['requested', 'sorted'],
      to: 'sorted',
      label: 'sort',
      event: 'sorted',
      permission: S.repairSorting,
    },
    assign: {
      from: ['sorted', 'assigned'],
      to: 'assigned',
      label: 'assign to a technician',
      event: 'assigned',
      permission: S.repairLeader,
    },
    start: {
      from: ['assigned', 'failed'],
      to: 'in_repair',
      label: 'start repairing',
      event: 'repair_started',
      permission: S.repairWorker,
    },
    wait_for_parts: {
      from: ['in_repair'],
      to: 'waiting_parts',
      label: 'wait for parts',
      event: 'waiting_for_parts',
      permission: S.repairWorker,
    },
    resume: {
      from: ['waiting_parts'],
      to: 'in_repair',
      label: 'resume repairing',
      event: 'repair_resumed',
      permission: S.repairWorker,
    },
    complete: {
      from: ['in_repair'],
      to: 'repaired',
      label: 'complete',
      event: 'repaired',
      permission: S.repairWorker,
    },
    start_test: {
      from: ['repaired'],
      to: 'testing',
      label: 'test',
      event: 'testing_started',
      permission: S.repairTesting,
    },
    pass: {
      from: ['testing'],
      to: 'passed',
      label: 'pass its test',
      event: 'test_passed',
      permission: S.repairTesting,
    },
    fail: {
      from: ['testing'],
      to: 'failed',
      label: 'fail its test',
      event: 'test_failed',
      permission: S.repairTesting,
    },
    release: {
      from: ['passed'],
      to: 'released',
      label: 'release to reuse',
      event: 'released',
      permission: S.repairTesting,
    },
    declare_beyond_repair: {
      from: ['sorted', 'assigned', 'in_repair', 'waiting_parts', 'failed'],
      to: 'beyond_repair',
      label: 'declare beyond economical repair',
      event: 'declared_beyond_repair',
      permission: S.repairLeader,
      reason: 'required',
    },
    cancel: {
      from: ['requested', 'sorted', 'assigned', 'in_repair', 'waiting_parts', 'failed'],
      to: 'cancelled',
      label: 'cancel',
      event: 'cancelled',
      permission: S.repairLeader,
      reason: 'optional',
    },
  },
});
export type RepairTicketAction = keyof typeof repairTicketLifecycle.actions;

const cents = (what: string) =>
  z.nullable(
    z.int(`Write the ${what} in cents.`).check(z.gte(0, `The ${what} cannot be negative.`)),
  );
const issueCodes = z
  .array(z.enum(QC_ISSUE_CODES, 'Choose issue codes from the list.'))
  .check(z.maxLength(20, 'Choose at most 20 issue codes.'));
const scannedCode = (what: string) =>
  z
    .string(`Scan the ${what}.`)
    .check(z.trim(), z.minLength(1, `Scan the ${what}.`), z.maxLength(60));

export const repairTicketSchema = z.object({
  id: z.int(),
  number: z.string(),
  device_id: z.int(),
  identifier: z.string(),
  model: z.string(),
  device_status: z.enum(DEVICE_STATUSES),
  status: z.enum(REPAIR_TICKET_STATUSES),
  source: z.enum(REPAIR_SOURCES),
  reference: z.nullable(z.string()),
  issue_codes: z.array(z.string()),
  note: z.nullable(z.string()),
  priority: z.enum(PRODUCT_REQUEST_PRIORITIES),
  estimated_cost_cents: z.nullable(z.int()),
  resale_value_cents: z.nullable(z.int()),
  ber_candidate: z.boolean(),
  technician_id: z.nullable(z.int()),
  technician: z.nullable(z.string()),
  labour_seconds: z.int(),
  /** When the technician's clock started, while it runs. */
  clock_started_at: z.nullable(z.string()),
  parts_cost_cents: z.int(),
  failed_items: z.array(z.string()),
  test_count: z.int(),
  grade: z.nullable(z.string()),
  ber_outcome: z.nullable(z.enum(BER_OUTCOMES)),
  requested_at: z.string(),
  closed_at: z.nullable(z.string()),
});
export type RepairTicket = z.infer<typeof repairTicketSchema>;

export const repairTicketPartSchema = z.object({
  id: z.int(),
  part_number: z.string(),
  name: z.string(),
  location: z.string(),
  qty: z.int(),
  unit_cost_cents: z.int(),
  returned: z.boolean(),
  issued_at: z.string(),
});
export const repairTestSchema = z.object({
  id: z.int(),
  passed: z.boolean(),
  grade: z.nullable(z.string()),
  failed_items: z.array(z.string()),
  note: z.nullable(z.string()),
  tested_by: z.nullable(z.string()),
  tested_at: z.string(),
});
export const repairEventSchema = z.object({
  id: z.int(),
  at: z.string(),
  actor_name: z.nullable(z.string()),
  type: z.string(),
  from_status: z.nullable(z.string()),
  to_status: z.nullable(z.string()),
  data: z.nullable(z.record(z.string(), z.unknown())),
});
export const repairPartRequestSchema = z.object({
  id: z.int(),
  part_number: z.string(),
  name: z.string(),
  qty: z.int(),
  requested_at: z.string(),
});
export const repairTicketDetailSchema = z.extend(repairTicketSchema, {
  parts: z.array(repairTicketPartSchema),
  part_requests: z.array(repairPartRequestSchema),
  tests: z.array(repairTestSchema),
  events: z.array(repairEventSchema),
});
export type RepairTicketDetail = z.infer<typeof repairTicketDetailSchema>;

export const requestRepairSchema = z.object({
  code: scannedCode('IMEI'),
  issue_codes: z.optional(issueCodes),
  note: optionalText('note', 1000),
});
export const repairTicketCreatedSchema = z.object({ id: z.int(), number: z.string() });

export const sortTicketSchema = z.object({
  issue_codes: issueCodes,
  priority: z.enum(PRODUCT_REQUEST_PRIORITIES, 'Choose a priority.'),
  estimated_cost_cents: cents('estimated repair cost'),
  resale_value_cents: cents('resale value'),
  ber_candidate: z.boolean(),
});
export const assignTicketSchema = z.object({
  technician_id: z.int('Choose a technician.').check(z.gte(1, 'Choose a technician.')),
});
export const berSchema = z.object({
  outcome: z.enum(BER_OUTCOMES, 'Choose scrap or parts.'),
  reason: z.string('Say why.').check(z.trim(), z.minLength(1, 'Say why.'), z.maxLength(500)),
});
export const cancelTicketSchema = z.object({ reason: optionalText('reason', 500) });
const positiveQty = z
  .int('Write a whole number of units.')
  .check(z.gte(1, 'Write at least 1.'), z.lte(50, 'At most 50 at a time.'));
export const partRequestSchema = z.object({
  part_id: z.int('Choose a part.').check(z.gte(1, 'Choose a part.')),
  qty: positiveQty,
});
export const issuePartSchema = z.object({
  code: scannedCode('part number or barcode'),
  location_id: idNumber,
  qty: positiveQty,
});
export const clockSchema = z.object({ running: z.boolean() });
export const waitingSchema = z.object({ waiting: z.boolean() });
export const ticketNoteSchema = z.object({
  note: z
    .string('Write the note.')
    .check(
      z.trim(),
      z.minLength(1, 'Write the note.'),
      z.maxLength(1000, 'The note is too long (at most 1000 characters).'),
    ),
});
export const repairTestInputSchema = z.object({
  items: z.record(z.enum(TEST_ITEMS), z.enum(['pass', 'fail'])),
  grade: z.optional(z.nullable(z.enum(REPAIR_GRADES, 'Choose a grade.'))),
  note: optionalText('note', 1000),
});

export const technicianLoadSchema = z.object({
  id: z.int(),
  name: z.string(),
  open_tickets: z.int(),
});
export const repairLeaderBoardSchema = z.object({
  tickets: z.array(repairTicketSchema),
  technicians: z.array(technicianLoadSchema),
});

export const repairStatisticsQuerySchema = z.object({
  from: isoDate('start date'),
  to: isoDate('end date'),
});
const rateRow = {
  tickets: z.int(),
  released: z.int(),
  first_pass: z.int(),
  tested: z.int(),
  beyond_repair: z.int(),
  labour_seconds: z.int(),
  parts_cost_cents: z.int(),
};
export const repairStatisticsSchema = z.object({
  open_by_state: z.array(
    z.object({
      status: z.enum(REPAIR_TICKET_STATUSES),
      tickets: z.int(),
      /** Tickets of the state open 3 days or more. */
      older_than_3_days: z.int(),
      oldest_at: z.nullable(z.string()),
    }),
  ),
  days: z.array(z.object({ day: z.string(), requested: z.int(), closed: z.int() })),
  totals: z.object(rateRow),
  technicians: z.array(z.object({ technician: z.string(), ...rateRow })),
  issues: z.array(z.object({ issue_code: z.string(), ...rateRow })),
});
export type RepairStatistics = z.infer<typeof repairStatisticsSchema>;

const rateColumns = [
  { key: 'tickets', header: 'Tickets closed', example: '42' },
  { key: 'released', header: 'Released', example: '36' },
  { key: 'first_pass', header: 'First-pass yield %', example: '88' },
  { key: 'beyond_repair', header: 'BER %', example: '7' },
  { key: 'labour_hours', header: 'Labour hours', example: '31.5' },
  { key: 'parts_cost', header: 'Parts cost', example: '412.50' },
] as const;

/** The statistics' tables as files: what the pages show, for the range asked. */
export const REPAIR_STATISTICS_FILES = {
  technicians: {
    title: 'Repair by technician',
    columns: [{ key: 'technician', header: 'Technician', example: 'Ana Lima' }, ...rateColumns],
  },
  issues: {
    title: 'Repair by issue',
    columns: [{ key: 'issue_code', header: 'Issue code', example: 'LCD-CRACK' }, ...rateColumns],
  },
  days: {
    title: 'Repair throughput',
    columns: [
      { key: 'day', header: 'Day', example: '2026-11-02' },
      { key: 'requested', header: 'Requested', example: '12' },
      { key: 'closed', header: 'Closed', example: '10' },
    ],
  },
} as const;
export type RepairStatisticsTable = keyof typeof REPAIR_STATISTICS_FILES;
const REPAIR_STATISTICS_TABLES = Object.keys(REPAIR_STATISTICS_FILES) as [
  RepairStatisticsTable,
  ...RepairStatisticsTable[],
];

const ticketAction = <const B extends z.ZodMiniType>(
  path: string,
  summary: string,
  guard: (typeof S)[keyof typeof S],
  body: B,
) =>
  defineEndpoint({
    method: 'POST',
    path: `/repair-tickets/:id/${path}`,
    summary,
    tag: 'Repair',
    guard,
    params: idParamsSchema,
    body,
    response: repairTicketDetailSchema,
  });

export const repairEndpoints = {
  request: defineEndpoint({
    method: 'POST',
    path: '/repair-tickets',
    summary:
      'Raise a repair ticket for a device failed QC or returned, by its IMEI (409 when it has an open ticket)',
    tag: 'Repair',
    guard: REPAIR_REQUEST_ACCESS,
    body: requestRepairSchema,
    response: repairTicketCreatedSchema,
    successStatus: 201,
  }),
  recent: defineEndpoint({
    method: 'GET',
    path: '/repair-tickets/requested',
    summary: 'The 100 tickets raised last',
    tag: 'Repair',
    guard: REPAIR_REQUEST_ACCESS,
    response: z.array(repairTicketSchema),
  }),
  detail: defineEndpoint({
    method: 'GET',
    path: '/repair-tickets/:id',
    summary: 'A ticket with its parts, part requests, tests and timeline',
    tag: 'Repair',
    guard: S.repairInquireDevice,
    params: idParamsSchema,
    response: repairTicketDetailSchema,
  }),
  history: defineEndpoint({
    method: 'GET',
    path: '/repair-process/history',
    summary: "A device's repair tickets by its IMEI, newest first (404 for an unknown IMEI)",
    tag: 'Repair',
    guard: S.repairInquireDevice,
    query: z.object({ code: scannedCode('IMEI') }),
    response: z.array(repairTicketDetailSchema),
  }),
  sortingQueue: defineEndpoint({
    method: 'GET',
    path: '/repair-process/sorting/queue',
    summary: 'Tickets waiting to be sorted, oldest first (at most 500)',
    tag: 'Repair',
    guard: S.repairSorting,
    response: z.array(repairTicketSchema),
  }),
  leaderBoard: defineEndpoint({
    method: 'GET',
    path: '/repair-process/leader/board',
    summary: 'Open tickets past sorting, by priority and age, and the technicians with their load',
    tag: 'Repair',
    guard: S.repairLeader,
    response: repairLeaderBoardSchema,
  }),
  workerQueue: defineEndpoint({
    method: 'GET',
    path: '/repair-process/worker/queue',
    summary: "The caller's open tickets, by priority and age",
    tag: 'Repair',
    guard: S.repairWorker,
    response: z.array(repairTicketSchema),
  }),
  partLocations: defineEndpoint({
    method: 'GET',
    path: '/repair-process/worker/part-locations',
    summary: 'Locations holding parts, to scan parts out of',
    tag: 'Repair',
    guard: S.repairWorker,
    response: z.array(pickerOptionSchema),
  }),
  parts: defineEndpoint({
    method: 'GET',
    path: '/repair-process/leader/parts',
    summary: 'Active parts to request, by part number',
    tag: 'Repair',
    guard: S.repairLeader,
    response: z.array(pickerOptionSchema),
  }),
  testingQueue: defineEndpoint({
    method: 'GET',
    path: '/repair-process/testing/queue',
    summary: 'Repaired tickets waiting for their test, oldest first',
    tag: 'Repair',
    guard: S.repairTesting,
    response: z.array(repairTicketSchema),
  }),
  statistics: defineEndpoint({
    method: 'GET',
    path: '/repair-process/statistics',
    summary:
      'Open tickets by state and age; throughput, first-pass yield, parts cost and BER rate per technician and per issue, for tickets closed in a date range',
    tag: 'Repair',
    guard: S.repairStatistics,
    query: repairStatisticsQuerySchema,
    response: repairStatisticsSchema,
  }),
  statisticsExport: defineEndpoint({
    method: 'POST',
    path: '/repair-process/statistics/exports',
    summary: 'A download link for one table of the repair statistics, for a date range',
    tag: 'Repair',
    guard: S.repairStatistics,
    body: z.object({
      ...repairStatisticsQuerySchema.shape,
      table: z.enum(REPAIR_STATISTICS_TABLES, 'Choose the table to export.'),
      format: z._default(z.enum(FILE_FORMATS), 'csv'),
    }),
    response: downloadSchema,
    successStatus: 201,
  }),
  sort: ticketAction(
    'sorting',
    'Sort a ticket: issue codes, priority, cost against resale value, BER candidate',
    S.repairSorting,
    sortTicketSchema,
  ),
  assign: ticketAction(
    'assignment',
    'Assign a sorted ticket to a technician',
    S.repairLeader,
    assignTicketSchema,
  ),
  beyondRepair: ticketAction(
    'beyond-repair',
    'Approve BER: the ticket closes and the device is scrapped or kept for parts',
    S.repairLeader,
    berSchema,
  ),
  requestParts: ticketAction(
    'part-requests',
    'Request a part for a ticket; a ticket in repair waits for parts',
    S.repairLeader,
    partRequestSchema,
  ),
  cancel: ticketAction(
    'cancellation',
    'Cancel a ticket: issued parts go back to stock, the device back to failed QC',
    S.repairLeader,
    cancelTicketSchema,
  ),
  clock: ticketAction(
    'clock',
    "Start or stop the technician's labour clock (the first start starts the repair)",
    S.repairWorker,
    clockSchema,
  ),
  issuePart: ticketAction(
    'parts',
    'Scan a part out of stock onto the ticket (422 when the location holds too few)',
    S.repairWorker,
    issuePartSchema,
  ),
  waiting: ticketAction(
    'waiting',
    'Wait for parts, or resume the repair',
    S.repairWorker,
    waitingSchema,
  ),
  note: ticketAction(
    'notes',
    'Write a note on the ticket’s timeline',
    S.repairWorker,
    ticketNoteSchema,
  ),
  complete: ticketAction(
    'completion',
    'Complete the repair (stops the clock); the ticket goes to testing',
    S.repairWorker,
    z.object({}),
  ),
  test: ticketAction(
    'test',
    'Record the test checklist: all passed with a grade releases the device as repaired; a failure sends it back to the technician',
    S.repairTesting,
    repairTestInputSchema,
  ),
} as const;

export const deviceRepairTicketSchema = z.object({
  id: z.int(),
  number: z.string(),
  status: z.enum(REPAIR_TICKET_STATUSES),
  source: z.enum(REPAIR_SOURCES),
  issue_codes: z.array(z.string()),
  technician: z.nullable(z.string()),
  grade: z.nullable(z.string()),
  requested_at: z.string(),
  closed_at: z.nullable(z.string()),
});
export type DeviceRepairTicket = z.infer<typeof deviceRepairTicketSchema>;

/** The device lookup's repair part (DOMAIN.md 4.2): the device's tickets, newest first. */
export const deviceRepairEndpoint = defineEndpoint({
  method: 'GET',
  path: '/devices/:id/repair-tickets',
  summary: "A device's repair tickets, newest first (at most 50)",
  tag: 'Devices',
  guard: DEVICE_SCAN_ACCESS,
  params: idParamsSchema,
  response: z.array(deviceRepairTicketSchema),
});

/** Photos of a ticket's device during repair (the attachments toolkit). */
export const repairPhotoAttachments = defineAttachments({
  kind: 'repair_ticket',
  path: '/repair-tickets',
  singular: 'repair ticket',
  tag: 'Repair',
  view: S.repairInquireDevice,
  manage: S.repairWorker,
});
export const repairPhotoEndpoints = attachmentEndpoints(repairPhotoAttachments);
