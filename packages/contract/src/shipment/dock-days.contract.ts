import * as z from 'zod/mini';
import { printEndpoint, sheetPrintable } from '../documents.js';
import { defineEndpoint } from '../endpoint.js';
import { DOCK_DAY_REOPEN_ACCESS, GAYLORD_MANAGE_ACCESS, ORDER_SHIPPING_ACCESS } from '../guards.js';
import { isoDate } from '../receiving/receiving-fields.js';
import { CARRIERS } from './tracking-numbers.js';
import { PACKAGE_STATUSES } from './packages.contract.js';

/**
 * The dock's day (DOMAIN.md 4.14 /fulfill/scan-to-ship, end-of-day close): what left per carrier,
 * the parcels labelled and still here, and the day's SCAN forms. Open, the figures are live;
 * closed, they are as they stood at the close, and nothing more scans out that business day
 * until a manager reopens it.
 */

/** At most this many parcels left behind are named; the count is whole. */
export const DOCK_DAY_LEFT_BEHIND_LISTED = 200;

export const dockDayFiguresSchema = z.object({
  carriers: z.array(z.object({ carrier: z.enum(CARRIERS), parcels: z.int(), weight_g: z.int() })),
  shipped: z.int(),
  left_behind_count: z.int(),
  left_behind: z.array(
    z.object({
      package_id: z.int(),
      tracking_number: z.string(),
      order_number: z.string(),
      carrier: z.enum(CARRIERS),
      status: z.enum(PACKAGE_STATUSES),
      gaylord: z.nullable(z.string()),
      labelled_at: z.string(),
    }),
  ),
  scan_forms: z.array(
    z.object({
      number: z.string(),
      carrier: z.enum(CARRIERS),
      package_count: z.int(),
      picked_up: z.boolean(),
    }),
  ),
});
export type DockDayFigures = z.infer<typeof dockDayFiguresSchema>;

export const dockDaySchema = z.object({
  business_day: z.string(),
  status: z.enum(['open', 'closed']),
  closed_at: z.nullable(z.string()),
  closed_by_name: z.nullable(z.string()),
  reopened_at: z.nullable(z.string()),
  reopened_by_name: z.nullable(z.string()),
  reopen_reason: z.nullable(z.string()),
  figures: dockDayFiguresSchema,
});
export type DockDay = z.infer<typeof dockDaySchema>;

export const reopenDockDaySchema = z.object({
  reason: z
    .string('Say why the day opens again.')
    .check(
      z.trim(),
      z.minLength(3, 'Say why the day opens again.'),
      z.maxLength(500, 'The reason is too long.'),
    ),
});
export type ReopenDockDayInput = z.infer<typeof reopenDockDaySchema>;

export const dockDayParamsSchema = z.object({ day: isoDate('business day') });

/** The end-of-day report: the day's figures on one sheet, signed by the shipping lead. */
export const dockDayPrintable = sheetPrintable('dock-day');

export const dockDayEndpoints = {
  today: defineEndpoint({
    method: 'GET',
    path: '/dock-days/today',
    summary: "Today's dock: open with live figures, or closed with the figures of its close",
    tag: 'Shipment',
    guard: ORDER_SHIPPING_ACCESS,
    response: dockDaySchema,
  }),
  close: defineEndpoint({
    method: 'POST',
    path: '/dock-days/today/close',
    summary:
      "Close today's dock: its figures are kept, and nothing more scans out today until reopened",
    tag: 'Shipment',
    guard: GAYLORD_MANAGE_ACCESS,
    response: dockDaySchema,
  }),
  reopen: defineEndpoint({
    method: 'POST',
    path: '/dock-days/today/reopen',
    summary: "Reopen today's closed dock, with the reason (a manager's)",
    tag: 'Shipment',
    guard: DOCK_DAY_REOPEN_ACCESS,
    body: reopenDockDaySchema,
    response: dockDaySchema,
  }),
  print: printEndpoint({
    path: '/dock-days/:day/print',
    summary: "Print a day's end-of-day dock report: what left per carrier and what stayed",
    tag: 'Shipment',
    guard: ORDER_SHIPPING_ACCESS,
    params: dockDayParamsSchema,
    printable: dockDayPrintable,
  }),
};
