import {
  SIM_ACTIVATION_DAYS,
  SIM_DASHBOARD_FILES,
  type AgentAddressChange,
  type FileFormat,
  type SimDashboard,
  type SimDashboardFile,
} from '@inventory/contract';
import type { Db, Queryable } from '../../db/db.js';
import { ConflictError, NotFoundError } from '../../http/errors.js';
import type { Principal, RequestMeta } from '../../http/principal.js';
import { isoTextSql } from '../../http/sql.js';
import type { PreparedFile } from '../../toolkit/downloads.js';
import { CONTENT_TYPES, fileStream, type Cell } from '../../toolkit/files.js';
import { auditActor, recordAudit } from '../audit/index.js';

/**
 * The SIM dashboard (DOMAIN.md 4.6). Every figure is read from what migration 0049's triggers
 * keep in the transaction of each change (sums of a few sharded rows per carrier, status, agent
 * and day), or from the open requests and returns, whose indexes lead with their status: an
 * answer costs the same whatever the SIMs number (QUALITY.md gate S), so it is read live rather
 * than kept as a snapshot.
 */

type Settings = Pick<
  SimDashboard,
  'hold_days' | 'low_activation_rate' | 'rate_minimum_received' | 'as_of'
> & { today: string };

export async function simDashboard(db: Queryable): Promise<SimDashboard> {
  const [settings] = await db.query<Settings>(
    `SELECT hold_days, low_activation_rate::float8 AS low_activation_rate, rate_minimum_received,
       ${isoTextSql('now()')} AS as_of, order_business_day(now())::text AS today
     FROM sim_settings`,
  );
  // Today's business day is read once and passed on: called in a FILTER or a join condition,
  // the function ran once for each kept row (most of the dashboard's time at 200,000 SIMs).
  const { hold_days, low_activation_rate, rate_minimum_received, today, ...shown } = settings!;
  const byStatus = await db.query<SimDashboard['by_status'][number]>(
    `SELECT k.client_carrier_id, v.name AS client_carrier, k.status, sum(k.sims)::int AS sims
     FROM sim_status_counts k JOIN vendors v ON v.id = k.client_carrier_id
     GROUP BY k.client_carrier_id, v.name, k.status HAVING sum(k.sims) <> 0
     ORDER BY v.name, k.client_carrier_id, k.status`,
  );
  const agents = await db.query<SimDashboard['agents'][number]>(
    `WITH today AS (SELECT $4::date AS day),
     held AS (
       SELECT agent_id, sum(sims) FILTER (WHERE status = 'with_agent') AS with_agent,
         sum(sims) FILTER (WHERE status = 'assigned') AS assigned
       FROM sim_agent_counts WHERE status IN ('with_agent', 'assigned') GROUP BY agent_id),
     aged AS (
       SELECT agent_id, sum(sims) AS aged FROM sim_agent_held_days, today
       WHERE sim_agent_held_days.day < today.day - $1::int GROUP BY agent_id),
     rate AS (
       SELECT agent_id, sum(received) AS received, sum(activated) AS activated
       FROM sim_agent_figures GROUP BY agent_id),
     recent AS (
       SELECT agent_id, sum(sims) FILTER (WHERE a.day > today.day - 7) AS last_7,
         sum(sims) AS last_30
       FROM sim_activation_days a, today
       WHERE a.agent_id IS NOT NULL AND a.day > today.day - 30 GROUP BY agent_id),
     figures AS (
       SELECT u.id AS agent_id, u.name AS agent_name, u.sim_cap,
         COALESCE(h.with_agent, 0)::int AS with_agent, COALESCE(h.assigned, 0)::int AS assigned,
         COALESCE(g.aged, 0)::int AS aged, COALESCE(r.received, 0)::int AS received,
         COALESCE(r.activated, 0)::int AS activated,
         COALESCE(x.last_7, 0)::int AS activations_7d, COALESCE(x.last_30, 0)::int AS activations_30d
       FROM users u
       LEFT JOIN held h ON h.agent_id = u.id
       LEFT JOIN aged g ON g.agent_id = u.id
       LEFT JOIN rate r ON r.agent_id = u.id
       LEFT JOIN recent x ON x.agent_id = u.id
       WHERE u.type = 'agent' AND (u.status = 'active' OR h.agent_id IS NOT NULL))
     SELECT *, with_agent + assigned AS on_hand,
       CASE WHEN received > 0 THEN round(activated::numeric / received, 3)::float8 END
         AS activation_rate,
       received >= $2::int AND received > 0
         AND activated::numeric / received < $3::numeric AS low_rate
     FROM figures
     ORDER BY with_agent + assigned DESC, agent_name, agent_id`,
    [hold_days, rate_minimum_received, low_activation_rate, today],
  );
  const requests = await db.query<SimDashboard['requests'][number]>(
    `SELECT status, count(*)::int AS requests,
       COALESCE(sum(COALESCE(qty_approved, qty_requested)), 0)::int AS sims
     FROM sim_requests WHERE status IN ('submitted', 'approved', 'packed', 'shipped')
     GROUP BY status ORDER BY array_position(ARRAY['submitted', 'approved', 'packed', 'shipped'],
       status)`,
  );
  const byDay = await db.query<{ day: string; sims: number }>(
    `SELECT d.day::date::text AS day, COALESCE(a.sims, 0)::int AS sims
     FROM generate_series($2::date - ($1::int - 1), $2::date, interval '1 day') AS d (day)
     LEFT JOIN (
       SELECT day, sum(sims) AS sims FROM sim_activation_days
       WHERE day > $2::date - $1::int GROUP BY day
     ) a ON a.day = d.day::date
     ORDER BY d.day`,
    [SIM_ACTIVATION_DAYS, today],
  );
  const byCarrier = await db.query<SimDashboard['activations']['by_carrier'][number]>(
    `SELECT a.client_carrier_id, v.name AS client_carrier,
       COALESCE(sum(a.sims) FILTER (WHERE a.day > $1::date - 7), 0)::int AS last_7_days,
       sum(a.sims)::int AS last_30_days
     FROM sim_activation_days a JOIN vendors v ON v.id = a.client_carrier_id
     WHERE a.day > $1::date - 30
     GROUP BY a.client_carrier_id, v.name HAVING sum(a.sims) <> 0
     ORDER BY v.name, a.client_carrier_id`,
    [today],
  );
  const returns = await db.query<SimDashboard['returns'][number]>(
    `SELECT status, count(*)::int AS returns FROM sim_returns
     WHERE status IN ('open', 'receiving') GROUP BY status ORDER BY status DESC`,
  );
  const [pending] = await db.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM agent_address_changes WHERE status = 'pending'",
  );
  const carriers = new Map<number, string>();
  for (const row of [...byStatus, ...byCarrier]) {
    carriers.set(row.client_carrier_id, row.client_carrier);
  }
  return {
    ...shown,
    hold_days,
    low_activation_rate,
    rate_minimum_received,
    carriers: [...carriers].map(([id, name]) => ({ id, name })),
    by_status: byStatus,
    agents,
    requests,
    activations: {
      by_day: byDay,
      by_carrier: byCarrier,
      last_7_days: byCarrier.reduce((sum, row) => sum + row.last_7_days, 0),
      last_30_days: byCarrier.reduce((sum, row) => sum + row.last_30_days, 0),
    },
    returns,
    address_changes_pending: pending!.n,
  };
}

