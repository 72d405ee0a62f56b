import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';

/**
 * The policy. The session token sits in localStorage, so the policy is the defence against XSS:
 * scripts, styles, images and requests from our own origin only, no inline script, no framing.
 */
const contentSecurityPolicy = (styleSrc: string) =>
  [
    "default-src 'self'",
    // Compiling WebAssembly (the camera's barcode reader, a .wasm of our own origin) and nothing
    // else that evaluates code.
    "script-src 'self' 'wasm-unsafe-eval'",
    `style-src ${styleSrc}`,
    "img-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join(';');

/**
 * The headers every answer carries: the policy above with no inline style at all, and the rest
 * of what helmet's defaults send (no framing, nosniff, no referrer, same-origin isolation).
 * Made once: helmet built them again for every request, a tenth of a small answer's cost.
 */
function securityHeaders(hsts: boolean): Record<string, string> {
  return {
    'content-security-policy': contentSecurityPolicy("'self'"),
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'origin-agent-cluster': '?1',
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
    'x-dns-prefetch-control': 'off',
    'x-download-options': 'noopen',
    'x-frame-options': 'DENY',
    'x-permitted-cross-domain-policies': 'none',
    'x-xss-protection': '0',
    ...(hsts && { 'strict-transport-security': 'max-age=31536000' }),
  };
}

/** Security headers on every answer; HSTS only when `hsts` (served over TLS). */
export function registerSecurityHeaders(
  app: FastifyInstance,
  options: { readonly hsts: boolean },
): void {
  const headers = securityHeaders(options.hsts);
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}

/**
 * For the app's HTML document only: a fresh nonce that its policy allows on `<style>` tags
 * (antd writes its styles into them), set on the answer and returned for the page to carry.
 */
export function allowStylesWithNonce(reply: FastifyReply): string {
  const nonce = randomBytes(16).toString('base64');
  reply.header('content-security-policy', contentSecurityPolicy(`'self' 'nonce-${nonce}'`));
  return nonce;
}
