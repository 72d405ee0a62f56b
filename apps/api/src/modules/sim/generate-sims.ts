import type { Queryable } from '../../db/db.js';
import { withLuhnSql } from '../../db/generate-sql.js';

export type GenerateSimsOptions = {
  /** SIM cards over the year before the anchor, in carrier boxes of 500. */
  readonly sims: number;
  /** Field agents (users of type agent with the Agent role) the SIMs go out to. */
  readonly agents: number;
  /** The newest box's day; by default today at 00:00 UTC. */
  readonly anchor?: Date;
};

export type GenerateSimsSummary = {
  readonly sims: number;
  readonly simBoxes: number;
  readonly agents: number;
  readonly simRequests: number;
  readonly simReturns: number;
  readonly detectionRuns: number;
};

const BOX_SIMS = 500;
const PACK_SIMS = 50;
/** SIMs per statement: a whole number of boxes. */
const CHUNK = 200_000;
/** 18-digit ICCID payloads under the T-Mobile prefix 8901260 (the starter prefix table's). */
const ICCID_BASE = 890126000000000000n;
/** Each pack's fate counts in days from its box's receipt. */
const IN_STOCK_DAYS = 7;
const IN_TRANSIT_DAYS = 10;
const RECENT_DAYS = 60;

/** An integer hash of a row number: spreads fates without randomness. */
const hashSql = (g: string) => `((${g})::bigint * 2654435761 + 7919) % 2147483647`;
const iccidSql = (serial: string) => withLuhnSql(`${ICCID_BASE}::bigint + (${serial})`, 18);

/**
 * A year of SIM work for the data generator (npm run db:generate), after the orders: agents, the
 * carriers' boxes received by range and split into packs of 50, each pack requested, approved,
 * shipped and received by one agent; its SIMs assigned, detected active, inactive or suspended,
 * returned (restocked, or destroyed once ever active), lost or defective by the pack's age; the
 * newest boxes still in stock or on their way. Each SIM has its receipt and its latest step on its
 * timeline, each agent a ledger of what came and went; monthly detection runs per carrier keep
 * their totals, the latest its rows. Set-based, in chunks of boxes; the SIM tables' own triggers
 * keep their counts.
 */
