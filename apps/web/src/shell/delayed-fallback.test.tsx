import { act, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DelayedFallback, LAZY_LOADING_DELAY_MS } from './delayed-fallback';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('DelayedFallback (spec section 9)', () => {
  it('shows the loading indicator only after 200 ms', () => {
    expect(LAZY_LOADING_DELAY_MS).toBe(200);
    const view = render(<DelayedFallback />);
    act(() => vi.advanceTimersByTime(199));
    expect(view.container.querySelector('.ant-spin')).toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(view.container.querySelector('.ant-spin')).not.toBeNull();
  });
});
