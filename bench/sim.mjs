// Issue 17's gates (SIM cards): what a bench server adds for them, and their floors on the SIM
// table (QUALITY.md: F1 one committed SIM row, F2 a keyset page of 50 SIM rows).
import { Readable } from 'node:stream';
import { luhnCheckDigit } from '@inventory/contract';
import { applyDetectionFile } from '../apps/api/dist/modules/sim/index.js';

/** Stations allocating at once, each to an approved request of its own agent. */
const ALLOCATING_REQUESTS = 10;
/** Agents recording activations at once, each from their own phone (session). */
const ACTIVATING_AGENTS = 50;
/** In-stock ICCIDs the allocation gate may take, and agents' SIMs the activation gate may take. */
const POOL = 60_000;
const DETECTION_ROWS = Number(process.env.BENCH_DETECTION_ROWS || 1_000_000);
/** The generated agents' password: the first admin's at generation, before the bench changed it. */
const AGENT_PASSWORD = 'admin';

/**
 * The allocation gate's stock: ALLOCATING_REQUESTS approved requests (agents without an open one,
 * their cap lifted) of the carrier with the most SIMs in stock, and those SIMs' ICCIDs; the
 * activation gate's: ACTIVATING_AGENTS agents with the most SIMs on hand and those ICCIDs, the
 * agents' scan limit at its highest (the gate measures the work, not the limiter).
 */
export async function createSimStock(db) {
  const [carrier] = await db.query(
    `SELECT client_carrier_id AS id FROM sim_cards WHERE status = 'in_stock'
     GROUP BY client_carrier_id ORDER BY count(*) DESC LIMIT 1`,
  );
  if (!carrier) return {};
  const [admin] = await db.query("SELECT id FROM users WHERE user_name = 'admin'");
  const agents = await db.query(
    `SELECT u.id FROM users u WHERE u.type = 'agent' AND u.user_name LIKE 'agent.%'
       AND NOT EXISTS (SELECT 1 FROM sim_requests r WHERE r.agent_id = u.id
                       AND r.status IN ('submitted', 'approved', 'packed'))
     ORDER BY u.id DESC LIMIT ${ALLOCATING_REQUESTS}`,
  );
  await db.query('UPDATE users SET sim_cap = 1000000 WHERE id = ANY ($1::bigint[])', [
    agents.map((agent) => agent.id),
  ]);
  const requests = await db.query(
    `INSERT INTO sim_requests (number, agent_id, client_carrier_id, qty_requested, qty_approved,
       status, approved_at, approved_by)
     SELECT 'SR-' || lpad(nextval('sim_request_numbers')::text, 6, '0'), id, $2, 100000, 100000,
       'approved', now(), $3
     FROM unnest($1::bigint[]) AS a (id) ORDER BY id RETURNING id`,
    [agents.map((agent) => agent.id), carrier.id, admin.id],
  );
  const allocationIccids = (
    await db.query(
      `SELECT iccid FROM sim_cards WHERE client_carrier_id = $1 AND status = 'in_stock'
         AND NOT ever_active ORDER BY id DESC LIMIT ${POOL}`,
      [carrier.id],
    )
  ).map((row) => row.iccid);
  // A registry with few SIMs in stock would run the gate dry: a box of its own makes up the pool.
  if (allocationIccids.length < POOL) {
    allocationIccids.push(
      ...(await receiveBenchBox(db, carrier.id, POOL - allocationIccids.length)),
    );
  }

  await db.query('UPDATE sim_settings SET agent_scans_per_minute = 6000');
  const activating = await db.query(
    `SELECT agent_id AS id, (SELECT user_name FROM users WHERE id = agent_id) AS user_name,
       array_agg(iccid ORDER BY id) AS iccids
     FROM sim_cards WHERE status = 'with_agent'
     GROUP BY agent_id ORDER BY count(*) DESC, agent_id LIMIT ${ACTIVATING_AGENTS}`,
  );
  return {
    allocationRequests: requests.map((request) => request.id),
    allocationIccids,
    activationAgents: activating.map((agent) => ({
      userName: agent.user_name,
      iccids: agent.iccids.slice(0, Math.ceil(POOL / ACTIVATING_AGENTS)),
    })),
    simFloor: { carrierId: carrier.id },
  };
}

/** A received box of `qty` in-stock SIMs of the carrier, on ICCIDs no generator writes. */
async function receiveBenchBox(db, carrierId, qty) {
  const iccids = Array.from({ length: qty }, (_, n) => {
    const payload = `8988${String(n).padStart(14, '0')}`;
    return `${payload}${luhnCheckDigit(payload)}`;
  });
  const [box] = await db.query(
    `INSERT INTO sim_boxes (code, client_carrier_id, received_by_range, iccid_first, iccid_last,
       qty, qty_available)
     VALUES ('SB-' || lpad(nextval('sim_box_numbers')::text, 6, '0'), $1, true, $2, $3, $4, $4)
     RETURNING id`,
    [carrierId, iccids[0], iccids.at(-1), qty],
  );
  await db.query(
    `INSERT INTO sim_cards (iccid, client_carrier_id, sim_box_id)
     SELECT iccid, $2, $3 FROM unnest($1::text[]) AS iccid`,
    [iccids, carrierId, box.id],
  );
  return iccids;
}

/** Signs each activating agent in, as their phone would: a session per agent. */
export async function signInAgents(post, appPort, stock) {
  if (!stock.activationAgents) return {};
  const sessions = [];
  for (const agent of stock.activationAgents) {
    const session = await post(appPort, '/agent/login', {
      user_name: agent.userName,
      password: AGENT_PASSWORD,
    });
    sessions.push({ token: session.token, iccids: agent.iccids });
  }
  return { activationSessions: sessions };
}

