import { defineLifecycle } from '../lifecycle.js';

/**
 * The RMA's state machine (DOMAIN.md 3.4, 4.10, 5.3), shared by the RMA pages and the server
 * (`modules/rma`). An RMA is received with its first device scanned at /RMA/scan and inspected
 * once receiving has routed every device it expects; its resolution is then set on /RMA. When
 * some never come back, a supervisor closes it short from `received`.
 */

export const RMA_INDEX_ACCESS = { permission: 'rma.index' } as const;
export const RMA_SCAN_ACCESS = { permission: 'rma.scan' } as const;
export const RMA_REUSE_ACCESS = { permission: 'rma.reuse' } as const;
/** A supervisor's acts on an RMA: clearing receiving's mismatch flag, closing it short. */
export const RMA_SUPERVISE_ACCESS = { permission: 'rma.supervise' } as const;

export const RMA_STATUSES = [
  'requested',
  'authorized',
  'rejected',
  'in_transit',
  'received',
  'inspected',
  'replacement_sent',
  'refunded',
  'repair',
  'closed',
  'cancelled',
] as const;
export type RmaStatus = (typeof RMA_STATUSES)[number];

/** States of an RMA still open: its devices can be on no other RMA. */
export const RMA_OPEN_STATUSES = [
  'requested',
  'authorized',
  'in_transit',
  'received',
  'inspected',
  'replacement_sent',
  'refunded',
  'repair',
] as const satisfies readonly RmaStatus[];

/** Why a customer sends a device back. */
export const RMA_REASONS = [
  'defective',
  'wrong_item',
  'damaged_in_transit',
  'customer_return',
  'cancelled_after_shipping',
] as const;
export type RmaReason = (typeof RMA_REASONS)[number];

export const RMA_REASON_TEXT: Record<RmaReason, string> = {
  defective: 'Defective',
  wrong_item: 'Wrong item',
  damaged_in_transit: 'Damaged in transit',
  customer_return: 'Customer return',
  cancelled_after_shipping: 'Cancelled after shipping',
};

export const rmaLifecycle = defineLifecycle({
  name: 'RMA',
  states: RMA_STATUSES,
  terminal: ['closed', 'rejected', 'cancelled'],
  actions: {
    authorize: {
      from: ['requested'],
      to: 'authorized',
      label: 'be authorised',
      event: 'authorized',
      permission: RMA_INDEX_ACCESS,
    },
    reject: {
      from: ['requested'],
      to: 'rejected',
      label: 'be rejected',
      event: 'rejected',
      permission: RMA_INDEX_ACCESS,
      reason: 'required',
    },
    // The carrier's first scan of the return parcel (tracking), or staff who know it is on its way.
    mark_in_transit: {
      from: ['authorized'],
      to: 'in_transit',
      label: 'be marked in transit',
      event: 'in_transit',
      permission: RMA_INDEX_ACCESS,
    },
    // A parcel can arrive before the carrier reported it moving.
    receive: {
      from: ['authorized', 'in_transit'],
      to: 'received',
      label: 'be received',
      event: 'received',
      permission: RMA_SCAN_ACCESS,
    },
    inspect: {
      from: ['received'],
      to: 'inspected',
      label: 'be inspected',
      event: 'inspected',
      permission: RMA_SCAN_ACCESS,
    },
    send_replacement: {
      from: ['inspected'],
      to: 'replacement_sent',
      label: 'be resolved with a replacement',
      event: 'replacement_ordered',
      permission: RMA_INDEX_ACCESS,
    },
    refund: {
      from: ['inspected'],
      to: 'refunded',
      label: 'be refunded',
      event: 'refunded',
      permission: RMA_INDEX_ACCESS,
    },
    repair: {
      from: ['inspected'],
      to: 'repair',
      label: 'be resolved by a repair',
      event: 'repair_chosen',
      permission: RMA_INDEX_ACCESS,
    },
    close: {
      from: ['replacement_sent', 'refunded', 'repair'],
      to: 'closed',
      label: 'be closed',
      event: 'closed',
      permission: RMA_INDEX_ACCESS,
    },
    // The parcel came without some of the devices the RMA expects: a supervisor ends it with why,
    // and those devices stay as they are (shipped or delivered: with the customer).
    close_short: {
      from: ['received'],
      to: 'closed',
      label: 'be closed short',
      event: 'closed_short',
      permission: RMA_SUPERVISE_ACCESS,
      reason: 'required',
    },
    cancel: {
      from: ['requested', 'authorized', 'in_transit'],
      to: 'cancelled',
      label: 'be cancelled',
      event: 'cancelled',
      permission: RMA_INDEX_ACCESS,
      reason: 'optional',
    },
  },
});

export type RmaAction = keyof typeof rmaLifecycle.actions;
