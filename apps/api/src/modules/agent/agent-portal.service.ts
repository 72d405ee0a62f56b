import {
  agentLedgerList,
  agentSimList,
  ENROLMENT_DAYS_BACK,
  type AgentActivationAnswer,
  type AgentAddressInput,
  type AgentHome,
  type AgentProfile,
  type AgentSim,
  type AgentSimDetail,
  type UpdateAgentProfileInput,
} from '@inventory/contract';
import type { Db, Queryable } from '../../db/db.js';
import { ConflictError, NotFoundError, ValidationError } from '../../http/errors.js';
import type { Principal, RequestMeta } from '../../http/principal.js';
import { isoTextSql } from '../../http/sql.js';
import { runTransition } from '../../toolkit/lifecycle.js';
import type { ListSql } from '../../toolkit/list.js';
import { findItem, type ListQueryOf, type ListStore } from '../../toolkit/resource.js';
import { auditActor, recordAudit } from '../audit/index.js';
import { simStore } from '../sim/index.js';
import { countAgentScan } from './agent-scan-limit.js';

/**
 * The agent portal's own reads and writes (DOMAIN.md 7): every one is scoped to the signed-in
 * agent (`agent_id = the asker`), so another agent's SIM is not found (404), never shown. The
 * figures come from the counts migration 0049 keeps, so the home page costs a few rows.
 */

/** Whole business days since a moment (order_settings' time zone). */
const daysSince = (column: string) => `(order_business_day(now()) - order_business_day(${column}))`;

/** With the agent, not yet assigned, and held longer than the hold days. */
const HELD_OVER = `(c.status = 'with_agent'
  AND ${daysSince('c.held_since')} > (SELECT hold_days FROM sim_settings))`;

const AGENT_SIM_FROM = `sim_cards c
  JOIN vendors v ON v.id = c.client_carrier_id
  LEFT JOIN sim_requests r ON r.id = c.sim_request_id`;

const AGENT_SIM_COLUMNS = `c.id, c.iccid, c.client_carrier_id, v.name AS client_carrier, c.status,
  ${isoTextSql('c.held_since')} AS held_since, ${daysSince('c.held_since')} AS days_held,
  ${HELD_OVER} AS held_over, r.number AS request_number, c.enrolment_ref, c.paired_imei,
  ${isoTextSql('c.assigned_at')} AS assigned_at, ${isoTextSql('c.activated_at')} AS activated_at`;

const agentSimSql: ListSql<ListQueryOf<typeof agentSimList>> = {
  from: AGENT_SIM_FROM,
  id: 'c.id',
  columns: AGENT_SIM_COLUMNS,
  sorts: { received: { sql: 'c.id', type: 'bigint' } },
  search: (pattern) => ['c.iccid ILIKE ?', pattern],
  filters: (query) => [
    query.status !== undefined && ['c.status = ?', query.status],
    query.client_carrier_id !== undefined && ['c.client_carrier_id = ?', query.client_carrier_id],
    query.held_over !== undefined && [query.held_over ? HELD_OVER : `NOT ${HELD_OVER}`],
  ],
};

/** The agent's SIMs: those the agent holds or held last (agent_id). */
export const agentSimStore: ListStore<typeof agentSimList> = {
  contract: agentSimList,
  list: agentSimSql,
  scope: (asker) => ['c.agent_id = ?', asker.userId],
};

const agentLedgerSql: ListSql<ListQueryOf<typeof agentLedgerList>> = {
  from: `agent_sim_ledger l
    JOIN sim_cards c ON c.id = l.sim_id
    JOIN vendors v ON v.id = c.client_carrier_id
    LEFT JOIN sim_requests r ON r.id = l.sim_request_id
    LEFT JOIN sim_returns rt ON rt.id = l.sim_return_id
    LEFT JOIN users cu ON cu.id = l.counterpart_agent_id`,
  id: 'l.id',
  columns: `l.id, ${isoTextSql('l.at')} AS at, l.entry, c.iccid, v.name AS client_carrier,
    r.number AS request_number, rt.number AS return_number, cu.name AS counterpart_name`,
  sorts: { at: { sql: 'l.at', type: 'timestamptz' } },
  search: (pattern) => ['c.iccid ILIKE ?', pattern],
  filters: (query) => [query.entry !== undefined && ['l.entry = ?', query.entry]],
};

