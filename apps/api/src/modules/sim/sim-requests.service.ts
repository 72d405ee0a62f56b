import {
  canAccess,
  nextStatus,
  parseIccid,
  SIM_REQUEST_LOW_RATE_ACCESS,
  simRequestLifecycle,
  type SimAllocationAnswer,
  type SimAllocationResult,
  type SimRequestDetail,
  type SimRequestEvent,
  type SimRequestRow,
  type SimRequestSim,
  type SimRequestStatus,
  type SimStatus,
} from '@inventory/contract';
import type { Queryable, Transaction } from '../../db/db.js';
import {
  ConflictError,
  fieldError,
  ForbiddenError,
  NotFoundError,
  ValidationError,
} from '../../http/errors.js';
import { accessSubjectOf, type Acting } from '../../http/principal.js';
import { isoTextSql } from '../../http/sql.js';
import { runTransition, runTransitions } from '../../toolkit/lifecycle.js';
import { simRequestStore, simStore } from './sim-lifecycle.js';

/**
 * SIM requests as the coordinator works them (DOMAIN.md 4.6 `/sim/request`): approval within the
 * agent's cap, the low-activation-rate rule, allocation by scanning packs or ICCIDs, packing and
 * shipping. Every state change runs through `simRequestStore` and `simStore`; what decides a race
 * is a lock: the agent's user row for approvals (two approvals of one agent wait for each other),
 * the request row then its SIMs in id order for allocation scans.
 */

/** States in which an agent holds a SIM (on hand, counted against the cap). */
const ON_HAND = `('with_agent', 'assigned')`;

/** The agent's figures beside a request: on hand, cap, activations and SIMs received. */
const agentFiguresSql = (agent: string) => `
  (SELECT count(*)::int FROM sim_cards c WHERE c.agent_id = ${agent} AND c.status IN ${ON_HAND})
    AS agent_on_hand,
  (SELECT u.sim_cap FROM users u WHERE u.id = ${agent}) AS agent_sim_cap,
  (SELECT count(*)::int FROM sim_cards c WHERE c.activated_agent_id = ${agent}) AS agent_activated,
  (SELECT count(*)::int FROM agent_sim_ledger l WHERE l.agent_id = ${agent} AND l.entry = 'received')
    AS agent_received`;

/** A request's row as the queue shows it, over `sim_requests r`. */
export const SIM_REQUEST_ROW_COLUMNS = `r.id, r.number, r.agent_id,
  (SELECT u.name FROM users u WHERE u.id = r.agent_id) AS agent_name,
  r.client_carrier_id, (SELECT v.name FROM vendors v WHERE v.id = r.client_carrier_id) AS client_carrier,
  r.qty_requested, r.qty_approved,
  (SELECT count(*)::int FROM sim_cards c WHERE c.sim_request_id = r.id
     AND c.status IN ('allocated', 'in_transit')) AS qty_allocated,
  ${agentFiguresSql('r.agent_id')},
  (SELECT round(count(*)::numeric / NULLIF((SELECT count(*) FROM agent_sim_ledger l
            WHERE l.agent_id = r.agent_id AND l.entry = 'received'), 0), 3)::float8
   FROM sim_cards c WHERE c.activated_agent_id = r.agent_id) AS agent_activation_rate,
  r.delivery, r.ship_to, r.note, r.status, r.reason, r.rate_override, r.tracking_number,
  r.qty_received, r.qty_missing, ${isoTextSql('r.created_at')} AS created_at,
  ${isoTextSql('r.approved_at')} AS approved_at, ${isoTextSql('r.shipped_at')} AS shipped_at,
  ${isoTextSql('r.received_at')} AS received_at`;

type AgentFigures = {
  name: string;
  sim_cap: number | null;
  on_hand: number;
  /** Approved, packed, or on the way in shipped requests (and, for the agent, asked for). */
  committed: number;
  activated: number;
  received: number;
};

