import {
  nextStatus,
  simRequestLifecycle,
  type AgentReceiveAnswer,
  type AgentReceiveResult,
  type AgentSimRequest,
  type AgentSimRequestDetail,
  type AgentSimRequestOverview,
  type CreateAgentSimRequestInput,
  type SimRequestStatus,
} from '@inventory/contract';
import type { Queryable, Transaction } from '../../db/db.js';
import { ConflictError, fieldError, NotFoundError } from '../../http/errors.js';
import type { Acting } from '../../http/principal.js';
import { isoTextSql } from '../../http/sql.js';
import { runTransition, runTransitions } from '../../toolkit/lifecycle.js';
import { auditActor, recordAudit } from '../audit/index.js';
import {
  agentSimFigures,
  lockScannedSims,
  requestSims,
  simRequestStore,
  simStore,
} from '../sim/index.js';

/**
 * The agent portal's requests and receipts (DOMAIN.md 7): every statement reads the signed-in
 * agent's own requests (`agent_id = the caller`), so another agent's request is not found (404).
 * The agent's user row is locked before a request is made, so two requests of one agent at once
 * count each other against the cap; one open request per carrier is the database's unique index.
 */

const AGENT_REQUEST_COLUMNS = `r.id, r.number, r.client_carrier_id,
  (SELECT v.name FROM vendors v WHERE v.id = r.client_carrier_id) AS client_carrier,
  r.qty_requested, r.qty_approved, r.delivery, r.ship_to, r.note, r.status, r.reason,
  r.tracking_number, r.qty_received, r.qty_missing, ${isoTextSql('r.created_at')} AS created_at,
  ${isoTextSql('r.shipped_at')} AS shipped_at, ${isoTextSql('r.received_at')} AS received_at`;

/** The client carriers an agent may ask SIMs of. */
const CARRIERS = `SELECT id, name AS label FROM vendors
  WHERE type = 'carrier-client' AND active ORDER BY lower(name), id`;

/** One of the agent's requests; 404 when there is none of theirs with the id. */
async function ownRequest(db: Queryable, agentId: number, id: number): Promise<AgentSimRequest> {
  const [request] = await db.query<AgentSimRequest>(
    `SELECT ${AGENT_REQUEST_COLUMNS} FROM sim_requests r WHERE r.id = $1 AND r.agent_id = $2`,
    [id, agentId],
  );
  if (!request) throw new NotFoundError(`You have no SIM request with id ${id}.`);
  return request;
}

/** What the agent's request page shows: cap, on hand, committed, carriers and requests. */
export async function agentRequestOverview(
  db: Queryable,
  agentId: number,
): Promise<AgentSimRequestOverview> {
  const [figures, carriers, requests] = await Promise.all([
    agentSimFigures(db, agentId, { withSubmitted: true }),
    db.query<{ id: number; label: string }>(CARRIERS),
    db.query<AgentSimRequest>(
      `SELECT ${AGENT_REQUEST_COLUMNS} FROM sim_requests r WHERE r.agent_id = $1
       ORDER BY r.created_at DESC, r.id DESC LIMIT 100`,
      [agentId],
    ),
  ]);
  return {
    sim_cap: figures.sim_cap,
    on_hand: figures.on_hand,
    committed: figures.committed,
    available: Math.max((figures.sim_cap ?? 0) - figures.on_hand - figures.committed, 0),
    carriers,
    requests,
  };
}

/**
 * An agent's request for SIMs of a carrier: refused (422) when what the agent holds, what open
 * requests commit and this one pass the cap, and (409) when the agent has an open request for the
 * carrier already. The ship-to is required to ship.
 */