/**
 * F1 `POST /sim`: one committed SIM row (a fresh ICCID each time, in one of the generated
 * boxes) and F2 `GET /sims`: the SIM list's first page by its default order, own columns only.
 */
export function addSimFloors(server, db, { simFloor }) {
  if (!simFloor) return;
  let next = 0;
  let box = null;
  server.post('/sim', async () => {
    next += 1;
    box ??= (await db.query('SELECT min(id) AS id FROM sim_boxes'))[0].id;
    const [row] = await db.query(
      `INSERT INTO sim_cards (iccid, client_carrier_id, sim_box_id) VALUES ($1, $2, $3)
       RETURNING id`,
      [
        `8999${String(process.pid % 1000).padStart(3, '0')}${String(next).padStart(12, '0')}`,
        simFloor.carrierId,
        box,
      ],
    );
    return row;
  });
  const nullable = (type) => ({ type: [type, 'null'] });
  const sim = {
    type: 'object',
    properties: {
      id: { type: 'integer' },
      iccid: { type: 'string' },
      issuer: nullable('string'),
      client_carrier_id: { type: 'integer' },
      status: { type: 'string' },
      sim_box_id: { type: 'integer' },
      sim_pack_id: nullable('integer'),
      sim_request_id: nullable('integer'),
      agent_id: nullable('integer'),
      order_id: nullable('integer'),
      device_id: nullable('integer'),
      mdn: nullable('string'),
      activated_at: nullable('string'),
      last_detected_at: nullable('string'),
      last_detect_state: nullable('string'),
    },
  };
  server.get(
    '/sims',
    {
      schema: {
        response: { 200: { type: 'object', properties: { data: { type: 'array', items: sim } } } },
      },
    },
    async () => ({
      data: await db.query(
        `SELECT id, iccid, issuer, client_carrier_id, status, sim_box_id, sim_pack_id,
           sim_request_id, agent_id, order_id, device_id, mdn, activated_at::text,
           last_detected_at::text, last_detect_state
         FROM sim_cards ORDER BY id DESC LIMIT 50`,
      ),
    }),
  );
}

/** The carrier's word for a row's state: mostly active, some inactive or suspended. */
const stateOf = (i) => (i % 10 < 7 ? 'active' : i % 10 < 9 ? 'inactive' : 'suspended');

/**
 * B against the detection import: the same states applied to two halves of the generated SIMs
 * alike (even ids and odd ids, the same mix of statuses; not F1's rows), the raw way on one (one UPDATE from arrays) and
 * the app's way on the other (its rows streamed from CSV text, loaded and applied with the
 * timeline, the agents' credit and the anomalies).
 */
export async function benchDetectionImport(db) {
  const half = async (parity) =>
    db.query(
      `SELECT iccid, client_carrier_id FROM sim_cards WHERE id % 2 = $1 AND issuer IS NOT NULL
       ORDER BY id LIMIT $2`,
      [parity, DETECTION_ROWS],
    );
  const [rawSims, appSims] = [await half(1), await half(0)];
  const start = performance.now();
  await db.query(
    `UPDATE sim_cards s SET
       status = CASE
         WHEN r.state = 'active' AND s.status IN ('allocated', 'in_transit', 'with_agent',
           'assigned', 'active', 'inactive', 'suspended', 'shipped') THEN 'active'
         WHEN r.state = 'inactive' AND s.status IN ('active', 'suspended') THEN 'inactive'
         WHEN r.state = 'suspended' AND s.status IN ('active', 'inactive') THEN 'suspended'
         ELSE s.status END,
       last_detect_state = r.state, last_detected_at = now(), mdn = COALESCE(r.mdn, s.mdn),
       activated_at = CASE WHEN r.state = 'active' THEN COALESCE(s.activated_at, r.activated::timestamptz)
         ELSE s.activated_at END,
       ever_active = s.ever_active OR r.state = 'active', updated_at = now()
     FROM unnest($1::text[], $2::text[], $3::text[], $4::date[]) AS r (iccid, state, mdn, activated)
     WHERE s.iccid = r.iccid`,
    [
      rawSims.map((sim) => sim.iccid),
      rawSims.map((_, i) => stateOf(i)),
      rawSims.map((_, i) => `214${String(i).padStart(7, '0')}`),
      rawSims.map(() => '2026-11-01'),
    ],
  );
  const rawSeconds = (performance.now() - start) / 1000;

  const csv = [
    'ICCID,State,MDN,Activation date',
    ...appSims.map(
      (sim, i) => `${sim.iccid},${stateOf(i)},214${String(i).padStart(7, '0')},2026-11-01`,
    ),
  ].join('\n');
  const [admin] = await db.query("SELECT id, user_name FROM users WHERE user_name = 'admin'");
  const appStart = performance.now();
  const run = await applyDetectionFile(
    db,
    {
      userId: admin.id,
      userName: admin.user_name,
      roles: [],
      permissions: [],
      roleKeys: ['admin'],
    },
    {
      clientCarrierId: appSims[0].client_carrier_id,
      fileName: 'bench-activations.csv',
      stream: Readable.from([csv]),
      columns: {
        iccid: 'ICCID',
        state: 'State',
        mdn: 'MDN',
        activation_date: 'Activation date',
        imei: null,
      },
    },
  );
  return {
    rows: appSims.length,
    rawSeconds,
    appSeconds: (performance.now() - appStart) / 1000,
    matched: run.matched,
    status: run.status,
  };
}