/**
 * An agent's SIMs against the cap, besides the request `exceptId`: held now, and committed in
 * other requests: the approved quantity of approved and packed ones, the SIMs still in transit of
 * shipped ones and, with `withSubmitted`, what submitted ones ask for.
 */
export async function agentSimFigures(
  db: Queryable,
  agentId: number,
  options: { exceptId?: number | null; withSubmitted: boolean },
): Promise<AgentFigures> {
  const [figures] = await db.query<AgentFigures>(
    `SELECT u.name, u.sim_cap,
       (SELECT count(*)::int FROM sim_cards c WHERE c.agent_id = u.id AND c.status IN ${ON_HAND})
         AS on_hand,
       (SELECT COALESCE(sum(CASE
            WHEN r.status IN ('approved', 'packed') THEN r.qty_approved
            WHEN r.status = 'submitted' THEN r.qty_requested
            ELSE (SELECT count(*) FROM sim_cards c
                  WHERE c.sim_request_id = r.id AND c.status = 'in_transit') END), 0)::int
        FROM sim_requests r
        WHERE r.agent_id = u.id AND r.id <> $2 AND r.status = ANY ($3::text[])) AS committed,
       (SELECT count(*)::int FROM sim_cards c WHERE c.activated_agent_id = u.id) AS activated,
       (SELECT count(*)::int FROM agent_sim_ledger l WHERE l.agent_id = u.id AND l.entry = 'received')
         AS received
     FROM users u WHERE u.id = $1`,
    [
      agentId,
      options.exceptId ?? 0,
      ['approved', 'packed', 'shipped', ...(options.withSubmitted ? ['submitted'] : [])],
    ],
  );
  if (!figures) throw new NotFoundError(`There is no agent with id ${agentId}.`);
  return figures;
}

type RateRule = { low_activation_rate: number; rate_minimum_received: number };

const rateRule = async (db: Queryable): Promise<RateRule> =>
  (
    await db.query<RateRule>(
      `SELECT low_activation_rate::float8 AS low_activation_rate, rate_minimum_received
       FROM sim_settings`,
    )
  )[0]!;

/** Low: once the agent received the minimum, activations over receipts under the setting. */
const isLowRate = (figures: Pick<AgentFigures, 'activated' | 'received'>, rule: RateRule) =>
  figures.received > 0 &&
  figures.received >= rule.rate_minimum_received &&
  figures.activated / figures.received < rule.low_activation_rate;

const percent = (rate: number) => `${Math.round(rate * 1000) / 10}%`;

/** One request as the queue shows it, with its SIMs, timeline and the agent's figures. */
export async function simRequestDetail(db: Queryable, id: number): Promise<SimRequestDetail> {
  const [row] = await db.query<SimRequestRow & { approved_by_name: string | null }>(
    `SELECT ${SIM_REQUEST_ROW_COLUMNS},
       (SELECT u.name FROM users u WHERE u.id = r.approved_by) AS approved_by_name
     FROM sim_requests r WHERE r.id = $1`,
    [id],
  );
  if (!row) throw new NotFoundError(`There is no SIM request with id ${id}.`);
  const [figures, rule, sims, events] = await Promise.all([
    agentSimFigures(db, row.agent_id, { exceptId: id, withSubmitted: false }),
    rateRule(db),
    requestSims(db, id),
    db.query<SimRequestEvent>(
      `SELECT id, ${isoTextSql('at')} AS at, actor_name, type, from_status, to_status, data
       FROM sim_request_events WHERE sim_request_id = $1 ORDER BY id DESC`,
      [id],
    ),
  ]);
  const missing = events.find((event) => event.type === 'missing_reported');
  const missingIccids = (missing?.data?.['iccids'] as string[] | undefined) ?? [];
  return {
    ...row,
    agent_committed: figures.committed,
    low_activation_rate: rule.low_activation_rate,
    low_rate: isLowRate(figures, rule),
    sims,
    missing_iccids: missingIccids,
    events,
  };
}

