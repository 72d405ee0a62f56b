import {
  nextStatus,
  normaliseScan,
  SIM_DISPOSITION_TEXT,
  simLifecycle,
  simReturnLifecycle,
  simReturnList,
  type createSimReturnSchema,
  type FieldErrors,
  type SimAction,
  type SimBulkDispositionInput,
  type SimDisposition,
  type SimDispositionInput,
  type SimReturn,
  type SimReturnAction,
  type SimReturnDetail,
  type SimReturnLine,
  type SimReturnScanAnswer,
  type SimReturnScanResult,
  type SimReturnStatus,
  type SimStatus,
} from '@inventory/contract';
import type * as z from 'zod/mini';
import type { Queryable, Transaction } from '../../db/db.js';
import { ConflictError, fieldError, NotFoundError, ValidationError } from '../../http/errors.js';
import type { Acting } from '../../http/principal.js';
import { isoTextSql } from '../../http/sql.js';
import type { LabelContent } from '../../toolkit/documents/print.js';
import {
  runTransition,
  runTransitions,
  timelineWriter,
  type LifecycleStore,
} from '../../toolkit/lifecycle.js';
import type { PickerSql } from '../../toolkit/pickers.js';
import type { ListStore } from '../../toolkit/resource.js';
import { auditActor, recordAudit } from '../audit/index.js';
import { simStore } from './sim-lifecycle.js';

/**
 * SIM returns (DOMAIN.md 4.6 /sim/return, 5.4 step 7; the agent portal's Returns, 7). A return
 * is made for an agent (their selection of SIMs, from the portal or by staff), an RMA or a
 * customer; the warehouse receives it by scanning ICCIDs, one transaction per scan: the return is
 * locked first, so two stations scanning the same ICCID into it take turns and the second hears
 * "already received" (invariant 7); a SIM of the return's agent in a state the SIM lifecycle
 * lets go `returned` moves there (simStore 'returnIn', its return written in the same update);
 * anything else is kept as a flagged line and moves nothing. Each SIM received then gets its
 * disposition (restock, destroy, defective to carrier) through the SIM lifecycle, one by one or
 * all at once; a SIM ever detected active is never restocked. Locks go return first, then SIMs.
 */

/** States in which an agent holds a SIM and can send it back (the portal's selection). */
export const AGENT_RETURNABLE_STATUSES: readonly SimStatus[] = [
  'with_agent',
  'assigned',
  'active',
  'inactive',
  'suspended',
];

/** The SIM lifecycle's action behind each disposition. */
const DISPOSITION_ACTIONS: Record<SimDisposition, SimAction> = {
  restock: 'restock',
  destroy: 'destroy',
  defective_to_carrier: 'markDefective',
};

/** A return as the list and the station show it, over `sim_returns r`. */
export const SIM_RETURN_COLUMNS = `r.id, r.number, r.source, r.agent_id,
  (SELECT u.name FROM users u WHERE u.id = r.agent_id) AS agent,
  r.reason, r.note, r.status, r.qty_expected, r.qty_received,
  (SELECT count(*) FROM sim_return_lines l
   WHERE l.sim_return_id = r.id AND l.flag IS NOT NULL)::int AS qty_flagged,
  (SELECT count(*) FROM sim_return_lines l
   WHERE l.sim_return_id = r.id AND l.disposition IS NOT NULL)::int AS qty_disposed,
  ${isoTextSql('r.created_at')} AS created_at,
  (SELECT u.name FROM users u WHERE u.id = r.created_by) AS created_by_name,
  ${isoTextSql('r.closed_at')} AS closed_at`;

/**
 * Returns are read from their table on every request (no kept answers): every scan changes a
 * return's counts.
 */
export const simReturnStore: ListStore<typeof simReturnList> = {
  contract: simReturnList,
  list: {
    from: 'sim_returns r',
    id: 'r.id',
    columns: SIM_RETURN_COLUMNS,
    sorts: { created_at: { sql: 'r.created_at', type: 'timestamptz' } },
    // A return number, an agent's name, or an ICCID the return listed or received.
    search: (pattern, term) => [
      `(r.number ILIKE ?
        OR EXISTS (SELECT 1 FROM users u WHERE u.id = r.agent_id AND u.name ILIKE ?)
        OR r.id IN (SELECT l.sim_return_id FROM sim_return_lines l WHERE l.iccid = ?))`,
      pattern,
      pattern,
      normaliseScan(term),
    ],
    filters: (query) => [
      query.status !== undefined && ['r.status = ?', query.status],
      query.source !== undefined && ['r.source = ?', query.source],
      query.reason !== undefined && ['r.reason = ?', query.reason],
      query.agent_id !== undefined && ['r.agent_id = ?', query.agent_id],
    ],
  },
};

