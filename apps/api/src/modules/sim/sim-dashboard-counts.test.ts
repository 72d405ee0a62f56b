import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/db.js';
import { createTestApp, createUser, type TestApp } from '../../test/test-app.js';

/**
 * The SIM counts kept by migration 0049's triggers equal counting the SIMs and the ledger, after
 * any mix of set-based inserts (a box of thousands), updates (a detection moving many states,
 * agents receiving, assigning, returning), deletes and ledger entries, in many transactions.
 */

let t: TestApp;
let carriers: number[];
let agents: number[];
let boxId: number;

/** A small seeded generator, so a failure is repeatable. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

/** States without an agent that need no request either. */
const UNHELD = ['in_stock', 'returned', 'lost'];

async function keptAndCounted(db: Db) {
  const pairs = async (kept: string, counted: string) => {
    const [keptRows, countedRows] = await Promise.all([db.query(kept), db.query(counted)]);
    return { kept: keptRows, counted: countedRows };
  };
  return {
    status: await pairs(
      `SELECT client_carrier_id, status, sum(sims)::int AS n FROM sim_status_counts
       GROUP BY 1, 2 HAVING sum(sims) <> 0 ORDER BY 1, 2`,
      `SELECT client_carrier_id, status, count(*)::int AS n FROM sim_cards GROUP BY 1, 2 ORDER BY 1, 2`,
    ),
    agents: await pairs(
      `SELECT agent_id, client_carrier_id, status, sum(sims)::int AS n FROM sim_agent_counts
       GROUP BY 1, 2, 3 HAVING sum(sims) <> 0 ORDER BY 1, 2, 3`,
      `SELECT agent_id, client_carrier_id, status, count(*)::int AS n FROM sim_cards
       WHERE agent_id IS NOT NULL GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
    ),
    held: await pairs(
      `SELECT agent_id, day::text, sum(sims)::int AS n FROM sim_agent_held_days
       GROUP BY 1, 2 HAVING sum(sims) <> 0 ORDER BY 1, 2`,
      `SELECT agent_id, (held_since AT TIME ZONE (SELECT time_zone FROM order_settings))::date::text
         AS day, count(*)::int AS n
       FROM sim_cards WHERE status = 'with_agent' GROUP BY 1, 2 ORDER BY 1, 2`,
    ),
    activations: await pairs(
      `SELECT day::text, client_carrier_id, agent_id, sum(sims)::int AS n FROM sim_activation_days
       GROUP BY 1, 2, 3 HAVING sum(sims) <> 0 ORDER BY 1, 2, 3`,
      `SELECT (activated_at AT TIME ZONE (SELECT time_zone FROM order_settings))::date::text
         AS day, client_carrier_id, activated_agent_id AS agent_id, count(*)::int AS n
       FROM sim_cards WHERE activated_at IS NOT NULL GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
    ),
    figures: await pairs(
      `SELECT agent_id, sum(received)::int AS received, sum(activated)::int AS activated
       FROM sim_agent_figures GROUP BY 1 HAVING sum(received) <> 0 OR sum(activated) <> 0
       ORDER BY 1`,
      `SELECT agent_id, sum(received)::int AS received, sum(activated)::int AS activated FROM (
         SELECT agent_id, count(*) AS received, 0 AS activated FROM agent_sim_ledger
         WHERE entry IN ('received', 'transfer_in') GROUP BY agent_id
         UNION ALL
         SELECT activated_agent_id, 0, count(*) FROM sim_cards
         WHERE activated_agent_id IS NOT NULL GROUP BY activated_agent_id) f
       GROUP BY 1 ORDER BY 1`,
    ),
  };
}

async function expectKeptEqualsCounted(db: Db) {
  const all = await keptAndCounted(db);
  for (const [figure, { kept, counted }] of Object.entries(all)) {
    expect(kept, figure).toEqual(counted);
  }
}

let nextIccid = 1;
/** ICCIDs of the test: the pattern only (the table checks the form, not the check digit). */
const iccids = (n: number) =>
  Array.from({ length: n }, () => `8901410${String(nextIccid++).padStart(12, '0')}`);

