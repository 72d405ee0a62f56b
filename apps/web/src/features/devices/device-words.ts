import {
  HOLD_REASONS,
  type DeviceEvent,
  type DeviceStatus,
  type HoldReason,
} from '@inventory/contract';

const isHoldReason = (value: unknown): value is HoldReason =>
  (HOLD_REASONS as readonly unknown[]).includes(value);

/** What happened to a device, as the timeline says it. */
const EVENT_WORDS: Record<string, string> = {
  received: 'Received into a warehouse box',
  held: 'Put on hold',
  hold_cleared: 'Hold cleared',
  returned_to_vendor: 'Returned to its vendor',
  production_started: 'Handed to a production worker',
  reassigned: 'Moved to another production worker',
  graded: 'Tested, wiped and graded',
  failed_qc: 'Failed quality control',
  regrade_requested: 'Sent back for a re-grade',
  corrected: 'Attributes corrected',
  consolidated: 'Put into an inventory box',
  added_to_box: 'Put back into an inventory box',
  removed_from_box: 'Taken out of its inventory box',
  moved_between_boxes: 'Moved to another inventory box',
  status_changed: 'Status changed',
  rma_requested: 'RMA opened',
  rma_authorized: 'RMA authorised with a return label',
  rma_in_transit: 'On its way back under its RMA',
  rma_routed: 'Routed at RMA receiving',
  rma_resolved: 'RMA resolved',
  rma_rejected: 'RMA rejected',
  rma_closed: 'RMA closed',
  rma_not_returned: 'Not returned: its RMA was closed short',
  rma_cancelled: 'RMA cancelled',
  repair_sorted: 'Repair ticket sorted',
  repair_assigned: 'Assigned to a technician',
  repair_repair_started: 'Repair started',
  repair_waiting_for_parts: 'Repair waiting for parts',
  repair_repair_resumed: 'Repair resumed',
  repair_clock_started: 'Repair clock started',
  repair_clock_stopped: 'Repair clock stopped',
  repair_part_issued: 'Part fitted from stock',
  repair_note: 'Repair note',
  repair_repaired: 'Repaired: on to testing',
  repair_testing_started: 'Repair test started',
  repair_test_failed: 'Failed its repair test',
  repair_test_passed: 'Passed its repair test',
  repair_released: 'Released from repair',
  repair_declared_beyond_repair: 'Declared beyond repair',
  repair_cancelled: 'Repair ticket cancelled',
};

/** A timeline event's type in words; a type this page does not know yet is spelled out. */
export const eventWords = (type: string): string => {
  const known = EVENT_WORDS[type];
  if (known) return known;
  const words = type.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/** The names of an event's details, as the timeline shows them. */
const DETAIL_NAMES: Record<string, string> = {
  result: 'Scan result',
  invoice_no: 'Invoice',
  source: 'Source',
  blacklist_reason: 'Blacklist reason',
  evidence: 'Evidence',
  transfer: 'Return',
  tracking: 'Tracking',
  worker: 'Worker',
  grade: 'Grade',
  issue_codes: 'Issue codes',
  box: 'Box',
  from_box: 'From box',
  scanned_at_box: 'Scanned at box',
  sent_to: 'Sent to',
  ticket: 'Ticket',
  rma: 'RMA',
  order: 'Order',
  part: 'Part',
  qty: 'Quantity',
  technician: 'Technician',
  failed_items: 'Failed',
  reason: 'Reason',
  route: 'Route',
};

/** Details said elsewhere on the line (the station) or only for machines (ids). */
const UNSHOWN_DETAILS = new Set([
  'station',
  'worker_id',
  'technician_id',
  'package_id',
  'label_batch_id',
  'before',
  'after',
  // The ticket's own states: the event's words say the step.
  'ticket_from',
  'ticket_to',
]);

/** A detail's value as words: a list joined, stored codes (`model_mismatch`) spelled out. */
function valueText(value: unknown): string {
  if (Array.isArray(value)) return value.map(valueText).join(', ');
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  // Free text (evidence) stays as written.
  return /^[a-z]+(_[a-z]+)+$/.test(text) ? text.replace(/_/g, ' ') : text;
}

/** The attributes a correction changes, by their column. */
const FIELD_NAMES: Record<string, string> = {
  model_id: 'Model id',
  color_id: 'Colour id',
  capacity_gb: 'Capacity (GB)',
  grade: 'Grade',
  carrier_lock: 'Carrier lock',
  condition: 'Condition',
};

/** A correction's changes, one line each: "Grade: A → B". */
function changeLines(data: Record<string, unknown>): string[] {
  const { before, after } = data;
  if (!after || typeof after !== 'object') return [];
  const was = (before && typeof before === 'object' ? before : {}) as Record<string, unknown>;
  return Object.entries(after as Record<string, unknown>).map(
    ([field, now]) =>
      `${FIELD_NAMES[field] ?? field.replace(/_/g, ' ')}: ${valueText(was[field] ?? '—')} → ${valueText(now ?? '—')}`,
  );
}

/**
 * An event's details as "name: value" lines; empty values, and the box the event's line names
 * already, are left out. A reason is a hold's only on a hold.
 */
export function eventDetails(
  event: Pick<DeviceEvent, 'type' | 'data'> & { container?: string | null },
): string[] {
  const { data } = event;
  if (!data) return [];
  const lines = Object.entries(data)
    .filter(([key, value]) => !UNSHOWN_DETAILS.has(key) && value !== null && value !== undefined)
    .filter(([, value]) => value !== '' && !(Array.isArray(value) && value.length === 0))
    .filter(([key, value]) => !(key === 'box' && value === event.container))
    .map(([key, value]) => {
      if (key === 'reason') {
        return event.type === 'held'
          ? `Hold reason: ${isHoldReason(value) ? holdWords(value) : valueText(value)}`
          : `Reason: ${valueText(value)}`;
      }
      return `${DETAIL_NAMES[key] ?? key.replace(/_/g, ' ')}: ${valueText(value)}`;
    });
  return [...changeLines(data), ...lines];
}

/** The station an event was taken at: its own column, or its details' (older events). */
export const eventStation = (event: Pick<DeviceEvent, 'station' | 'data'>): string | null =>
  event.station ?? (typeof event.data?.station === 'string' ? event.data.station : null);

/** The colour of a status tag: where the device stands at a glance. */
export const STATUS_COLORS: Partial<Record<DeviceStatus, string>> = {
  received: 'blue',
  in_production: 'geekblue',
  graded: 'cyan',
  in_stock: 'green',
  reserved: 'gold',
  hold: 'red',
  failed_qc: 'volcano',
  in_repair: 'orange',
  shipped: 'purple',
  delivered: 'purple',
  rtv: 'magenta',
  lost: 'red',
  scrapped: 'default',
};

/** A wipe method in words: `nist_800_88` is "NIST 800-88". */
export const wipeMethodWords = (method: string): string =>
  method === 'nist_800_88' ? 'NIST 800-88' : method.replace(/_/g, ' ');

/** A hold reason in words. */
export const holdWords = (reason: HoldReason): string =>
  reason === 'frp' ? 'FRP lock' : reason.replace(/_/g, ' ');
