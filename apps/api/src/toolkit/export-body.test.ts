import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REQUEST_BODY_NOT_OBJECT } from '../http/endpoint.js';
import { createAdminTestApp, type ApiClient } from '../test/api-client.js';
import { bearer, bodyOf, login, type TestApp } from '../test/test-app.js';

/** An export's body: the link keeps the filters as parsed, and a body that is no object. */

let t: TestApp;
let admin: ApiClient;
let token: string;

beforeAll(async () => {
  ({ t, admin } = await createAdminTestApp('exporter'));
  token = await login(t.app, 'exporter', 'exporter-password-1');
  await t.db.query(
    `INSERT INTO colors (name, active) VALUES ('Kept Teal', true), ('Retired Mauve', false)`,
  );
});
afterAll(() => t.close());

const namesOf = (csv: string) =>
  csv
    .replace(/^\uFEFF/, '')
    .trim()
    .split('\r\n')
    .slice(1)
    .map((line) => line.split(',')[1]);

const postExport = (payload: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/colors/exports',
    headers: { ...bearer(token), 'content-type': 'application/json' },
    payload,
  });

describe('POST /colors/exports', () => {
  it('applies a boolean filter, which the link keeps as parsed', async () => {
    const retired = await admin.download('/colors/exports', { format: 'csv', active: 'false' });
    expect(retired.statusCode, retired.body).toBe(200);
    expect(namesOf(retired.body)).toEqual(['Retired Mauve']);
    const kept = await admin.download('/colors/exports', { format: 'csv', active: 'true' });
    expect(namesOf(kept.body)).toEqual(['Kept Teal']);
  });

  it('reads a null body as none: every row, as CSV', async () => {
    const response = await postExport('null');
    expect(response.statusCode).toBe(201);
    const link = bodyOf<{ url: string }>(response).data;
    const file = await t.app.inject({ method: 'GET', url: link.url });
    expect(file.headers['content-type']).toContain('text/csv');
    expect(namesOf(file.body)).toEqual(['Kept Teal', 'Retired Mauve']);
  });

  it('refuses an array, a string or a number with a 422', async () => {
    for (const payload of ['[]', '["csv"]', '"csv"', '1']) {
      const response = await postExport(payload);
      expect(response.statusCode, payload).toBe(422);
      expect(bodyOf(response).message, payload).toEqual({ _: [REQUEST_BODY_NOT_OBJECT] });
    }
  });
});
