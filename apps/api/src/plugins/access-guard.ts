import { API_BASE, API_KEY_HEADER, canAccess, type Guard } from '@inventory/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError, ForbiddenError, UnauthorizedError } from '../http/errors.js';
import { accessSubjectOf, type ClientCarrierCaller, type Principal } from '../http/principal.js';
import type { SessionService } from '../modules/session/session.service.js';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
    /** The client carrier whose API key called a 'client-carrier' route. */
    clientCarrier: ClientCarrierCaller | null;
  }
  interface FastifyContextConfig {
    guard?: Guard;
    /** The handler keeps answers under data versions (decision 0010). */
    keepsAnswers?: boolean;
    /** Open to a session that must still change its temporary password. */
    beforePasswordChange?: boolean;
  }
}

export const PASSWORD_CHANGE_FIRST =
  'Set a new password first: until then this session may only read its profile, change the ' +
  'password and sign out.';

export const API_KEY_REFUSED =
  'Send a valid API key in the X-API-Key header: this one is missing, unknown or revoked.';

const BEARER = /^Bearer ([A-Za-z0-9_-]{20,200})$/;

/** Finds the client carrier of an API key; null for an unknown or revoked key. */
export type ClientCarrierAuthenticator = (apiKey: string) => Promise<ClientCarrierCaller | null>;

/**
 * Deny by default: the app refuses to start if an API route declares no guard, and every request
 * to a guarded route is checked against a fresh read of the session, roles and permissions.
 */
export function registerAccessGuard(
  app: FastifyInstance,
  sessions: SessionService,
  clientCarriers: ClientCarrierAuthenticator,
): void {
  app.decorateRequest('principal', null);
  app.decorateRequest('clientCarrier', null);

  // Each guarded route gets its own hook, which knows its guard: public routes and the 404 pay
  // nothing, and no request reads its route's options.
  app.addHook('onRoute', (route) => {
    const guard = route.config?.guard;
    if (route.url.startsWith(API_BASE) && !guard) {
      throw new Error(`${String(route.method)} ${route.url} declares no guard`);
    }
    if (!guard || guard === 'public') return;
    if (guard === 'client-carrier') {
      const checkKey = async (request: FastifyRequest) => {
        const apiKey = request.headers[API_KEY_HEADER];
        const caller = typeof apiKey === 'string' ? await clientCarriers(apiKey) : null;
        if (!caller) throw new UnauthorizedError(API_KEY_REFUSED);
        request.clientCarrier = caller;
      };
      route.onRequest = [checkKey, ...onRequestOf(route.onRequest)];
      return;
    }
    const withDataVersions = route.config?.keepsAnswers === true;
    const beforePasswordChange = route.config?.beforePasswordChange === true;
    const check = async (request: FastifyRequest) => {
      const token = BEARER.exec(request.headers.authorization ?? '')?.[1];
      const principal = token ? await sessions.authenticate(token, withDataVersions) : null;
      if (!principal) throw new UnauthorizedError();
      request.principal = principal;
      if (principal.firstLogin === 1 && !beforePasswordChange) {
        throw new ApiError(403, PASSWORD_CHANGE_FIRST);
      }
      if (guard === 'session') return;
      if (!canAccess(accessSubjectOf(principal), guard)) throw new ForbiddenError(guard);
    };
    route.onRequest = [check, ...onRequestOf(route.onRequest)];
  });
}

/** A route's own onRequest hooks, as a list, to run after the guard. */
const onRequestOf = <Hook>(own: Hook | Hook[] | undefined): Hook[] =>
  own ? (Array.isArray(own) ? own : [own]) : [];
