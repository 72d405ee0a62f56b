import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  bodyOf,
  createTestApp,
  createUser,
  login,
  type TestApp,
} from '../test/test-app.js';

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
  await createUser(t.db, { userName: 'pi', password: 'pi-password-1', roles: ['admin'] });
});
afterAll(() => t.close());

describe('the request log', () => {
  it('shows a download link without its token', async () => {
    const token = await login(t.app, 'pi', 'pi-password-1');
    const link = bodyOf<{ url: string }>(
      await t.app.inject({
        method: 'POST',
        url: '/api/v1/colors/exports',
        headers: bearer(token),
        payload: { format: 'csv' },
      }),
    ).data.url;
    const linkToken = link.split('/').pop()!;
    expect(linkToken.length).toBeGreaterThan(20);

    expect((await t.app.inject({ url: link })).statusCode).toBe(200);
    expect((await t.app.inject({ url: `${link}?again=1` })).statusCode).toBe(404);

    const log = logLines.join('');
    expect(log).not.toContain(linkToken);
    expect(log).toContain('"url":"/api/v1/downloads/[redacted]"');
    expect(log).toContain('"url":"/api/v1/downloads/[redacted]?again=1"');
  });
});
