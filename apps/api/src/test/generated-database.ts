import { generateDatabase, type GenerateSummary } from '../db/generate.js';
import { createAdminTestApp, type ApiClient } from './api-client.js';
import type { TestApp } from './test-app.js';

/**
 * SQL counting the records of `table` whose timeline (`events`, keyed by `key`) does not start
 * with their request or does not end in their status: zero on a consistent generated database.
 */
export const timelineMismatchSql = (table: string, events: string, key: string) => `
  SELECT count(*) AS n FROM ${table} r WHERE
    (SELECT type FROM ${events} e WHERE e.${key} = r.id ORDER BY e.at, e.id LIMIT 1) <> 'requested'
    OR r.status <> (SELECT to_status FROM ${events} e WHERE e.${key} = r.id
      AND e.to_status IS NOT NULL ORDER BY e.at DESC, e.id DESC LIMIT 1)`;

/**
 * SQL counting the devices of `from` (a FROM clause that names the devices `d`) whose status is
 * not the last step on their timeline.
 */
export const deviceStepMismatchSql = (from: string) => `
  SELECT count(*) AS n FROM ${from}
  WHERE d.status IS DISTINCT FROM (SELECT e.to_status FROM device_events e
    WHERE e.device_id = d.id AND e.to_status IS NOT NULL ORDER BY e.at DESC, e.id DESC LIMIT 1)`;

/** The anchor the generated test databases end at: their newest orders are of that day. */
export const GENERATED_ANCHOR = new Date('2026-11-01');

/**
 * A test app over a small generated database (npm run db:generate at 2,000 devices), for the
 * tests of each area's generator, with SQL helpers that read one row or one count.
 */
export async function createGeneratedTestApp(devices = 2000): Promise<{
  t: TestApp;
  admin: ApiClient;
  summary: GenerateSummary;
  one: <T>(sql: string, params?: unknown[]) => Promise<T>;
  count: (sql: string, params?: unknown[]) => Promise<number>;
}> {
  const { t, admin } = await createAdminTestApp();
  const summary = await t.db.transaction((tx) =>
    generateDatabase(tx, { devices, seed: 7, anchor: GENERATED_ANCHOR }),
  );
  const one = async <T>(sql: string, params: unknown[] = []) =>
    (await t.db.query<T & Record<string, unknown>>(sql, params))[0]!;
  const count = async (sql: string, params: unknown[] = []) =>
    Number((await one<{ n: number }>(sql, params)).n);
  return { t, admin, summary, one, count };
}
