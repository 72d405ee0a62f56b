import {
  AGENT_RETURNS_SHOWN,
  type createAgentReturnSchema,
  type ReturnableSim,
  type SimReturn,
  type SimReturnDetail,
} from '@inventory/contract';
import type * as z from 'zod/mini';
import type { Queryable, Transaction } from '../../db/db.js';
import { NotFoundError } from '../../http/errors.js';
import type { Principal, RequestMeta } from '../../http/principal.js';
import type { LabelContent } from '../../toolkit/documents/print.js';
import {
  AGENT_RETURNABLE_STATUSES,
  cancelSimReturn,
  createSimReturn,
  SIM_RETURN_COLUMNS,
  simReturnDetail,
  simReturnLabel,
} from '../sim/index.js';

/**
 * The agent portal's Returns (DOMAIN.md 7): the SIM area's returns, each read and written only
 * as the signed-in agent's own. A return of another agent is answered as one that does not exist
 * (404), and only the agent's own SIMs can be listed on a new one (422 otherwise).
 */

/** The agent's return, or 404 as if there were none. */
async function assertOwnReturn(db: Queryable, agentId: number, id: number): Promise<void> {
  const [row] = await db.query('SELECT 1 FROM sim_returns WHERE id = $1 AND agent_id = $2', [
    id,
    agentId,
  ]);
  if (!row) throw new NotFoundError(`There is no SIM return with id ${id}.`);
}

/** The agent's latest returns, newest first. */
export const agentReturns = (db: Queryable, agentId: number): Promise<SimReturn[]> =>
  db.query<SimReturn>(
    `SELECT ${SIM_RETURN_COLUMNS} FROM sim_returns r WHERE r.agent_id = $1
     ORDER BY r.created_at DESC, r.id DESC LIMIT ${AGENT_RETURNS_SHOWN}`,
    [agentId],
  );

/** The agent's SIMs that can go back: held by them and listed on no open return. */
export const returnableSims = (db: Queryable, agentId: number): Promise<ReturnableSim[]> =>
  db.query<ReturnableSim>(
    `SELECT c.id, c.iccid, c.status,
       (SELECT v.name FROM vendors v WHERE v.id = c.client_carrier_id) AS carrier,
       floor(extract(epoch FROM now() - c.held_since) / 86400)::int AS days_held, c.ever_active
     FROM sim_cards c
     WHERE c.agent_id = $1 AND c.status = ANY ($2::text[])
       AND NOT EXISTS (SELECT 1 FROM sim_return_lines l JOIN sim_returns r ON r.id = l.sim_return_id
                       WHERE l.iccid = c.iccid AND l.received_at IS NULL
                         AND r.status IN ('open', 'receiving'))
     ORDER BY c.held_since, c.iccid`,
    [agentId, AGENT_RETURNABLE_STATUSES],
  );

export async function agentReturnDetail(
  db: Queryable,
  agentId: number,
  id: number,
): Promise<SimReturnDetail> {
  await assertOwnReturn(db, agentId, id);
  return simReturnDetail(db, id);
}

/** A return of the signed-in agent's own SIMs. */
export const createAgentReturn = (
  tx: Transaction,
  acting: { actor: Principal; meta: RequestMeta },
  input: z.output<typeof createAgentReturnSchema>,
): Promise<SimReturnDetail> =>
  createSimReturn(
    tx,
    acting,
    {
      source: 'agent',
      agent_id: acting.actor.userId,
      reason: input.reason,
      note: input.note ?? null,
      iccids: input.iccids,
    },
    { yours: true },
  );

export async function cancelAgentReturn(
  tx: Transaction,
  acting: { actor: Principal; meta: RequestMeta },
  id: number,
): Promise<SimReturnDetail> {
  await assertOwnReturn(tx, acting.actor.userId, id);
  return cancelSimReturn(tx, acting, id, null);
}

/** The label of the agent's own return (404 for another's). */
export async function agentReturnLabel(
  db: Queryable,
  agentId: number,
  id: number,
): Promise<LabelContent> {
  await assertOwnReturn(db, agentId, id);
  return simReturnLabel(db, id);
}
