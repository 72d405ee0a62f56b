import {
  deviceLifecycle,
  repairTicketLifecycle,
  type RepairTicketAction,
  type RepairTicketStatus,
} from '@inventory/contract';
import type { Queryable, Transaction } from '../../db/db.js';
import type { Actor } from '../../http/principal.js';
import {
  runTransition,
  stepArrays,
  timelineWriter,
  type LifecycleStore,
  type TransitionInput,
} from '../../toolkit/lifecycle.js';

/**
 * Repair tickets on their lifecycle (DOMAIN.md 3.5, decision 0014). Every step goes on the
 * ticket's timeline and on its device's (`device_events`, ref `repair_ticket`), so the device
 * lookup shows the repair as it went; the device's own status changes are the device lifecycle's
 * events beside them.
 */

const CLOSES = 'closed_at = now()';

/**
 * Ticket steps the device's own lifecycle records as its event (a passed test repairs the device):
 * their copy on the device's timeline would show the step twice.
 */
const DEVICE_RECORDS = new Set(
  Object.values<{ event: string }>(deviceLifecycle.actions).map((rule) => rule.event),
);
const ticketTimeline = timelineWriter<RepairTicketStatus>('repair_ticket_events', 'ticket_id');

/** Writes a ticket's step, or a fact on it (a part issued, a note), on its device's timeline. */
export const writeDeviceRepairEvent = (
  tx: Queryable,
  actor: Actor,
  event: { ticketIds: readonly number[]; type: string; data: Record<string, unknown> },
) =>
  tx.query(
    `INSERT INTO device_events (device_id, actor_id, actor_name, type, ref_type, ref_id, station, data)
     SELECT t.device_id, $2, $3, $4, 'repair_ticket', t.id, 'repair',
       jsonb_build_object('ticket', t.number) || $5::jsonb
     FROM repair_tickets t WHERE t.id = ANY($1::bigint[])`,
    [
      event.ticketIds,
      actor.userId,
      actor.userName,
      `repair_${event.type}`,
      JSON.stringify(event.data),
    ],
  );

export const repairTicketStore: LifecycleStore<RepairTicketStatus, RepairTicketAction, never> = {
  lifecycle: repairTicketLifecycle,
  table: 'repair_tickets',
  label: 'number',
  columns: [
    'issue_codes',
    'priority',
    'estimated_cost_cents',
    'resale_value_cents',
    'ber_candidate',
    'technician_id',
    'failed_items',
    'grade',
    'ber_outcome',
  ],
  effects: {
    sort: 'sorted_at = now()',
    assign: 'assigned_at = now()',
    complete: 'repaired_at = now()',
    start_test: 'test_count = test_count + 1',
    release: CLOSES,
    declare_beyond_repair: CLOSES,
    cancel: CLOSES,
  },
  writeEvents: async (tx, events) => {
    await ticketTimeline(tx, events);
    if (DEVICE_RECORDS.has(`repair_${events.type}`)) return;
    await tx.query(
      `INSERT INTO device_events (device_id, actor_id, actor_name, type, ref_type, ref_id, station, data)
       SELECT t.device_id, $4, $5, $6, 'repair_ticket', t.id, 'repair',
         jsonb_build_object('ticket', t.number, 'ticket_from', s.from_status, 'ticket_to', s.to_status)
           || $7::jsonb
       FROM unnest($1::bigint[], $2::text[], $3::text[]) AS s (id, from_status, to_status)
       JOIN repair_tickets t ON t.id = s.id`,
      [
        ...stepArrays(events.steps),
        events.actor.userId,
        events.actor.userName,
        `repair_${events.type}`,
        JSON.stringify(events.data),
      ],
    );
  },
};

/** Runs one action on one ticket, in the caller's transaction. */
export const runTicketAction = (
  tx: Transaction,
  input: TransitionInput<RepairTicketAction> & { readonly id: number },
) => runTransition(tx, repairTicketStore, input);
