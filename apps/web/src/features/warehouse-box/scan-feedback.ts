import { SCAN_TONES, type ReceiveScanResult, type WarehouseBoxStatus } from '@inventory/contract';

/** How a scan result looks and sounds at the station: the contract's tone of each result. */
export type ScanTone = (typeof SCAN_TONES)[ReceiveScanResult];

export const toneOf = (result: ReceiveScanResult): ScanTone => SCAN_TONES[result];

/** Each result in a few words, for its tag in the station's list. */
export const RESULT_WORDS: Record<ReceiveScanResult, string> = {
  added: 'Added',
  model_mismatch: 'Added, other model',
  unexpected: 'Added, not on invoice',
  blacklisted: 'Blacklisted, to quarantine',
  already_in_box: 'Already in this box',
  quarantined: 'In quarantine',
  in_other_box: 'In another box',
  in_registry: 'Already received',
  other_invoice: 'Other invoice',
  unknown_tac: 'Unknown TAC',
  meid_unknown: 'Unknown MEID',
  bad_check_digit: 'Bad check digit',
  imeisv: 'IMEISV',
  not_an_identifier: 'Not an IMEI',
};

/** The tag colour of each tone (antd preset colours). */
export const TONE_COLORS: Record<ScanTone, string> = {
  success: 'green',
  warning: 'gold',
  info: 'blue',
  error: 'red',
};

/** The colour of a box's status tag. */
export const BOX_STATUS_COLORS: Record<WarehouseBoxStatus, string> = {
  receiving: 'blue',
  received: 'green',
  staged: 'cyan',
  requested: 'gold',
  in_production: 'geekblue',
  emptied: 'default',
};

/** Beeps of each tone: pitch (Hz) and length (ms), one entry a beep. */
const BEEPS: Record<ScanTone, readonly (readonly [hz: number, ms: number])[]> = {
  success: [[1320, 90]],
  info: [
    [880, 70],
    [880, 70],
  ],
  warning: [
    [660, 120],
    [990, 120],
  ],
  error: [[220, 380]],
};

let audio: AudioContext | null = null;

/**
 * A short beep of the result's tone (Web Audio), so that the sorter hears the answer without
 * looking up. A browser without audio stays silent.
 */
export function beep(tone: ScanTone): void {
  try {
    audio ??= new AudioContext();
    if (audio.state === 'suspended') void audio.resume();
    let at = audio.currentTime;
    for (const [hz, ms] of BEEPS[tone]) {
      const oscillator = audio.createOscillator();
      const gain = audio.createGain();
      oscillator.type = tone === 'error' ? 'square' : 'sine';
      oscillator.frequency.value = hz;
      gain.gain.setValueAtTime(0.15, at);
      gain.gain.exponentialRampToValueAtTime(0.001, at + ms / 1000);
      oscillator.connect(gain).connect(audio.destination);
      oscillator.start(at);
      oscillator.stop(at + ms / 1000);
      at += ms / 1000 + 0.05;
    }
  } catch {
    // No audio here: the colour says it all.
  }
}

/** "12 of 50", or "12" when the box expects no number. */
export const countText = (scanned: number, expected: number | null): string =>
  expected === null ? String(scanned) : `${scanned} of ${expected}`;