/** The agent's ledger: receipts, transfers, assignments, activations, returns. */
export const agentLedgerStore: ListStore<typeof agentLedgerList> = {
  contract: agentLedgerList,
  list: agentLedgerSql,
  scope: (asker) => ['l.agent_id = ?', asker.userId],
};

type Figures = Omit<AgentHome, 'by_carrier'>;

/** The agent's home figures: kept counts, the agent's open requests and shipments. */
export async function agentHome(db: Queryable, agentId: number): Promise<AgentHome> {
  const byCarrier = await db.query<AgentHome['by_carrier'][number]>(
    `SELECT k.client_carrier_id, v.name AS client_carrier,
       COALESCE(sum(k.sims) FILTER (WHERE k.status = 'with_agent'), 0)::int AS with_agent,
       COALESCE(sum(k.sims) FILTER (WHERE k.status = 'assigned'), 0)::int AS assigned
     FROM sim_agent_counts k JOIN vendors v ON v.id = k.client_carrier_id
     WHERE k.agent_id = $1 AND k.status IN ('with_agent', 'assigned')
     GROUP BY k.client_carrier_id, v.name
     HAVING sum(k.sims) <> 0
     ORDER BY v.name, k.client_carrier_id`,
    [agentId],
  );
  const [figures] = await db.query<Figures>(
    `WITH settings AS (SELECT hold_days, order_business_day(now()) AS today FROM sim_settings),
     rate AS (
       SELECT COALESCE(sum(received), 0)::int AS received,
         COALESCE(sum(activated), 0)::int AS activated
       FROM sim_agent_figures WHERE agent_id = $1)
     SELECT s.hold_days, u.sim_cap,
       (SELECT COALESCE(sum(sims), 0)::int FROM sim_agent_counts
        WHERE agent_id = $1 AND status IN ('with_agent', 'assigned')) AS on_hand,
       (SELECT count(*)::int FROM sim_requests
        WHERE agent_id = $1 AND status IN ('submitted', 'approved', 'packed')) AS requests_pending,
       json_build_object(
         'requests', (SELECT count(*) FROM sim_requests
                      WHERE agent_id = $1 AND status = 'shipped'),
         'sims', (SELECT count(*) FROM sim_requests q JOIN sim_cards c ON c.sim_request_id = q.id
                  WHERE q.agent_id = $1 AND q.status = 'shipped' AND c.status = 'in_transit')
       ) AS in_transit,
       (SELECT json_build_object(
          'today', COALESCE(sum(sims) FILTER (WHERE day = s.today), 0),
          'last_7_days', COALESCE(sum(sims) FILTER (WHERE day > s.today - 7), 0),
          'last_30_days', COALESCE(sum(sims), 0))
        FROM sim_activation_days WHERE agent_id = $1 AND day > s.today - 30) AS activations,
       rate.received, rate.activated,
       CASE WHEN rate.received > 0
         THEN round(rate.activated::numeric / rate.received, 3)::float8 END AS activation_rate,
       (SELECT COALESCE(sum(sims), 0)::int FROM sim_agent_held_days
        WHERE agent_id = $1 AND day < s.today - s.hold_days) AS returns_due
     FROM settings s CROSS JOIN rate JOIN users u ON u.id = $1`,
    [agentId],
  );
  return { ...figures!, by_carrier: byCarrier };
}

