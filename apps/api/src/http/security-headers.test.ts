import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** The policy's directives by name. */
function directivesOf(policy: unknown): Record<string, string> {
  return Object.fromEntries(
    String(policy)
      .split(';')
      .map((directive) => directive.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...values]) => [name!, values.join(' ')]),
  );
}

describe('security headers', () => {
  it('go on every answer: a strict policy, no framing, nosniff, no referrer, no HSTS', async () => {
    const response = await t.app.inject({ url: '/api/v1/health' });
    expect(response.headers).toMatchObject({
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-origin',
      'origin-agent-cluster': '?1',
      'x-dns-prefetch-control': 'off',
      'x-download-options': 'noopen',
      'x-permitted-cross-domain-policies': 'none',
      'x-xss-protection': '0',
    });
    expect(response.headers['strict-transport-security']).toBeUndefined();
    // No inline style on an answer that is not the app's page; the page's own nonce is tested
    // in plugins/web-app.test.ts.
    expect(directivesOf(response.headers['content-security-policy'])).toEqual({
      'default-src': "'self'",
      'script-src': "'self' 'wasm-unsafe-eval'",
      'style-src': "'self'",
      'img-src': "'self' data:",
      'connect-src': "'self'",
      'object-src': "'none'",
      'base-uri': "'self'",
      'form-action': "'self'",
      'frame-ancestors': "'none'",
    });
  });

  it('go on refusals and unknown paths too', async () => {
    for (const url of ['/api/v1/profile', '/api/v1/no-such-endpoint']) {
      const response = await t.app.inject({ url });
      expect(response.statusCode, url).toBeGreaterThanOrEqual(400);
      expect(response.headers['x-frame-options'], url).toBe('DENY');
      expect(response.headers['content-security-policy'], url).toContain("frame-ancestors 'none'");
    }
  });

  it('let the API reference run: its scripts are files of our own origin', async () => {
    const page = await t.app.inject({ url: '/api/docs/' });
    expect(page.statusCode).toBe(200);
    const policy = directivesOf(page.headers['content-security-policy']);
    expect(policy['script-src']).toBe("'self' 'wasm-unsafe-eval'");
    const scripts = [...page.body.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, inline] of scripts) {
      expect(inline!.trim(), 'no inline script').toBe('');
      const source = /src="\.\/([^"]+)"/.exec(attributes!)?.[1];
      expect(source, attributes).toBeDefined();
      const script = await t.app.inject({ url: `/api/docs/${source}` });
      expect(script.statusCode, source).toBe(200);
      expect(script.headers['content-type']).toContain('javascript');
    }
  });
});

describe('HSTS', () => {
  it('is sent when HSTS=on (served behind TLS)', async () => {
    const secure = await createTestApp({ environment: { HSTS: 'on' } });
    try {
      const response = await secure.app.inject({ url: '/api/v1/health' });
      expect(response.headers['strict-transport-security']).toBe('max-age=31536000');
    } finally {
      await secure.close();
    }
  });
});
