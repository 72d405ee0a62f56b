import * as z from 'zod/mini';
import { defineEndpoint } from '../endpoint.js';
import { ORDER_CANCEL_ACCESS, ORDER_CANCEL_APPROVE_ACCESS } from '../guards.js';
import { defineLifecycle } from '../lifecycle.js';
import { idParamsSchema } from '../list.js';
import { requiredText } from '../master-data/fields.js';
import { ORDER_STATUSES } from '../order/orders.contract.js';
import { timelineEventSchema } from '../timeline.js';

/**
 * Cancellation requests (DOMAIN.md 3.7 CancelRequest, 4.16 /shipment-management/cancel): a
 * customer's, the client carrier's or our own request to cancel an order, carried out by the stage
 * the order is in when a manager approves it. Before the label the order is cancelled and its
 * reservations released; labelled, its label is voided (once) and its units go back to stock;
 * shipped, the carrier is asked to intercept the parcel, or the parcel must come back as a return.
 * A carrier's cancel before the label approves itself. Migration 0068.
 */

export const CANCEL_STAGES = ['pre_label', 'labeled', 'shipped'] as const;
export type CancelStage = (typeof CANCEL_STAGES)[number];

export const CANCEL_STAGE_TEXT: Record<CancelStage, string> = {
  pre_label: 'Before the label',
  labeled: 'Labelled',
  shipped: 'Shipped',
};

export const CANCEL_REQUESTERS = ['carrier', 'customer', 'internal'] as const;
export type CancelRequester = (typeof CANCEL_REQUESTERS)[number];

export const CANCEL_REQUESTER_TEXT: Record<CancelRequester, string> = {
  carrier: 'Client carrier',
  customer: 'Customer',
  internal: 'Internal',
};

export const CANCEL_REQUEST_STATUSES = [
  'requested',
  'approved',
  'label_voided',
  'intercept_requested',
  'return_required',
  'cancelled',
  'denied',
] as const;
export type CancelRequestStatus = (typeof CANCEL_REQUEST_STATUSES)[number];

/** Requests still waiting on a decision, a label void or the intercepted parcel. */
export const OPEN_CANCEL_REQUEST_STATUSES = [
  'requested',
  'approved',
  'label_voided',
  'intercept_requested',
] as const satisfies readonly CancelRequestStatus[];

export const cancelRequestLifecycle = defineLifecycle({
  name: 'cancel_request',
  states: CANCEL_REQUEST_STATUSES,
  terminal: ['return_required', 'cancelled', 'denied'],
  actions: {
    approve: {
      from: ['requested'],
      to: 'approved',
      label: 'be approved',
      event: 'approved',
      permission: ORDER_CANCEL_APPROVE_ACCESS,
    },
    /** A client carrier's cancel of an order not yet labelled needs no manager. */
    approve_automatically: {
      from: ['requested'],
      to: 'approved',
      label: 'approve itself',
      event: 'approved_automatically',
    },
    deny: {
      from: ['requested'],
      to: 'denied',
      label: 'be denied',
      event: 'denied',
      permission: ORDER_CANCEL_APPROVE_ACCESS,
      reason: 'required',
    },
    /** Run with the approval, by the approver: the label voided and the units unpacked. */
    void_label: {
      from: ['approved'],
      to: 'label_voided',
      label: 'have its label voided',
      event: 'label_voided',
    },
    /** Run with the approval of a shipped order's request: the carrier took the intercept. */
    request_intercept: {
      from: ['approved'],
      to: 'intercept_requested',
      label: 'have an intercept requested',
      event: 'intercept_requested',
    },
    /** The carrier offers no intercept: the parcel must come back as a return (an RMA). */
    require_return: {
      from: ['approved'],
      to: 'return_required',
      label: 'need a return instead',
      event: 'return_required',
    },
    /** The order cancelled: at once before the label, after the void, or its parcel back. */
    complete: {
      from: ['approved', 'label_voided', 'intercept_requested'],
      to: 'cancelled',
      label: 'be carried out',
      event: 'cancelled',
      permission: ORDER_CANCEL_ACCESS,
    },
  },
  stateText: (state) => state.replace(/_/g, ' '),
});
export type CancelRequestAction = keyof typeof cancelRequestLifecycle.actions;

