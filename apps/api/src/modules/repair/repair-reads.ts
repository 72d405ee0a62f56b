import {
  roleKeyOf,
  SPEC_ROLES,
  type DeviceRepairTicket,
  type RepairTicket,
  type RepairTicketDetail,
} from '@inventory/contract';
import type { Queryable } from '../../db/db.js';
import { NotFoundError } from '../../http/errors.js';
import { isoTextSql } from '../../http/sql.js';
import { MODEL_DISPLAY_NAME } from '../master-data/index.js';

/**
 * What the repair stations read: tickets as rows (over `repair_tickets t`), a ticket with its
 * parts, tests and timeline, and each station's queue by the indexes of migration 0067.
 */

export const OPEN_TICKET = "t.status NOT IN ('released', 'beyond_repair', 'cancelled')";
export const REPAIR_WORKER_ROLE_KEY = roleKeyOf(SPEC_ROLES.repairWorker);

const TICKET_FROM = `repair_tickets t
  JOIN devices d ON d.id = t.device_id
  JOIN device_models m ON m.id = d.model_id
  JOIN brands b ON b.id = m.brand_id
  LEFT JOIN users tech ON tech.id = t.technician_id`;

const TICKET_COLUMNS = `t.id::int AS id, t.number, t.device_id::int AS device_id, d.identifier,
  ${MODEL_DISPLAY_NAME} AS model, d.status AS device_status, t.status, t.source, t.reference,
  t.issue_codes, t.note, t.priority, t.estimated_cost_cents, t.resale_value_cents, t.ber_candidate,
  t.technician_id::int AS technician_id, tech.name AS technician, t.labour_seconds,
  (SELECT ${isoTextSql('l.started_at')} FROM repair_labour l
   WHERE l.ticket_id = t.id AND l.stopped_at IS NULL) AS clock_started_at,
  COALESCE((SELECT sum(p.qty * p.unit_cost_cents) FROM repair_ticket_parts p
            WHERE p.ticket_id = t.id AND p.returned_move_id IS NULL), 0)::int AS parts_cost_cents,
  t.failed_items, t.test_count, t.grade, t.ber_outcome,
  ${isoTextSql('t.requested_at')} AS requested_at, ${isoTextSql('t.closed_at')} AS closed_at`;

const PRIORITY_ORDER = `array_position(ARRAY['urgent', 'high', 'normal', 'low'], t.priority)`;

const ticketRows = (db: Queryable, where: string, order: string, params: unknown[]) =>
  db.query<RepairTicket>(
    `SELECT ${TICKET_COLUMNS} FROM ${TICKET_FROM} WHERE ${where} ORDER BY ${order} LIMIT 500`,
    params,
  );

export const recentTickets = (db: Queryable) =>
  db.query<RepairTicket>(
    `SELECT ${TICKET_COLUMNS} FROM ${TICKET_FROM} ORDER BY t.requested_at DESC, t.id DESC LIMIT 100`,
  );

export const sortingQueue = (db: Queryable) =>
  ticketRows(db, "t.status = 'requested'", 't.requested_at, t.id', []);

export const testingQueue = (db: Queryable) =>
  ticketRows(db, "t.status IN ('repaired', 'testing')", 't.repaired_at, t.id', []);

export const workerQueue = (db: Queryable, technicianId: number) =>
  ticketRows(
    db,
    `t.technician_id = $1 AND t.status IN ('assigned', 'in_repair', 'waiting_parts', 'failed')`,
    `${PRIORITY_ORDER}, t.requested_at, t.id`,
    [technicianId],
  );

/** Open tickets past sorting, and the repair workers with how many open tickets each holds. */
export async function leaderBoard(db: Queryable) {
  const tickets = await ticketRows(
    db,
    `${OPEN_TICKET} AND t.status <> 'requested'`,
    `${PRIORITY_ORDER}, t.requested_at, t.id`,
    [],
  );
  const technicians = await db.query<{ id: number; name: string; open_tickets: number }>(
    `SELECT u.id::int AS id, u.name,
       (SELECT count(*) FROM repair_tickets t
        WHERE t.technician_id = u.id AND ${OPEN_TICKET})::int AS open_tickets
     FROM users u
     WHERE u.status = 'active' AND EXISTS (
       SELECT 1 FROM user_roles ur JOIN roles ro ON ro.id = ur.role_id
       WHERE ur.user_id = u.id AND ro.key = $1)
     ORDER BY open_tickets, u.name, u.id`,
    [REPAIR_WORKER_ROLE_KEY],
  );
  return { tickets, technicians };
}

/** Locations holding parts on hand, to scan parts out of. */
export const partLocations = (db: Queryable) =>
  db.query<{ id: number; label: string }>(
    `SELECT l.id::int AS id, l.code || COALESCE(' — ' || l.name, '') AS label FROM locations l
     WHERE EXISTS (SELECT 1 FROM stock_levels s
                   WHERE s.location_id = l.id AND s.item_kind = 'part' AND s.on_hand > 0)
     ORDER BY l.code`,
  );

