import {
  ORDER_FULFIL_ACCESS,
  ORDER_SHIPPING_ACCESS,
  AGENT_SIM_ASSIGN_ACCESS,
  AGENT_SIM_RECEIVE_ACCESS,
  AGENT_SIM_REQUEST_ACCESS,
  SIM_ACCESS,
  SIM_REQUEST_ACCESS,
  SIM_REQUEST_APPROVE_ACCESS,
  SIM_RETURN_ACCESS,
} from '../guards.js';
import { defineLifecycle } from '../lifecycle.js';

/**
 * The SIM card's and the SIM request's state machines (DOMAIN.md 3.6, 4.6, 5.4), shared by the
 * SIM pages, the agent portal and the server (`modules/sim`). A restocked SIM is in stock again:
 * DOMAIN.md's `restocked` is the event of the `restock` action, not a state of its own, so a
 * restocked SIM can be allocated like any other (decision 0032).
 */

export const SIM_STATUSES = [
  'in_stock',
  'allocated',
  'in_transit',
  'with_agent',
  'assigned',
  'active',
  'inactive',
  'suspended',
  'shipped',
  'returned',
  'destroyed',
  'lost',
  'defective',
] as const;
export type SimStatus = (typeof SIM_STATUSES)[number];

/** States in which an agent holds the SIM (on hand; counted against the cap). */
export const SIM_ON_HAND_STATUSES = ['with_agent', 'assigned'] as const satisfies SimStatus[];

/** States a detection run moves between (the carrier's word for the line). */
export const SIM_DETECTED_STATES = ['active', 'inactive', 'suspended'] as const;
export type SimDetectedState = (typeof SIM_DETECTED_STATES)[number];

/** Out in the field: held by an agent, a subscriber or an order's parcel. */
const IN_THE_FIELD = [
  'with_agent',
  'assigned',
  'active',
  'inactive',
  'suspended',
  'shipped',
] as const satisfies SimStatus[];

export const simLifecycle = defineLifecycle({
  name: 'SIM',
  states: SIM_STATUSES,
  terminal: ['destroyed'],
  actions: {
    allocate: {
      from: ['in_stock'],
      to: 'allocated',
      label: 'be allocated',
      event: 'allocated',
      permission: SIM_REQUEST_ACCESS,
    },
    unallocate: {
      from: ['allocated'],
      to: 'in_stock',
      label: 'go back to stock',
      event: 'unallocated',
      permission: SIM_REQUEST_ACCESS,
    },
    ship: {
      from: ['allocated'],
      to: 'in_transit',
      label: 'be shipped',
      event: 'shipped',
      permission: SIM_REQUEST_ACCESS,
    },
    receive: {
      from: ['in_transit'],
      to: 'with_agent',
      label: 'be received by the agent',
      event: 'received',
      permission: AGENT_SIM_RECEIVE_ACCESS,
    },
    assign: {
      from: ['with_agent'],
      to: 'assigned',
      label: 'be assigned to a subscriber',
      event: 'assigned',
      permission: AGENT_SIM_ASSIGN_ACCESS,
    },
    detectActive: {
      from: ['allocated', 'in_transit', ...IN_THE_FIELD],
      to: 'active',
      label: 'be seen active',
      event: 'detected_active',
    },
    detectInactive: {
      from: ['active', 'suspended'],
      to: 'inactive',
      label: 'be seen inactive',
      event: 'detected_inactive',
    },
    detectSuspended: {
      from: ['active', 'inactive'],
      to: 'suspended',
      label: 'be seen suspended',
      event: 'detected_suspended',
    },
    returnIn: {
      from: ['in_transit', ...IN_THE_FIELD],
      to: 'returned',
      label: 'be received as returned',
      event: 'returned',
      permission: SIM_RETURN_ACCESS,
    },
    restock: {
      from: ['returned'],
      to: 'in_stock',
      label: 'be restocked',
      event: 'restocked',
      permission: SIM_RETURN_ACCESS,
    },
    destroy: {
      from: ['returned', 'defective'],
      to: 'destroyed',
      label: 'be destroyed',
      event: 'destroyed',
      permission: SIM_RETURN_ACCESS,
      reason: 'optional',
    },
    markDefective: {
      from: ['in_stock', 'allocated', 'with_agent', 'assigned', 'inactive', 'returned'],
      to: 'defective',
      label: 'be marked defective',
      event: 'marked_defective',
      permission: SIM_ACCESS,
      reason: 'required',
    },
    markLost: {
      from: ['in_stock', 'allocated', 'in_transit', 'with_agent', 'assigned', 'shipped'],
      to: 'lost',
      label: 'be marked lost',
      event: 'marked_lost',
      permission: SIM_ACCESS,
      reason: 'required',
    },
    found: {
      from: ['lost'],
      to: 'returned',
      label: 'be found',
      event: 'found',
      permission: SIM_RETURN_ACCESS,
    },
    /** Scanned for an order's unit at the pick station (DOMAIN.md 4.14): paired with its device. */
    allocate_to_order: {
      from: ['in_stock'],
      to: 'allocated',
      label: 'be allocated to an order',
      event: 'allocated_to_order',
      permission: ORDER_FULFIL_ACCESS,
    },
    /** The order's unit unpicked: the SIM is in stock again. */
    release_from_order: {
      from: ['allocated'],
      to: 'in_stock',
      label: 'go back to stock from its order',
      event: 'released_from_order',
      permission: ORDER_FULFIL_ACCESS,
    },
    /**
     * Found in a parcel that came back (DOMAIN.md 4.16 /shipment-management/unpack, 4.10
     * /RMA/scan). As the device's `receive_return`, the station that scans it carries the
     * permission.
     */
    receive_return: {
      from: ['in_transit', ...IN_THE_FIELD],
      to: 'returned',
      label: 'be received back in a parcel',
      event: 'returned_in_parcel',
    },
    /** Its order's parcel scanned out at the dock (DOMAIN.md 4.14 /fulfill/scan-to-ship). */
    ship_with_order: {
      from: ['allocated'],
      to: 'shipped',
      label: 'be shipped with its order',
      event: 'shipped_with_order',
      permission: ORDER_SHIPPING_ACCESS,
    },
  },
  stateText: (state) => (state === 'in_stock' ? 'in stock' : state.replaceAll('_', ' ')),
});
export type SimAction = keyof typeof simLifecycle.actions & string;

