/** How an answer looks and sounds at a station: green, amber, blue or red (antd's alert types). */
export type ScanTone = 'success' | 'warning' | 'info' | 'error';

/**
 * What a station shows and plays for each kind of answer its scan can get: the contract's tone of
 * each result (receiving's `SCAN_TONES`) and a few words for its tag.
 */
export type ScanFeedback<R extends string> = {
  readonly tones: Readonly<Record<R, ScanTone>>;
  readonly words: Readonly<Record<R, string>>;
};

/** The tag colour of each tone (antd preset colours). */
export const TONE_COLORS: Record<ScanTone, string> = {
  success: 'green',
  warning: 'gold',
  info: 'blue',
  error: 'red',
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
 * A short beep of the answer's tone (Web Audio), so that the person scanning hears the answer
 * without looking up. A browser without audio stays silent.
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

/** "12 of 50", or "12" when nothing says how many are expected. */
export const countText = (found: number, expected: number | null): string =>
  expected === null ? String(found) : `${found} of ${expected}`;