export const requestableParts = (db: Queryable) =>
  db.query<{ id: number; label: string }>(
    `SELECT id::int AS id, part_number || ' — ' || name AS label FROM parts
     WHERE active ORDER BY part_number LIMIT 1000`,
  );

/** Tickets with their parts, part requests, tests and timeline, in the order of `ids`. */
async function detailsOf(db: Queryable, tickets: RepairTicket[]): Promise<RepairTicketDetail[]> {
  const ids = tickets.map((ticket) => ticket.id);
  const [parts, requests, tests, events] = await Promise.all([
    db.query<RepairTicketDetail['parts'][number] & { ticket_id: number }>(
      `SELECT p.id::int AS id, p.ticket_id::int AS ticket_id, pt.part_number, pt.name,
         l.code AS location, p.qty, p.unit_cost_cents, p.returned_move_id IS NOT NULL AS returned,
         ${isoTextSql('p.issued_at')} AS issued_at
       FROM repair_ticket_parts p JOIN parts pt ON pt.id = p.part_id
       JOIN locations l ON l.id = p.location_id
       WHERE p.ticket_id = ANY($1::bigint[]) ORDER BY p.id`,
      [ids],
    ),
    db.query<RepairTicketDetail['part_requests'][number] & { ticket_id: number }>(
      `SELECT r.id::int AS id, r.ticket_id::int AS ticket_id, pt.part_number, pt.name, r.qty,
         ${isoTextSql('r.requested_at')} AS requested_at
       FROM repair_part_requests r JOIN parts pt ON pt.id = r.part_id
       WHERE r.ticket_id = ANY($1::bigint[]) ORDER BY r.id`,
      [ids],
    ),
    db.query<RepairTicketDetail['tests'][number] & { ticket_id: number }>(
      `SELECT x.id::int AS id, x.ticket_id::int AS ticket_id, x.passed, x.grade, x.failed_items,
         x.note, u.name AS tested_by, ${isoTextSql('x.tested_at')} AS tested_at
       FROM repair_tests x LEFT JOIN users u ON u.id = x.tested_by
       WHERE x.ticket_id = ANY($1::bigint[]) ORDER BY x.id`,
      [ids],
    ),
    db.query<RepairTicketDetail['events'][number] & { ticket_id: number }>(
      `SELECT e.id::int AS id, e.ticket_id::int AS ticket_id, ${isoTextSql('e.at')} AS at,
         e.actor_name, e.type, e.from_status, e.to_status, e.data
       FROM repair_ticket_events e
       WHERE e.ticket_id = ANY($1::bigint[]) ORDER BY e.id`,
      [ids],
    ),
  ]);
  const of = <T extends { ticket_id: number }>(rows: T[], id: number) =>
    rows.filter((row) => row.ticket_id === id).map(({ ticket_id: _, ...row }) => row);
  return tickets.map((ticket) => ({
    ...ticket,
    parts: of(parts, ticket.id),
    part_requests: of(requests, ticket.id),
    tests: of(tests, ticket.id),
    events: of(events, ticket.id),
  }));
}

export async function ticketDetail(db: Queryable, id: number): Promise<RepairTicketDetail> {
  const tickets = await ticketRows(db, 't.id = $1', 't.id', [id]);
  if (tickets.length === 0) throw new NotFoundError(`There is no repair ticket with id ${id}.`);
  const [detail] = await detailsOf(db, tickets);
  return detail!;
}

/** A device's tickets by its IMEI (either), newest first; 404 for an IMEI of no device. */
export async function deviceRepairHistory(db: Queryable, code: string) {
  const imei = code.trim().toUpperCase();
  const [device] = await db.query<{ id: number }>(
    'SELECT id::int AS id FROM devices WHERE identifier = $1 OR imei2 = $1 LIMIT 1',
    [imei],
  );
  if (!device) throw new NotFoundError(`No device has the IMEI ${imei}.`);
  return detailsOf(db, await ticketRows(db, 't.device_id = $1', 't.id DESC', [device.id]));
}

/** A device's tickets in short, for the device lookup. */
export const deviceRepairTickets = (db: Queryable, deviceId: number) =>
  db.query<DeviceRepairTicket>(
    `SELECT t.id::int AS id, t.number, t.status, t.source, t.issue_codes, u.name AS technician,
       t.grade, ${isoTextSql('t.requested_at')} AS requested_at,
       ${isoTextSql('t.closed_at')} AS closed_at
     FROM repair_tickets t LEFT JOIN users u ON u.id = t.technician_id
     WHERE t.device_id = $1 ORDER BY t.id DESC LIMIT 50`,
    [deviceId],
  );
