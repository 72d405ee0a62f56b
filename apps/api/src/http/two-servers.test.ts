import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LabelRunProgress } from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/db.js';
import { openPostgres } from '../db/postgres.js';
import { seedFulfilledOrders } from '../modules/shipment/shipment.test-support.js';
import {
  bootServer,
  callServer as call,
  crashStorage,
  type CrashStorage,
  type ServerSession as Session,
} from '../test/crash-server.js';
import { children } from '../test/server-process.js';
import { createUser } from '../test/test-app.js';

/**
 * Two app servers on one PostgreSQL, as behind a load balancer (docs/operations.md): nothing is
 * shared between them but the database, and a request's neighbours landing on the other server
 * see what it did. Sessions, permissions, kept list answers and jobs, each across the two.
 * PostgreSQL only: the embedded database has one process by design.
 */

const folder = mkdtempSync(join(tmpdir(), 'inventory-two-servers-'));
let storage: CrashStorage;
let db: Db;
/** The administrator signed in on each server. */
let adminA: Session;
let adminB: Session;

/** The HTTP status of a call, for the refusals. */
const statusOf = async (session: Session, method: string, path: string) =>
  (
    await fetch(`${session.base}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${session.token}` },
    })
  ).status;

/** Signs a user in on one server. */
async function signIn(base: string, userName: string, password: string): Promise<Session> {
  const response = await fetch(`${base}/api/v1/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user_name: userName, password }),
  });
  const answer = (await response.json()) as { data: { token: string } };
  return { base, token: answer.data.token };
}

/** The same session, its requests sent to the other server. */
const on = (server: Session, session: Session): Session => ({ ...session, base: server.base });

describe.runIf(process.env.TEST_DATABASE_URL)('two app servers on one PostgreSQL', () => {
  beforeAll(async () => {
    storage = await crashStorage(folder, 'two_servers');
    // The first start sets the administrator's password before the second server starts.
    adminA = (await bootServer(storage.environment)).session;
    adminB = (await bootServer(storage.environment)).session;
    db = await openPostgres(storage.url!, 2);
  }, 120_000);

  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await db?.close();
    await storage?.drop();
    rmSync(folder, { recursive: true, force: true });
  });

  it('a session opened on one server works on the other, and signed out there ends on both', async () => {
    await createUser(db, { userName: 'two.clerk', password: 'two-clerk-pw-1', roles: ['admin'] });
    const clerk = await signIn(adminA.base, 'two.clerk', 'two-clerk-pw-1');
    expect(await statusOf(on(adminB, clerk), 'GET', '/profile')).toBe(200);
    await call(on(adminB, clerk), 'POST', '/logout');
    expect(await statusOf(clerk, 'GET', '/profile')).toBe(401);
  });

  it('a permission taken from a role on one server is refused on the other at once', async () => {
    const role = await call<{ id: number }>(adminB, 'POST', '/roles', {
      name: 'Colour readers',
      permissions: ['color.view-list'],
    });
    await createUser(db, {
      userName: 'two.reader',
      password: 'two-reader-pw-1',
      roles: ['Colour readers'],
    });
    const reader = await signIn(adminA.base, 'two.reader', 'two-reader-pw-1');
    expect(await statusOf(reader, 'GET', '/colors')).toBe(200);
    await call(adminB, 'PUT', `/roles/${role.id}`, { permissions: [] });
    expect(await statusOf(reader, 'GET', '/colors')).toBe(403);
  });

  it('a list answer kept by one server shows a write made on the other', async () => {
    const names = async () =>
      (await call<{ items: { name: string }[] }>(adminA, 'GET', '/colors')).items.map(
        (colour) => colour.name,
      );
    expect(await names()).not.toContain('Two-server teal');
    // Asked twice: the second answer comes from what server A keeps.
    expect(await names()).not.toContain('Two-server teal');
    await call(adminB, 'POST', '/colors', { name: 'Two-server teal' });
    expect(await names()).toContain('Two-server teal');
  });

  it('a job sent through one server runs once, on either, and the other reports it', async () => {
    const orders = await seedFulfilledOrders(db, { count: 30 });
    const orderIds = orders.map((order) => order.orderId);
    const batch = await call<{ id: number }>(adminA, 'POST', '/label-batches', { format: 'pdf' });
    await call(adminA, 'POST', `/label-batches/${batch.id}/runs`, { order_ids: orderIds });
    let progress: LabelRunProgress;
    const deadline = Date.now() + 60_000;
    do {
      await new Promise((resolve) => setTimeout(resolve, 250));
      progress = await call<LabelRunProgress>(adminB, 'GET', `/label-batches/${batch.id}/run`);
    } while (progress.done < 30 && Date.now() < deadline);
    expect(progress).toMatchObject({ requested: 30, done: 30, error: null });
    const labels = await db.query<{ labels: number }>(
      `SELECT count(*)::int AS labels FROM packages
        WHERE order_id = ANY ($1::bigint[]) GROUP BY order_id`,
      [orderIds],
    );
    expect(labels.map((row) => row.labels)).toEqual(Array(30).fill(1));
  }, 90_000);
});
