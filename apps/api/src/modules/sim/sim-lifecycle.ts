import {
  simLifecycle,
  simRequestLifecycle,
  type SimAction,
  type SimRequestAction,
  type SimRequestStatus,
  type SimStatus,
} from '@inventory/contract';
import type { Transaction } from '../../db/db.js';
import type { Acting, Actor } from '../../http/principal.js';
import {
  timelineWriter,
  type LifecycleStore,
  type TransitionEffect,
  type TransitionStep,
} from '../../toolkit/lifecycle.js';

/**
 * The SIM card's and the SIM request's records (DOMAIN.md 3.6, 4.6; decision 0014): `sim_cards`
 * with its timeline `sim_events`, `sim_requests` with `sim_request_events`. Every area of SIM
 * work (boxes, requests, returns, detection, the agent portal) moves SIMs through these stores,
 * so a box's available count and each agent's ledger are kept in one place.
 */

export type AgentLedgerEntry =
  | 'received'
  | 'transfer_in'
  | 'transfer_out'
  | 'assigned'
  | 'activated'
  | 'returned'
  | 'lost'
  | 'defective';

/**
 * Keeps each box's `qty_available` (SIMs of the box in stock) for the steps that enter or leave
 * `in_stock`, and marks a box depleted at zero and in stock again when a SIM comes back.
 */
async function keepBoxesAvailable(tx: Transaction, steps: readonly TransitionStep<SimStatus>[]) {
  const moved = steps.filter((step) => (step.from === 'in_stock') !== (step.to === 'in_stock'));
  if (moved.length === 0) return;
  await tx.query(
    `WITH delta AS (
       SELECT c.sim_box_id, sum(s.change)::int AS change
       FROM unnest($1::bigint[], $2::int[]) AS s (id, change)
       JOIN sim_cards c ON c.id = s.id
       GROUP BY c.sim_box_id
     )
     UPDATE sim_boxes b SET
       qty_available = b.qty_available + delta.change,
       status = CASE
         WHEN b.qty_available + delta.change = 0 THEN 'depleted'
         WHEN b.status <> 'depleted' THEN b.status
         WHEN EXISTS (SELECT 1 FROM sim_packs p WHERE p.sim_box_id = b.id) THEN 'split'
         ELSE 'in_stock' END,
       updated_at = now()
     FROM delta WHERE b.id = delta.sim_box_id`,
    [moved.map((step) => step.id), moved.map((step) => (step.to === 'in_stock' ? 1 : -1))],
  );
}

/**
 * Writes ledger entries for the SIMs of `simIds` that an agent holds (their `agent_id`), with the
 * request or return they came or went with.
 */
export async function writeAgentLedger(
  tx: Transaction,
  entry: AgentLedgerEntry,
  simIds: readonly number[],
  actor: Pick<Actor, 'userId'>,
  counterpartAgentId: number | null = null,
): Promise<void> {
  if (simIds.length === 0) return;
  await tx.query(
    `INSERT INTO agent_sim_ledger (agent_id, sim_id, entry, counterpart_agent_id, sim_request_id,
                                   sim_return_id, actor_id)
     SELECT agent_id, id, $2, $3, sim_request_id, sim_return_id, $4
     FROM sim_cards WHERE id = ANY ($1::bigint[]) AND agent_id IS NOT NULL ORDER BY id`,
    [simIds, entry, counterpartAgentId, actor.userId],
  );
}

/** An effect that keeps the boxes' counts and, for SIMs an agent held, writes the ledger. */
function simEffect(options: {
  set?: string;
  ledger?: AgentLedgerEntry;
  /** Ledger only the steps from these states (the agent held the SIM). */
  ledgerFrom?: readonly SimStatus[];
}): TransitionEffect<SimStatus> {
  return {
    ...(options.set ? { set: options.set } : {}),
    write: async (tx, steps, acting: Acting) => {
      await keepBoxesAvailable(tx, steps);
      const { ledger, ledgerFrom } = options;
      if (!ledger) return;
      const ids = steps
        .filter((step) => !ledgerFrom || ledgerFrom.includes(step.from))
        .map((step) => step.id);
      await writeAgentLedger(tx, ledger, ids, acting.actor);
    },
  };
}

