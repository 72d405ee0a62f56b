import {
  CONSOLIDATION_TONES,
  type ConsolidationResult,
  type InventoryBoxStatus,
} from '@inventory/contract';
import type { ScanFeedback } from '../../toolkit/station';

/** Each consolidation answer in a few words, for its tag in the station's log. */
export const CONSOLIDATION_WORDS: Record<ConsolidationResult, string> = {
  box_named: 'Scan the box',
  added: 'Added',
  already_in_box: 'Already in this box',
  in_other_box: 'In another box',
  mismatch: 'Does not match',
  held: 'On hold',
  not_ready: 'Not graded',
  box_closed: 'Box sealed',
  box_full: 'Box full',
  not_found: 'Not found',
};

/** How the consolidation station shows and plays each answer: the contract's tones, our words. */
export const CONSOLIDATION_FEEDBACK: ScanFeedback<ConsolidationResult> = {
  tones: CONSOLIDATION_TONES,
  words: CONSOLIDATION_WORDS,
};

/** A scanned code names an inventory box ("IB-000123"), not a device. */
export const isBoxCode = (code: string) => /^IB-/i.test(code.trim());

/** A box's attributes in a line: model, colour, capacity, grade, lock (what is known of them). */
export const boxKind = (box: {
  model: string;
  color: string | null;
  capacity_gb: number | null;
  grade: string;
  carrier_lock: string | null;
}) =>
  [
    box.model,
    box.color,
    box.capacity_gb === null ? null : `${box.capacity_gb} GB`,
    `grade ${box.grade}`,
    box.carrier_lock,
  ]
    .filter(Boolean)
    .join(' · ');

/** The colour of a box's status tag. */
export const INVENTORY_BOX_STATUS_COLORS: Record<InventoryBoxStatus, string> = {
  open: 'blue',
  sealed: 'gold',
  located: 'green',
  partially_picked: 'cyan',
  empty: 'default',
  archived: 'default',
  locked: 'red',
};
