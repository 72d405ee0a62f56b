import { generateBoxHistory } from '../modules/inventory/index.js';
import { generateWorkJobs } from '../modules/report/generate-work-jobs.js';
import type { Queryable } from './db.js';

/**
 * The tables that grow with the business but that `generateDatabase` leaves small: user accounts
 * with their roles, the audit log, more TACs (a GSMA import brings tens of thousands), inbound
 * shipments, returns to vendor, cleared blacklist entries and emptied inventory boxes. Run after `generateDatabase` (it
 * reads its vendors, models and invoices). Set-based and deterministic, like it; ids come from the
 * sequences, so it may run on a database that has rows of its own.
 */
export type ActivityOptions = {
  /** Accounts: staff, and one in five a sales agent. */
  readonly users: number;
  readonly auditEvents: number;
  readonly tacs: number;
  readonly inboundShipments: number;
  readonly vendorTransfers: number;
  readonly clearedBlacklistEntries: number;
  /** Inventory boxes emptied and archived over two years (the device box list's history). */
  readonly inventoryBoxes: number;
  /** Units of station work by the first hundred staff accounts over the year (the working report). */
  readonly workLogs?: number;
  /** Work jobs over two years, each given to one of the first hundred staff accounts. */
  readonly workJobs?: number;
  /** The newest row's time; by default today at 00:00 UTC. */
  readonly anchor?: Date;
};

/** Audit actions as the services write them, spread over the log. */
const AUDIT_ACTIONS = [
  ['device.received', 'device'],
  ['device.moved', 'device'],
  ['warehouse_box.closed', 'warehouse_box'],
  ['purchase_invoice.updated', 'purchase_invoice'],
  ['user.updated', 'user'],
  ['user.password_reset', 'user'],
  ['role.updated', 'role'],
  ['tac_number.created', 'tac_number'],
] as const;

