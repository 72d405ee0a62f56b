import { nextStatus } from '@inventory/contract';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Transaction } from '../db/db.js';
import { ApiError } from '../http/errors.js';
import { createTestApp, type TestApp } from '../test/test-app.js';
import {
  createTickets,
  leader,
  meta,
  ticket,
  TICKET_ACTIONS,
  tickets,
  worker,
  type TicketState,
} from '../test/ticket-lifecycle.js';
import { runTransition, runTransitions, type LifecycleStore } from './lifecycle.js';

/**
 * The transition helper on a small lifecycle of the tests' own, over tables made for them: random runs of actions leave every ticket where the
 * declaration says, and a refused action changes nothing and writes nothing.
 */

let t: TestApp;
let ids: number[];

beforeAll(async () => {
  t = await createTestApp();
  ids = await createTickets(t.db);
});
afterAll(() => t.close());

type Row = {
  id: number;
  status: TicketState;
  hold_reason: string | null;
  status_before_hold: TicketState | null;
  bench: string | null;
  events: number;
  audits: number;
};
const rows = () =>
  t.db.query<Row>(
    `SELECT r.id, r.status, r.hold_reason, r.status_before_hold, r.bench,
       (SELECT count(*) FROM test_ticket_events e WHERE e.ticket_id = r.id)::int AS events,
       (SELECT count(*) FROM audit_events a
        WHERE a.entity_type = 'ticket' AND a.entity_id = r.id::text)::int AS audits
     FROM test_tickets r ORDER BY r.id`,
  );
const reset = () =>
  t.db.query(
    `UPDATE test_tickets SET status = 'requested', hold_reason = NULL, status_before_hold = NULL,
       bench = 'B' || id`,
  );

/** The states a ticket can reach from `requested` by the declaration, holds remembered. */
function reachable(): Set<TicketState> {
  const seen = new Set<string>();
  const queue: { status: TicketState; status_before_hold: TicketState | null }[] = [
    { status: 'requested', status_before_hold: null },
  ];
  while (queue.length > 0) {
    const record = queue.pop()!;
    const key = `${record.status}/${record.status_before_hold}`;
    if (seen.has(key)) continue;
    seen.add(key);
    for (const action of TICKET_ACTIONS) {
      const next = nextStatus(ticket, record, action);
      if (next.ok) {
        queue.push({
          status: next.status,
          status_before_hold: next.status === 'on_hold' ? record.status : null,
        });
      }
    }
  }
  return new Set([...seen].map((key) => key.split('/')[0] as TicketState));
}

/** Runs a step as a request would: in its own transaction, an answered error rolled back. */
async function attempt(run: (tx: Transaction) => Promise<unknown>): Promise<number> {
  try {
    await t.db.transaction(run);
    return 200;
  } catch (error) {
    if (error instanceof ApiError) return error.statusCode;
    throw error;
  }
}

const stepArbitrary = fc.record({
  action: fc.constantFrom(...TICKET_ACTIONS),
  picked: fc.subarray([0, 1, 2], { minLength: 1 }),
  reason: fc.constantFrom(undefined, 'customer', 'recall', 'a broken promise'),
  leader: fc.boolean(),
  how: fc.constantFrom('one', 'all-or-nothing', 'skip-refused'),
});