export async function generateSims(
  db: Queryable,
  options: GenerateSimsOptions,
): Promise<GenerateSimsSummary> {
  const total = Math.max(0, Math.floor(options.sims));
  const agentCount = Math.max(1, Math.floor(options.agents));
  const [ready] = await db.query<{ carriers: number[]; admin: number; role: number | null }>(
    `SELECT ARRAY(SELECT id FROM vendors WHERE type = 'carrier-client' AND active ORDER BY id)
         AS carriers,
       (SELECT min(id) FROM users) AS admin,
       (SELECT id FROM roles WHERE lower(name) = 'agent') AS role`,
  );
  const none = { sims: 0, simBoxes: 0, agents: 0, simRequests: 0, simReturns: 0, detectionRuns: 0 };
  if (total === 0 || ready!.carriers.length === 0) return none;
  const anchorDate = options.anchor ?? new Date(new Date().toISOString().slice(0, 10));
  const anchor = anchorDate.toISOString();
  const admin = ready!.admin;
  const boxes = Math.ceil(total / BOX_SIMS);

  await db.query(
    `INSERT INTO users (user_name, name, email, phone, type, status, password_hash, first_login,
       rep_id, territory, sim_cap, created_at, updated_at)
     SELECT 'agent.' || lpad(a::text, 4, '0'), 'Field Agent ' || lpad(a::text, 4, '0'),
       'agent.' || a || '@example.com', '+1 214 555 ' || lpad((a % 10000)::text, 4, '0'),
       'agent', 'active', (SELECT password_hash FROM users ORDER BY id LIMIT 1), 0,
       'REP' || lpad(a::text, 6, '0'),
       (ARRAY['TX', 'CA', 'FL', 'NY', 'GA', 'OH', 'IL', 'PA', 'NC', 'AZ'])[a % 10 + 1],
       1000, $1::timestamptz - interval '400 days', $1::timestamptz - interval '400 days'
     FROM generate_series(1, $2::int) AS a`,
    [anchor, agentCount],
  );
  const agents = (
    await db.query<{ id: number }>(
      "SELECT id FROM users WHERE user_name LIKE 'agent.%' AND type = 'agent' ORDER BY id",
    )
  ).map((row) => row.id);
  if (ready!.role !== null) {
    await db.query(
      `INSERT INTO user_roles (user_id, role_id)
       SELECT id, $2 FROM unnest($1::bigint[]) AS a (id) ON CONFLICT DO NOTHING`,
      [agents, ready!.role],
    );
  }

  // The boxes, one per 500 ICCIDs of a contiguous range, received evenly over the year.
  await db.query(
    `INSERT INTO sim_boxes (code, client_carrier_id, issuer, form, received_by_range, iccid_first,
       iccid_last, qty, qty_available, status, received_at, received_by, updated_at)
     SELECT 'SB-' || lpad(nextval('sim_box_numbers')::text, 6, '0'),
       ($2::bigint[])[b % cardinality($2::bigint[]) + 1], 'T-Mobile', 'triple-cut', true,
       ${iccidSql(`b::bigint * ${BOX_SIMS}`)},
       ${iccidSql(`least((b + 1)::bigint * ${BOX_SIMS}, $3::bigint) - 1`)},
       least(${BOX_SIMS}, $3::int - b * ${BOX_SIMS}), 0, 'in_stock',
       $1::timestamptz - interval '365 days' * ($4::int - 1 - b) / $4::int, $5,
       $1::timestamptz
     FROM generate_series(0, $4::int - 1) AS b ORDER BY b`,
    [anchor, ready!.carriers, total, boxes, admin],
  );
  // Each pack of the year: its box, age, and (once split) agent and request.
  await db.query(
    `CREATE TEMP TABLE generated_sim_packs (
       p integer PRIMARY KEY, box_id bigint NOT NULL, carrier_id bigint NOT NULL,
       received_at timestamptz NOT NULL, age integer NOT NULL, agent_id bigint,
       pack_id bigint, request_id bigint, return_id bigint) ON COMMIT DROP`,
  );
  await db.query(
    `INSERT INTO generated_sim_packs (p, box_id, carrier_id, received_at, age, agent_id)
     SELECT b.n * ${BOX_SIMS / PACK_SIMS} + k, b.id, b.client_carrier_id, b.received_at,
       extract(day FROM $1::timestamptz - b.received_at)::int,
       ($2::bigint[])[${hashSql(`b.n * ${BOX_SIMS / PACK_SIMS} + k`)} % cardinality($2::bigint[]) + 1]
     FROM (SELECT id, client_carrier_id, received_at, qty,
             ((left(iccid_first, 18)::bigint - ${ICCID_BASE}) / ${BOX_SIMS})::int AS n
           FROM sim_boxes WHERE issuer = 'T-Mobile' AND received_by_range) b,
       generate_series(0, (b.qty - 1) / ${PACK_SIMS}) AS k`,
    [anchor, agents],
  );
  // Split: every box older than a week, into packs of 50.
  await db.query(
    `INSERT INTO sim_packs (code, sim_box_id, size, created_at, created_by)
     SELECT 'SP-' || lpad(nextval('sim_pack_numbers')::text, 6, '0'), box_id, ${PACK_SIMS},
       received_at + interval '1 day', $1
     FROM generated_sim_packs WHERE age > ${IN_STOCK_DAYS} ORDER BY p`,
    [admin],
  );
  await db.query(
    `UPDATE generated_sim_packs g SET pack_id = m.id
     FROM (SELECT id, sim_box_id, row_number() OVER (PARTITION BY sim_box_id ORDER BY id) - 1 AS k
           FROM sim_packs) m
     WHERE m.sim_box_id = g.box_id AND m.k = g.p % ${BOX_SIMS / PACK_SIMS}`,
  );
  // One request per pack: approved, shipped, and received by the agent unless still on its way.
  const [requestBase] = await db.query<{ id: number }>(
    'SELECT COALESCE(max(id), 0)::bigint AS id FROM sim_requests',
  );
  await db.query(
    `INSERT INTO sim_requests (number, agent_id, client_carrier_id, qty_requested, qty_approved,
       delivery, ship_to, status, approved_at, approved_by, tracking_number, shipped_at,
       received_at, qty_received, qty_missing, created_at, updated_at)
     SELECT 'SR-' || lpad(nextval('sim_request_numbers')::text, 6, '0'), agent_id, carrier_id,
       ${PACK_SIMS}, ${PACK_SIMS}, 'ship', 'Field territory address on file',
       CASE WHEN age > ${IN_TRANSIT_DAYS} THEN 'received' ELSE 'shipped' END,
       received_at + interval '26 hours', $1, '1ZSIM' || lpad(p::text, 10, '0'),
       received_at + interval '5 days',
       CASE WHEN age > ${IN_TRANSIT_DAYS} THEN received_at + interval '9 days' END,
       CASE WHEN age > ${IN_TRANSIT_DAYS} THEN ${PACK_SIMS} END,
       CASE WHEN age > ${IN_TRANSIT_DAYS} THEN 0 END,
       received_at + interval '1 day', received_at + interval '9 days'
     FROM generated_sim_packs WHERE age > ${IN_STOCK_DAYS} ORDER BY p`,
    [admin],
  );
  await db.query(
    `UPDATE generated_sim_packs g SET request_id = r.id
     FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM sim_requests WHERE id > $1) r,
       (SELECT p, row_number() OVER (ORDER BY p) AS n FROM generated_sim_packs
        WHERE age > ${IN_STOCK_DAYS}) q
     WHERE q.n = r.n AND g.p = q.p`,
    [requestBase!.id],
  );
  await db.query(
    `INSERT INTO sim_request_events (sim_request_id, at, actor_id, actor_name, type, from_status,
       to_status, data)
     SELECT r.id, step.at, step.actor, step.actor_name, step.type, step.from_status, step.to_status,
       '{}'::jsonb
     FROM sim_requests r JOIN users agent ON agent.id = r.agent_id,
       LATERAL (VALUES
         (r.created_at, r.agent_id, agent.user_name, 'submitted', NULL, 'submitted'),
         (r.approved_at, $2::bigint, 'admin', 'approved', 'submitted', 'approved'),
         (r.approved_at + interval '2 hours', $2::bigint, 'admin', 'packed', 'approved', 'packed'),
         (r.shipped_at, $2::bigint, 'admin', 'shipped', 'packed', 'shipped'),
         (r.received_at, r.agent_id, agent.user_name, 'received', 'shipped', 'received'))
       AS step (at, actor, actor_name, type, from_status, to_status)
     WHERE r.id > $1 AND step.at IS NOT NULL`,
    [requestBase!.id, admin],
  );
  // One closed return per older pack, for its SIMs that came back.
  const [returnBase] = await db.query<{ id: number }>(
    'SELECT COALESCE(max(id), 0)::bigint AS id FROM sim_returns',
  );
  await db.query(
    `INSERT INTO sim_returns (number, source, agent_id, reason, status, label_tracking, created_at,
       created_by, closed_at, closed_by, updated_at)
     SELECT 'SRT-' || lpad(nextval('sim_return_numbers')::text, 6, '0'), 'agent', agent_id,
       'unused', 'closed', '1ZRET' || lpad(p::text, 10, '0'),
       received_at + interval '45 days', agent_id, received_at + interval '52 days', $1,
       received_at + interval '52 days'
     FROM generated_sim_packs WHERE age > ${RECENT_DAYS} ORDER BY p`,
    [admin],
  );
  await db.query(
    `UPDATE generated_sim_packs g SET return_id = r.id
     FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM sim_returns WHERE id > $1) r,
       (SELECT p, row_number() OVER (ORDER BY p) AS n FROM generated_sim_packs
        WHERE age > ${RECENT_DAYS}) q
     WHERE q.n = r.n AND g.p = q.p`,
    [returnBase!.id],
  );

  for (let first = 0; first < total; first += CHUNK) {
    const last = Math.min(total, first + CHUNK) - 1;
    await insertSims(db, { anchor, admin, first, last });
  }

  // Boxes' available counts and states from their SIMs.
  await db.query(
    `UPDATE sim_boxes b SET qty_available = c.available,
       status = CASE WHEN c.available = 0 THEN 'depleted' WHEN c.packed THEN 'split' ELSE 'in_stock' END
     FROM (SELECT s.sim_box_id, count(*) FILTER (WHERE s.status = 'in_stock')::int AS available,
             bool_or(s.sim_pack_id IS NOT NULL) AS packed
           FROM sim_cards s GROUP BY s.sim_box_id) c
     WHERE c.sim_box_id = b.id`,
  );
  await db.query(
    `UPDATE sim_returns r SET qty_expected = c.n, qty_received = c.n
     FROM (SELECT sim_return_id, count(*)::int AS n FROM sim_return_lines GROUP BY sim_return_id) c
     WHERE c.sim_return_id = r.id AND r.id > $1`,
    [returnBase!.id],
  );
  await db.query('DELETE FROM sim_returns r WHERE r.id > $1 AND r.qty_received = 0', [
    returnBase!.id,
  ]);

  // Requests waiting for the coordinator: one from each of 150 agents.
  await db.query(
    `INSERT INTO sim_requests (number, agent_id, client_carrier_id, qty_requested, note, delivery,
       ship_to, status, created_at, updated_at)
     SELECT 'SR-' || lpad(nextval('sim_request_numbers')::text, 6, '0'), a.id,
       ($3::bigint[])[a.n % cardinality($3::bigint[]) + 1], 50 + (a.n % 4) * 50,
       'Community enrolment event', CASE WHEN a.n % 5 = 0 THEN 'pickup' ELSE 'ship' END,
       'Field territory address on file', 'submitted',
       $1::timestamptz - interval '1 hour' * (a.n % 72), $1::timestamptz - interval '1 hour' * (a.n % 72)
     FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM unnest($2::bigint[]) AS u (id)) a
     WHERE a.n <= 150`,
    [anchor, agents, ready!.carriers],
  );

  const runs = await generateDetectionRuns(db, anchor, admin);
  const [counts] = await db.query<{ requests: number; returns: number }>(
    `SELECT (SELECT count(*)::int FROM sim_requests WHERE id > $1) AS requests,
       (SELECT count(*)::int FROM sim_returns WHERE id > $2) AS returns`,
    [requestBase!.id, returnBase!.id],
  );
  return {
    sims: total,
    simBoxes: boxes,
    agents: agents.length,
    simRequests: counts!.requests,
    simReturns: counts!.returns,
    detectionRuns: runs,
  };
}