export async function generateActivity(db: Queryable, options: ActivityOptions): Promise<void> {
  const anchorDate = options.anchor ?? new Date(new Date().toISOString().slice(0, 10));
  const anchor = `'${anchorDate.toISOString()}'::timestamptz`;
  // Row g of n is `age` before the anchor, spread over two years.
  const at = (g: string, n: number) => `${anchor} - interval '730 days' * (${n} - ${g}) / ${n}`;
  const count = (value: number) => Math.max(1, Math.floor(value));

  await db.query(
    `INSERT INTO users (user_name, name, email, type, status, password_hash, first_login,
       last_login_at, created_at, updated_at)
     SELECT 'generated.' || g, 'Generated Person ' || lpad(((g * 7919) % $1)::text, 6, '0'),
       'generated.' || g || '@example.com',
       CASE WHEN g % 5 = 0 THEN 'agent' ELSE 'staff' END,
       CASE WHEN g % 17 = 0 THEN 'disabled' ELSE 'active' END,
       (SELECT password_hash FROM users ORDER BY id LIMIT 1), 0,
       CASE WHEN g % 4 <> 0 THEN ${at('g', options.users)} + interval '30 days' END,
       ${at('g', options.users)}, ${at('g', options.users)}
     FROM generate_series(1, $1::int) AS g`,
    [count(options.users)],
  );
  // One role each, never the administrator's.
  await db.query(
    `INSERT INTO user_roles (user_id, role_id)
     SELECT u.id, r.id FROM users u
     JOIN (SELECT id, row_number() OVER (ORDER BY id) - 1 AS n, count(*) OVER () AS total
           FROM roles WHERE key IS DISTINCT FROM 'admin') r ON r.n = u.id % r.total
     WHERE u.user_name LIKE 'generated.%'`,
  );

  await db.query(
    `INSERT INTO audit_events (at, actor_id, actor_name, action, entity_type, entity_id, after)
     SELECT ${at('g', options.auditEvents)}, u.id, u.user_name, a.action, a.entity, (g % 5000 + 1)::text,
       jsonb_build_object('n', g)
     FROM generate_series(1, $1::int) AS g
     JOIN LATERAL (SELECT (ARRAY[${AUDIT_ACTIONS.map(([action]) => `'${action}'`).join(', ')}])[g % ${AUDIT_ACTIONS.length} + 1] AS action,
                          (ARRAY[${AUDIT_ACTIONS.map(([, entity]) => `'${entity}'`).join(', ')}])[g % ${AUDIT_ACTIONS.length} + 1] AS entity) a ON true
     JOIN LATERAL (SELECT id, user_name FROM users ORDER BY id OFFSET g % 50 LIMIT 1) u ON true`,
    [count(options.auditEvents)],
  );

  // TACs 87000000 up: beyond the ones generateDatabase gives its models.
  await db.query(
    `INSERT INTO tac_numbers (tac, model_id, capacity_gb, source, created_at, updated_at)
     SELECT (87000000 + g)::text, m.ids[g % array_length(m.ids, 1) + 1], 128,
       (ARRAY['gsma', 'import'])[g % 2 + 1], ${at('g', options.tacs)}, ${at('g', options.tacs)}
     FROM generate_series(0, $1::int - 1) AS g,
       (SELECT array_agg(id ORDER BY id) AS ids FROM device_models) m`,
    [count(options.tacs)],
  );

  await db.query(
    `INSERT INTO inbound_shipments (vendor_id, invoice_id, carrier, tracking, boxes_expected, eta,
       status, created_at, updated_at)
     SELECT i.vendor_id, i.id, 'Carrier ' || (g % 7), 'TRK' || lpad(g::text, 9, '0'), 10,
       CASE WHEN g % 9 <> 0 THEN (${at('g', options.inboundShipments)} + interval '5 days')::date END,
       (ARRAY['expected', 'arrived', 'received'])[g % 3 + 1],
       ${at('g', options.inboundShipments)}, ${at('g', options.inboundShipments)}
     FROM generate_series(0, $1::int - 1) AS g
     JOIN LATERAL (SELECT id, vendor_id FROM purchase_invoices ORDER BY id OFFSET g % 100 LIMIT 1) i
       ON true`,
    [count(options.inboundShipments)],
  );

  await db.query(
    `INSERT INTO vendor_transfers (vendor_id, invoice_id, reason, status, created_at, updated_at)
     SELECT i.vendor_id, i.id,
       (ARRAY['blacklisted', 'not_on_manifest', 'wrong_model', 'defective', 'other'])[g % 5 + 1],
       (ARRAY['draft', 'packed', 'shipped', 'credited'])[g % 4 + 1],
       ${at('g', options.vendorTransfers)}, ${at('g', options.vendorTransfers)}
     FROM generate_series(0, $1::int - 1) AS g
     JOIN LATERAL (SELECT id, vendor_id FROM purchase_invoices ORDER BY id OFFSET g % 100 LIMIT 1) i
       ON true`,
    [count(options.vendorTransfers)],
  );

  // IMEIs of TAC 88000000: never a device's; cleared, so the open-entry key holds.
  await db.query(
    `INSERT INTO blacklist_entries (imei, source, reason, reference, flagged_at, cleared_at,
       clear_evidence, created_at, updated_at)
     SELECT (880000000000000 + g * 10)::text, 'carrier', 'unpaid', 'OLD-' || g,
       ${at('g', options.clearedBlacklistEntries)},
       ${at('g', options.clearedBlacklistEntries)} + interval '3 days', 'Carrier release letter',
       ${at('g', options.clearedBlacklistEntries)}, ${at('g', options.clearedBlacklistEntries)}
     FROM generate_series(0, $1::int - 1) AS g`,
    [count(options.clearedBlacklistEntries)],
  );

  await generateBoxHistory(db, { boxes: count(options.inventoryBoxes), anchor: anchorDate });

  // A year of station work, in working hours; one unit in 40 rework. The log's trigger keeps the
  // day's sums (migration 0071).
  if (options.workLogs) {
    await db.query(
      `INSERT INTO work_logs (user_id, at, business_day, action, entity_type, entity_id, rework)
       SELECT w.ids[g % array_length(w.ids, 1) + 1], x.at, order_business_day(x.at),
         (ARRAY['receive_scan', 'grade', 'consolidate', 'putaway', 'pick', 'label', 'scan_ship',
           'unpack', 'repair', 'test'])[g % 10 + 1], 'device', g % 5000 + 1, g % 40 = 0
       FROM generate_series(1, $1::int) AS g,
         (SELECT array_agg(id ORDER BY id) AS ids FROM (
            SELECT id FROM users WHERE user_name LIKE 'generated.%' AND type = 'staff'
            ORDER BY id LIMIT 100) s) w,
         LATERAL (SELECT ${anchor} - interval '365 days' * ($1::int - g) / $1::int
           + interval '14 hours' + (g % 480) * interval '1 minute' AS at) x
       WHERE w.ids IS NOT NULL`,
      [count(options.workLogs)],
    );
  }

  if (options.workJobs) {
    await generateWorkJobs(db, { jobs: count(options.workJobs), anchor: anchorDate });
  }
}