/** One of the agent's SIMs by ICCID with the steps since the agent first had it; else 404. */
export async function agentSimByIccid(
  db: Queryable,
  agentId: number,
  iccid: string,
): Promise<AgentSimDetail> {
  const [sim] = await db.query<AgentSim>(
    `SELECT ${AGENT_SIM_COLUMNS} FROM ${AGENT_SIM_FROM} WHERE c.iccid = $1 AND c.agent_id = $2`,
    [iccid, agentId],
  );
  if (!sim) throw new NotFoundError(`There is no SIM ${iccid} among yours.`);
  const steps = await db.query<AgentSimDetail['steps'][number]>(
    `SELECT ${isoTextSql('e.at')} AS at, e.type, e.from_status, e.to_status
     FROM sim_events e
     WHERE e.sim_id = $1 AND e.at >= COALESCE(
       (SELECT min(l.at) FROM agent_sim_ledger l WHERE l.sim_id = $1 AND l.agent_id = $2),
       (SELECT c.held_since FROM sim_cards c WHERE c.id = $1))
     ORDER BY e.id`,
    [sim.id, agentId],
  );
  return { sim, steps };
}

/** States in which an activation was recorded already, or the carrier saw the SIM live. */
const RECORDED_STATES = new Set(['assigned', 'active', 'inactive', 'suspended']);

type ActivationInput = {
  readonly iccid: string;
  readonly enrolment_ref: string;
  readonly imei?: string | null | undefined;
  readonly enrolled_on: string;
};

/**
 * Records an activation (DOMAIN.md 5.4 step 5): one of the agent's SIMs with the agent becomes
 * assigned with the carrier's enrolment reference and the IMEI handed out, through the SIM
 * lifecycle (timeline, ledger, audit). The same ICCID again answers "already recorded"
 * (invariant 7); two phones at once are decided by the SIM's row lock: one records, the other
 * finds it recorded. Another agent's SIM, or one nobody has, is not found.
 */
export async function recordActivation(
  db: Db,
  agent: Principal,
  meta: RequestMeta,
  input: ActivationInput,
): Promise<AgentActivationAnswer> {
  await countAgentScan(db, agent.userId);
  const { iccid } = input;
  return db.transaction(async (tx) => {
    // The phone's calendar may run a day ahead of the business's time zone (an agent east of it
    // after midnight there), so its today is accepted up to the business's tomorrow.
    const [day] = await tx.query<{ ok: boolean; today: string }>(
      `SELECT $1::date BETWEEN order_business_day(now()) - $2::int AND order_business_day(now()) + 1
         AS ok, order_business_day(now())::text AS today`,
      [input.enrolled_on, ENROLMENT_DAYS_BACK],
    );
    if (!day!.ok) {
      throw new ValidationError({
        enrolled_on: [
          `The enrolment date is today (${day!.today}) or up to ${ENROLMENT_DAYS_BACK} days back.`,
        ],
      });
    }
    const [sim] = await tx.query<{ id: number; status: string; enrolment_ref: string | null }>(
      `SELECT c.id, c.status, c.enrolment_ref FROM sim_cards c
       WHERE c.iccid = $1 AND (c.agent_id = $2 OR (c.status = 'in_transit' AND EXISTS (
         SELECT 1 FROM sim_requests r WHERE r.id = c.sim_request_id AND r.agent_id = $2)))
       FOR UPDATE OF c`,
      [iccid, agent.userId],
    );
    if (!sim) throw new NotFoundError(`There is no SIM ${iccid} among yours.`);
    if (sim.status === 'in_transit') {
      throw new ConflictError(
        `SIM ${iccid} is still on its way to you: receive its shipment first, then record it.`,
      );
    }
    if (RECORDED_STATES.has(sim.status)) {
      const found = await findItem(agentSimStore, tx, sim.id);
      return {
        code: iccid,
        result: 'already_recorded' as const,
        message:
          sim.status === 'assigned'
            ? `SIM ${iccid} was recorded already${sim.enrolment_ref ? ` (reference ${sim.enrolment_ref})` : ''}.`
            : `SIM ${iccid} is ${sim.status} with the carrier already: nothing to record.`,
        sim: found,
      };
    }
    const imei = input.imei ?? null;
    await runTransition(tx, simStore, {
      action: 'assign',
      actor: agent,
      meta,
      id: sim.id,
      columns: { enrolment_ref: input.enrolment_ref, paired_imei: imei },
      data: { enrolment_ref: input.enrolment_ref, enrolled_on: input.enrolled_on, imei },
    });
    return {
      code: iccid,
      result: 'recorded' as const,
      message: `SIM ${iccid} recorded with reference ${input.enrolment_ref}.`,
      sim: await findItem(agentSimStore, tx, sim.id),
    };
  });
}

