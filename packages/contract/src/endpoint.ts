import * as z from 'zod/mini';
import type { $ZodType } from 'zod/v4/core';
import type { Access } from './access.js';

/**
 * Any zod schema. The contract is written with zod/mini, whose functions tree-shake, so that the
 * web app's cold loads carry only the validation they use (docs/decisions/0004).
 */
export type Schema = $ZodType;

/**
 * Who may call an endpoint. There is no default: 'public' (no session), 'session' (any signed-in
 * user, for the caller's own profile and session), 'client-carrier' (a client carrier's system,
 * by its API key in the `X-API-Key` header; never a person's session) or an access rule with a
 * permission or roles.
 */
export type Guard =
  'public' | 'session' | 'client-carrier' | (Access & { readonly permission: string });

/** The header a client carrier's system sends its API key in. */
export const API_KEY_HEADER = 'x-api-key';
/** The header that makes a client carrier's write safe to retry (decision 0025). */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One endpoint of the API: defined once here, registered by the server, called by the web. */
export type EndpointDefinition = {
  readonly method: HttpMethod;
  /** Path under the API base, Fastify style (`/users/:id`). */
  readonly path: string;
  readonly summary: string;
  /** More than the summary for the API reference (markdown): an example call, the rules. */
  readonly description?: string;
  readonly tag: string;
  readonly guard: Guard;
  readonly params?: Schema;
  readonly query?: Schema;
  readonly body?: Schema;
  /**
   * The body is a file itself, sent as application/octet-stream; past `maxBytes` the server stops
   * reading and answers 413.
   */
  readonly fileBody?: { readonly maxBytes: number };
  /** Schema of the `data` member of the answer. */
  readonly response: Schema;
  readonly successStatus?: 200 | 201 | 202;
  /**
   * Open to a session signed in with a temporary password (first_login = 1). Only reading the
   * profile, changing the password and signing out are: every other endpoint answers 403 until
   * the password is changed.
   */
  readonly beforePasswordChange?: true;
};

export const defineEndpoint = <const E extends EndpointDefinition>(endpoint: E): E => endpoint;

export const API_BASE = '/api/v1';

/** Every answer is `{code, message, data}`; `code` repeats the HTTP status. */
export const envelopeSchema = <T extends Schema>(data: T) =>
  z.object({ code: z.int(), message: z.string(), data });

/** Field errors as spec section 8 reads them: field name to a list of messages. */
export const fieldErrorsSchema = z.record(z.string(), z.array(z.string()));
export type FieldErrors = z.infer<typeof fieldErrorsSchema>;

/** Every error answer: 422 carries field errors in `message`, other statuses a sentence. */
export const errorEnvelopeSchema = z.object({
  code: z.int(),
  message: z.union([z.string(), fieldErrorsSchema]),
  requestId: z.string(),
});
export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;

export type EndpointData<E extends EndpointDefinition> = z.output<E['response']>;
export type EndpointBody<E extends EndpointDefinition> = E['body'] extends Schema
  ? z.input<E['body']>
  : undefined;
export type EndpointQuery<E extends EndpointDefinition> = E['query'] extends Schema
  ? z.input<E['query']>
  : undefined;

/** Adds a message to a field of a field-error map. */
export function addFieldError(errors: FieldErrors, field: string, message: string): void {
  (errors[field] ??= []).push(message);
}