/**
 * SIMs first..last (serials) with their fate, timeline and ledger: one statement each. A pack's
 * age says where its SIMs are: in stock, on their way, with the agent (recent), or mostly active
 * and some returned, lost or defective (older).
 */
async function insertSims(
  db: Queryable,
  range: { anchor: string; admin: number; first: number; last: number },
) {
  const params = [range.anchor, range.first, range.last];
  await db.query(
    `WITH gen AS (
       SELECT g, pk.*, ${hashSql('g')} % 100 AS r,
         pk.received_at + interval '9 days' AS with_agent_at
       FROM generate_series($2::int, $3::int) AS g
       JOIN generated_sim_packs pk ON pk.p = g / ${PACK_SIMS}),
     fated AS (
       SELECT gen.*,
         CASE
           WHEN age <= ${IN_STOCK_DAYS} THEN 'in_stock'
           WHEN age <= ${IN_TRANSIT_DAYS} THEN 'in_transit'
           WHEN age <= ${RECENT_DAYS} THEN
             CASE WHEN r < 38 THEN 'with_agent' WHEN r < 62 THEN 'assigned' WHEN r < 92 THEN 'active'
               WHEN r < 96 THEN 'inactive' WHEN r < 98 THEN 'lost' WHEN r < 99 THEN 'defective'
               ELSE 'with_agent' END
           ELSE
             CASE WHEN r < 58 THEN 'active' WHEN r < 70 THEN 'inactive' WHEN r < 73 THEN 'suspended'
               WHEN r < 81 THEN 'restocked' WHEN r < 85 THEN 'destroyed' WHEN r < 86 THEN 'lost'
               WHEN r < 88 THEN 'defective' WHEN r < 94 THEN 'assigned' ELSE 'with_agent' END
         END AS fate
       FROM gen),
     timed AS (
       SELECT fated.*,
         fate IN ('active', 'inactive', 'suspended', 'destroyed') AS was_active,
         least($1::timestamptz - interval '1 hour',
               with_agent_at + interval '1 day' * (r % 20) + interval '3 hours') AS assigned_at
       FROM fated)
     INSERT INTO sim_cards (iccid, issuer, client_carrier_id, form, status, sim_box_id, sim_pack_id,
       sim_request_id, agent_id, held_since, enrolment_ref, assigned_at, mdn, activated_at,
       ever_active, activated_agent_id, last_detected_at, last_detect_state, sim_return_id,
       status_reason, created_at, updated_at)
     SELECT ${iccidSql('g')}, 'T-Mobile', carrier_id, 'triple-cut',
       CASE fate WHEN 'restocked' THEN 'in_stock' ELSE fate END,
       box_id, pack_id,
       CASE WHEN fate NOT IN ('in_stock', 'restocked') THEN request_id END,
       CASE WHEN fate NOT IN ('in_stock', 'restocked', 'in_transit') THEN agent_id END,
       CASE
         WHEN fate = 'in_stock' THEN received_at
         WHEN fate = 'in_transit' THEN received_at + interval '5 days'
         WHEN fate IN ('restocked', 'destroyed') THEN received_at + interval '52 days'
         ELSE with_agent_at END,
       CASE WHEN fate IN ('assigned', 'active', 'inactive', 'suspended', 'destroyed')
         THEN 'ENR-' || lpad(g::text, 9, '0') END,
       CASE WHEN fate IN ('assigned', 'active', 'inactive', 'suspended', 'destroyed')
         THEN assigned_at END,
       CASE WHEN was_active THEN '214' || lpad((g % 10000000)::text, 7, '0') END,
       CASE WHEN was_active THEN least($1::timestamptz, assigned_at + interval '2 days') END,
       was_active, CASE WHEN was_active THEN agent_id END,
       CASE WHEN was_active THEN $1::timestamptz - interval '1 day' * (r % 28) END,
       CASE WHEN fate IN ('active', 'destroyed') THEN 'active'
         WHEN fate IN ('inactive', 'suspended') THEN fate END,
       CASE WHEN fate = 'destroyed' THEN return_id END,
       CASE WHEN fate = 'lost' THEN 'Agent reported it lost'
         WHEN fate = 'defective' THEN 'Does not register on the network' END,
       received_at, $1::timestamptz
     FROM timed ORDER BY g`,
    params,
  );
  // The chunk's ICCIDs, from our own loop's numbers.
  const iccids = `${iccidSql(`${range.first}::bigint`)} AND ${iccidSql(`${range.last}::bigint`)}`;
  // The receipt of every SIM, and its latest step.
  await db.query(
    `INSERT INTO sim_events (sim_id, at, actor_id, actor_name, type, from_status, to_status, data)
     SELECT s.id, b.received_at, b.received_by, 'admin', 'received', NULL, 'in_stock',
       jsonb_build_object('box', b.code)
     FROM sim_cards s JOIN sim_boxes b ON b.id = s.sim_box_id
     WHERE s.iccid BETWEEN ${iccids}`,
  );
  await db.query(
    `INSERT INTO sim_events (sim_id, at, actor_id, actor_name, type, from_status, to_status, data)
     SELECT s.id, step.at, s.agent_id, COALESCE(u.user_name, 'admin'), step.type, step.from_status,
       s.status, '{}'::jsonb
     FROM sim_cards s LEFT JOIN users u ON u.id = s.agent_id,
       LATERAL (SELECT CASE s.status
           WHEN 'in_transit' THEN 'shipped' WHEN 'with_agent' THEN 'received'
           WHEN 'assigned' THEN 'assigned' WHEN 'active' THEN 'detected_active'
           WHEN 'inactive' THEN 'detected_inactive' WHEN 'suspended' THEN 'detected_suspended'
           WHEN 'destroyed' THEN 'destroyed' WHEN 'lost' THEN 'marked_lost'
           WHEN 'defective' THEN 'marked_defective' WHEN 'in_stock' THEN 'restocked' END AS type,
         CASE s.status
           WHEN 'in_transit' THEN 'allocated' WHEN 'with_agent' THEN 'in_transit'
           WHEN 'assigned' THEN 'with_agent' WHEN 'active' THEN 'assigned'
           WHEN 'inactive' THEN 'active' WHEN 'suspended' THEN 'active'
           WHEN 'in_stock' THEN 'returned' WHEN 'destroyed' THEN 'returned'
           ELSE 'with_agent' END AS from_status,
         COALESCE(s.activated_at, s.assigned_at, s.held_since) AS at) step
     WHERE s.iccid BETWEEN ${iccids} AND (s.status <> 'in_stock' OR s.sim_pack_id IS NOT NULL)`,
  );
  // The agents' ledgers: what each received, activated and returned.
  await db.query(
    `INSERT INTO agent_sim_ledger (agent_id, sim_id, entry, sim_request_id, sim_return_id, at,
       actor_id)
     SELECT pk.agent_id, s.id, entry.kind, pk.request_id,
       CASE WHEN entry.kind = 'returned' THEN pk.return_id END, entry.at, pk.agent_id
     FROM sim_cards s
     JOIN generated_sim_packs pk ON pk.pack_id = s.sim_pack_id,
       LATERAL (VALUES
         ('received', pk.received_at + interval '9 days', pk.age > ${IN_TRANSIT_DAYS}),
         ('activated', s.activated_at, s.ever_active),
         ('returned', pk.received_at + interval '50 days',
           s.sim_return_id IS NOT NULL OR (s.status = 'in_stock' AND pk.age > ${RECENT_DAYS}))
       ) AS entry (kind, at, happened)
     WHERE s.iccid BETWEEN ${iccids} AND entry.happened`,
  );
  // The lines of the returns: SIMs restocked (never active) or destroyed (active once).
  await db.query(
    `INSERT INTO sim_return_lines (sim_return_id, iccid, sim_id, expected, received_at,
       received_by, disposition, disposed_at, disposed_by)
     SELECT pk.return_id, s.iccid, s.id, true, pk.received_at + interval '50 days', $1::bigint,
       CASE WHEN s.ever_active THEN 'destroy' ELSE 'restock' END,
       pk.received_at + interval '52 days', $1::bigint
     FROM sim_cards s JOIN generated_sim_packs pk ON pk.pack_id = s.sim_pack_id
     WHERE s.iccid BETWEEN ${iccids} AND pk.return_id IS NOT NULL
       AND (s.status = 'destroyed' OR s.status = 'in_stock')`,
    [range.admin],
  );
}

