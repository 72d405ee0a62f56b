import {
  canAccess,
  nextStatus,
  repairTicketLifecycle,
  STATION_ACCESS,
  TEST_ITEMS,
  type assignTicketSchema,
  type berSchema,
  type issuePartSchema,
  type partRequestSchema,
  type RepairTicketAction,
  type RepairTicketStatus,
  type repairTestInputSchema,
  type requestRepairSchema,
  type sortTicketSchema,
} from '@inventory/contract';
import type * as z from 'zod/mini';
import type { Transaction } from '../../db/db.js';
import { ConflictError, fieldError, NotFoundError } from '../../http/errors.js';
import { accessSubjectOf } from '../../http/principal.js';
import { applyDeviceAction } from '../devices/index.js';
import { adjustStock, consumeStock, type StockWriter } from '../stock/index.js';
import { REPAIR_WORKER_ROLE_KEY } from './repair-reads.js';
import { runTicketAction, writeDeviceRepairEvent } from './repair-tickets.store.js';
import { requestRepair } from './request-repair.js';

/**
 * The repair stations' writes (DOMAIN.md 4.19), each in one transaction with the ticket locked:
 * two people acting on one ticket at once take turns, and the second sees the first's step.
 */

type Locked = {
  id: number;
  number: string;
  status: RepairTicketStatus;
  device_id: number;
  technician_id: number | null;
  repaired_at: string | null;
};

async function lockTicket(tx: Transaction, id: number): Promise<Locked> {
  const [ticket] = await tx.query<Locked>(
    `SELECT id::int AS id, number, status, device_id::int AS device_id,
       technician_id::int AS technician_id, repaired_at::text AS repaired_at
     FROM repair_tickets WHERE id = $1 FOR UPDATE`,
    [id],
  );
  if (!ticket) throw new NotFoundError(`There is no repair ticket with id ${id}.`);
  return ticket;
}

/** Refuses (409) an action the ticket's state does not allow, before its side effects run. */
function assertCan(ticket: Locked, action: RepairTicketAction) {
  const next = nextStatus(repairTicketLifecycle, ticket, action);
  if (!next.ok) throw new ConflictError(`${ticket.number}: ${next.message}`);
}

/** A ticket's technician works it; the leader may act on any ticket. */
function assertWorks(ticket: Locked, { actor }: StockWriter) {
  if (ticket.technician_id === actor.userId) return;
  if (canAccess(accessSubjectOf(actor), STATION_ACCESS.repairLeader)) return;
  throw new ConflictError(`${ticket.number} is not assigned to you.`);
}

/** A fact on a ticket that is no step (a part issued, a note): on its timeline and its device's. */
async function recordTicketFact(
  tx: Transaction,
  { actor }: StockWriter,
  ticket: Locked,
  type: string,
  data: Record<string, unknown>,
) {
  await tx.query(
    `INSERT INTO repair_ticket_events (ticket_id, actor_id, actor_name, type, data)
     VALUES ($1, $2, $3, $4, $5::jsonb)`,
    [ticket.id, actor.userId, actor.userName, type, JSON.stringify(data)],
  );
  await writeDeviceRepairEvent(tx, actor, { ticketIds: [ticket.id], type, data });
}

const step = (
  tx: Transaction,
  { actor, meta }: StockWriter,
  id: number,
  action: RepairTicketAction,
  extra: {
    columns?: Record<string, unknown>;
    data?: Record<string, unknown>;
    reason?: string;
  } = {},
) => runTicketAction(tx, { id, action, actor, meta, ...extra });

/** The request page: a device by its IMEI, sent to repair by hand. */
export async function raiseRepairRequest(
  tx: Transaction,
  writer: StockWriter,
  input: z.output<typeof requestRepairSchema>,
) {
  const code = input.code.toUpperCase();
  const [device] = await tx.query<{ id: number }>(
    'SELECT id::int AS id FROM devices WHERE identifier = $1 OR imei2 = $1 LIMIT 1',
    [code],
  );
  if (!device) throw fieldError('code', `No device has the IMEI ${code}.`);
  return requestRepair(tx, writer, {
    deviceId: device.id,
    source: 'manual',
    issueCodes: input.issue_codes ?? [],
    note: input.note ?? null,
  });
}