export async function createAgentRequest(
  tx: Transaction,
  acting: Acting,
  input: CreateAgentSimRequestInput,
): Promise<AgentSimRequest> {
  const agentId = acting.actor.userId!;
  await tx.query(`SELECT id FROM users WHERE id = $1 FOR UPDATE`, [agentId]);
  const [carrier] = await tx.query<{ name: string }>(
    `SELECT name FROM vendors WHERE id = $1 AND type = 'carrier-client' AND active`,
    [input.client_carrier_id],
  );
  if (!carrier) throw fieldError('client_carrier_id', 'Choose a carrier from the list.');
  const shipTo = input.ship_to?.trim() || null;
  if (input.delivery === 'ship' && !shipTo) {
    throw fieldError('ship_to', 'Enter the address to ship to, or choose pickup.');
  }
  const figures = await agentSimFigures(tx, agentId, { withSubmitted: true });
  if (figures.sim_cap === null) {
    throw fieldError('qty', 'Your SIM cap is not set yet: ask your coordinator to set it.');
  }
  const maximum = Math.max(figures.sim_cap - figures.on_hand - figures.committed, 0);
  if (input.qty > maximum) {
    throw fieldError(
      'qty',
      `You hold ${figures.on_hand} SIMs and ${figures.committed} are in open requests; your cap is ` +
        `${figures.sim_cap}: you may request at most ${maximum}.`,
    );
  }
  // One open request per carrier: the unique index decides, even between two phones at once.
  const [created] = await tx.query<{ id: number; number: string }>(
    `INSERT INTO sim_requests (number, agent_id, client_carrier_id, qty_requested, delivery,
                               ship_to, note)
     VALUES ('SR-' || lpad(nextval('sim_request_numbers')::text, 6, '0'), $1, $2, $3, $4, $5, $6)
     ON CONFLICT (agent_id, client_carrier_id) WHERE status IN ('submitted', 'approved', 'packed')
     DO NOTHING
     RETURNING id, number`,
    [agentId, input.client_carrier_id, input.qty, input.delivery, shipTo, input.note ?? null],
  );
  if (!created) {
    const [open] = await tx.query<{ number: string; status: string }>(
      `SELECT number, status FROM sim_requests WHERE agent_id = $1 AND client_carrier_id = $2
         AND status IN ('submitted', 'approved', 'packed')`,
      [agentId, input.client_carrier_id],
    );
    throw new ConflictError(
      `You have an open request for ${carrier.name} already` +
        `${open ? ` (${open.number}, ${open.status})` : ''}: one open request per carrier. ` +
        `Cancel it while it is submitted, or wait until it is shipped.`,
    );
  }
  const data = {
    qty_requested: input.qty,
    client_carrier: carrier.name,
    delivery: input.delivery,
  };
  await tx.query(
    `INSERT INTO sim_request_events (sim_request_id, actor_id, actor_name, type, to_status, data)
     VALUES ($1, $2, $3, 'submitted', 'submitted', $4::jsonb)`,
    [created.id, agentId, acting.actor.userName, JSON.stringify(data)],
  );
  await recordAudit(tx, {
    ...auditActor(acting.actor, acting.meta),
    action: 'SIM request.submitted',
    entityType: 'SIM request',
    entityId: created.id,
    after: { number: created.number, status: 'submitted', ...data },
  });
  return ownRequest(tx, agentId, created.id);
}

/** Cancels one of the agent's requests still submitted. */
export async function cancelAgentRequest(
  tx: Transaction,
  acting: Acting,
  id: number,
  reason: string | null,
): Promise<AgentSimRequest> {
  const agentId = acting.actor.userId!;
  await ownRequest(tx, agentId, id);
  await runTransition(tx, simRequestStore, {
    id,
    action: 'cancel',
    reason,
    ...acting,
    columns: { reason: reason?.trim() || null },
  });
  return ownRequest(tx, agentId, id);
}

/** The agent's shipped requests, waiting to be received. */
export const incomingShipments = (db: Queryable, agentId: number) =>
  db.query<AgentSimRequest>(
    `SELECT ${AGENT_REQUEST_COLUMNS} FROM sim_requests r
     WHERE r.agent_id = $1 AND r.status = 'shipped' ORDER BY r.shipped_at, r.id`,
    [agentId],
  );

/** SIMs received of a request so far: the agent's ledger has them. */
const scannedCount = async (db: Queryable, agentId: number, id: number) =>
  (
    await db.query<{ scanned: number }>(
      `SELECT count(*)::int AS scanned FROM agent_sim_ledger
       WHERE agent_id = $1 AND sim_request_id = $2 AND entry = 'received'`,
      [agentId, id],
    )
  )[0]!.scanned;

/** SIMs a request carried: all its approved SIMs once shipped (it was packed when they matched). */
const shippedCount = (request: Pick<AgentSimRequest, 'status' | 'qty_approved'>) =>
  request.status === 'shipped' || request.status === 'received' ? (request.qty_approved ?? 0) : 0;

/** One of the agent's requests with its SIMs, to receive. */
export async function agentShipment(
  db: Queryable,
  agentId: number,
  id: number,
): Promise<AgentSimRequestDetail> {
  const request = await ownRequest(db, agentId, id);
  const [sims, scanned] = await Promise.all([requestSims(db, id), scannedCount(db, agentId, id)]);
  return { ...request, qty_shipped: shippedCount(request), qty_scanned: scanned, sims };
}

type LockedOwnRequest = {
  id: number;
  number: string;
  status: SimRequestStatus;
  qty_approved: number | null;
};

/** Locks one of the agent's requests (404 when not theirs), which must be shipped (409). */
async function lockShipment(tx: Transaction, agentId: number, id: number) {
  const [request] = await tx.query<LockedOwnRequest>(
    `SELECT id, number, status, qty_approved FROM sim_requests
     WHERE id = $1 AND agent_id = $2 FOR UPDATE`,
    [id, agentId],
  );
  if (!request) throw new NotFoundError(`You have no SIM request with id ${id}.`);
  return request;
}