describe('runTransition and runTransitions', () => {
  it('leave every record where the declaration says; a refusal changes and writes nothing', async () => {
    const canReach = reachable();
    await fc.assert(
      fc.asyncProperty(fc.array(stepArbitrary, { maxLength: 8 }), async (steps) => {
        await reset();
        for (const step of steps) {
          const before = await rows();
          const picked = step.how === 'one' ? step.picked.slice(0, 1) : step.picked;
          const pickedIds = picked.map((index) => ids[index]!);
          const rule = ticket.actions[step.action];
          const input = {
            action: step.action,
            actor: step.leader ? leader : worker,
            meta,
            reason: step.reason,
          };
          const status = await attempt((tx) =>
            step.how === 'one'
              ? runTransition(tx, tickets, { ...input, id: pickedIds[0]! })
              : runTransitions(tx, tickets, {
                  ...input,
                  ids: pickedIds,
                  skipRefused: step.how === 'skip-refused',
                }),
          );
          const model = before.map((row) => ({
            row,
            next: pickedIds.includes(row.id) ? nextStatus(ticket, row, step.action) : null,
          }));
          const refused = model.some(({ next }) => next && !next.ok);
          const badReason =
            (rule.reason === 'required' && !step.reason) ||
            (step.action === 'hold' && step.reason === 'a broken promise');
          const expected =
            rule.permission && !step.leader
              ? 403
              : badReason
                ? 422
                : refused && step.how !== 'skip-refused'
                  ? 409
                  : 200;
          expect(status).toBe(expected);

          const after = new Map((await rows()).map((row) => [row.id, row]));
          for (const { row, next } of model) {
            const now = after.get(row.id)!;
            expect(canReach.has(now.status)).toBe(true);
            if (status !== 200 || !next?.ok) {
              expect(now).toEqual(row);
              continue;
            }
            expect(now).toMatchObject({
              status: next.status,
              status_before_hold: next.status === 'on_hold' ? row.status : null,
              hold_reason: next.status === 'on_hold' ? step.reason : null,
              bench: step.action === 'finish' ? null : row.bench,
              events: row.events + 1,
              audits: row.audits + 1,
            });
          }
        }
      }),
      { seed: 20261125, numRuns: 40 },
    );
  });

  it('answer 404 for no record, and name the refused records in a 409', async () => {
    await reset();
    const missing = 2 ** 40;
    await expect(
      t.db.transaction((tx) =>
        runTransition(tx, tickets, { action: 'start', actor: worker, meta, id: missing }),
      ),
    ).rejects.toMatchObject({ statusCode: 404, message: `There is no ticket with id ${missing}.` });
    await expect(
      t.db.transaction((tx) =>
        runTransition(tx, tickets, { action: 'finish', actor: worker, meta, id: ids[0]! }),
      ),
    ).rejects.toMatchObject({
      statusCode: 409,
      message: 'A ticket that is requested cannot finish.',
    });
    await expect(
      t.db.transaction((tx) =>
        runTransitions(tx, tickets, {
          action: 'release',
          actor: worker,
          meta,
          ids: [...ids, missing],
        }),
      ),
    ).rejects.toMatchObject({
      statusCode: 409,
      message:
        'RT-1: A ticket that is requested cannot release it. RT-2: A ticket that is requested cannot release it. RT-3: A ticket that is requested cannot release it.',
    });
    await expect(
      t.db.transaction((tx) =>
        runTransition(tx, tickets, { action: 'scrap', actor: worker, meta, id: ids[0]! }),
      ),
    ).rejects.toMatchObject({
      statusCode: 403,
      message: 'You cannot scrap it. This needs one of the roles Repair Leader.',
    });
    await expect(
      t.db.transaction((tx) =>
        runTransition(tx, tickets, {
          action: 'hold',
          actor: worker,
          meta,
          id: ids[0]!,
          reason: ' ',
        }),
      ),
    ).rejects.toMatchObject({ statusCode: 422, fields: { reason: ['Say why you hold.'] } });
  });

  it('write the step on the timeline and in the audit log with its reason, data and cause', async () => {
    await reset();
    const step = await t.db.transaction((tx) =>
      runTransition(tx, tickets, {
        action: 'hold',
        actor: worker,
        meta,
        id: ids[1]!,
        reason: 'recall',
        ref: { type: 'recall_notice', id: 7 },
        data: { note: 'vendor recall' },
      }),
    );
    expect(step).toEqual({ id: ids[1], label: 'RT-2', from: 'requested', to: 'on_hold' });
    const [event] = await t.db.query(
      'SELECT type, from_status, to_status, actor_name, data FROM test_ticket_events WHERE ticket_id = $1 ORDER BY id DESC LIMIT 1',
      [ids[1]],
    );
    expect(event).toEqual({
      type: 'held',
      from_status: 'requested',
      to_status: 'on_hold',
      actor_name: 'lifecycle',
      data: { note: 'vendor recall', reason: 'recall' },
    });
    const [audit] = await t.db.query(
      `SELECT action, actor_name, before, after, request_id FROM audit_events
       WHERE entity_type = 'ticket' AND entity_id = $1 ORDER BY id DESC LIMIT 1`,
      [String(ids[1])],
    );
    expect(audit).toEqual({
      action: 'ticket.held',
      actor_name: 'lifecycle',
      before: { status: 'requested' },
      after: { status: 'on_hold', note: 'vendor recall', reason: 'recall' },
      request_id: 'lifecycle-test',
    });
  });

  it("run an effect's own writes on the records it moved, after the update, and none on a refusal", async () => {
    await reset();
    const seen: { steps: unknown[]; status: string | undefined }[] = [];
    const store: LifecycleStore<
      TicketState,
      (typeof TICKET_ACTIONS)[number],
      'customer' | 'recall'
    > = {
      ...tickets,
      effects: {
        start: {
          set: "bench = 'started'",
          write: async (tx, steps) => {
            const [row] = await tx.query<{ status: string }>(
              'SELECT status FROM test_tickets WHERE id = $1',
              [steps[0]!.id],
            );
            seen.push({ steps: [...steps], status: row?.status });
          },
        },
      },
    };
    await t.db.transaction((tx) =>
      runTransitions(tx, store, { action: 'start', actor: worker, meta, ids: ids.slice(0, 2) }),
    );
    expect(seen).toEqual([
      {
        steps: [
          { id: ids[0], label: 'RT-1', from: 'requested', to: 'in_repair' },
          { id: ids[1], label: 'RT-2', from: 'requested', to: 'in_repair' },
        ],
        status: 'in_repair',
      },
    ]);
    expect((await rows()).slice(0, 2).map((row) => row.bench)).toEqual(['started', 'started']);
    // RT-1 is in repair already: refused, and nothing written.
    expect(
      await attempt((tx) =>
        runTransition(tx, store, { action: 'start', actor: worker, meta, id: ids[0]! }),
      ),
    ).toBe(409);
    expect(seen).toHaveLength(1);
  });

  it("write a station's columns with the step, and only the store's columns", async () => {
    await reset();
    const store = { ...tickets, columns: ['bench'] };
    await t.db.transaction((tx) =>
      runTransition(tx, store, {
        action: 'start',
        actor: worker,
        meta,
        id: ids[0]!,
        columns: { bench: 'bench 7' },
      }),
    );
    expect((await rows())[0]).toMatchObject({ status: 'in_repair', bench: 'bench 7' });
    await expect(
      t.db.transaction((tx) =>
        runTransition(tx, store, {
          action: 'start',
          actor: worker,
          meta,
          id: ids[1]!,
          columns: { status_before_hold: 'requested' },
        }),
      ),
    ).rejects.toThrow('test_tickets.status_before_hold is not among the columns a run may write.');
    expect((await rows())[1]!.status).toBe('requested');
  });
});