export const sortTicket = (
  tx: Transaction,
  writer: StockWriter,
  id: number,
  input: z.output<typeof sortTicketSchema>,
) =>
  step(tx, writer, id, 'sort', {
    columns: {
      issue_codes: [...new Set(input.issue_codes)],
      priority: input.priority,
      estimated_cost_cents: input.estimated_cost_cents,
      resale_value_cents: input.resale_value_cents,
      ber_candidate: input.ber_candidate,
    },
    data: { ...input },
  });

export async function assignTicket(
  tx: Transaction,
  writer: StockWriter,
  id: number,
  input: z.output<typeof assignTicketSchema>,
) {
  const [technician] = await tx.query<{ id: number; name: string }>(
    `SELECT u.id::int AS id, u.name FROM users u
     WHERE u.id = $1 AND u.status = 'active' AND EXISTS (
       SELECT 1 FROM user_roles ur JOIN roles ro ON ro.id = ur.role_id
       WHERE ur.user_id = u.id AND ro.key = $2)`,
    [input.technician_id, REPAIR_WORKER_ROLE_KEY],
  );
  if (!technician) throw fieldError('technician_id', 'Choose an active repair worker.');
  return step(tx, writer, id, 'assign', {
    columns: { technician_id: technician.id },
    data: { technician_id: technician.id, technician: technician.name },
  });
}

/** Stops the ticket's running clock, if any, adding its time to the ticket's labour. */
async function stopClock(tx: Transaction, ticket: Locked): Promise<number> {
  const [stopped] = await tx.query<{ seconds: number }>(
    `WITH stopped AS (
       UPDATE repair_labour SET stopped_at = now()
       WHERE ticket_id = $1 AND stopped_at IS NULL
       RETURNING ceil(extract(epoch FROM stopped_at - started_at))::int AS seconds
     )
     UPDATE repair_tickets t SET labour_seconds = t.labour_seconds + s.seconds
     FROM stopped s WHERE t.id = $1
     RETURNING s.seconds`,
    [ticket.id],
  );
  return stopped?.seconds ?? 0;
}

/**
 * Issued parts not fitted yet (issued since the last completed repair, or ever if none) go back
 * to the locations they came from, each by a move of the ledger.
 */
async function returnUnfittedParts(tx: Transaction, writer: StockWriter, ticket: Locked) {
  const unfitted = await tx.query<{
    id: number;
    part_id: number;
    location_id: number;
    qty: number;
  }>(
    `SELECT p.id::int AS id, p.part_id::int AS part_id, p.location_id::int AS location_id, p.qty
     FROM repair_ticket_parts p JOIN repair_tickets t ON t.id = p.ticket_id
     WHERE p.ticket_id = $1 AND p.returned_move_id IS NULL
       AND (t.repaired_at IS NULL OR p.issued_at > t.repaired_at)
     ORDER BY p.id`,
    [ticket.id],
  );
  for (const part of unfitted) {
    const { move } = await adjustStock(
      tx,
      writer,
      {
        kind: 'part',
        itemId: part.part_id,
        locationId: part.location_id,
        qty: part.qty,
        reason: `Returned unused from ${ticket.number}`,
      },
      'part_id',
    );
    await tx.query('UPDATE repair_ticket_parts SET returned_move_id = $2 WHERE id = $1', [
      part.id,
      move.id,
    ]);
  }
  return unfitted.length;
}

/** The leader approves BER: the device is scrapped or kept for parts, the ticket closes. */
export async function declareBeyondRepair(
  tx: Transaction,
  writer: StockWriter,
  id: number,
  input: z.output<typeof berSchema>,
) {
  const ticket = await lockTicket(tx, id);
  assertCan(ticket, 'declare_beyond_repair');
  await stopClock(tx, ticket);
  const returned = await returnUnfittedParts(tx, writer, ticket);
  await applyDeviceAction(tx, writer.actor, writer.meta, {
    deviceIds: [ticket.device_id],
    action: input.outcome === 'scrapped' ? 'scrap' : 'harvest_parts',
    ref: { type: 'repair_ticket', id: ticket.id },
    data: { ticket: ticket.number, station: 'repair' },
  });
  return step(tx, writer, id, 'declare_beyond_repair', {
    reason: input.reason,
    columns: { ber_outcome: input.outcome },
    data: { outcome: input.outcome, parts_returned: returned },
  });
}