/** Active agents, for the picker of a new return. */
export const AGENT_PICKER: PickerSql = {
  from: 'users u',
  id: 'u.id',
  label: "u.name || COALESCE(' (' || u.rep_id || ')', '')",
  where: `u.type = 'agent' AND u.status = 'active'
    AND ($1::text IS NULL OR u.name ILIKE $1 OR u.user_name ILIKE $1 OR u.rep_id ILIKE $1)`,
  order: 'lower(u.name), u.id',
};

/** The return's own lifecycle: its timeline is `sim_return_events`. */
export const simReturnLifecycleStore: LifecycleStore<SimReturnStatus, SimReturnAction, never> = {
  lifecycle: simReturnLifecycle,
  table: 'sim_returns',
  label: 'number',
  columns: ['closed_by'],
  effects: { close: 'closed_at = now()' },
  writeEvents: timelineWriter('sim_return_events', 'sim_return_id'),
};

const LINE_COLUMNS = `l.id, l.iccid, l.sim_id, l.expected,
  ${isoTextSql('l.received_at')} AS received_at,
  (SELECT u.name FROM users u WHERE u.id = l.received_by) AS received_by_name,
  l.station, l.flag, c.status AS sim_status,
  (SELECT v.name FROM vendors v WHERE v.id = c.client_carrier_id) AS carrier,
  COALESCE(c.ever_active, false) AS ever_active,
  ${isoTextSql('c.activated_at')} AS activated_at,
  l.disposition, ${isoTextSql('l.disposed_at')} AS disposed_at`;

async function returnById(db: Queryable, id: number): Promise<SimReturn | undefined> {
  const [row] = await db.query<SimReturn>(
    `SELECT ${SIM_RETURN_COLUMNS} FROM sim_returns r WHERE r.id = $1`,
    [id],
  );
  return row;
}

const notFound = (id: number) => new NotFoundError(`There is no SIM return with id ${id}.`);

/** A return with its lines (received newest first, then those expected), or 404. */
export async function simReturnDetail(db: Queryable, id: number): Promise<SimReturnDetail> {
  const found = await returnById(db, id);
  if (!found) throw notFound(id);
  const lines = await db.query<SimReturnLine>(
    `SELECT ${LINE_COLUMNS}
     FROM sim_return_lines l LEFT JOIN sim_cards c ON c.id = l.sim_id
     WHERE l.sim_return_id = $1
     ORDER BY l.received_at DESC NULLS LAST, l.iccid`,
    [id],
  );
  return { return: found, lines };
}

type LockedReturn = {
  id: number;
  number: string;
  status: SimReturnStatus;
  agent_id: number | null;
  agent: string | null;
};

/** The return's row locked for the transaction (scans of it take turns), or 404. */
async function lockReturn(tx: Transaction, id: number): Promise<LockedReturn> {
  const [row] = await tx.query<LockedReturn>(
    `SELECT r.id, r.number, r.status, r.agent_id,
       (SELECT u.name FROM users u WHERE u.id = r.agent_id) AS agent
     FROM sim_returns r WHERE r.id = $1 FOR UPDATE`,
    [id],
  );
  if (!row) throw notFound(id);
  return row;
}

/** Nothing more comes into or out of a closed or cancelled return (409). */
function assertWorking(found: LockedReturn): void {
  if (found.status === 'closed' || found.status === 'cancelled') {
    throw new ConflictError(`SIM return ${found.number} is ${found.status}: it changes no more.`);
  }
}

/** A SIM as a return reads it: its state and who holds it (the agent a shipment goes to). */
type SimHolding = {
  id: number;
  iccid: string;
  status: SimStatus;
  holder_id: number | null;
  holder: string | null;
};

const HOLDING_COLUMNS = `c.id, c.iccid, c.status,
  COALESCE(c.agent_id, q.agent_id) AS holder_id,
  (SELECT u.name FROM users u WHERE u.id = COALESCE(c.agent_id, q.agent_id)) AS holder`;
