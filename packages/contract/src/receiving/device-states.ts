import { BEFORE_HOLD, defineLifecycle, nextStatus } from '../lifecycle.js';
import { STATION_ACCESS } from '../roles.js';

/** Who changes what an inventory box holds at the box scan station (DOMAIN.md 4.2). */
export const BOX_SCAN_DEVICE_ACCESS = { permission: 'box.scan-device' } as const;

/**
 * The device lifecycle (DOMAIN.md 3.1): the stored statuses, and the named actions that move a
 * device between them, declared as a lifecycle (`../lifecycle.ts`). The server changes a device's
 * status only through these actions (`applyDeviceAction`); the receiving scan's PL/pgSQL function
 * is the one other writer: it creates devices as received or on hold.
 */

export const DEVICE_STATUSES = [
  'received',
  'in_production',
  'graded',
  'failed_qc',
  'hold',
  'in_repair',
  'repaired',
  'reuse',
  'in_stock',
  'reserved',
  'picked',
  'packed',
  'shipped',
  'delivered',
  'lost',
  'returned',
  'scrapped',
  'parts',
  'rtv',
] as const;
export type DeviceStatus = (typeof DEVICE_STATUSES)[number];

/** Why a device is held; a held device takes no step but clearing the hold or going back to its vendor. */
export const HOLD_REASONS = [
  'blacklist',
  'frp',
  'activation_lock',
  'mismatch',
  'missing',
  // Set aside at the unpack station for a person to look at (DOMAIN.md 4.16).
  'quarantine',
] as const;
export type HoldReason = (typeof HOLD_REASONS)[number];

/** Statuses of a device that is not sold yet: a hold may stop it (DOMAIN.md invariant 5). */
export const PRE_SALE_STATUSES = [
  'received',
  'in_production',
  'graded',
  'failed_qc',
  'in_repair',
  'repaired',
  'reuse',
  'in_stock',
  'reserved',
  'picked',
  'returned',
] as const satisfies readonly DeviceStatus[];

/** Statuses of a device that sits in our stock and may be returned to its vendor. */
export const VENDOR_RETURNABLE_STATUSES = [
  'received',
  'hold',
  'graded',
  'failed_qc',
  'in_stock',
  'returned',
  'repaired',
  'reuse',
] as const satisfies readonly DeviceStatus[];

/**
 * Statuses no action leaves. A delivered device is not one of them: it comes back through a
 * return (an unpacked parcel, an RMA, a trade-in), and only that way.
 */
export const TERMINAL_STATUSES = [
  'scrapped',
  'parts',
  'rtv',
  'lost',
] as const satisfies readonly DeviceStatus[];

/** A status in words: `failed_qc` is "failed QC". */
export const statusText = (status: DeviceStatus): string =>
  status === 'failed_qc'
    ? 'failed QC'
    : status === 'rtv'
      ? 'returned to its vendor'
      : status === 'hold'
        ? 'on hold'
        : status.replace(/_/g, ' ');

/**
 * The actions of the device. A held device takes no step but those that start from `hold`:
 * clearing the hold (back to the status it was held in) and going back to its vendor. Holding is
 * automatic (a blacklist listing, a scan), so it needs no permission of its own.
 */
