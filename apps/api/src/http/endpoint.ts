import {
  API_BASE,
  type EndpointData,
  type EndpointDefinition,
  type FieldErrors,
  type Schema,
} from '@inventory/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import * as z from 'zod/mini';
import type { $ZodError } from 'zod/v4/core';
import type { ClientCarrierCaller, Principal, RequestMeta } from './principal.js';
import type { PreparedFile } from '../toolkit/downloads.js';
import { ValidationError } from './errors.js';

type Parsed<S> = S extends Schema ? z.output<S> : undefined;

export type EndpointInput<E extends EndpointDefinition> = {
  readonly request: FastifyRequest;
  readonly reply: FastifyReply;
  /** Null only on public endpoints and a client carrier's; the guard has already run. */
  readonly principal: E['guard'] extends 'public' | 'client-carrier' ? Principal | null : Principal;
  /** The client carrier calling a 'client-carrier' endpoint by its API key. */
  readonly clientCarrier: E['guard'] extends 'client-carrier' ? ClientCarrierCaller : null;
  readonly params: Parsed<E['params']>;
  readonly query: Parsed<E['query']>;
  readonly body: Parsed<E['body']>;
  readonly meta: RequestMeta;
};

/** A handler's answer with its own message instead of 'OK'. */
export class Answer<T> {
  constructor(
    readonly data: T,
    readonly message: string,
  ) {}
}

/** A handler's answer whose data is JSON text already (an answer kept by the answer cache). */
export class JsonAnswer {
  constructor(readonly json: string) {}
}

/** A handler's answer that is a file, streamed as it is made instead of wrapped as JSON. */
export class FileAnswer {
  constructor(readonly file: PreparedFile) {}
}

/**
 * A Content-Disposition header for any file name: a name that is not plain ASCII goes as a plain
 * stand-in for old clients and, percent-encoded, exactly (RFC 6266), so a user's name cannot
 * break the header.
 */
export function contentDisposition(disposition: 'inline' | 'attachment', fileName: string) {
  const plain = fileName.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  if (plain === fileName) return `${disposition}; filename="${fileName}"`;
  const exact = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${disposition}; filename="${plain}"; filename*=UTF-8''${exact}`;
}

export type EndpointHandler<E extends EndpointDefinition> = (
  input: EndpointInput<E>,
) => Promise<EndpointData<E> | Answer<EndpointData<E>> | FileAnswer | JsonAnswer>;

/** Field errors of a failed zod parse: dotted path to messages; '_' for the whole value. */
export function fieldErrorsOf(error: $ZodError): FieldErrors {
  const fields: FieldErrors = {};
  for (const issue of error.issues) {
    const field = issue.path.length > 0 ? issue.path.join('.') : '_';
    (fields[field] ??= []).push(issue.message);
  }
  return fields;
}

export const REQUEST_BODY_NOT_OBJECT = 'The request body must be a JSON object.';

/**
 * Parses an input with its contract schema; 422 with field errors. No input, or a `null` body,
 * reads as `{}`; an array, a string, a number or a boolean (only a JSON body can be one; params
 * and query are always objects) is refused with one clear message.
 */
function parse<S extends Schema | undefined>(schema: S, value: unknown): Parsed<S> {
  if (!schema) return undefined as Parsed<S>;
  if (value != null && (typeof value !== 'object' || Array.isArray(value))) {
    throw new ValidationError({ _: [REQUEST_BODY_NOT_OBJECT] });
  }
  const result = z.safeParse(schema, value ?? {});
  if (!result.success) throw new ValidationError(fieldErrorsOf(result.error));
  return result.data as Parsed<S>;
}

export const requestMeta = (request: FastifyRequest): RequestMeta => ({
  ip: request.ip,
  userAgent: request.headers['user-agent'] ?? null,
  requestId: request.id,
});

export type EndpointOptions = {
  /** Checks each answer against the contract (tests); off in production for speed. */
  readonly validateResponses: boolean;
  /** The handler keeps answers under data versions (decision 0010). */
  readonly keepsAnswers?: boolean;
};

/**
 * Registers a contract endpoint: the guard is enforced by the access hook from the route config,
 * inputs are parsed by the contract's schemas (422 on failure), the answer is wrapped as
 * `{code, message, data}`.
 */
export function registerEndpoint<E extends EndpointDefinition>(
  app: FastifyInstance,
  endpoint: E,
  handler: EndpointHandler<E>,
  options: EndpointOptions,
): void {
  const status = endpoint.successStatus ?? 200;
  app.route({
    method: endpoint.method,
    url: `${API_BASE}${endpoint.path}`,
    ...(endpoint.fileBody && { bodyLimit: endpoint.fileBody.maxBytes }),
    config: {
      guard: endpoint.guard,
      keepsAnswers: options.keepsAnswers ?? false,
      beforePasswordChange: endpoint.beforePasswordChange === true,
    },
    handler: async (request, reply) => {
      const input = {
        request,
        reply,
        principal: request.principal,
        clientCarrier: request.clientCarrier,
        params: parse(endpoint.params, request.params),
        query: parse(endpoint.query, request.query),
        body: parse(endpoint.body, request.body),
        meta: requestMeta(request),
      } as EndpointInput<E>;
      const result = await handler(input);
      if (result instanceof FileAnswer) {
        const { fileName, contentType, stream } = result.file;
        reply.header('content-type', contentType);
        // A PDF (a label) opens in the browser's viewer to print; other files are saved.
        const disposition =
          result.file.disposition ?? (contentType === 'application/pdf' ? 'inline' : 'attachment');
        reply.header('content-disposition', contentDisposition(disposition, fileName));
        reply.header('cache-control', 'no-store');
        return reply.send(stream);
      }
      if (result instanceof JsonAnswer) {
        if (options.validateResponses) z.parse(endpoint.response, JSON.parse(result.json));
        reply.code(status).type('application/json; charset=utf-8');
        return `{"code":${status},"message":"OK","data":${result.json}}`;
      }
      const answer = result instanceof Answer ? result : new Answer(result, 'OK');
      if (options.validateResponses) z.parse(endpoint.response, answer.data);
      reply.code(status);
      return { code: status, message: answer.message, data: answer.data ?? null };
    },
  });
}
