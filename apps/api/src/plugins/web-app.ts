import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { allowStylesWithNonce } from '../http/security-headers.js';

const IMMUTABLE = 'public, max-age=31536000, immutable';
/** index.html's `<meta property="csp-nonce" nonce="...">` holds this until the page is served. */
const NONCE_PLACEHOLDER = '__CSP_NONCE__';

/**
 * Serves the built SPA: hashed assets cached for a year (pre-compressed .br/.gz files when the
 * build made them), index.html never cached, and index.html for any other page path so client
 * routes survive a reload, carrying the answer's style nonce for antd. Returns the fallback for
 * the not-found handler, or null without a build.
 */
export async function registerWebApp(
  app: FastifyInstance,
  webDist: string,
): Promise<((request: FastifyRequest, reply: FastifyReply) => FastifyReply) | null> {
  const indexPath = join(webDist, 'index.html');
  if (!existsSync(indexPath)) {
    app.log.warn({ webDist }, 'no built web app found: serving the API only (run npm run build)');
    return null;
  }
  const indexParts = readFileSync(indexPath, 'utf8').split(NONCE_PLACEHOLDER);
  await app.register(fastifyStatic, {
    root: webDist,
    wildcard: false,
    preCompressed: true,
    index: false,
    // index.html itself goes through the fallback, which fills in the nonce.
    allowedPath: (path) => path !== '/index.html',
    setHeaders(reply, path) {
      reply.header(
        'cache-control',
        path.includes(`${join(webDist, 'assets')}`) ? IMMUTABLE : 'no-cache',
      );
    },
  });
  return (_request, reply) =>
    reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send(indexParts.join(allowStylesWithNonce(reply)));
}