const HOLDING_FROM = 'sim_cards c LEFT JOIN sim_requests q ON q.id = c.sim_request_id';

/**
 * Creates a return with the ICCIDs expected back. A named agent must be an active agent; each
 * ICCID must be a SIM of ours that can be returned, held by that agent when there is one, and on
 * no other open return. `yours` words the refusals for the agent themselves (the portal).
 */
export async function createSimReturn(
  tx: Transaction,
  acting: Acting,
  input: z.output<typeof createSimReturnSchema>,
  options: { yours?: boolean } = {},
): Promise<SimReturnDetail> {
  const agentId = input.agent_id ?? null;
  if (input.source === 'agent' && agentId === null) {
    throw fieldError('agent_id', 'Choose the agent whose SIMs come back.');
  }
  let agentName: string | null = null;
  if (agentId !== null) {
    const [agent] = await tx.query<{ name: string }>(
      `SELECT name FROM users WHERE id = $1 AND type = 'agent' AND status = 'active'`,
      [agentId],
    );
    if (!agent) throw fieldError('agent_id', 'Choose an active agent.');
    agentName = agent.name;
  }
  const iccids = [...new Set(input.iccids)];
  const errors = await expectedIccidErrors(tx, iccids, agentId, agentName, options.yours === true);
  if (errors.length > 0) throw new ValidationError({ iccids: errors } satisfies FieldErrors);

  const [created] = await tx.query<{ id: number }>(
    `INSERT INTO sim_returns (number, source, agent_id, reason, note, qty_expected, created_by)
     VALUES ('SRT-' || lpad(nextval('sim_return_numbers')::text, 6, '0'), $1, $2, $3, $4, $5, $6)
     RETURNING id`,
    [input.source, agentId, input.reason, input.note ?? null, iccids.length, acting.actor.userId],
  );
  const id = created!.id;
  await tx.query(
    `INSERT INTO sim_return_lines (sim_return_id, iccid, sim_id, expected)
     SELECT $1, c.iccid, c.id, true FROM sim_cards c WHERE c.iccid = ANY ($2::text[])`,
    [id, iccids],
  );
  const data = { source: input.source, agent_id: agentId, reason: input.reason, iccids };
  await tx.query(
    `INSERT INTO sim_return_events (sim_return_id, actor_id, actor_name, type, to_status, data)
     VALUES ($1, $2, $3, 'created', 'open', $4::jsonb)`,
    [id, acting.actor.userId, acting.actor.userName, JSON.stringify(data)],
  );
  await recordAudit(tx, {
    ...auditActor(acting.actor, acting.meta),
    action: 'SIM return.created',
    entityType: 'SIM return',
    entityId: id,
    after: data,
  });
  return simReturnDetail(tx, id);
}

/** Why each listed ICCID cannot be expected back on a new return (empty when all can). */
async function expectedIccidErrors(
  tx: Queryable,
  iccids: readonly string[],
  agentId: number | null,
  agentName: string | null,
  yours: boolean,
): Promise<string[]> {
  if (iccids.length === 0) return [];
  const sims = await tx.query<SimHolding>(
    `SELECT ${HOLDING_COLUMNS} FROM ${HOLDING_FROM} WHERE c.iccid = ANY ($1::text[])`,
    [iccids],
  );
  const byIccid = new Map(sims.map((sim) => [sim.iccid, sim]));
  const onReturns = await tx.query<{ iccid: string; number: string }>(
    `SELECT l.iccid, r.number FROM sim_return_lines l JOIN sim_returns r ON r.id = l.sim_return_id
     WHERE l.iccid = ANY ($1::text[]) AND l.received_at IS NULL
       AND r.status IN ('open', 'receiving')`,
    [iccids],
  );
  const onReturn = new Map(onReturns.map((row) => [row.iccid, row.number]));
  const returnable = yours ? AGENT_RETURNABLE_STATUSES : simLifecycle.actions.returnIn.from;
  const errors: string[] = [];
  for (const iccid of iccids) {
    const sim = byIccid.get(iccid);
    if (!sim || (yours && sim.holder_id !== agentId)) {
      errors.push(yours ? `${iccid} is not one of your SIMs.` : `${iccid} is no SIM of ours.`);
    } else if (agentId !== null && sim.holder_id !== agentId) {
      errors.push(`${iccid} is not ${agentName}'s SIM.`);
    } else if (!returnable.includes(sim.status)) {
      errors.push(`${iccid} is ${simLifecycle.stateText(sim.status)}: it cannot be returned.`);
    } else if (onReturn.has(iccid)) {
      errors.push(`${iccid} is on return ${onReturn.get(iccid)} already.`);
    }
  }
  return errors;
}