/** The SIMs a request holds or held, by pack and ICCID. */
export const requestSims = (db: Queryable, requestId: number) =>
  db.query<SimRequestSim>(
    `SELECT c.id, c.iccid, p.code AS pack_code, c.status
     FROM sim_cards c LEFT JOIN sim_packs p ON p.id = c.sim_pack_id
     WHERE c.sim_request_id = $1 ORDER BY p.code NULLS LAST, c.iccid`,
    [requestId],
  );

type LockedRequest = {
  id: number;
  number: string;
  agent_id: number;
  client_carrier_id: number;
  qty_requested: number;
  qty_approved: number | null;
  status: SimRequestStatus;
  delivery: 'ship' | 'pickup';
};

/** Locks a request's row: scans, packing and shipping of one request wait for each other. */
async function lockRequest(tx: Transaction, id: number): Promise<LockedRequest> {
  const [request] = await tx.query<LockedRequest>(
    `SELECT id, number, agent_id, client_carrier_id, qty_requested, qty_approved, status, delivery
     FROM sim_requests WHERE id = $1 FOR UPDATE`,
    [id],
  );
  if (!request) throw new NotFoundError(`There is no SIM request with id ${id}.`);
  return request;
}

/**
 * Approves a submitted request, the quantity perhaps reduced. The agent's user row is locked
 * first, so that two approvals for one agent count each other's quantity: the agent's on hand
 * plus what other approved, packed or shipped requests commit plus this one never passes the cap.
 * A low activation rate needs sim-requests.approve-low-rate, and the approval says so.
 */
export async function approveSimRequest(
  tx: Transaction,
  acting: Acting,
  id: number,
  qtyApproved: number,
): Promise<SimRequestDetail> {
  const [found] = await tx.query<{ agent_id: number }>(
    `SELECT agent_id FROM sim_requests WHERE id = $1`,
    [id],
  );
  if (!found) throw new NotFoundError(`There is no SIM request with id ${id}.`);
  await tx.query(`SELECT id FROM users WHERE id = $1 FOR UPDATE`, [found.agent_id]);
  const request = await lockRequest(tx, id);
  const step = nextStatus(simRequestLifecycle, request, 'approve');
  if (!step.ok) throw new ConflictError(`${request.number}: ${step.message}`);
  if (qtyApproved > request.qty_requested) {
    throw fieldError(
      'qty_approved',
      `At most the ${request.qty_requested} SIMs requested can be approved.`,
    );
  }
  const figures = await agentSimFigures(tx, request.agent_id, {
    exceptId: id,
    withSubmitted: false,
  });
  if (figures.sim_cap === null) {
    throw fieldError(
      'qty_approved',
      `${figures.name} has no SIM cap: set one on the user's record before approving.`,
    );
  }
  const maximum = Math.max(figures.sim_cap - figures.on_hand - figures.committed, 0);
  if (qtyApproved > maximum) {
    throw fieldError(
      'qty_approved',
      `${figures.name} has ${figures.on_hand} on hand and ${figures.committed} in other requests; ` +
        `the cap is ${figures.sim_cap}: at most ${maximum} can be approved.`,
    );
  }
  const rule = await rateRule(tx);
  const low = isLowRate(figures, rule);
  if (low && !canAccess(accessSubjectOf(acting.actor), SIM_REQUEST_LOW_RATE_ACCESS)) {
    throw new ForbiddenError(
      SIM_REQUEST_LOW_RATE_ACCESS,
      `${figures.name}'s activation rate is ${percent(figures.activated / figures.received)} ` +
        `(${figures.activated} activated of ${figures.received} received), under ` +
        `${percent(rule.low_activation_rate)}: a manager approves this request.`,
    );
  }
  await runTransition(tx, simRequestStore, {
    id,
    action: 'approve',
    ...acting,
    columns: { qty_approved: qtyApproved, approved_by: acting.actor.userId, rate_override: low },
    data: {
      qty_approved: qtyApproved,
      on_hand: figures.on_hand,
      committed: figures.committed,
      sim_cap: figures.sim_cap,
      ...(low && { rate_override: true }),
    },
  });
  return simRequestDetail(tx, id);
}

