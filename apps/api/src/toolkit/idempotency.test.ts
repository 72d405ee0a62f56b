import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ValidationError } from '../http/errors.js';
import type { ClientCarrierCaller } from '../http/principal.js';
import { createTestApp, type TestApp } from '../test/test-app.js';
import { IDEMPOTENCY_KEY_MISSING, IDEMPOTENCY_KEY_REUSED, runIdempotent } from './idempotency.js';

/**
 * A client carrier's write runs once per idempotency key: on PGlite, and on PostgreSQL
 * (TEST_DATABASE_URL) also when twenty retries race the first attempt.
 */

let t: TestApp;
let caller: ClientCarrierCaller;

const request = (name: string) => ({ method: 'POST', path: '/carrier/orders', body: { name } });

/** The work: one tag per run, so runs are counted by rows. */
const createTag = (name: string) => (tx: Parameters<Parameters<typeof runIdempotent>[4]>[0]) =>
  tx
    .query<{ id: string }>('INSERT INTO tags (name) VALUES ($1) RETURNING id', [
      `${name}-${Math.random()}`,
    ])
    .then(([row]) => ({ tag: Number(row!.id) }));

const tagsNamed = async (name: string) =>
  Number(
    (
      await t.db.query<{ n: string }>('SELECT count(*) AS n FROM tags WHERE name LIKE $1', [
        `${name}-%`,
      ])
    )[0]!.n,
  );

const fieldsOf = async (promise: Promise<unknown>) => {
  const error = await promise.catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(ValidationError);
  return (error as ValidationError).fields;
};

beforeAll(async () => {
  t = await createTestApp();
  const [carrier] = await t.db.query<{ id: string }>(
    "INSERT INTO vendors (name, type) VALUES ('Idempotent Carrier', 'carrier-client') RETURNING id",
  );
  caller = { keyId: 1, clientCarrierId: Number(carrier!.id), clientCarrierName: 'Idempotent' };
});
afterAll(() => t.close());

describe('an idempotent write', () => {
  it('answers a retry with the first answer and does the work once', async () => {
    const first = await runIdempotent(t.db, caller, 'enrol-1', request('a'), createTag('once'));
    const retry = await runIdempotent(t.db, caller, 'enrol-1', request('a'), createTag('once'));
    expect(first.replayed).toBe(false);
    expect(retry).toEqual({ data: first.data, replayed: true });
    expect(await tagsNamed('once')).toBe(1);
  });

  it('refuses the same key with another request, and a request without a key', async () => {
    await runIdempotent(t.db, caller, 'enrol-2', request('a'), createTag('other'));
    expect(
      await fieldsOf(runIdempotent(t.db, caller, 'enrol-2', request('b'), createTag('other'))),
    ).toEqual({ idempotency_key: [IDEMPOTENCY_KEY_REUSED] });
    expect(
      await fieldsOf(runIdempotent(t.db, caller, undefined, request('a'), createTag('other'))),
    ).toEqual({ idempotency_key: [IDEMPOTENCY_KEY_MISSING] });
    expect(await tagsNamed('other')).toBe(1);
  });

  it('keeps nothing of work that failed, so the corrected retry runs', async () => {
    await expect(
      runIdempotent(t.db, caller, 'enrol-3', request('a'), () =>
        Promise.reject(new ValidationError({ zip: ['No such ZIP code.'] })),
      ),
    ).rejects.toBeInstanceOf(ValidationError);
    const corrected = await runIdempotent(t.db, caller, 'enrol-3', request('a'), createTag('fix'));
    expect(corrected.replayed).toBe(false);
    expect(await tagsNamed('fix')).toBe(1);
  });

  it.runIf(process.env.TEST_DATABASE_URL)(
    'does the work once when twenty retries race the first attempt',
    async () => {
      const answers = await Promise.all(
        Array.from({ length: 20 }, () =>
          runIdempotent(t.db, caller, 'enrol-race', request('a'), createTag('race')),
        ),
      );
      expect(await tagsNamed('race')).toBe(1);
      expect(answers.filter((answer) => !answer.replayed)).toHaveLength(1);
      expect(new Set(answers.map((answer) => JSON.stringify(answer.data))).size).toBe(1);
    },
  );
});
