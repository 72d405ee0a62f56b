import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance, FastifyReply } from 'fastify';

/** Each answer's style nonce, made when helmet writes its policy. */
const styleNonces = new WeakMap<ServerResponse, string>();

function newStyleNonce(response: ServerResponse): string {
  const nonce = randomBytes(16).toString('base64');
  styleNonces.set(response, nonce);
  return nonce;
}

/** The nonce that this answer's policy allows on `<style>` tags (antd's CSS-in-JS). */
export function styleNonceOf(reply: FastifyReply): string | undefined {
  return styleNonces.get(reply.raw);
}

/**
 * Security headers on every answer (helmet). The session token sits in localStorage, so the
 * policy is the defence against XSS: scripts, styles, images and requests from our own origin
 * only, no inline script, and `<style>` tags only with the answer's nonce (antd writes its
 * styles into them). No framing, nosniff, no referrer; HSTS only when `hsts` (served over TLS).
 */
export async function registerSecurityHeaders(
  app: FastifyInstance,
  options: { readonly hsts: boolean },
): Promise<void> {
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", (_request, response) => `'nonce-${newStyleNonce(response)}'`],
        // data: for images inlined in stylesheets (the API reference's).
        imgSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    xFrameOptions: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    // A year, for this host alone: the app cannot speak for other hosts under its domain.
    strictTransportSecurity: options.hsts
      ? { maxAge: 31_536_000, includeSubDomains: false }
      : false,
  });
}