const HELD_BY_AGENT: readonly SimStatus[] = [
  'with_agent',
  'assigned',
  'active',
  'inactive',
  'suspended',
];

/** Back in stock: no request, agent, return, order or pairing any more; held by its box again. */
const BACK_IN_STOCK =
  'sim_request_id = NULL, agent_id = NULL, sim_return_id = NULL, order_id = NULL, ' +
  'device_id = NULL, paired_imei = NULL, enrolment_ref = NULL, assigned_at = NULL, ' +
  'status_reason = NULL, held_since = now()';

/** Writes one event on SIMs' timelines that is no step of the lifecycle (a transfer, a split). */
export async function writeSimEvent(
  tx: Transaction,
  simIds: readonly number[],
  actor: Pick<Actor, 'userId' | 'userName'>,
  type: string,
  data: Record<string, unknown>,
): Promise<void> {
  if (simIds.length === 0) return;
  await tx.query(
    `INSERT INTO sim_events (sim_id, actor_id, actor_name, type, data)
     SELECT id, $2, $3, $4, $5::jsonb FROM unnest($1::bigint[]) AS s (id)`,
    [simIds, actor.userId, actor.userName, type, JSON.stringify(data)],
  );
}

export const simStore: LifecycleStore<SimStatus, SimAction, never> = {
  lifecycle: simLifecycle,
  table: 'sim_cards',
  label: 'iccid',
  columns: [
    'sim_request_id',
    'sim_pack_id',
    'sim_return_id',
    'order_id',
    'device_id',
    'paired_imei',
    'enrolment_ref',
    'assigned_at',
    'status_reason',
    'mdn',
  ],
  effects: {
    allocate: simEffect({ set: 'held_since = now()' }),
    unallocate: simEffect({ set: BACK_IN_STOCK }),
    ship: 'held_since = now()',
    // The agent is the request's; the SIM is theirs from now (days held count from here).
    receive: simEffect({
      set:
        // The toolkit's update names the SIM `r`.
        'agent_id = (SELECT q.agent_id FROM sim_requests q WHERE q.id = r.sim_request_id), ' +
        'held_since = now()',
      ledger: 'received',
    }),
    assign: simEffect({ set: 'assigned_at = COALESCE(assigned_at, now())', ledger: 'assigned' }),
    returnIn: simEffect({
      set: 'held_since = now()',
      ledger: 'returned',
      ledgerFrom: HELD_BY_AGENT,
    }),
    restock: simEffect({ set: BACK_IN_STOCK }),
    destroy: 'held_since = now()',
    markDefective: simEffect({ ledger: 'defective', ledgerFrom: HELD_BY_AGENT }),
    markLost: simEffect({ ledger: 'lost', ledgerFrom: HELD_BY_AGENT }),
    allocate_to_order: simEffect({ set: 'held_since = now()' }),
    release_from_order: simEffect({ set: BACK_IN_STOCK }),
  },
  writeEvents: timelineWriter('sim_events', 'sim_id', { refInData: true }),
};

export const simRequestStore: LifecycleStore<SimRequestStatus, SimRequestAction, never> = {
  lifecycle: simRequestLifecycle,
  table: 'sim_requests',
  label: 'number',
  columns: [
    'qty_approved',
    'approved_by',
    'rate_override',
    'reason',
    'tracking_number',
    'qty_received',
    'qty_missing',
  ],
  effects: {
    approve: 'approved_at = now()',
    reject: 'approved_at = NULL',
    ship: 'shipped_at = now()',
    receive: 'received_at = now()',
  },
  writeEvents: timelineWriter('sim_request_events', 'sim_request_id'),
};
