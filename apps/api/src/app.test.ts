import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, bodyOf, createTestApp, login, type TestApp } from './test/test-app.js';

const logLines: string[] = [];
const logStream = new Writable({
  write(chunk, _encoding, done) {
    logLines.push(String(chunk));
    done();
  },
});

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ logger: { level: 'info', stream: logStream } });
});
afterAll(() => t.close());

describe('API conventions', () => {
  it('health checks the database', async () => {
    const response = await t.app.inject({ url: '/api/v1/health' });
    expect(response.statusCode).toBe(200);
    expect(bodyOf(response)).toMatchObject({
      code: 200,
      data: { status: 'ok', database: t.db.kind },
    });
  });

  it('answers unknown endpoints with 404 in the error shape', async () => {
    const response = await t.app.inject({ url: '/api/v1/no-such-thing' });
    expect(response.statusCode).toBe(404);
    expect(bodyOf(response)).toMatchObject({
      code: 404,
      message: 'No endpoint GET /api/v1/no-such-thing',
    });
    expect(bodyOf(response).requestId).toBe(response.headers['x-request-id']);
  });

  it('answers malformed JSON with 400 and no stack trace', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"user_name":',
    });
    expect(response.statusCode).toBe(400);
    expect(response.body).not.toMatch(/at .*\.js|node_modules|stack/i);
  });

  it('answers a wrongly typed body with 422 field messages', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/login',
      payload: { user_name: 42, password: ['x'] },
    });
    expect(response.statusCode).toBe(422);
    expect(Object.keys(bodyOf(response).message as object).sort()).toEqual([
      'password',
      'user_name',
    ]);
  });

  it('keeps a caller’s request id and puts it on the answer and the log', async () => {
    const response = await t.app.inject({
      url: '/api/v1/health',
      headers: { 'x-request-id': 'station-7-req-0001' },
    });
    expect(response.headers['x-request-id']).toBe('station-7-req-0001');
    expect(logLines.some((line) => line.includes('"reqId":"station-7-req-0001"'))).toBe(true);
  });

  it('never logs passwords or tokens', async () => {
    const token = await login(t.app, 'admin', 'admin');
    await t.app.inject({ url: '/api/v1/profile', headers: bearer(token) });
    const log = logLines.join('');
    expect(log).not.toContain(token);
    expect(log).not.toContain('"password"');
  });

  it('publishes an OpenAPI document of every endpoint and a browsable reference', async () => {
    const document = (await t.app.inject({ url: '/api/v1/openapi.json' })).json<{
      paths: Record<string, Record<string, unknown>>;
    }>();
    for (const endpoint of t.app.endpoints) {
      const path = `/api/v1${endpoint.path.replace(/:([A-Za-z_]+)/g, '{$1}')}`;
      expect(document.paths[path]?.[endpoint.method.toLowerCase()], path).toBeDefined();
    }
    const reference = await t.app.inject({ url: '/api/docs/' });
    expect(reference.statusCode).toBe(200);
    expect(reference.headers['content-type']).toContain('text/html');
  });
});

describe('the audit log', () => {
  it('is append-only', async () => {
    await login(t.app, 'admin', 'admin');
    await expect(t.db.query('UPDATE audit_events SET action = $1', ['edited'])).rejects.toThrow(
      /append-only/,
    );
    await expect(t.db.query('DELETE FROM audit_events')).rejects.toThrow(/append-only/);
  });
});
