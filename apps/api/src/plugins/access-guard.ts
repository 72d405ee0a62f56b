import { API_BASE, canAccess, type Guard } from '@inventory/contract';
import type { FastifyInstance } from 'fastify';
import { ForbiddenError, UnauthorizedError } from '../http/errors.js';
import type { Principal, SessionService } from '../modules/session/session.service.js';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
  interface FastifyContextConfig {
    guard?: Guard;
  }
}

const BEARER = /^Bearer ([A-Za-z0-9_-]{20,200})$/;

/**
 * Deny by default: the app refuses to start if an API route declares no guard, and every request
 * to a guarded route is checked against a fresh read of the session, roles and permissions.
 */
export function registerAccessGuard(app: FastifyInstance, sessions: SessionService): void {
  app.decorateRequest('principal', null);

  app.addHook('onRoute', (route) => {
    if (route.url.startsWith(API_BASE) && !route.config?.guard) {
      throw new Error(`${String(route.method)} ${route.url} declares no guard`);
    }
  });

  app.addHook('onRequest', async (request) => {
    const guard = request.routeOptions.config.guard;
    if (!guard || guard === 'public') return;
    const token = BEARER.exec(request.headers.authorization ?? '')?.[1];
    const principal = token ? await sessions.authenticate(token) : null;
    if (!principal) throw new UnauthorizedError();
    request.principal = principal;
    if (guard === 'session') return;
    const subject = { allRoles: principal.roles, allPermissions: principal.permissions };
    if (!canAccess(subject, guard)) throw new ForbiddenError(guard);
  });
}