export const deviceLifecycle = defineLifecycle({
  name: 'device',
  states: DEVICE_STATUSES,
  terminal: TERMINAL_STATUSES,
  hold: { state: 'hold', reasons: HOLD_REASONS },
  stateText: statusText,
  actions: {
    hold: {
      from: PRE_SALE_STATUSES,
      to: 'hold',
      reason: 'required',
      label: 'put on hold',
      event: 'held',
    },
    clear_hold: {
      from: ['hold'],
      to: BEFORE_HOLD,
      label: 'clear the hold',
      event: 'hold_cleared',
      permission: { permission: 'device.black-list' },
    },
    return_to_vendor: {
      from: VENDOR_RETURNABLE_STATUSES,
      to: 'rtv',
      label: 'return to its vendor',
      event: 'returned_to_vendor',
      permission: { permission: 'transfer.manage' },
    },
    // Production and consolidation (issue 15, DOMAIN.md 3.1 and 4.17).
    start_production: {
      from: ['received'],
      to: 'in_production',
      label: 'hand to a production worker',
      event: 'production_started',
      permission: STATION_ACCESS.productTeamLeader,
    },
    grade: {
      from: ['in_production'],
      to: 'graded',
      label: 'grade',
      event: 'graded',
      permission: STATION_ACCESS.productTeamWorker,
    },
    fail_qc: {
      from: ['in_production'],
      to: 'failed_qc',
      label: 'fail quality control',
      event: 'failed_qc',
      permission: STATION_ACCESS.productTeamWorker,
    },
    // A leader sends a tested device back to a worker's queue: the grade or the failure is
    // disputed (decision 0020).
    regrade: {
      from: ['graded', 'failed_qc'],
      to: 'in_production',
      label: 'send back for a re-grade',
      event: 'regrade_requested',
      permission: STATION_ACCESS.productTeamLeader,
      reason: 'required',
    },
    consolidate: {
      from: ['graded', 'reuse'],
      to: 'in_stock',
      label: 'put into an inventory box',
      event: 'consolidated',
      permission: STATION_ACCESS.consolidationWorker,
    },
    // The box scan station (DOMAIN.md 4.2 /inventory-box/scan-device): a container change only,
    // the status stays. A reserved device moves only between boxes of the same kind.
    add_to_box: {
      from: ['in_stock'],
      to: 'in_stock',
      label: 'put back into an inventory box',
      event: 'added_to_box',
      permission: BOX_SCAN_DEVICE_ACCESS,
    },
    remove_from_box: {
      from: ['in_stock'],
      to: 'in_stock',
      label: 'take out of its inventory box',
      event: 'removed_from_box',
      permission: BOX_SCAN_DEVICE_ACCESS,
    },
    move_box: {
      from: ['in_stock'],
      to: 'in_stock',
      label: 'move to another inventory box',
      event: 'moved_between_boxes',
      permission: BOX_SCAN_DEVICE_ACCESS,
    },
    move_reserved_box: {
      from: ['reserved'],
      to: 'reserved',
      label: 'move to an inventory box of the same kind',
      event: 'moved_between_boxes',
      permission: BOX_SCAN_DEVICE_ACCESS,
    },
    // Fulfilment (DOMAIN.md 3.1, 4.14): reserved for an order's unit at assignment, picked at the
    // station (the reserved unit or another that matches), put back into its box when unpicked.
    reserve: {
      from: ['in_stock'],
      to: 'reserved',
      label: 'be reserved for an order',
      event: 'reserved',
      permission: { permission: 'order.assignment' },
    },
    // The order's own action (unassign, hold, a swap at pick) carries the permission.
    release_reservation: {
      from: ['reserved'],
      to: 'in_stock',
      label: 'have its reservation released',
      event: 'reservation_released',
    },
    pick: {
      from: ['reserved', 'in_stock'],
      to: 'picked',
      label: 'be picked',
      event: 'picked',
      permission: { permission: 'order.fulfill-processing' },
    },
    unpick: {
      from: ['picked'],
      to: 'in_stock',
      label: 'be put back into its box',
      event: 'unpicked',
      permission: { permission: 'order.fulfill-processing' },
    },
    // The label desk and the dock (DOMAIN.md 3.1, 4.14): packed with its label, unpacked when the
    // label is voided, shipped when its parcel is scanned out.
    pack: {
      from: ['picked'],
      to: 'packed',
      label: 'be packed',
      event: 'packed',
      permission: { permission: 'order.shipping-processing' },
    },
    unpack_label: {
      from: ['packed'],
      to: 'picked',
      label: 'be unpacked (label voided)',
      event: 'unpacked_label_voided',
      permission: { permission: 'order.shipping-processing' },
    },
    /** A closed wholesale carton reopened by a leader (/order/box): its devices are picked again. */
    unpack_carton: {
      from: ['packed'],
      to: 'picked',
      label: 'be unpacked from its reopened carton',
      event: 'carton_reopened',
      permission: { permission: 'order-box.reopen' },
    },
    ship: {
      from: ['packed'],
      to: 'shipped',
      label: 'be shipped',
      event: 'shipped',
      permission: { permission: 'order.shipping-processing' },
    },
    // The carrier's "delivered" (tracking, DOMAIN.md 3.1): no person's step, as the order's.
    deliver: { from: ['shipped'], to: 'delivered', label: 'be delivered', event: 'delivered' },
    // Returns (DOMAIN.md 3.1, 5.3): the IMEI found in a returned parcel, an RMA's box or a
    // trade-in. The station that scans it (unpack, RMA receiving, trade-in) carries the permission.
    receive_return: {
      from: ['shipped', 'delivered'],
      to: 'returned',
      label: 'be received back',
      event: 'returned',
    },
    // The reuse queue (DOMAIN.md 4.10 /RMA/reuse): re-wiped, re-checked and re-graded, a returned
    // or repaired device goes to consolidation; one not worth repairing is scrapped.
    approve_reuse: {
      from: ['returned', 'repaired'],
      to: 'reuse',
      label: 'be approved for reuse',
      event: 'reuse_approved',
      permission: { permission: 'rma.reuse' },
    },
    scrap_returned: {
      from: ['returned', 'repaired'],
      to: 'scrapped',
      label: 'be scrapped',
      event: 'scrapped',
      permission: { permission: 'rma.reuse' },
    },
    // A paid claim for a lost parcel (DOMAIN.md 3.1, 4.16): the claim's permission guards it.
    mark_lost: { from: ['shipped'], to: 'lost', label: 'be written off as lost', event: 'lost' },
    // Repair (issue 19, DOMAIN.md 3.5): the station that raises the ticket (repair requests, an
    // RMA, the unpack desk) carries the permission; the repair stations carry theirs.
    send_to_repair: {
      from: ['failed_qc', 'returned'],
      to: 'in_repair',
      label: 'be sent to repair',
      event: 'sent_to_repair',
    },
    pass_repair_test: {
      from: ['in_repair'],
      to: 'repaired',
      label: 'pass its repair test',
      event: 'repair_test_passed',
      permission: STATION_ACCESS.repairTesting,
    },
    scrap: {
      from: ['in_repair'],
      to: 'scrapped',
      label: 'be scrapped (beyond economical repair)',
      event: 'scrapped',
      permission: STATION_ACCESS.repairLeader,
    },
    // A cancelled ticket leaves its device unrepaired: it is failed QC again, for another ticket.
    withdraw_from_repair: {
      from: ['in_repair'],
      to: 'failed_qc',
      label: 'be withdrawn from repair',
      event: 'withdrawn_from_repair',
      permission: STATION_ACCESS.repairLeader,
    },
    harvest_parts: {
      from: ['in_repair'],
      to: 'parts',
      label: 'be kept for parts (beyond economical repair)',
      event: 'harvested_for_parts',
      permission: STATION_ACCESS.repairLeader,
    },
  },
});

export const DEVICE_ACTIONS = deviceLifecycle.actions;
export type DeviceAction = keyof typeof DEVICE_ACTIONS;

/** What an action reads of a device. */
export type DeviceState = {
  readonly status: DeviceStatus;
  readonly status_before_hold: DeviceStatus | null;
};

/** The status an action leads to, or why the device cannot take it. */
export const nextDeviceStatus = (device: DeviceState, action: DeviceAction) =>
  nextStatus(deviceLifecycle, device, action);
