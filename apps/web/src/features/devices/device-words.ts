import type { DeviceEvent, DeviceStatus, HoldReason } from '@inventory/contract';

/** What happened to a device, as the timeline says it. */
const EVENT_WORDS: Record<string, string> = {
  received: 'Received into a warehouse box',
  held: 'Put on hold',
  hold_cleared: 'Hold cleared',
  returned_to_vendor: 'Returned to its vendor',
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
  reason: 'Hold reason',
  source: 'Source',
  blacklist_reason: 'Blacklist reason',
  evidence: 'Evidence',
  transfer: 'Return',
  tracking: 'Tracking',
};

/** An event's details as "name: value" lines; empty values are left out. */
export function eventDetails(data: DeviceEvent['data']): string[] {
  if (!data) return [];
  return Object.entries(data)
    .filter(([, value]) => value !== null && value !== undefined && value !== '')
    .map(([key, value]) => {
      const name = DETAIL_NAMES[key] ?? key.replace(/_/g, ' ');
      const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
      // Stored codes (`model_mismatch`) read as words; free text (evidence) stays as written.
      return `${name}: ${/^[a-z]+(_[a-z]+)+$/.test(text) ? text.replace(/_/g, ' ') : text}`;
    });
}

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

/** A hold reason in words. */
export const holdWords = (reason: HoldReason): string =>
  reason === 'frp' ? 'FRP lock' : reason.replace(/_/g, ' ');
