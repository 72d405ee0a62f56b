import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { apiClient, dataOf, type ApiClient } from '../test/api-client.js';
import { businessDay } from '../test/business-day.js';
import { createTestApp, createUser, login, type TestApp } from '../test/test-app.js';
import type { Db } from './db.js';
import { openReadReplica } from './open.js';

/**
 * A read replica for the reads that may lag (DATABASE_READ_URL, docs/operations.md): its pool is
 * read-only, and list exports, reports and statistics read through it while every write goes to
 * the primary. The test's replica is the test database itself, opened read-only: the same data,
 * and any write sent its way fails. PostgreSQL only: the embedded database has no replicas.
 */

let t: TestApp;
let replica: Db;
let app: FastifyInstance;
let admin: ApiClient;
/** The statements the replica's pool was sent. */
const replicaReads: string[] = [];

describe.runIf(process.env.TEST_DATABASE_URL)('a read replica', () => {
  beforeAll(async () => {
    t = await createTestApp();
    const [{ name }] = (await t.db.query<{ name: string }>(
      'SELECT current_database() AS name',
    )) as [{ name: string }];
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${name}`;
    const config = loadConfig({ DATABASE_URL: url.toString(), DATABASE_READ_URL: url.toString() });
    const opened = (await openReadReplica(config.database))!;
    replica = {
      ...opened,
      query(sql, params) {
        replicaReads.push(sql);
        return opened.query(sql, params);
      },
    };
    // The test app's database is closed (and dropped) by the test app, not by this second app.
    app = await buildApp(t.config, { ...t.db, close: async () => {} }, { replica });
    await createUser(t.db, {
      userName: 'replica.admin',
      password: 'replica-password-1',
      roles: ['admin'],
    });
    admin = apiClient({ ...t, app }, await login(app, 'replica.admin', 'replica-password-1'));
  });
  afterAll(async () => {
    await app?.close();
    await t?.close();
  });

  it('is configured only beside a primary, and refuses any write', async () => {
    expect(() => loadConfig({ DATABASE_READ_URL: 'postgres://replica/inventory' })).toThrow(
      /DATABASE_READ_URL needs DATABASE_URL/,
    );
    expect(openReadReplica(loadConfig({ DATABASE_URL: 'postgres://primary/x' }).database)).toBe(
      null,
    );
    await expect(replica.query("INSERT INTO colors (name) VALUES ('Replica red')")).rejects.toThrow(
      /read-only transaction/,
    );
  });

  it('answers list exports, reports and statistics while writes go to the primary', async () => {
    const color = await dataOf<{ id: number }>(
      admin.post('/colors', { name: 'Primary blue' }),
      201,
    );
    expect(color.id).toBeGreaterThan(0);

    const reads = () => replicaReads.splice(0);
    reads();
    const file = await admin.download('/colors/exports', { format: 'csv' });
    expect(file.statusCode).toBe(200);
    expect(file.body).toContain('Primary blue');
    expect(reads().length).toBeGreaterThan(0);

    const today = await businessDay(t.db);
    const range = `from=${today}&to=${today}`;
    await dataOf(admin.get(`/report/dashboard?${range}`));
    expect(reads().length).toBeGreaterThan(0);
    await dataOf(admin.get(`/unpack/statistics?${range}`));
    expect(reads().length).toBeGreaterThan(0);
    await dataOf(admin.get(`/orders/daily?${range}`));
    expect(reads().length).toBeGreaterThan(0);

    // A page of the list is the primary's: what a clerk just wrote is on it at once.
    await dataOf(admin.get('/colors?limit=50'));
    expect(reads()).toEqual([]);
  });
});