/**
 * Monthly detection runs per carrier over the year with their totals (SIMs first seen active that
 * month, and those matched by then), the latest run of each carrier with its rows, and a few SIMs
 * seen active while in stock, each an open anomaly of that run.
 */
async function generateDetectionRuns(db: Queryable, anchor: string, admin: number) {
  const [runBase] = await db.query<{ id: number }>(
    'SELECT COALESCE(max(id), 0)::bigint AS id FROM sim_detection_runs',
  );
  await db.query(
    `INSERT INTO sim_detection_runs (source, client_carrier_id, file_name, status, rows_total,
       rows_loaded, matched, newly_active, unknown, anomalies, started_at, finished_at, run_by)
     SELECT 'file', c.id, 'activations-' || to_char(m.month, 'YYYY-MM') || '.csv', 'done',
       counts.matched + counts.matched / 200, counts.matched + counts.matched / 200,
       counts.matched, counts.newly, counts.matched / 200, 0,
       m.month + interval '1 month' - interval '20 hours',
       m.month + interval '1 month' - interval '19 hours', $2
     FROM (SELECT DISTINCT client_carrier_id AS id FROM sim_boxes) c,
       generate_series(date_trunc('month', $1::timestamptz - interval '11 months'),
                       date_trunc('month', $1::timestamptz - interval '1 month'),
                       interval '1 month') AS m (month),
       LATERAL (SELECT
           count(*) FILTER (WHERE s.activated_at <= m.month + interval '1 month')::int AS matched,
           count(*) FILTER (WHERE s.activated_at >= m.month
                              AND s.activated_at < m.month + interval '1 month')::int AS newly
         FROM sim_cards s WHERE s.client_carrier_id = c.id AND s.ever_active) counts
     ORDER BY m.month, c.id`,
    [anchor, admin],
  );
  // The latest run of each carrier with its rows: the SIMs it saw in a state.
  await db.query(
    `INSERT INTO sim_detection_rows (run_id, line, iccid, state, mdn, activation_date, imei_seen,
       sim_id, outcome)
     SELECT run.id, row_number() OVER (PARTITION BY run.id ORDER BY s.id)::int + 1, s.iccid,
       s.last_detect_state, s.mdn, s.activated_at::date, NULL, s.id,
       CASE WHEN s.activated_at >= run.started_at - interval '1 month' THEN 'newly_active'
         ELSE 'unchanged' END
     FROM (SELECT DISTINCT ON (client_carrier_id) id, client_carrier_id, started_at
           FROM sim_detection_runs WHERE id > $1 ORDER BY client_carrier_id, started_at DESC) run
     JOIN sim_cards s ON s.client_carrier_id = run.client_carrier_id
       AND s.last_detect_state IS NOT NULL AND s.activated_at < run.started_at`,
    [runBase!.id],
  );
  // A few restocked SIMs the carrier saw active: stock to check, not to allocate.
  await db.query(
    `WITH latest AS (
       SELECT DISTINCT ON (client_carrier_id) id, client_carrier_id, started_at
       FROM sim_detection_runs WHERE id > $1 ORDER BY client_carrier_id, started_at DESC),
     seen AS (
       SELECT s.id, latest.id AS run_id, latest.started_at FROM latest
       JOIN LATERAL (SELECT id FROM sim_cards WHERE client_carrier_id = latest.client_carrier_id
                     AND status = 'in_stock' AND sim_pack_id IS NOT NULL ORDER BY id LIMIT 5) s
         ON true),
     marked AS (
       UPDATE sim_cards s SET last_detect_state = 'active', last_detected_at = seen.started_at,
         ever_active = true
       FROM seen WHERE s.id = seen.id RETURNING s.id)
     INSERT INTO sim_anomalies (sim_id, run_id, kind, detail, created_at)
     SELECT seen.id, seen.run_id, 'active_in_stock', 'Seen active while in stock', seen.started_at
     FROM seen JOIN marked ON marked.id = seen.id`,
    [runBase!.id],
  );
  await db.query(
    `UPDATE sim_detection_runs r SET anomalies = a.n
     FROM (SELECT run_id, count(*)::int AS n FROM sim_anomalies GROUP BY run_id) a
     WHERE a.run_id = r.id AND r.id > $1`,
    [runBase!.id],
  );
  const [runs] = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM sim_detection_runs WHERE id > $1',
    [runBase!.id],
  );
  return runs!.n;
}
