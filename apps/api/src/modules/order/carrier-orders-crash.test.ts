import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  bootServer,
  callServer,
  crashStorage,
  type CrashStorage,
  type ServerSession,
} from '../../test/crash-server.js';
import { children } from '../../test/server-process.js';

/**
 * A client carrier's order whose server is killed (kill -9) while it is taken, retried with its
 * idempotency key after the restart: whether the kill came before or after the commit, exactly
 * one order exists afterwards and the retry answers it. On the embedded database by default; on
 * PostgreSQL when TEST_DATABASE_URL is set.
 */

const dataDir = mkdtempSync(join(tmpdir(), 'inventory-carrier-crash-'));
let storage: CrashStorage | null = null;

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
  await storage?.drop();
});

const ENROLMENT = {
  external_ref: 'CRASH-1',
  program: 'lifeline',
  subscriber: {
    external_id: 'E-CRASH-1',
    first_name: 'Maria',
    last_name: 'Lopez',
    service_address: { line1: '12 Elm St', city: 'Dallas', state: 'TX', zip: '75201' },
  },
  items: [{ sku: 'CRASH-PHONE-A', qty: 1 }],
};

const sendOrder = (session: ServerSession, key: string) =>
  fetch(`${session.base}/api/v1/carrier/orders`, {
    method: 'POST',
    headers: {
      'x-api-key': key,
      'idempotency-key': 'crash-order-1',
      'content-type': 'application/json',
    },
    body: JSON.stringify(ENROLMENT),
  });

/** The carrier, its key, a device product and the carrier's Texas Lifeline price of it. */
async function setUp(session: ServerSession): Promise<string> {
  const carrier = await callServer<{ id: number }>(session, 'POST', '/vendors', {
    name: 'Crash Carrier',
    type: 'carrier-client',
  });
  const { secret } = await callServer<{ secret: string }>(session, 'POST', '/client-carrier-keys', {
    client_carrier_id: carrier.id,
    name: 'crash test',
  });
  const model = await callServer<{ id: number }>(session, 'POST', '/models', {
    brand: 'Crash',
    name: 'Phone',
    device_type: 'phone',
    os: 'android',
    network: '5G',
  });
  await callServer(session, 'POST', '/pts-products', {
    model_id: model.id,
    sku_prefix: 'CRASH-PHONE',
    grades: ['A'],
  });
  await callServer(session, 'POST', '/gov-plan-prices', {
    carrier_id: carrier.id,
    programme: 'lifeline',
    state: 'TX',
    model_id: model.id,
    device_price_cents: 500,
    plan_name: 'Crash plan',
    data_gb: 10,
    effective_from: new Date().toISOString().slice(0, 10),
  });
  return secret;
}

const ordersTaken = async (session: ServerSession) =>
  (
    await callServer<{ total: number }>(
      session,
      'GET',
      `/orders/count?search=${ENROLMENT.external_ref}`,
    )
  ).total;

describe('a carrier order whose server is killed while it is taken', () => {
  it('is created once when retried with its key after the restart', async () => {
    storage = await crashStorage(dataDir, 'carrier_crash');
    let { server, session } = await bootServer(storage.environment);
    const key = await setUp(session);

    const first = sendOrder(session, key).catch((error: unknown) => error);
    // Killed as the order is being taken: a moment after the call, before or after its commit.
    await new Promise((resolve) => setTimeout(resolve, 15));
    server.child.kill('SIGKILL');
    expect((await server.exited).signal).toBe('SIGKILL');
    await first;

    ({ server, session } = await bootServer(storage.environment));
    const retried = await sendOrder(session, key);
    expect(retried.status).toBe(201);
    const order = ((await retried.json()) as { data: { number: string; external_ref: string } })
      .data;
    expect(order.external_ref).toBe(ENROLMENT.external_ref);
    expect(await ordersTaken(session)).toBe(1);
    // And a further retry answers the same order, whichever attempt took it.
    const again = await sendOrder(session, key);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(((await again.json()) as { data: { number: string } }).data.number).toBe(order.number);
    expect(await ordersTaken(session)).toBe(1);
    server.child.kill('SIGTERM');
    await server.exited;
  }, 300_000);
});