async function lineOf(db: Queryable, returnId: number, iccid: string): Promise<SimReturnLine> {
  const [line] = await db.query<SimReturnLine>(
    `SELECT ${LINE_COLUMNS}
     FROM sim_return_lines l LEFT JOIN sim_cards c ON c.id = l.sim_id
     WHERE l.sim_return_id = $1 AND l.iccid = $2`,
    [returnId, iccid],
  );
  return line!;
}

/** Why a scanned SIM is set aside rather than received, with the station's sentence. */
function flagOf(
  found: LockedReturn,
  iccid: string,
  sim: SimHolding | undefined,
): {
  result: Exclude<SimReturnScanResult, 'returned' | 'already_received'>;
  message: string;
} | null {
  if (!sim) {
    return { result: 'unknown', message: `${iccid} is no SIM of ours: set it aside.` };
  }
  const step = nextStatus(simLifecycle, sim, 'returnIn');
  if (!step.ok) {
    return {
      result: 'not_returnable',
      message: `${iccid} is ${simLifecycle.stateText(sim.status)}: it cannot be received as returned. Set it aside.`,
    };
  }
  if (found.agent_id !== null && sim.holder_id !== found.agent_id) {
    const holder = sim.holder ? `it is ${sim.holder}'s` : 'no agent holds it';
    return {
      result: 'not_agents',
      message: `${iccid} is not ${found.agent}'s SIM (${holder}): set it aside, it stays as it is.`,
    };
  }
  return null;
}

/**
 * One scan into a return, in the caller's transaction: a repeat answers "already received"; the
 * return's agent's SIM (any returnable SIM for a return that names no agent) goes `returned`;
 * anything else is a flagged line that moves nothing. The answer carries the line and the counts.
 */
export async function scanIntoReturn(
  tx: Transaction,
  acting: Acting,
  returnId: number,
  scan: { code: string; station?: string | undefined },
): Promise<SimReturnScanAnswer> {
  const found = await lockReturn(tx, returnId);
  assertWorking(found);
  const iccid = scan.code;
  const station = scan.station?.trim() || null;
  const [seen] = await tx.query<{ received_at: string; flag: string | null }>(
    `SELECT ${isoTextSql('received_at')} AS received_at, flag FROM sim_return_lines
     WHERE sim_return_id = $1 AND iccid = $2 AND received_at IS NOT NULL`,
    [returnId, iccid],
  );
  if (seen) {
    return {
      result: 'already_received',
      message: `${iccid} was received already${seen.flag ? ' (set aside)' : ''}.`,
      code: iccid,
      line: await lineOf(tx, returnId, iccid),
      return: (await returnById(tx, returnId))!,
    };
  }
  const [sim] = await tx.query<SimHolding>(
    `SELECT ${HOLDING_COLUMNS} FROM ${HOLDING_FROM} WHERE c.iccid = $1 FOR UPDATE OF c`,
    [iccid],
  );
  const flag = flagOf(found, iccid, sim);
  const data = { sim_return: found.number, ...(station && { station }) };
  if (!flag) {
    await runTransition(tx, simStore, {
      id: sim!.id,
      action: 'returnIn',
      actor: acting.actor,
      meta: acting.meta,
      ref: { type: 'sim_return', id: returnId },
      data,
      columns: { sim_return_id: returnId },
    });
  }
  if (found.status === 'open') {
    await runTransition(tx, simReturnLifecycleStore, {
      id: returnId,
      action: 'startReceiving',
      actor: acting.actor,
      meta: acting.meta,
      data,
    });
  }
  const [line] = await tx.query<{ expected: boolean }>(
    `INSERT INTO sim_return_lines (sim_return_id, iccid, sim_id, received_at, received_by, station,
                                   flag)
     VALUES ($1, $2, $3, now(), $4, $5, $6)
     ON CONFLICT (sim_return_id, iccid) DO UPDATE SET sim_id = EXCLUDED.sim_id,
       received_at = EXCLUDED.received_at, received_by = EXCLUDED.received_by,
       station = EXCLUDED.station, flag = EXCLUDED.flag
     RETURNING expected`,
    [returnId, iccid, sim?.id ?? null, acting.actor.userId, station, flag?.result ?? null],
  );
  if (!flag) {
    await tx.query(
      `UPDATE sim_returns SET qty_received = qty_received + 1, updated_at = now() WHERE id = $1`,
      [returnId],
    );
  }
  const listed = line!.expected ? '' : ' It was not listed on the return.';
  return {
    result: flag?.result ?? 'returned',
    message: flag?.message ?? `${iccid} is returned.${listed}`,
    code: iccid,
    line: await lineOf(tx, returnId, iccid),
    return: (await returnById(tx, returnId))!,
  };
}

