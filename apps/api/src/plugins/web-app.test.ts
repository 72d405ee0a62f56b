import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app.js';

const webDist = mkdtempSync(join(tmpdir(), 'inventory-web-'));
let t: TestApp;

beforeAll(async () => {
  mkdirSync(join(webDist, 'assets'));
  writeFileSync(
    join(webDist, 'index.html'),
    '<!doctype html><meta property="csp-nonce" nonce="__CSP_NONCE__" /><title>Inventory</title>',
  );
  const script = `console.log(${JSON.stringify('x'.repeat(4000))});`;
  writeFileSync(join(webDist, 'assets', 'index-abc123.js'), script);
  writeFileSync(join(webDist, 'assets', 'index-abc123.js.gz'), gzipSync(script));
  t = await createTestApp({ webDist });
});
afterAll(async () => {
  await t.close();
  rmSync(webDist, { recursive: true, force: true });
});

describe('serving the web app', () => {
  it('answers client routes with index.html, never cached', async () => {
    const response = await t.app.inject({ url: '/master-data/models?search=moto' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/html');
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.body).toContain('<title>Inventory</title>');
  });

  it('gives each page answer the style nonce its policy allows, index.html included', async () => {
    const nonces: string[] = [];
    for (const url of ['/', '/warehouse-boxes', '/index.html']) {
      const response = await t.app.inject({ url });
      expect(response.statusCode, url).toBe(200);
      const nonce = /nonce="([^"]+)"/.exec(response.body)?.[1] ?? 'none';
      expect(response.headers['content-security-policy']).toContain(
        `style-src 'self' 'nonce-${nonce}'`,
      );
      nonces.push(nonce);
    }
    expect(new Set(nonces).size).toBe(3);
  });

  it('serves hashed assets for a year, pre-compressed when the browser accepts it', async () => {
    const response = await t.app.inject({
      url: '/assets/index-abc123.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.headers['content-encoding']).toBe('gzip');
  });

  it('answers a missing asset with 404, not with the app', async () => {
    const response = await t.app.inject({ url: '/assets/gone-123.js' });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toContain('application/json');
  });
});
