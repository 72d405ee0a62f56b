import {
  API_BASE,
  type EndpointBody,
  type EndpointData,
  type EndpointDefinition,
  type EndpointQuery,
  type ErrorEnvelope,
} from '@inventory/contract';
import { clearSession, getToken } from './session-storage';

/** A non-2xx answer; `body` is the server's error envelope when it sent one. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorEnvelope | null,
  ) {
    super(
      typeof body?.message === 'string' ? body.message : `Request failed with status ${status}`,
    );
  }
}

export type Envelope<T> = { code: number; message: string; data: T };

let onUnauthorized: () => void = () => window.location.assign('/login?code=401');

/** The app routes a 401 through its router instead of a full page load. */
export function setUnauthorizedHandler(handler: () => void): void {
  onUnauthorized = handler;
}

type CallInput<E extends EndpointDefinition> = {
  params?: Record<string, string | number>;
  query?: EndpointQuery<E>;
  body?: EndpointBody<E>;
  /** A file sent as the body itself (uploads), instead of JSON. */
  file?: File;
};

function urlOf(endpoint: EndpointDefinition, input: CallInput<EndpointDefinition>): string {
  const path = endpoint.path.replace(/:([A-Za-z_]+)/g, (_, name: string) =>
    encodeURIComponent(String(input.params?.[name] ?? '')),
  );
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries((input.query ?? {}) as Record<string, unknown>)) {
    if (value !== undefined && value !== null && value !== '') search.set(key, String(value));
  }
  const query = search.toString();
  return `${API_BASE}${path}${query ? `?${query}` : ''}`;
}

/**
 * Calls a contract endpoint: versioned base, JSON, bearer token from storage, no timeout; 2xx is
 * success. A 401 to the session signed in clears the token and sends the user to
 * /login?code=401 (spec section 4).
 */
export async function callEndpoint<E extends EndpointDefinition>(
  endpoint: E,
  input: CallInput<E> = {},
): Promise<Envelope<EndpointData<E>>> {
  const token = getToken();
  const headers: Record<string, string> = { Accept: 'application/json' };
  // The server reads the file's kind from its name and content, not from the browser's guess.
  if (input.file) headers['Content-Type'] = 'application/octet-stream';
  else if (input.body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(urlOf(endpoint, input), {
    method: endpoint.method,
    headers,
    body: input.file ?? (input.body === undefined ? undefined : JSON.stringify(input.body)),
  });
  const body = (await response.json().catch(() => null)) as unknown;
  if (response.status >= 200 && response.status <= 299) {
    return body as Envelope<EndpointData<E>>;
  }
  // Only the session still signed in has ended. A request sent under one signed out since (a
  // query in flight while the user logs out), or with none (a refetch as the page goes), is
  // answered 401 too: that is no news, and the login page must not say the session expired.
  const sessionEnded = token !== null && getToken() === token;
  if (response.status === 401 && endpoint.guard !== 'public' && sessionEnded) {
    clearSession();
    onUnauthorized();
  }
  throw new ApiError(response.status, body as ErrorEnvelope | null);
}