/** A received line waiting for its disposition, with what the rule reads of its SIM. */
type WaitingLine = {
  id: number;
  iccid: string;
  sim_id: number;
  ever_active: boolean;
  active_on: string | null;
};

const WAITING_LINES = `SELECT l.id, l.iccid, l.sim_id, c.ever_active,
    to_char(COALESCE(c.activated_at, c.last_detected_at), 'YYYY-MM-DD') AS active_on
  FROM sim_return_lines l JOIN sim_cards c ON c.id = l.sim_id
  WHERE l.sim_return_id = $1 AND l.received_at IS NOT NULL AND l.flag IS NULL
    AND l.disposition IS NULL`;

/**
 * Gives `lines` their disposition through the SIM lifecycle (all or nothing) and records it on
 * the lines. A SIM ever detected active is refused a restock (409), saying when it was active.
 */
async function dispose(
  tx: Transaction,
  acting: Acting,
  found: LockedReturn,
  lines: readonly WaitingLine[],
  disposition: SimDisposition,
  reason: string | null | undefined,
): Promise<void> {
  if (lines.length === 0) return;
  if (disposition === 'restock') {
    const active = lines.find((line) => line.ever_active);
    if (active) {
      throw new ConflictError(
        `${active.iccid} was active on ${active.active_on ?? 'a date the carrier did not give'}: ` +
          'a SIM ever detected active is never restocked. Destroy it or send it to the carrier.',
      );
    }
  }
  await runTransitions(tx, simStore, {
    ids: lines.map((line) => line.sim_id),
    action: DISPOSITION_ACTIONS[disposition],
    actor: acting.actor,
    meta: acting.meta,
    reason,
    ref: { type: 'sim_return', id: found.id },
    data: { sim_return: found.number, disposition },
  });
  await tx.query(
    `UPDATE sim_return_lines SET disposition = $2, disposed_at = now(), disposed_by = $3
     WHERE id = ANY ($1::bigint[])`,
    [lines.map((line) => line.id), disposition, acting.actor.userId],
  );
}

/** The return locked, refused (409) unless SIMs were received into it and it is not closed. */
async function lockReceiving(tx: Transaction, id: number): Promise<LockedReturn> {
  const found = await lockReturn(tx, id);
  assertWorking(found);
  if (found.status === 'open') {
    throw new ConflictError(`Nothing was scanned into SIM return ${found.number} yet.`);
  }
  return found;
}

/** One received SIM's disposition (404 for a line of another return). */
export async function disposeLine(
  tx: Transaction,
  acting: Acting,
  returnId: number,
  lineId: number,
  input: SimDispositionInput,
): Promise<SimReturnDetail> {
  const found = await lockReceiving(tx, returnId);
  const [line] = await tx.query<{
    iccid: string;
    received: boolean;
    flag: string | null;
    disposition: SimDisposition | null;
  }>(
    `SELECT iccid, received_at IS NOT NULL AS received, flag, disposition
     FROM sim_return_lines WHERE id = $1 AND sim_return_id = $2`,
    [lineId, returnId],
  );
  if (!line) throw new NotFoundError(`SIM return ${found.number} has no line ${lineId}.`);
  if (!line.received) throw new ConflictError(`${line.iccid} has not been received yet.`);
  if (line.flag) {
    throw new ConflictError(`${line.iccid} was set aside, not received: it takes no disposition.`);
  }
  if (line.disposition) {
    throw new ConflictError(
      `${line.iccid} has its disposition already: ${SIM_DISPOSITION_TEXT[line.disposition].toLowerCase()}.`,
    );
  }
  const waiting = await tx.query<WaitingLine>(`${WAITING_LINES} AND l.id = $2`, [returnId, lineId]);
  await dispose(tx, acting, found, waiting, input.disposition, input.reason);
  return simReturnDetail(tx, returnId);
}