/** Rejects a submitted or approved request with the reason; its allocated SIMs go back to stock. */
export async function rejectSimRequest(
  tx: Transaction,
  acting: Acting,
  id: number,
  reason: string,
): Promise<SimRequestDetail> {
  const request = await lockRequest(tx, id);
  const step = nextStatus(simRequestLifecycle, request, 'reject');
  if (!step.ok) throw new ConflictError(`${request.number}: ${step.message}`);
  await unallocateAll(tx, acting, request);
  await runTransition(tx, simRequestStore, {
    id,
    action: 'reject',
    reason,
    ...acting,
    columns: { reason: reason.trim() },
  });
  return simRequestDetail(tx, id);
}

async function unallocateAll(tx: Transaction, acting: Acting, request: LockedRequest) {
  const allocated = await tx.query<{ id: number }>(
    `SELECT id FROM sim_cards WHERE sim_request_id = $1 AND status = 'allocated' ORDER BY id`,
    [request.id],
  );
  await runTransitions(tx, simStore, {
    ids: allocated.map((sim) => sim.id),
    action: 'unallocate',
    ...acting,
    data: { request: request.number },
  });
}

type ScannedSim = {
  id: number;
  iccid: string;
  status: SimStatus;
  client_carrier_id: number;
  sim_request_id: number | null;
  request_number: string | null;
  pack_code: string | null;
};

/** The SIMs of a pack or the one SIM of an ICCID, locked in id order, with their request. */
export async function lockScannedSims(
  tx: Transaction,
  code: string,
): Promise<{ kind: 'pack' | 'iccid'; code: string; sims: ScannedSim[] } | { error: string }> {
  const pack = /^SP-?\d+$/i.test(code.trim());
  let key: string;
  if (pack) {
    key = code.trim().toUpperCase().replace(/^SP-?/, 'SP-');
  } else {
    const parsed = parseIccid(code);
    if (!parsed.ok) return { error: parsed.message };
    key = parsed.value.iccid;
  }
  // The lock first, the request numbers after: a row locked after waiting is read again as the
  // other transaction left it, but rows joined to it in the same statement are not.
  const locked = await tx.query<Omit<ScannedSim, 'request_number'>>(
    `SELECT c.id, c.iccid, c.status, c.client_carrier_id, c.sim_request_id,
       (SELECT p.code FROM sim_packs p WHERE p.id = c.sim_pack_id) AS pack_code
     FROM sim_cards c
     WHERE ${pack ? 'c.sim_pack_id = (SELECT id FROM sim_packs WHERE code = $1)' : 'c.iccid = $1'}
     ORDER BY c.id FOR UPDATE`,
    [key],
  );
  const requestIds = [...new Set(locked.flatMap((sim) => sim.sim_request_id ?? []))];
  const numbers = new Map(
    requestIds.length === 0
      ? []
      : (
          await tx.query<{ id: number; number: string }>(
            `SELECT id, number FROM sim_requests WHERE id = ANY ($1::bigint[])`,
            [requestIds],
          )
        ).map((request) => [request.id, request.number]),
  );
  const sims = locked.map((sim) => ({
    ...sim,
    request_number: sim.sim_request_id === null ? null : (numbers.get(sim.sim_request_id) ?? null),
  }));
  return { kind: pack ? 'pack' : 'iccid', code: key, sims };
}

const carrierName = async (db: Queryable, id: number) =>
  (await db.query<{ name: string }>(`SELECT name FROM vendors WHERE id = $1`, [id]))[0]?.name ??
  `carrier ${id}`;

/**
 * One scan at the allocation station: a pack label allocates the pack's SIMs in stock, an ICCID
 * its SIM, to an approved request of the same carrier, never past the approved quantity. The
 * request is locked, then the SIMs in id order, so two stations allocating one pack to two
 * requests leave every SIM with one of them; the other hears which request holds it. A repeated
 * scan answers "already allocated to this request" (invariant 7).
 */