/** The rows of one of the dashboard's tables, as the page shows them. */
export function dashboardRows(file: SimDashboardFile, figures: SimDashboard): Cell[][] {
  switch (file) {
    case 'status':
      return figures.by_status.map((row) => [row.client_carrier, row.status, row.sims]);
    case 'agents':
      return figures.agents.map((row) => [
        row.agent_name,
        row.on_hand,
        row.with_agent,
        row.assigned,
        row.aged,
        row.received,
        row.activated,
        row.activation_rate,
        row.activations_7d,
        row.activations_30d,
      ]);
    case 'activations':
      return figures.activations.by_day.map((row) => [row.day, row.sims]);
  }
}

/** One table of the dashboard as a file, read when the link is followed. */
export async function dashboardFile(
  db: Queryable,
  file: SimDashboardFile,
  format: FileFormat,
): Promise<PreparedFile> {
  const figures = await simDashboard(db);
  const { title, columns } = SIM_DASHBOARD_FILES[file];
  const rows = dashboardRows(file, figures);
  async function* chunks() {
    yield rows;
  }
  const moment = figures.as_of.slice(0, 16).replace(':', '');
  return {
    fileName: `sim-dashboard-${file}-${moment}.${format}`,
    contentType: CONTENT_TYPES[format],
    stream: fileStream(format, title, columns, chunks()),
  };
}