/** Cancels a ticket: unfitted parts back to stock, the device failed QC again. */
export async function cancelTicket(
  tx: Transaction,
  writer: StockWriter,
  id: number,
  reason: string | null | undefined,
) {
  const ticket = await lockTicket(tx, id);
  assertCan(ticket, 'cancel');
  await stopClock(tx, ticket);
  const returned = await returnUnfittedParts(tx, writer, ticket);
  await applyDeviceAction(tx, writer.actor, writer.meta, {
    deviceIds: [ticket.device_id],
    action: 'withdraw_from_repair',
    ref: { type: 'repair_ticket', id: ticket.id },
    data: { ticket: ticket.number, station: 'repair' },
  });
  return step(tx, writer, id, 'cancel', {
    reason: reason ?? undefined,
    data: { parts_returned: returned },
  });
}

/** The leader requests a part for a ticket; a ticket in repair waits for it. */
export async function requestPart(
  tx: Transaction,
  writer: StockWriter,
  id: number,
  input: z.output<typeof partRequestSchema>,
) {
  const ticket = await lockTicket(tx, id);
  if (!['sorted', 'assigned', 'in_repair', 'waiting_parts', 'failed'].includes(ticket.status)) {
    throw new ConflictError(
      `${ticket.number} is ${ticket.status.replace(/_/g, ' ')}: it needs no parts.`,
    );
  }
  const [part] = await tx.query<{ part_number: string }>(
    'SELECT part_number FROM parts WHERE id = $1 AND active',
    [input.part_id],
  );
  if (!part) throw fieldError('part_id', 'Choose an active part.');
  await tx.query(
    'INSERT INTO repair_part_requests (ticket_id, part_id, qty, requested_by) VALUES ($1, $2, $3, $4)',
    [ticket.id, input.part_id, input.qty, writer.actor.userId],
  );
  await recordTicketFact(tx, writer, ticket, 'part_requested', {
    part: part.part_number,
    qty: input.qty,
  });
  if (ticket.status === 'in_repair') await step(tx, writer, id, 'wait_for_parts');
}

/** Starts or stops the technician's clock; the first start starts the repair. */
export async function runClock(tx: Transaction, writer: StockWriter, id: number, running: boolean) {
  const ticket = await lockTicket(tx, id);
  assertWorks(ticket, writer);
  if (!running) {
    const seconds = await stopClock(tx, ticket);
    if (seconds === 0) throw new ConflictError(`The clock of ${ticket.number} is not running.`);
    await recordTicketFact(tx, writer, ticket, 'clock_stopped', { seconds });
    return;
  }
  if (ticket.status === 'assigned' || ticket.status === 'failed')
    await step(tx, writer, id, 'start');
  else if (ticket.status !== 'in_repair') {
    throw new ConflictError(
      `${ticket.number} is ${ticket.status.replace(/_/g, ' ')}: its clock does not run.`,
    );
  }
  const started = await tx.query(
    `INSERT INTO repair_labour (ticket_id, technician_id) VALUES ($1, $2)
     ON CONFLICT (ticket_id) WHERE stopped_at IS NULL DO NOTHING RETURNING id`,
    [ticket.id, writer.actor.userId],
  );
  if (started.length === 0) throw new ConflictError(`The clock of ${ticket.number} runs already.`);
  await recordTicketFact(tx, writer, ticket, 'clock_started', {});
}

/**
 * Scans a part out of stock onto a ticket in repair: a `consume` move of the ledger, which never
 * takes below what is there (422 on the quantity), at the part's average cost.
 */
