import { API_BASE, type ErrorEnvelope } from '@inventory/contract';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../http/errors.js';

function send(
  reply: FastifyReply,
  request: FastifyRequest,
  status: number,
  message: ErrorEnvelope['message'],
) {
  const body: ErrorEnvelope = { code: status, message, requestId: request.id };
  return reply.code(status).type('application/json; charset=utf-8').send(body);
}

/**
 * PostgreSQL's data exceptions that only input can cause (a NUL character, a value out of range):
 * a 422, whichever statement met them first, instead of a 500.
 */
const DATA_EXCEPTIONS: Record<string, string> = {
  '22021': 'The text holds a character that cannot be stored (such as a NUL).',
  '22P05': 'The text holds a character that cannot be stored (such as a NUL).',
  '22003': 'A number is out of range.',
  '22001': 'A text is too long.',
  '22007': 'A date or time is not valid.',
  '22008': 'A date or time is out of range.',
};

/**
 * Races that a concurrent request won (a unique key taken a moment ago, a serialization failure,
 * a deadlock): a 409 that says to try again, never a 500. Our services map the unique keys that
 * a user can choose into field errors first.
 */
const RACES = new Set(['23505', '40001', '40P01']);
const RACE_MESSAGE = 'Someone changed the same thing at the same moment: try again.';

/**
 * One shape for every error: `{code, message, requestId}`. Our own errors carry their answer;
 * Fastify's client errors (bad JSON, wrong content type, too large) keep their 4xx status and
 * message; anything else is logged and answered as a 500 without internals. Registered before
 * the routes, which take the error handler in force when they are added.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof ApiError) {
      reply.headers(error.headers);
      if (error.statusCode >= 500) request.log.error({ err: error }, 'request failed');
      return send(reply, request, error.statusCode, error.answer);
    }
    const invalidText = DATA_EXCEPTIONS[(error as { code?: string }).code ?? ''];
    if (invalidText) return send(reply, request, 422, { _: [invalidText] });
    if (RACES.has((error as { code?: string }).code ?? '')) {
      request.log.warn({ err: error }, 'concurrent change');
      return send(reply, request, 409, RACE_MESSAGE);
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return send(reply, request, status, error.message);
    }
    request.log.error({ err: error }, 'request failed');
    return send(
      reply,
      request,
      500,
      'Something went wrong on the server. Quote the request id when reporting it.',
    );
  });
}

/** Unknown API paths answer 404 in the error shape; other page paths get the SPA, if built. */
export function registerNotFoundHandler(
  app: FastifyInstance,
  spaFallback: ((request: FastifyRequest, reply: FastifyReply) => FastifyReply) | null,
): void {
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    // A missing asset is a 404, never the SPA: a browser must not run index.html as a script.
    const isPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !path.startsWith('/api/') &&
      !path.startsWith('/assets/');
    if (isPage && spaFallback) return spaFallback(request, reply);
    return send(
      reply,
      request,
      404,
      `No endpoint ${request.method} ${path.startsWith(API_BASE) ? path : request.url}`,
    );
  });
}