const ADDRESS_COLUMNS = (alias: string) =>
  `json_build_object('line1', ${alias}.line1, 'line2', ${alias}.line2, 'city', ${alias}.city,
     'state', ${alias}.state, 'zip', ${alias}.zip)`;

/** The agent's profile with the approved address and the latest address changes. */
export async function agentProfile(db: Queryable, agentId: number): Promise<AgentProfile> {
  const [profile] = await db.query<AgentProfile>(
    `SELECT u.name, u.user_name, u.phone, u.email, u.rep_id, u.territory, u.sim_cap,
       (SELECT ${ADDRESS_COLUMNS('a')} FROM agent_addresses a WHERE a.agent_id = u.id) AS address,
       COALESCE((SELECT json_agg(x ORDER BY x.id DESC) FROM (
         SELECT ch.id, ${ADDRESS_COLUMNS('ch')} AS address, ch.status, ch.reason,
           ${isoTextSql('ch.requested_at')} AS requested_at,
           ${isoTextSql('ch.decided_at')} AS decided_at
         FROM agent_address_changes ch WHERE ch.agent_id = u.id ORDER BY ch.id DESC LIMIT 5
       ) x), '[]'::json) AS address_changes
     FROM users u WHERE u.id = $1`,
    [agentId],
  );
  if (!profile) throw new NotFoundError('There is no such agent.');
  return profile;
}

/** The agent changes their own name and phone. */
export async function updateAgentProfile(
  db: Db,
  agent: Principal,
  meta: RequestMeta,
  input: UpdateAgentProfileInput,
): Promise<AgentProfile> {
  return db.transaction(async (tx) => {
    const [before] = await tx.query<{ name: string; phone: string | null }>(
      'SELECT name, phone FROM users WHERE id = $1 FOR UPDATE',
      [agent.userId],
    );
    const after = { name: input.name, phone: input.phone ?? null };
    await tx.query('UPDATE users SET name = $2, phone = $3, updated_at = now() WHERE id = $1', [
      agent.userId,
      after.name,
      after.phone,
    ]);
    await recordAudit(tx, {
      ...auditActor(agent, meta),
      action: 'agent.profile_updated',
      entityType: 'user',
      entityId: agent.userId,
      before,
      after,
    });
    return agentProfile(tx, agent.userId);
  });
}

/**
 * The agent asks for a new shipping address: it waits for a coordinator (DOMAIN.md 7); one
 * still waiting is withdrawn. The agent's row lock orders two asks of the same agent.
 */
export async function requestAddressChange(
  db: Db,
  agent: Principal,
  meta: RequestMeta,
  address: AgentAddressInput,
): Promise<AgentProfile> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT 1 FROM users WHERE id = $1 FOR UPDATE', [agent.userId]);
    await tx.query(
      `UPDATE agent_address_changes SET status = 'withdrawn', decided_at = now()
       WHERE agent_id = $1 AND status = 'pending'`,
      [agent.userId],
    );
    const [change] = await tx.query<{ id: number }>(
      `INSERT INTO agent_address_changes (agent_id, line1, line2, city, state, zip)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
      [
        agent.userId,
        address.line1,
        address.line2 ?? null,
        address.city,
        address.state,
        address.zip,
      ],
    );
    await recordAudit(tx, {
      ...auditActor(agent, meta),
      action: 'agent.address_change_requested',
      entityType: 'agent_address_change',
      entityId: change!.id,
      after: address,
    });
    return agentProfile(tx, agent.userId);
  });
}