const addressOf = (alias: string) =>
  `json_build_object('line1', ${alias}.line1, 'line2', ${alias}.line2, 'city', ${alias}.city,
     'state', ${alias}.state, 'zip', ${alias}.zip)`;

const ADDRESS_CHANGE_SELECT = `SELECT ch.id, ch.agent_id, u.name AS agent_name,
    ${addressOf('ch')} AS address,
    CASE WHEN a.agent_id IS NULL THEN NULL ELSE ${addressOf('a')} END AS current,
    ch.status, ch.reason, ${isoTextSql('ch.requested_at')} AS requested_at,
    ${isoTextSql('ch.decided_at')} AS decided_at, du.name AS decided_by_name
  FROM agent_address_changes ch
  JOIN users u ON u.id = ch.agent_id
  LEFT JOIN agent_addresses a ON a.agent_id = ch.agent_id
  LEFT JOIN users du ON du.id = ch.decided_by`;

/** Agents' address changes waiting for a coordinator, oldest first. */
export const pendingAddressChanges = (db: Queryable): Promise<AgentAddressChange[]> =>
  db.query<AgentAddressChange>(
    `${ADDRESS_CHANGE_SELECT} WHERE ch.status = 'pending' ORDER BY ch.requested_at, ch.id
     LIMIT 200`,
  );

async function addressChange(db: Queryable, id: number): Promise<AgentAddressChange> {
  const [change] = await db.query<AgentAddressChange>(`${ADDRESS_CHANGE_SELECT} WHERE ch.id = $1`, [
    id,
  ]);
  if (!change) throw new NotFoundError(`There is no address change with id ${id}.`);
  return change;
}

/**
 * A coordinator decides an agent's address change: approved, it becomes the agent's shipping
 * address; rejected, the agent reads why. A change decided already (or withdrawn) is a 409.
 */
export async function decideAddressChange(
  db: Db,
  coordinator: Principal,
  meta: RequestMeta,
  id: number,
  decision: { approve: true } | { approve: false; reason: string },
): Promise<AgentAddressChange> {
  return db.transaction(async (tx) => {
    const [change] = await tx.query<{ agent_id: number; status: string }>(
      'SELECT agent_id, status FROM agent_address_changes WHERE id = $1 FOR UPDATE',
      [id],
    );
    if (!change) throw new NotFoundError(`There is no address change with id ${id}.`);
    if (change.status !== 'pending') {
      throw new ConflictError(`This address change is ${change.status} already.`);
    }
    const before = await addressChange(tx, id);
    if (decision.approve) {
      await tx.query(
        `INSERT INTO agent_addresses AS a (agent_id, line1, line2, city, state, zip, approved_by)
         SELECT agent_id, line1, line2, city, state, zip, $2 FROM agent_address_changes
         WHERE id = $1
         ON CONFLICT (agent_id) DO UPDATE SET line1 = EXCLUDED.line1, line2 = EXCLUDED.line2,
           city = EXCLUDED.city, state = EXCLUDED.state, zip = EXCLUDED.zip,
           approved_by = EXCLUDED.approved_by, updated_at = now()`,
        [id, coordinator.userId],
      );
    }
    await tx.query(
      `UPDATE agent_address_changes SET status = $2, reason = $3, decided_at = now(),
         decided_by = $4
       WHERE id = $1`,
      [
        id,
        decision.approve ? 'approved' : 'rejected',
        decision.approve ? null : decision.reason,
        coordinator.userId,
      ],
    );
    const after = await addressChange(tx, id);
    await recordAudit(tx, {
      ...auditActor(coordinator, meta),
      action: decision.approve ? 'agent.address_change_approved' : 'agent.address_change_rejected',
      entityType: 'agent_address_change',
      entityId: id,
      before: { status: before.status, address: before.current },
      after: { status: after.status, address: after.address, reason: after.reason },
    });
    return after;
  });
}