beforeAll(async () => {
  t = await createTestApp();
  carriers = [];
  for (const name of ['Kept One Wireless', 'Kept Two Wireless']) {
    const [row] = await t.db.query<{ id: number }>(
      "INSERT INTO vendors (name, type) VALUES ($1, 'carrier-client') RETURNING id",
      [name],
    );
    carriers.push(row!.id);
  }
  agents = [];
  for (const name of ['kept.agent.one', 'kept.agent.two', 'kept.agent.three']) {
    agents.push(
      await createUser(t.db, { userName: name, password: `${name}-pw-1`, type: 'agent' }),
    );
  }
  const [box] = await t.db.query<{ id: number }>(
    `INSERT INTO sim_boxes (code, client_carrier_id, received_by_range, iccid_first, iccid_last,
                            qty, qty_available)
     VALUES ('SB-900001', $1, true, '8901410000000000001', '8901410000000099999', 99999, 0)
     RETURNING id`,
    [carriers[0]],
  );
  boxId = box!.id;
});
afterAll(() => t.close());

describe('the kept SIM counts', () => {
  it('equal counting the SIMs after a box of thousands arrives', async () => {
    await t.db.query(
      `INSERT INTO sim_cards (iccid, client_carrier_id, sim_box_id)
       SELECT iccid, $2, $3 FROM unnest($1::text[]) AS s (iccid)`,
      [iccids(3_000), carriers[0], boxId],
    );
    await expectKeptEqualsCounted(t.db);
  });

  it('equal counting the SIMs and the ledger after random set-based changes', async () => {
    const next = random(17);
    const pick = <T>(values: readonly T[]) => values[Math.floor(next() * values.length)]!;
    for (let round = 0; round < 40; round++) {
      const kind = Math.floor(next() * 6);
      const share = Math.max(1, Math.floor(next() * 30));
      await t.db.transaction(async (tx) => {
        if (kind === 0) {
          await tx.query(
            `INSERT INTO sim_cards (iccid, client_carrier_id, sim_box_id, status, agent_id,
                                    held_since)
             SELECT iccid, $2, $3, $4, $5, now() - make_interval(days => $6)
             FROM unnest($1::text[]) AS s (iccid)`,
            [
              iccids(Math.floor(next() * 400) + 1),
              pick(carriers),
              boxId,
              pick(['in_stock', 'with_agent']),
              pick(agents),
              Math.floor(next() * 60),
            ],
          );
        } else if (kind === 1) {
          // Agents receive: with an agent since some day, and on the ledger.
          const moved = await tx.query<{ id: number }>(
            `UPDATE sim_cards SET status = 'with_agent', agent_id = $1,
               held_since = now() - make_interval(days => $3), client_carrier_id = $4
             WHERE id % $2 = 0 AND status IN ('in_stock', 'returned', 'lost')
             RETURNING id`,
            [pick(agents), share, Math.floor(next() * 60), pick(carriers)],
          );
          await tx.query(
            `INSERT INTO agent_sim_ledger (agent_id, sim_id, entry)
             SELECT agent_id, id, $2 FROM sim_cards WHERE id = ANY ($1::bigint[])`,
            [moved.map((row) => row.id), pick(['received', 'transfer_in', 'assigned'])],
          );
        } else if (kind === 2) {
          // A detection: many SIMs seen active, credited to their agent on a day.
          await tx.query(
            `UPDATE sim_cards SET status = 'active', activated_agent_id = agent_id,
               activated_at = COALESCE(activated_at, now() - make_interval(days => $2))
             WHERE id % $1 = 1 AND status IN ('with_agent', 'assigned')`,
            [share, Math.floor(next() * 40)],
          );
        } else if (kind === 3) {
          await tx.query(
            `UPDATE sim_cards SET status = $2 WHERE id % $1 = 2 AND agent_id IS NOT NULL
               AND status = 'with_agent'`,
            [share, pick(['assigned', 'with_agent'])],
          );
        } else if (kind === 4) {
          // Returned and restocked: no agent any more (the credit for an activation stays).
          await tx.query(
            `UPDATE sim_cards SET status = $2, agent_id = NULL, held_since = now()
             WHERE id % $1 = 3`,
            [share, pick(UNHELD)],
          );
        } else {
          await tx.query(
            `DELETE FROM sim_cards WHERE id IN (
               SELECT id FROM sim_cards c WHERE id % $1 = 4
               AND NOT EXISTS (SELECT 1 FROM agent_sim_ledger l WHERE l.sim_id = c.id) LIMIT 50)`,
            [share],
          );
        }
      });
    }
    await expectKeptEqualsCounted(t.db);
    const [agentRows] = await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM sim_agent_counts',
    );
    expect(agentRows!.n).toBeGreaterThan(0);
  });

  it('are written into shards, one per writing transaction', async () => {
    const [row] = await t.db.query<{ shards: number }>(
      'SELECT count(DISTINCT shard)::int AS shards FROM sim_status_counts',
    );
    expect(row!.shards).toBeGreaterThan(1);
  });
});