/**
 * Every received SIM still waiting gets a disposition: those never detected active one, those
 * ever active another (never a restock); a kind given none waits. One transaction.
 */
export async function disposeAll(
  tx: Transaction,
  acting: Acting,
  returnId: number,
  input: SimBulkDispositionInput,
): Promise<SimReturnDetail> {
  const { never_active: neverActive, ever_active: everActive } = input;
  if (!neverActive && !everActive) {
    throw fieldError('never_active', 'Choose what happens to the SIMs waiting.');
  }
  const found = await lockReceiving(tx, returnId);
  const waiting = await tx.query<WaitingLine>(`${WAITING_LINES} ORDER BY l.id`, [returnId]);
  if (neverActive) {
    const lines = waiting.filter((line) => !line.ever_active);
    await dispose(tx, acting, found, lines, neverActive, input.reason);
  }
  if (everActive) {
    const lines = waiting.filter((line) => line.ever_active);
    await dispose(tx, acting, found, lines, everActive, input.reason);
  }
  return simReturnDetail(tx, returnId);
}

/** Closes a return once every SIM received has its disposition (409 says how many wait). */
export async function closeSimReturn(
  tx: Transaction,
  acting: Acting,
  returnId: number,
): Promise<SimReturnDetail> {
  const found = await lockReturn(tx, returnId);
  const [waiting] = await tx.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM (${WAITING_LINES}) w`,
    [returnId],
  );
  if (found.status === 'receiving' && waiting!.count > 0) {
    throw new ConflictError(
      `${waiting!.count} SIM${waiting!.count === 1 ? '' : 's'} of ${found.number} ` +
        `${waiting!.count === 1 ? 'waits' : 'wait'} for a disposition: give each one before closing.`,
    );
  }
  await runTransition(tx, simReturnLifecycleStore, {
    id: returnId,
    action: 'close',
    actor: acting.actor,
    meta: acting.meta,
    columns: { closed_by: acting.actor.userId },
  });
  return simReturnDetail(tx, returnId);
}

/** Cancels a return nothing was scanned into (an open one). */
export async function cancelSimReturn(
  tx: Transaction,
  acting: Acting,
  returnId: number,
  reason: string | null | undefined,
): Promise<SimReturnDetail> {
  await runTransition(tx, simReturnLifecycleStore, {
    id: returnId,
    action: 'cancel',
    actor: acting.actor,
    meta: acting.meta,
    reason,
  });
  return simReturnDetail(tx, returnId);
}

/** The return label: its number as a barcode, who sends it, why, and how many SIMs. */
export async function simReturnLabel(db: Queryable, id: number): Promise<LabelContent> {
  const [row] = await db.query<{
    number: string;
    source: string;
    reason: string;
    qty_expected: number;
    agent: string | null;
    rep_id: string | null;
    territory: string | null;
    phone: string | null;
    created_on: string;
  }>(
    `SELECT r.number, r.source, r.reason, r.qty_expected, u.name AS agent, u.rep_id, u.territory,
       u.phone, to_char(r.created_at, 'YYYY-MM-DD') AS created_on
     FROM sim_returns r LEFT JOIN users u ON u.id = r.agent_id WHERE r.id = $1`,
    [id],
  );
  if (!row) throw notFound(id);
  const from = row.agent ? `From: ${row.agent}` : `From: ${row.source.toUpperCase()} return`;
  return {
    fileName: row.number,
    labels: [
      {
        barcode: row.number,
        title: row.number,
        lines: [
          'SIM RETURN - to the SIM returns desk',
          from,
          row.rep_id ? `Rep ID: ${row.rep_id}` : '',
          row.territory ? `Territory: ${row.territory}` : '',
          row.phone ? `Phone: ${row.phone}` : '',
          `Reason: ${row.reason}`,
          `SIMs inside: ${row.qty_expected || 'not listed'}`,
          `Created ${row.created_on}`,
        ].filter(Boolean),
      },
    ],
  };
}
