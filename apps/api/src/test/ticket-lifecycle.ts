import { BEFORE_HOLD, defineLifecycle, type ActionOf, type StateOf } from '@inventory/contract';
import type { Queryable } from '../db/db.js';
import type { Principal } from '../http/principal.js';
import type { LifecycleStore } from '../toolkit/lifecycle.js';

/**
 * A small lifecycle for the tests of the transition helper (a repair ticket of DOMAIN.md 3.5,
 * cut down: a hold with reasons, actions from several states, one for a role only, an optional
 * reason, an action with an effect) over tables the tests create.
 */

export const ticket = defineLifecycle({
  name: 'ticket',
  states: [
    'requested',
    'in_repair',
    'waiting_parts',
    'repaired',
    'on_hold',
    'scrapped',
    'cancelled',
  ],
  terminal: ['repaired', 'scrapped', 'cancelled'],
  hold: { state: 'on_hold', reasons: ['customer', 'recall'] },
  actions: {
    start: {
      from: ['requested', 'waiting_parts'],
      to: 'in_repair',
      label: 'start',
      event: 'started',
    },
    wait: {
      from: ['in_repair'],
      to: 'waiting_parts',
      label: 'wait for parts',
      event: 'waiting',
      reason: 'optional',
    },
    finish: { from: ['in_repair'], to: 'repaired', label: 'finish', event: 'finished' },
    hold: {
      from: ['requested', 'in_repair', 'waiting_parts'],
      to: 'on_hold',
      label: 'hold',
      event: 'held',
      reason: 'required',
    },
    release: { from: ['on_hold'], to: BEFORE_HOLD, label: 'release it', event: 'released' },
    cancel: {
      from: ['requested', 'on_hold'],
      to: 'cancelled',
      label: 'cancel it',
      event: 'cancelled',
      reason: 'optional',
    },
    scrap: {
      from: ['in_repair', 'on_hold'],
      to: 'scrapped',
      label: 'scrap it',
      event: 'scrapped',
      permission: { permission: 'roles', roles: ['Repair Leader'] },
    },
  },
});
export type TicketState = StateOf<typeof ticket>;
export type TicketAction = ActionOf<typeof ticket>;
export const TICKET_ACTIONS = Object.keys(ticket.actions) as TicketAction[];

export const tickets: LifecycleStore<TicketState, TicketAction, 'customer' | 'recall'> = {
  lifecycle: ticket,
  table: 'test_tickets',
  label: 'number',
  effects: { finish: 'bench = NULL' },
  writeEvents: (tx, { type, steps, actor, data }) =>
    tx.query(
      `INSERT INTO test_ticket_events (ticket_id, type, from_status, to_status, actor_name, data)
       SELECT s.id, $4, s.from_status, s.to_status, $5, $6::jsonb
       FROM unnest($1::bigint[], $2::text[], $3::text[]) AS s (id, from_status, to_status)`,
      [
        steps.map((step) => step.id),
        steps.map((step) => step.from),
        steps.map((step) => step.to),
        type,
        actor.userName,
        JSON.stringify(data),
      ],
    ),
};

const actorWith = (roleKeys: string[]): Principal => ({
  sessionId: 0,
  userId: 1,
  userName: 'lifecycle',
  name: 'Lifecycle test',
  type: 'staff',
  firstLogin: 0,
  roles: roleKeys,
  roleIds: [],
  roleKeys,
  permissions: [],
  accessVersion: 0,
  dataVersions: null,
});
export const leader = actorWith(['repair-leader']);
export const worker = actorWith(['repair-worker']);
export const meta = { ip: '127.0.0.1', userAgent: null, requestId: 'lifecycle-test' };

/** Creates the tickets' tables and the tickets RT-1 to RT-<count>, all requested; answers their ids. */
export async function createTickets(db: Queryable, count = 3): Promise<number[]> {
  await db.exec(`
    CREATE TABLE test_tickets (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      number text NOT NULL,
      status text NOT NULL DEFAULT 'requested',
      hold_reason text,
      status_before_hold text,
      bench text,
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE TABLE test_ticket_events (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      ticket_id bigint NOT NULL REFERENCES test_tickets (id),
      type text NOT NULL,
      from_status text NOT NULL,
      to_status text NOT NULL,
      actor_name text,
      data jsonb
    )`);
  const created = await db.query<{ id: number }>(
    `INSERT INTO test_tickets (number, bench)
     SELECT 'RT-' || n, 'B' || n FROM generate_series(1, $1::int) AS n RETURNING id`,
    [count],
  );
  return created.map((row) => row.id).sort((a, b) => a - b);
}