export async function issuePart(
  tx: Transaction,
  writer: StockWriter,
  id: number,
  input: z.output<typeof issuePartSchema>,
) {
  const ticket = await lockTicket(tx, id);
  assertWorks(ticket, writer);
  if (ticket.status !== 'in_repair') {
    throw new ConflictError(
      `${ticket.number} is ${ticket.status.replace(/_/g, ' ')}: parts are issued to a ticket in repair.`,
    );
  }
  const [part] = await tx.query<{ id: number; part_number: string; cost_cents: number }>(
    `SELECT id::int AS id, part_number, cost_cents FROM parts
     WHERE active AND (lower(part_number) = lower($1) OR barcode = $1)
     ORDER BY (barcode = $1) DESC LIMIT 1`,
    [input.code],
  );
  if (!part) throw fieldError('code', `No active part has the number or barcode ${input.code}.`);
  const { move } = await consumeStock(tx, writer, {
    kind: 'part',
    itemId: part.id,
    locationId: input.location_id,
    qty: input.qty,
    reference: ticket.number,
  });
  await tx.query(
    `INSERT INTO repair_ticket_parts (ticket_id, part_id, location_id, qty, unit_cost_cents,
       issued_move_id, issued_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [
      ticket.id,
      part.id,
      input.location_id,
      input.qty,
      part.cost_cents,
      move.id,
      writer.actor.userId,
    ],
  );
  await recordTicketFact(tx, writer, ticket, 'part_issued', {
    part: part.part_number,
    qty: input.qty,
  });
}

export async function setWaiting(
  tx: Transaction,
  writer: StockWriter,
  id: number,
  waiting: boolean,
) {
  const ticket = await lockTicket(tx, id);
  assertWorks(ticket, writer);
  if (waiting) await stopClock(tx, ticket);
  await step(tx, writer, id, waiting ? 'wait_for_parts' : 'resume');
}

export async function writeNote(tx: Transaction, writer: StockWriter, id: number, note: string) {
  const ticket = await lockTicket(tx, id);
  await recordTicketFact(tx, writer, ticket, 'note', { note });
}

/** The technician completes the repair: the clock stops, the ticket waits for its test. */
export async function completeRepair(tx: Transaction, writer: StockWriter, id: number) {
  const ticket = await lockTicket(tx, id);
  assertWorks(ticket, writer);
  await stopClock(tx, ticket);
  await step(tx, writer, id, 'complete');
}

/**
 * The testing station: every item of the checklist. All passed, with a grade: the device is
 * repaired (device `pass_repair_test`, its grade written) and the ticket released to reuse. Any
 * failed: the ticket goes back to its technician with the failed items.
 */
export async function recordRepairTest(
  tx: Transaction,
  writer: StockWriter,
  id: number,
  input: z.output<typeof repairTestInputSchema>,
) {
  const missing = TEST_ITEMS.filter((item) => !input.items[item]);
  if (missing.length > 0) throw fieldError('items', `Test every item: ${missing.join(', ')}.`);
  const failed = TEST_ITEMS.filter((item) => input.items[item] === 'fail');
  const passed = failed.length === 0;
  if (passed && !input.grade) throw fieldError('grade', 'Choose the grade of the repaired device.');
  const ticket = await lockTicket(tx, id);
  if (ticket.status === 'repaired') await step(tx, writer, id, 'start_test');
  else if (ticket.status !== 'testing') {
    throw new ConflictError(
      `${ticket.number} is ${ticket.status.replace(/_/g, ' ')}: only a repaired device is tested.`,
    );
  }
  await tx.query(
    `INSERT INTO repair_tests (ticket_id, passed, grade, items, failed_items, note, tested_by)
     VALUES ($1, $2, $3, $4::jsonb, $5::text[], $6, $7)`,
    [
      ticket.id,
      passed,
      passed ? input.grade : null,
      JSON.stringify(input.items),
      failed,
      input.note ?? null,
      writer.actor.userId,
    ],
  );
  if (!passed) {
    await step(tx, writer, id, 'fail', {
      columns: { failed_items: failed },
      data: { failed_items: failed },
    });
    return;
  }
  await applyDeviceAction(tx, writer.actor, writer.meta, {
    deviceIds: [ticket.device_id],
    action: 'pass_repair_test',
    ref: { type: 'repair_ticket', id: ticket.id },
    data: { ticket: ticket.number, grade: input.grade, station: 'repair' },
    columns: { grade: input.grade },
  });
  await step(tx, writer, id, 'pass', {
    columns: { grade: input.grade, failed_items: [] },
    data: { grade: input.grade },
  });
  await step(tx, writer, id, 'release');
}