export async function allocationScan(
  tx: Transaction,
  acting: Acting,
  id: number,
  code: string,
  station: string | null,
): Promise<SimAllocationAnswer> {
  const request = await lockRequest(tx, id);
  if (request.status !== 'approved') {
    throw new ConflictError(
      request.status === 'packed'
        ? `${request.number} is packed: open it again to change its SIMs.`
        : `${request.number} is ${request.status}: only an approved request takes SIMs.`,
    );
  }
  const approved = request.qty_approved!;
  const [{ allocated }] = (await tx.query<{ allocated: number }>(
    `SELECT count(*)::int AS allocated FROM sim_cards
     WHERE sim_request_id = $1 AND status = 'allocated'`,
    [id],
  )) as [{ allocated: number }];
  const answer = (
    result: SimAllocationResult,
    message: string,
    added: SimRequestSim[] = [],
    shown = code,
  ): SimAllocationAnswer => ({
    code: shown,
    result,
    message,
    added,
    qty_allocated: allocated + added.length,
    qty_approved: approved,
  });

  const scanned = await lockScannedSims(tx, code);
  if ('error' in scanned) return answer('invalid', scanned.error);
  const { sims, kind } = scanned;
  const what = kind === 'pack' ? `Pack ${scanned.code}` : `ICCID ${scanned.code}`;
  if (sims.length === 0) {
    return answer(
      'unknown',
      kind === 'pack' ? `There is no pack ${scanned.code}.` : `No SIM has ICCID ${scanned.code}.`,
      [],
      scanned.code,
    );
  }
  const inStock = sims.filter((sim) => sim.status === 'in_stock');
  const ours = sims.filter((sim) => sim.sim_request_id === id && sim.status === 'allocated');
  if (inStock.length === 0) {
    if (ours.length > 0) {
      return answer(
        'already_allocated',
        kind === 'pack'
          ? `${what} is allocated to this request already (${ours.length} SIMs).`
          : `${what} is allocated to this request already.`,
        [],
        scanned.code,
      );
    }
    const holders = [
      ...new Set(
        sims
          .filter((sim) => sim.sim_request_id !== null && sim.request_number !== null)
          .map((sim) => sim.request_number!),
      ),
    ];
    if (holders.length > 0) {
      return answer(
        'other_request',
        `${what} is allocated to ${holders.join(', ')}, not to ${request.number}.`,
        [],
        scanned.code,
      );
    }
    const states = [...new Set(sims.map((sim) => sim.status.replaceAll('_', ' ')))].join(', ');
    return answer(
      'not_in_stock',
      `${what} is not in stock (${states}): only SIMs in stock are allocated.`,
      [],
      scanned.code,
    );
  }
  const otherCarrier = inStock.find((sim) => sim.client_carrier_id !== request.client_carrier_id);
  if (otherCarrier) {
    const [theirs, wanted] = await Promise.all([
      carrierName(tx, otherCarrier.client_carrier_id),
      carrierName(tx, request.client_carrier_id),
    ]);
    return answer(
      'wrong_carrier',
      `${what} is ${theirs}'s; ${request.number} asks for ${wanted} SIMs.`,
      [],
      scanned.code,
    );
  }
  const left = approved - allocated;
  if (inStock.length > left) {
    return answer(
      'over_approved',
      left === 0
        ? `${request.number} has its ${approved} SIMs: pack it, or take one off first.`
        : `${what} has ${inStock.length} SIMs in stock but ${request.number} takes ${left} more ` +
            `(${approved} approved): scan single ICCIDs.`,
      [],
      scanned.code,
    );
  }
  await runTransitions(tx, simStore, {
    ids: inStock.map((sim) => sim.id),
    action: 'allocate',
    ...acting,
    columns: { sim_request_id: id },
    data: { request: request.number, ...(station && { station }) },
  });
  const added = inStock.map((sim) => ({
    id: sim.id,
    iccid: sim.iccid,
    pack_code: sim.pack_code,
    status: 'allocated' as const,
  }));
  return answer(
    'allocated',
    kind === 'pack'
      ? `${what}: ${added.length} SIMs allocated to ${request.number}.`
      : `${what} is allocated to ${request.number}.`,
    added,
    scanned.code,
  );
}

