import { PALLET_MAX_BOXES } from '@inventory/contract';
import type { ScanFeedback } from '../../toolkit/station';

/**
 * The putaway station's modes (DOMAIN.md 4.2): one sealed box to its suggested location, a pallet
 * of sealed boxes to one location, a located box moved X → Y, a located box taken off its place.
 */
export const PUTAWAY_MODES = ['putaway', 'pallet', 'move', 'unassign'] as const;
export type PutawayMode = (typeof PUTAWAY_MODES)[number];

/** What each mode is called, and what it asks to scan before anything is chosen. */
export const PUTAWAY_MODE_WORDS: Record<PutawayMode, { label: string; prompt: string }> = {
  putaway: { label: 'Put away', prompt: 'Scan a sealed box (IB-…)' },
  pallet: { label: 'Pallet', prompt: 'Scan the sealed boxes of the pallet, then the location' },
  move: { label: 'Move box X → Y', prompt: 'Scan the box to move' },
  unassign: { label: 'Unassign', prompt: 'Scan a box to take off its location' },
};

/** What a scan at the putaway station came to. */
export type PutawayResult =
  | 'suggested'
  | 'located'
  | 'already'
  | 'on_pallet'
  | 'pallet_located'
  | 'box_chosen'
  | 'moved'
  | 'unassigned';

export const PUTAWAY_FEEDBACK: ScanFeedback<PutawayResult> = {
  tones: {
    suggested: 'info',
    located: 'success',
    already: 'info',
    on_pallet: 'info',
    pallet_located: 'success',
    box_chosen: 'info',
    moved: 'success',
    unassigned: 'success',
  },
  words: {
    suggested: 'Scan the location',
    located: 'Put away',
    already: 'Already there',
    on_pallet: 'On the pallet',
    pallet_located: 'Pallet put away',
    box_chosen: 'Scan where it goes',
    moved: 'Moved',
    unassigned: 'Unassigned',
  },
};

/** Why a box scanned cannot join the pallet, or null when it may (the server checks the rest). */
export function palletRefusal(pallet: readonly string[], boxCode: string): string | null {
  if (pallet.includes(boxCode)) return `${boxCode} is on the pallet already.`;
  if (pallet.length >= PALLET_MAX_BOXES) {
    return `A pallet holds at most ${PALLET_MAX_BOXES} boxes: scan the location for these first.`;
  }
  return null;
}

/** "1 box", "3 boxes". */
export const boxesText = (count: number) => `${count} ${count === 1 ? 'box' : 'boxes'}`;
