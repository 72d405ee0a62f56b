import {
  BOX_SCAN_TONES,
  type BoxScanAnswer,
  type BoxScanMode,
  type BoxScanResult,
  type StationBox,
} from '@inventory/contract';
import type { ScanFeedback } from '../../toolkit/station';

/** A line of the box station's log: a scan's answer, or a box scanned to work on. */
export type BoxStationResult = BoxScanResult | 'box_chosen';

/** Each answer in a few words, for its badge in the log. */
export const BOX_SCAN_WORDS: Record<BoxStationResult, string> = {
  box_chosen: 'Box',
  added: 'Added',
  removed: 'Removed',
  moved: 'Moved',
  counted: 'Counted',
  extra: 'Extra',
  duplicate: 'Duplicate',
  mismatch: 'Attribute mismatch',
  held: 'On hold',
  reserved: 'Reserved',
  not_in_stock: 'Not in stock',
  in_other_box: 'In another box',
  not_in_box: 'Not in this box',
  box_full: 'Box full',
  not_found: 'Not found',
};

/** How the box station shows and plays each answer: the contract's tones, our words. */
export const BOX_SCAN_FEEDBACK: ScanFeedback<BoxStationResult> = {
  tones: { ...BOX_SCAN_TONES, box_chosen: 'info' },
  words: BOX_SCAN_WORDS,
};

/** What each mode does, for the mode picker and the scan field. */
export const MODE_WORDS: Record<BoxScanMode, { label: string; prompt: string }> = {
  add: { label: 'Add', prompt: 'Scan a device to put into' },
  remove: { label: 'Remove', prompt: 'Scan a device to take out of' },
  move: { label: 'Move box → box', prompt: 'Scan a device to move into' },
  verify: { label: 'Verify box', prompt: 'Scan every device of' },
};

const byIdentifier = (a: { identifier: string }, b: { identifier: string }) =>
  a.identifier < b.identifier ? -1 : a.identifier > b.identifier ? 1 : 0;

/**
 * A box the station holds, as a scan's answer leaves it: the box as answered, its devices with
 * the scanned device in or out as the answer says, and the count the answer carries. The box is
 * the answer's box or, in move mode, the box taken from. Null when the devices no longer add up
 * to the box's qty: another station changed the box meanwhile, and it is read again.
 */
export function stationBoxAfter(current: StationBox, answer: BoxScanAnswer): StationBox | null {
  const box = [answer.box, answer.from_box].find((each) => each?.id === current.box.id);
  if (!box) return current;
  const device = answer.device;
  let devices = current.devices;
  if (device) {
    const others = devices.filter((each) => each.id !== device.id);
    devices = device.box_code === box.code ? [...others, device].sort(byIdentifier) : others;
  }
  if (devices.length !== box.qty) return null;
  return { box, devices, count: answer.count ?? current.count };
}