export const SIM_REQUEST_STATUSES = [
  'submitted',
  'approved',
  'packed',
  'shipped',
  'received',
  'rejected',
  'cancelled',
] as const;
export type SimRequestStatus = (typeof SIM_REQUEST_STATUSES)[number];

/** Open requests: one per agent and client carrier (the database's unique index). */
export const SIM_REQUEST_OPEN_STATUSES = [
  'submitted',
  'approved',
  'packed',
] as const satisfies SimRequestStatus[];

export const simRequestLifecycle = defineLifecycle({
  name: 'SIM request',
  states: SIM_REQUEST_STATUSES,
  terminal: ['received', 'rejected', 'cancelled'],
  actions: {
    approve: {
      from: ['submitted'],
      to: 'approved',
      label: 'be approved',
      event: 'approved',
      permission: SIM_REQUEST_APPROVE_ACCESS,
    },
    reject: {
      from: ['submitted', 'approved'],
      to: 'rejected',
      label: 'be rejected',
      event: 'rejected',
      permission: SIM_REQUEST_APPROVE_ACCESS,
      reason: 'required',
    },
    pack: {
      from: ['approved'],
      to: 'packed',
      label: 'be packed',
      event: 'packed',
      permission: SIM_REQUEST_ACCESS,
    },
    unpack: {
      from: ['packed'],
      to: 'approved',
      label: 'be opened again',
      event: 'unpacked',
      permission: SIM_REQUEST_ACCESS,
    },
    ship: {
      from: ['packed'],
      to: 'shipped',
      label: 'be shipped or handed over',
      event: 'shipped',
      permission: SIM_REQUEST_ACCESS,
    },
    receive: {
      from: ['shipped'],
      to: 'received',
      label: 'be received',
      event: 'received',
      permission: AGENT_SIM_RECEIVE_ACCESS,
    },
    cancel: {
      from: ['submitted'],
      to: 'cancelled',
      label: 'be cancelled',
      event: 'cancelled',
      permission: AGENT_SIM_REQUEST_ACCESS,
      reason: 'optional',
    },
  },
});
export type SimRequestAction = keyof typeof simRequestLifecycle.actions & string;
