import {
  SIM_ON_HAND_STATUSES,
  type SimCardRow,
  type SimListAction,
  type SimTransferAnswer,
} from '@inventory/contract';
import type { Queryable, Transaction } from '../../db/db.js';
import { ConflictError, fieldError, NotFoundError } from '../../http/errors.js';
import type { Acting } from '../../http/principal.js';
import { runTransition } from '../../toolkit/lifecycle.js';
import { auditActor, recordAudit } from '../audit/index.js';
import { simStore, writeAgentLedger, writeSimEvent } from './sim-lifecycle.js';
import { SIM_CARD_COLUMNS, SIM_CARD_FROM } from './sim-cards.store.js';

/**
 * The SIM list's actions (DOMAIN.md 4.6 `/sim`): marking a SIM defective or lost goes through
 * the SIM lifecycle (reason kept on the SIM and its timeline; the box's count and an agent's
 * ledger kept by its effects); a transfer between agents is one guarded update with its
 * timeline step and both agents' ledger entries.
 */

export async function findSimCard(db: Queryable, id: number): Promise<SimCardRow> {
  const [sim] = await db.query<SimCardRow>(
    `SELECT ${SIM_CARD_COLUMNS} FROM ${SIM_CARD_FROM} WHERE c.id = $1`,
    [id],
  );
  if (!sim) throw new NotFoundError(`There is no SIM with id ${id}.`);
  return sim;
}

export async function markSim(
  tx: Transaction,
  { actor, meta }: Acting,
  id: number,
  action: SimListAction,
  reason: string,
): Promise<SimCardRow> {
  await runTransition(tx, simStore, {
    id,
    action,
    actor,
    meta,
    reason,
    columns: { status_reason: reason.trim() },
  });
  return findSimCard(tx, id);
}

type Agent = { id: number; name: string; status: string; type: string; sim_cap: number | null };

/** The agents of a transfer, locked in id order so that two transfers between them queue. */
async function lockAgents(tx: Transaction, ids: readonly number[]) {
  const rows = await tx.query<Agent>(
    `SELECT id::int AS id, name, status, type, sim_cap FROM users
     WHERE id = ANY ($1::bigint[]) ORDER BY id FOR UPDATE`,
    [ids],
  );
  return new Map(rows.map((row) => [row.id, row]));
}

/**
 * Moves SIMs that agent X holds (`with_agent`) to agent Y: only an active agent, within Y's cap
 * for SIMs on hand (none set: no limit). The update is guarded by status and old agent, so a SIM
 * that moved meanwhile refuses the whole transfer (409).
 */
export async function transferSims(
  tx: Transaction,
  { actor, meta }: Acting,
  input: { from_agent_id: number; to_agent_id: number; sim_ids: readonly number[] },
): Promise<SimTransferAnswer> {
  const { from_agent_id: fromId, to_agent_id: toId } = input;
  const simIds = [...new Set(input.sim_ids)];
  if (fromId === toId) throw fieldError('to_agent_id', 'Choose another agent than the giving one.');
  const agents = await lockAgents(tx, [fromId, toId]);
  const from = agents.get(fromId);
  const to = agents.get(toId);
  if (!from || from.type !== 'agent') throw fieldError('from_agent_id', 'Choose an agent.');
  if (!to || to.type !== 'agent') throw fieldError('to_agent_id', 'Choose an agent.');
  if (to.status !== 'active') {
    throw fieldError('to_agent_id', `${to.name} is not active: choose an active agent.`);
  }
  const [onHand] = await tx.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM sim_cards WHERE agent_id = $1 AND status = ANY ($2::text[])`,
    [toId, SIM_ON_HAND_STATUSES],
  );
  const after = onHand!.n + simIds.length;
  if (to.sim_cap !== null && after > to.sim_cap) {
    throw new ConflictError(
      `${to.name} has ${onHand!.n} SIMs on hand and a cap of ${to.sim_cap}: at most ${Math.max(to.sim_cap - onHand!.n, 0)} more, not ${simIds.length}.`,
    );
  }
  // The ledger's transfer_out is written while the SIMs are still the giving agent's.
  await writeAgentLedger(tx, 'transfer_out', simIds, actor, toId);
  const moved = await tx.query<{ id: number }>(
    `UPDATE sim_cards SET agent_id = $2, held_since = now(), updated_at = now()
     WHERE id = ANY ($1::bigint[]) AND status = 'with_agent' AND agent_id = $3
     RETURNING id::int AS id`,
    [simIds, toId, fromId],
  );
  if (moved.length !== simIds.length) {
    const [other] = await tx.query<{ iccid: string }>(
      `SELECT iccid FROM sim_cards WHERE id = ANY ($1::bigint[]) AND id <> ALL ($2::bigint[])
       ORDER BY iccid LIMIT 1`,
      [simIds, moved.map((sim) => sim.id)],
    );
    throw new ConflictError(
      other
        ? `${other.iccid} is not with ${from.name} (unassigned) any more: nothing was transferred.`
        : 'A SIM of the transfer does not exist: nothing was transferred.',
    );
  }
  await writeAgentLedger(tx, 'transfer_in', simIds, actor, fromId);
  await writeSimEvent(tx, simIds, actor, 'transferred', {
    from_agent_id: fromId,
    from_agent: from.name,
    agent_id: toId,
    agent: to.name,
  });
  await recordAudit(tx, {
    ...auditActor(actor, meta),
    action: 'sim.transferred',
    entityType: 'user',
    entityId: toId,
    before: { agent_id: fromId },
    after: { agent_id: toId, sims: simIds.length, sim_ids: simIds.slice(0, 100) },
  });
  return {
    transferred: simIds.length,
    from_agent: from.name,
    to_agent: to.name,
    to_on_hand: after,
    to_cap: to.sim_cap,
  };
}