/**
 * One scan at the agent's receipt: a pack label receives the pack's SIMs on their way in this
 * request, an ICCID its SIM; each goes in transit → with the agent (the SIM store writes the
 * agent's ledger). A repeated scan answers "already received"; a SIM of another of the agent's
 * requests or not the agent's at all is refused with words.
 */
export async function agentReceiveScan(
  tx: Transaction,
  acting: Acting,
  id: number,
  code: string,
): Promise<AgentReceiveAnswer> {
  const agentId = acting.actor.userId!;
  const request = await lockShipment(tx, agentId, id);
  if (request.status !== 'shipped') {
    throw new ConflictError(
      `${request.number} is ${request.status}: only a shipped request is received.`,
    );
  }
  const scanned = await lockScannedSims(tx, code);
  const before = await scannedCount(tx, agentId, id);
  const answer = (
    result: AgentReceiveResult,
    message: string,
    received: string[] = [],
    shown = code,
  ): AgentReceiveAnswer => ({
    code: shown,
    result,
    message,
    received,
    qty_scanned: before + received.length,
    qty_shipped: request.qty_approved ?? 0,
  });
  if ('error' in scanned) return answer('invalid', scanned.error);
  const what = scanned.kind === 'pack' ? `Pack ${scanned.code}` : `ICCID ${scanned.code}`;
  const ours = scanned.sims.filter((sim) => sim.sim_request_id === id);
  const onTheWay = ours.filter((sim) => sim.status === 'in_transit');
  if (onTheWay.length > 0) {
    await runTransitions(tx, simStore, {
      ids: onTheWay.map((sim) => sim.id),
      action: 'receive',
      ...acting,
      data: { request: request.number },
    });
    return answer(
      'received',
      scanned.kind === 'pack'
        ? `${what}: ${onTheWay.length} SIMs received.`
        : `${what} is received.`,
      onTheWay.map((sim) => sim.iccid),
      scanned.code,
    );
  }
  if (ours.length > 0) {
    return answer('already_received', `${what} is received already.`, [], scanned.code);
  }
  if (scanned.sims.length === 0) {
    return answer(
      'unknown',
      `${what} is not known: check the code, or tell your coordinator.`,
      [],
      scanned.code,
    );
  }
  const [mine] = await tx.query<{ number: string }>(
    `SELECT number FROM sim_requests WHERE id = ANY ($1::bigint[]) AND agent_id = $2 LIMIT 1`,
    [scanned.sims.map((sim) => sim.sim_request_id).filter((other) => other !== null), agentId],
  );
  if (mine) {
    return answer(
      'other_request',
      `${what} belongs to your request ${mine.number}, not ${request.number}: receive it there.`,
      [],
      scanned.code,
    );
  }
  return answer(
    'not_yours',
    `${what} is not in this shipment nor yours: keep it apart and tell your coordinator.`,
    [],
    scanned.code,
  );
}

/**
 * Finishes receiving: the request is received with what arrived; the SIMs still in transit are
 * reported missing to the coordinator (an event with their ICCIDs, shown on /sim/request).
 */
export async function finishReceipt(
  tx: Transaction,
  acting: Acting,
  id: number,
): Promise<AgentSimRequestDetail> {
  const agentId = acting.actor.userId!;
  const request = await lockShipment(tx, agentId, id);
  const step = nextStatus(simRequestLifecycle, request, 'receive');
  if (!step.ok) throw new ConflictError(`${request.number}: ${step.message}`);
  const missing = await tx.query<{ iccid: string }>(
    `SELECT iccid FROM sim_cards WHERE sim_request_id = $1 AND status = 'in_transit' ORDER BY iccid`,
    [id],
  );
  const received = await scannedCount(tx, agentId, id);
  await runTransition(tx, simRequestStore, {
    id,
    action: 'receive',
    ...acting,
    columns: { qty_received: received, qty_missing: missing.length },
    data: { qty_received: received, qty_missing: missing.length },
  });
  if (missing.length > 0) {
    const iccids = missing.map((sim) => sim.iccid);
    await tx.query(
      `INSERT INTO sim_request_events (sim_request_id, actor_id, actor_name, type, data)
       VALUES ($1, $2, $3, 'missing_reported', $4::jsonb)`,
      [id, agentId, acting.actor.userName, JSON.stringify({ count: iccids.length, iccids })],
    );
    await recordAudit(tx, {
      ...auditActor(acting.actor, acting.meta),
      action: 'SIM request.missing_reported',
      entityType: 'SIM request',
      entityId: id,
      after: { count: iccids.length, iccids },
    });
  }
  return agentShipment(tx, agentId, id);
}
