import * as z from 'zod/mini';
import { defineEndpoint } from '../endpoint.js';
import { ORDER_FULFIL_ACCESS, ORDER_OTA_ACCESS } from '../guards.js';
import { idParamsSchema } from '../list.js';
import { entityId } from '../master-data/fields.js';
import { FULFILMENT_TYPES, ORDER_STATUSES } from '../order/orders.contract.js';
import { downloadSchema, importEndpoints, type ImportDefinition } from '../resource.js';
import {
  CARRIER_UPDATE_KINDS,
  carrierUpdateStateSchema,
  fulfilmentOrderRowSchema,
} from './fulfilment.contract.js';

/**
 * Carrier updates (DOMAIN.md 4.14 /fulfill/ota-orders and /fulfill/existing-customer, 5.2 step
 * 4b): an OTA order's IMEI + ICCID pairing, or an existing customer's device change, reported to
 * the client carrier when its last unit is picked. The label waits until the carrier answers ok.
 * A carrier takes updates by batch file (exported here, answered by importing its answer file) or
 * at its HTTP endpoint (sent by a background job); a failed update is retried, or an OTA order
 * re-paired with another SIM; one failed longer than the setting goes to the backlog.
 */

/** How an update travels: a batch file exported at the desk, or the carrier's HTTP endpoint. */
export const CARRIER_UPDATE_DELIVERIES = ['batch_file', 'http'] as const;

/** A unit as reported: the device's IMEI and the ICCID paired with it (a device change: none). */
export const carrierUpdateUnitSchema = z.object({
  imei: z.string(),
  iccid: z.nullable(z.string()),
});

export const carrierUpdateSchema = z.object({
  ...carrierUpdateStateSchema.shape,
  order_id: z.int(),
  order_number: z.string(),
  order_status: z.enum(ORDER_STATUSES),
  fulfilment_type: z.enum(FULFILMENT_TYPES),
  client_carrier_id: z.int(),
  client_carrier: z.string(),
  delivery: z.enum(CARRIER_UPDATE_DELIVERIES),
  units: z.array(carrierUpdateUnitSchema),
  batch_file_id: z.nullable(z.int()),
  created_at: z.string(),
  /** Who picked the order: the worker who re-pairs it. */
  assignee_name: z.nullable(z.string()),
});
export type CarrierUpdate = z.infer<typeof carrierUpdateSchema>;

export const carrierUpdateBoardSchema = z.object({
  /** Each order's latest update while the order waits for its label, the oldest first. */
  updates: z.array(carrierUpdateSchema),
  /** A failed update older than this many hours puts its order in the backlog. */
  pairing_failed_hours: z.int(),
});
export type CarrierUpdateBoard = z.infer<typeof carrierUpdateBoardSchema>;

/** At most this many updates on the board. */
export const CARRIER_UPDATE_BOARD_LIMIT = 200;

export const carrierUpdateKindQuerySchema = z.object({
  kind: z.enum(CARRIER_UPDATE_KINDS, 'Choose pairing or device_change.'),
});

export const carrierUpdateExportSchema = z.object({
  client_carrier_id: entityId('client carrier'),
  kind: z.enum(CARRIER_UPDATE_KINDS, 'Choose pairing or device_change.'),
});
export type CarrierUpdateExportInput = z.input<typeof carrierUpdateExportSchema>;

export const carrierUpdateFileSchema = z.object({
  id: z.int(),
  /** Updates the file submitted. */
  updates: z.int(),
  download: downloadSchema,
});
export type CarrierUpdateFile = z.infer<typeof carrierUpdateFileSchema>;

/**
 * How a client carrier takes updates: at an HTTP endpoint with a key (sent by a job), or by batch
 * file when no URL is set; whether it acknowledges device changes; whether we pre-activate its
 * prepaid lines. The key is never read back: `has_key` says whether one is kept.
 */
export const clientCarrierLinkSchema = z.object({
  client_carrier_id: z.int(),
  client_carrier: z.string(),
  update_url: z.nullable(z.string()),
  has_key: z.boolean(),
  device_change_ack: z.boolean(),
  pre_activation: z.boolean(),
});
export type ClientCarrierLink = z.infer<typeof clientCarrierLinkSchema>;

export const saveClientCarrierLinkSchema = z.object({
  update_url: z.nullable(
    z
      .string()
      .check(
        z.trim(),
        z.maxLength(500, 'The URL is too long (at most 500 characters).'),
        z.regex(/^https?:\/\/\S+$/, 'Write the URL as http(s)://host/path.'),
      ),
  ),
  /** A new key; left out keeps the one kept, null removes it. */
  update_key: z.optional(
    z.nullable(
      z
        .string()
        .check(
          z.trim(),
          z.minLength(1, 'Write the key.'),
          z.maxLength(500, 'The key is too long (at most 500 characters).'),
        ),
    ),
  ),
  device_change_ack: z.boolean(),
  pre_activation: z.boolean(),
});
export type SaveClientCarrierLinkInput = z.input<typeof saveClientCarrierLinkSchema>;

