import { profileEndpoint } from '@inventory/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, callEndpoint, setUnauthorizedHandler } from './http-client';
import { clearSession, getToken, STORAGE_KEYS } from './session-storage';

/** A fetch that answers 401 once `answer` is called, so the test acts while it is in flight. */
function pendingUnauthorized() {
  let answer = () => {};
  vi.stubGlobal(
    'fetch',
    vi.fn(
      () =>
        new Promise<Response>((resolve) => {
          answer = () =>
            resolve(
              new Response(JSON.stringify({ code: 401, message: 'Sign in' }), { status: 401 }),
            );
        }),
    ),
  );
  return () => answer();
}

describe('a 401 answer', () => {
  const unauthorized = vi.fn();
  beforeEach(() => {
    localStorage.setItem(STORAGE_KEYS.token, 'session-token-0000000000000000000000');
    setUnauthorizedHandler(unauthorized);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    unauthorized.mockReset();
    clearSession();
  });

  it('to the session still signed in ends it and sends the user to sign in again', async () => {
    const answer = pendingUnauthorized();
    const call = callEndpoint(profileEndpoint);
    answer();
    await expect(call).rejects.toBeInstanceOf(ApiError);
    expect(getToken()).toBeNull();
    expect(unauthorized).toHaveBeenCalledOnce();
  });

  it('to a request sent before the user signed out says nothing of the session now', async () => {
    const answer = pendingUnauthorized();
    const call = callEndpoint(profileEndpoint);
    // The user logs out (and another signs in) while the request is in flight.
    clearSession();
    localStorage.setItem(STORAGE_KEYS.token, 'next-session-token-00000000000000000');
    answer();
    await expect(call).rejects.toBeInstanceOf(ApiError);
    expect(getToken()).toBe('next-session-token-00000000000000000');
    expect(unauthorized).not.toHaveBeenCalled();
  });

  it('to a request sent with no session (a refetch as the user signs out) says nothing', async () => {
    clearSession();
    const answer = pendingUnauthorized();
    const call = callEndpoint(profileEndpoint);
    answer();
    await expect(call).rejects.toBeInstanceOf(ApiError);
    expect(unauthorized).not.toHaveBeenCalled();
  });
});
