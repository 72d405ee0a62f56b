/**
 * The device lifecycle (DOMAIN.md 3.1): the stored statuses, and the named actions that move a
 * device between them. The server changes a device's status only through these actions; each
 * checks the current status and the hold, here, before the database is touched.
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
export const HOLD_REASONS = ['blacklist', 'frp', 'activation_lock', 'mismatch', 'missing'] as const;
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

/** Statuses no action leaves (a delivered device comes back only through returns). */
export const TERMINAL_STATUSES = [
  'delivered',
  'scrapped',
  'parts',
  'rtv',
  'lost',
] as const satisfies readonly DeviceStatus[];

/**
 * The actions of this release and what each requires. `to: 'before-hold'` goes back to the status
 * the device had when it was held. `whileHeld` marks the actions a held device may take.
 */
export const DEVICE_ACTIONS = {
  hold: { from: PRE_SALE_STATUSES, to: 'hold', whileHeld: false, label: 'put on hold' },
  clear_hold: { from: ['hold'], to: 'before-hold', whileHeld: true, label: 'clear the hold' },
  return_to_vendor: {
    from: VENDOR_RETURNABLE_STATUSES,
    to: 'rtv',
    whileHeld: true,
    label: 'return to its vendor',
  },
} as const satisfies Record<
  string,
  {
    readonly from: readonly DeviceStatus[];
    readonly to: DeviceStatus | 'before-hold';
    readonly whileHeld: boolean;
    readonly label: string;
  }
>;
export type DeviceAction = keyof typeof DEVICE_ACTIONS;

/** What an action reads of a device. */
export type DeviceState = {
  readonly status: DeviceStatus;
  readonly status_before_hold: DeviceStatus | null;
};

/** The status an action leads to, or why the device cannot take it. */
export function nextDeviceStatus(
  device: DeviceState,
  action: DeviceAction,
): { ok: true; status: DeviceStatus } | { ok: false; message: string } {
  const rule = DEVICE_ACTIONS[action];
  if (device.status === 'hold' && !rule.whileHeld) {
    return {
      ok: false,
      message:
        action === 'hold'
          ? 'The device is on hold already.'
          : `The device is on hold: clear the hold before you ${rule.label}.`,
    };
  }
  if (!(rule.from as readonly DeviceStatus[]).includes(device.status)) {
    return {
      ok: false,
      message: `A device that is ${statusText(device.status)} cannot ${rule.label}.`,
    };
  }
  if (rule.to === 'before-hold') {
    return { ok: true, status: device.status_before_hold ?? 'received' };
  }
  return { ok: true, status: rule.to };
}

/** A status in words: `failed_qc` is "failed QC". */
export const statusText = (status: DeviceStatus): string =>
  status === 'failed_qc'
    ? 'failed QC'
    : status === 'rtv'
      ? 'returned to its vendor'
      : status === 'hold'
        ? 'on hold'
        : status.replace(/_/g, ' ');