export const cancelRequestSchema = z.object({
  id: z.int(),
  status: z.enum(CANCEL_REQUEST_STATUSES),
  order_id: z.int(),
  order_number: z.string(),
  order_status: z.enum(ORDER_STATUSES),
  stage: z.enum(CANCEL_STAGES),
  requester: z.enum(CANCEL_REQUESTERS),
  reason: z.string(),
  /** The parcel's tracking number once a label was voided or an intercept asked for. */
  tracking_number: z.nullable(z.string()),
  carrier_answer: z.nullable(z.string()),
  /** The RMA expecting the parcel back, when the carrier could not intercept it. */
  rma_id: z.nullable(z.int()),
  rma_number: z.nullable(z.string()),
  deny_reason: z.nullable(z.string()),
  requested_by: z.string(),
  decided_by: z.nullable(z.string()),
  created_at: z.string(),
  updated_at: z.string(),
  events: z.array(timelineEventSchema),
});
export type CancelRequest = z.infer<typeof cancelRequestSchema>;

export const CANCEL_REQUEST_VIEWS = ['open', 'closed'] as const;

/** How many requests the page answers at once, newest first. */
export const CANCEL_REQUEST_PAGE_MAX = 200;

export const cancelRequestQuerySchema = z.object({
  view: z.optional(z.enum(CANCEL_REQUEST_VIEWS, 'Choose open or closed requests.')),
});

export const cancelRequestPageSchema = z.object({
  requests: z.array(cancelRequestSchema),
  total: z.int(),
});

/** An order number as typed or scanned ("SO-0000123"). */
const orderNumber = requiredText('order number', 40);

export const createCancelRequestSchema = z.object({
  order_number: orderNumber,
  requester: z.enum(CANCEL_REQUESTERS, 'Choose who asks for the cancellation.'),
  reason: requiredText('reason', 500),
});
export type CreateCancelRequestInput = z.input<typeof createCancelRequestSchema>;

export const denyCancelRequestSchema = z.object({ reason: requiredText('reason', 500) });

const TAG = 'Cancellations';

export const cancelRequestEndpoints = {
  list: defineEndpoint({
    method: 'GET',
    path: '/cancel-requests',
    summary: `Open or closed cancellation requests, newest first (at most ${CANCEL_REQUEST_PAGE_MAX})`,
    tag: TAG,
    guard: ORDER_CANCEL_ACCESS,
    query: cancelRequestQuerySchema,
    response: cancelRequestPageSchema,
  }),
  create: defineEndpoint({
    method: 'POST',
    path: '/cancel-requests',
    summary:
      "Ask for an order's cancellation: its stage is read from the order (409 once delivered, cancelled or returned, or with a request open); a carrier's request before the label is carried out at once",
    tag: TAG,
    guard: ORDER_CANCEL_ACCESS,
    body: createCancelRequestSchema,
    response: cancelRequestSchema,
    successStatus: 201,
  }),
  approve: defineEndpoint({
    method: 'POST',
    path: '/cancel-requests/:id/approval',
    summary:
      'Approve a request and carry it out by the stage the order is in now: cancelled and released before the label; labelled, the label voided once and the units back in stock; shipped, an intercept asked of the carrier, or a return required',
    tag: TAG,
    guard: ORDER_CANCEL_APPROVE_ACCESS,
    params: idParamsSchema,
    body: z.object({}),
    response: cancelRequestSchema,
  }),
  deny: defineEndpoint({
    method: 'POST',
    path: '/cancel-requests/:id/denial',
    summary: 'Deny a request with the reason; the order carries on',
    tag: TAG,
    guard: ORDER_CANCEL_APPROVE_ACCESS,
    params: idParamsSchema,
    body: denyCancelRequestSchema,
    response: cancelRequestSchema,
  }),
  complete: defineEndpoint({
    method: 'POST',
    path: '/cancel-requests/:id/completion',
    summary:
      'Cancel an intercepted order once its parcel is back (409 until the order is returned)',
    tag: TAG,
    guard: ORDER_CANCEL_ACCESS,
    params: idParamsSchema,
    body: z.object({}),
    response: cancelRequestSchema,
  }),
};