/** Takes an allocated SIM off an approved request: it goes back to stock. */
export async function unallocateSim(
  tx: Transaction,
  acting: Acting,
  id: number,
  code: string,
): Promise<SimRequestDetail> {
  const request = await lockRequest(tx, id);
  if (request.status !== 'approved') {
    throw new ConflictError(
      `${request.number} is ${request.status}: SIMs come off an approved request only` +
        `${request.status === 'packed' ? '; open it again first' : ''}.`,
    );
  }
  const parsed = parseIccid(code);
  if (!parsed.ok) throw fieldError('iccid', parsed.message);
  const [sim] = await tx.query<{ id: number }>(
    `SELECT id FROM sim_cards WHERE iccid = $1 AND sim_request_id = $2 AND status = 'allocated'`,
    [parsed.value.iccid, id],
  );
  if (!sim) {
    throw new NotFoundError(`ICCID ${parsed.value.iccid} is not allocated to ${request.number}.`);
  }
  await runTransition(tx, simStore, {
    id: sim.id,
    action: 'unallocate',
    ...acting,
    data: { request: request.number },
  });
  return simRequestDetail(tx, id);
}

/** Packed once the allocated SIMs make the approved quantity; unpacked to change them. */
export async function packSimRequest(
  tx: Transaction,
  acting: Acting,
  id: number,
  action: 'pack' | 'unpack',
): Promise<SimRequestDetail> {
  const request = await lockRequest(tx, id);
  if (action === 'pack' && request.status === 'approved') {
    const [{ allocated }] = (await tx.query<{ allocated: number }>(
      `SELECT count(*)::int AS allocated FROM sim_cards
       WHERE sim_request_id = $1 AND status = 'allocated'`,
      [id],
    )) as [{ allocated: number }];
    if (allocated !== request.qty_approved) {
      throw new ConflictError(
        `${request.number} has ${allocated} of ${request.qty_approved} SIMs allocated: ` +
          `it is packed when they match.`,
      );
    }
  }
  await runTransition(tx, simRequestStore, { id, action, ...acting });
  return simRequestDetail(tx, id);
}

/**
 * Ships a packed request (with its tracking number, if any) or hands it over at pickup (none):
 * its SIMs go in transit to the agent, who confirms their receipt.
 */
export async function shipSimRequest(
  tx: Transaction,
  acting: Acting,
  id: number,
  trackingNumber: string | null,
): Promise<SimRequestDetail> {
  const request = await lockRequest(tx, id);
  if (request.delivery === 'pickup' && trackingNumber) {
    throw new ValidationError({
      tracking_number: ['A request picked up has no tracking number: hand it over without one.'],
    });
  }
  const step = nextStatus(simRequestLifecycle, request, 'ship');
  if (!step.ok) throw new ConflictError(`${request.number}: ${step.message}`);
  const allocated = await tx.query<{ id: number }>(
    `SELECT id FROM sim_cards WHERE sim_request_id = $1 AND status = 'allocated' ORDER BY id`,
    [id],
  );
  await runTransitions(tx, simStore, {
    ids: allocated.map((sim) => sim.id),
    action: 'ship',
    ...acting,
    data: { request: request.number, delivery: request.delivery },
  });
  await runTransition(tx, simRequestStore, {
    id,
    action: 'ship',
    ...acting,
    columns: { tracking_number: trackingNumber },
    data: {
      delivery: request.delivery,
      sims: allocated.length,
      ...(trackingNumber && { tracking_number: trackingNumber }),
    },
  });
  return simRequestDetail(tx, id);
}
