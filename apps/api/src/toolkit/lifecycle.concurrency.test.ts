import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../http/errors.js';
import { createTestApp, type TestApp } from '../test/test-app.js';
import {
  createTickets,
  meta,
  tickets,
  worker,
  type TicketAction,
} from '../test/ticket-lifecycle.js';
import { runTransition, runTransitions } from './lifecycle.js';

/**
 * Two transitions of the same record at the same moment. On PostgreSQL (TEST_DATABASE_URL) each
 * runs on its own connection of the pool; on PGlite they run one after the other, and the rule
 * must hold there too. Each run pauses after its update, before it commits: without the row lock
 * the other run would read the old state in that pause and move the record a second time.
 */

let t: TestApp;
let ids: number[];
const slowTickets: typeof tickets = {
  ...tickets,
  writeEvents: async (tx, events) => {
    await tx.query('SELECT pg_sleep(0.05)');
    return tickets.writeEvents(tx, events);
  },
};

beforeAll(async () => {
  t = await createTestApp();
  ids = await createTickets(t.db, 20);
});
afterAll(() => t.close());

/** One run in its own transaction: the step taken, or the status of the refusal. */
const race = (id: number, action: TicketAction) =>
  t.db
    .transaction((tx) =>
      runTransition(tx, slowTickets, { action, actor: worker, meta, id, reason: 'customer' }),
    )
    .then(
      (step) => ({ won: true as const, step }),
      (error: unknown) => {
        if (error instanceof ApiError)
          return { won: false as const, status: error.statusCode, message: error.message };
        throw error;
      },
    );

const eventsOf = async (id: number) =>
  (
    await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM test_ticket_events WHERE ticket_id = $1',
      [id],
    )
  )[0]!.n;

describe('two transitions of one record at the same moment', () => {
  it('from the same state: exactly one wins, the other is told the state it met', async () => {
    for (const id of ids.slice(0, 10)) {
      const answers = await Promise.all([race(id, 'start'), race(id, 'cancel')]);
      const winners = answers.filter((answer) => answer.won);
      expect(winners).toHaveLength(1);
      const loser = answers.find((answer) => !answer.won)!;
      const [row] = await t.db.query<{ status: string }>(
        'SELECT status FROM test_tickets WHERE id = $1',
        [id],
      );
      expect(loser).toMatchObject({ won: false, status: 409 });
      expect(loser.message).toBe(
        row!.status === 'in_repair'
          ? 'A ticket that is in repair cannot cancel it.'
          : 'A ticket that is cancelled cannot start.',
      );
      expect(await eventsOf(id)).toBe(1);
    }
  });

  it('the same action twice: it is taken once, with one event', async () => {
    for (const id of ids.slice(10, 15)) {
      const answers = await Promise.all([race(id, 'start'), race(id, 'start')]);
      expect(answers.map((answer) => answer.won).sort()).toEqual([false, true]);
      expect(await eventsOf(id)).toBe(1);
    }
  });

  it('sets over the same records in opposite orders: no deadlock, each record moved once', async () => {
    const contested = ids.slice(15);
    const run = (order: number[]) =>
      t.db.transaction((tx) =>
        runTransitions(tx, slowTickets, {
          action: 'start',
          actor: worker,
          meta,
          ids: order,
          skipRefused: true,
        }),
      );
    const [left, right] = await Promise.all([run(contested), run([...contested].reverse())]);
    expect(left.length + right.length).toBe(contested.length);
    for (const id of contested) expect(await eventsOf(id)).toBe(1);
  });
});