/** Who configures a carrier's link (its URL and key): whoever manages vendors. */
const CARRIER_LINK_ACCESS = { permission: 'vendor.manage' } as const;

const updateAction = (path: string, summary: string) =>
  defineEndpoint({
    method: 'POST',
    path,
    summary,
    tag: 'Fulfilment',
    guard: ORDER_FULFIL_ACCESS,
    params: idParamsSchema,
    body: z.object({}),
    response: carrierUpdateSchema,
  });

export const carrierUpdateEndpoints = {
  board: defineEndpoint({
    method: 'GET',
    path: '/carrier-updates',
    summary:
      "Each order's latest pairing or device change while it waits for its label, the oldest first",
    tag: 'Fulfilment',
    guard: ORDER_FULFIL_ACCESS,
    query: carrierUpdateKindQuerySchema,
    response: carrierUpdateBoardSchema,
  }),
  export: defineEndpoint({
    method: 'POST',
    path: '/carrier-updates/exports',
    summary:
      "A batch file of a carrier's pending updates (CSV: order, IMEI, ICCID, kind); they are " +
      'submitted in the same transaction',
    tag: 'Fulfilment',
    guard: ORDER_FULFIL_ACCESS,
    body: carrierUpdateExportSchema,
    response: carrierUpdateFileSchema,
    successStatus: 201,
  }),
  retry: updateAction(
    '/carrier-updates/:id/retry',
    'Send a failed update again (by the next batch file, or at once to an HTTP endpoint)',
  ),
  rePair: defineEndpoint({
    method: 'POST',
    path: '/carrier-updates/:id/re-pair',
    summary:
      'Re-pair a failed OTA order with another SIM: its SIMs go back to stock, the order back to ' +
      'its worker to scan another ICCID',
    tag: 'Fulfilment',
    guard: ORDER_OTA_ACCESS,
    params: idParamsSchema,
    body: z.object({}),
    response: fulfilmentOrderRowSchema,
  }),
  link: defineEndpoint({
    method: 'GET',
    path: '/client-carrier-links/:id',
    summary: 'How a client carrier takes pairings and device changes (its key is never shown)',
    tag: 'Fulfilment',
    guard: CARRIER_LINK_ACCESS,
    params: idParamsSchema,
    response: clientCarrierLinkSchema,
  }),
  saveLink: defineEndpoint({
    method: 'PUT',
    path: '/client-carrier-links/:id',
    summary: "Set a client carrier's update endpoint and key, acknowledgement and pre-activation",
    tag: 'Fulfilment',
    guard: CARRIER_LINK_ACCESS,
    params: idParamsSchema,
    body: saveClientCarrierLinkSchema,
    response: clientCarrierLinkSchema,
  }),
};

export const CARRIER_ANSWER_RESULTS = ['ok', 'failed'] as const;

/** The carrier's answer file: per order (or IMEI), ok or failed with its words. */
export const carrierAnswerImport = {
  name: 'carrier-answers',
  singular: 'carrier answer',
  plural: 'Carrier answers',
  tag: 'Fulfilment',
  manage: ORDER_FULFIL_ACCESS,
  maxRows: 10_000,
  importColumns: [
    { key: 'order', header: 'Order', example: 'SO-0000123', hint: 'the order, or its IMEI' },
    { key: 'imei', header: 'IMEI', example: '352836110000008', hint: 'when the order is left out' },
    {
      key: 'result',
      header: 'Result',
      required: true,
      example: 'ok',
      hint: CARRIER_ANSWER_RESULTS.join(' or '),
    },
    { key: 'message', header: 'Message', example: '' },
  ],
} as const satisfies ImportDefinition;

export const carrierAnswerRowSchema = z.object({
  order: z.optional(
    z.string().check(z.trim(), z.maxLength(40, 'An order is at most 40 characters.')),
  ),
  imei: z.optional(
    z.string().check(z.trim(), z.maxLength(20, 'An IMEI is at most 20 characters.')),
  ),
  result: z.pipe(
    z.string('Write ok or failed.').check(z.trim(), z.toLowerCase()),
    z.enum(CARRIER_ANSWER_RESULTS, 'Write ok or failed.'),
  ),
  message: z.optional(
    z.string().check(z.trim(), z.maxLength(500, 'The message is at most 500 characters.')),
  ),
});

export const carrierAnswerImportEndpoints = importEndpoints(carrierAnswerImport);
