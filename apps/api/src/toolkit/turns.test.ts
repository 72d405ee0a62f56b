import { describe, expect, it } from 'vitest';
import { turns } from './turns.js';

describe('turns', () => {
  it('lets some work at once, some wait, and refuses the rest with 503', async () => {
    const files = turns(1, 1, 'Busy.');
    await files.take();
    let waited = false;
    const waiting = files.take().then(() => (waited = true));
    await expect(files.take()).rejects.toMatchObject({
      statusCode: 503,
      answer: 'Busy.',
      headers: { 'retry-after': '60' },
    });
    expect(waited).toBe(false);
    files.end();
    await waiting;
    // The turn went to the one waiting: a newcomer now waits behind it rather than working.
    let newcomer = false;
    const next = files.take().then(() => (newcomer = true));
    await Promise.resolve();
    expect(newcomer).toBe(false);
    files.end();
    await next;
    files.end();
    await files.take();
  });
});
