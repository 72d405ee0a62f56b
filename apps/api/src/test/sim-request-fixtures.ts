import { luhnCheckDigit } from '@inventory/contract';
import type { Db } from '../db/db.js';
import { apiClient, type ApiClient } from './api-client.js';
import { createUser, login, type TestApp } from './test-app.js';

/**
 * What the SIM request tests start from: a client carrier, SIM boxes split into packs, in stock,
 * and agents with their cap, seeded in SQL (the box receipt is another area's).
 */

let next = 0;
const unique = () => {
  next += 1;
  return `${next}${Math.floor(Math.random() * 1e6)}`;
};

/** A valid ICCID of the T-Mobile prefix: 8901260, 11 digits of `serial`, the Luhn digit. */
export function iccidOf(serial: number): string {
  const body = `8901260${String(serial).padStart(11, '0')}`;
  return `${body}${luhnCheckDigit(body)}`;
}

export async function seedCarrier(db: Db, name = `Carrier ${unique()}`): Promise<number> {
  const [row] = await db.query<{ id: number }>(
    `INSERT INTO vendors (name, type) VALUES ($1, 'carrier-client') RETURNING id::int AS id`,
    [name],
  );
  return row!.id;
}

export type SeededPack = { id: number; code: string; iccids: string[] };

let serial = Math.floor(Math.random() * 1e8) * 1000;

/** A box of the carrier split into `packs` packs of `size` SIMs in stock. */
export async function seedPacks(
  db: Db,
  carrierId: number,
  packs: number,
  size: number,
): Promise<SeededPack[]> {
  const iccids = Array.from({ length: packs * size }, () => iccidOf((serial += 1)));
  const [box] = await db.query<{ id: number }>(
    `INSERT INTO sim_boxes (code, client_carrier_id, received_by_range, iccid_first, iccid_last,
                            qty, qty_available, status)
     VALUES ('SB-' || lpad(nextval('sim_box_numbers')::text, 6, '0'), $1, true, $2, $3, $4, $4,
             'split')
     RETURNING id::int AS id`,
    [carrierId, iccids[0], iccids.at(-1), iccids.length],
  );
  const seeded: SeededPack[] = [];
  for (let n = 0; n < packs; n += 1) {
    const [pack] = await db.query<{ id: number; code: string }>(
      `INSERT INTO sim_packs (code, sim_box_id, size)
       VALUES ('SP-' || lpad(nextval('sim_pack_numbers')::text, 6, '0'), $1, $2)
       RETURNING id::int AS id, code`,
      [box!.id, size],
    );
    const ofPack = iccids.slice(n * size, (n + 1) * size);
    await db.query(
      `INSERT INTO sim_cards (iccid, client_carrier_id, sim_box_id, sim_pack_id)
       SELECT unnest($1::text[]), $2, $3, $4`,
      [ofPack, carrierId, box!.id, pack!.id],
    );
    seeded.push({ ...pack!, iccids: ofPack });
  }
  return seeded;
}

/** An agent with the Agent role and a SIM cap, signed in. */
export async function agentOf(
  t: TestApp,
  simCap: number | null,
): Promise<{ id: number; api: ApiClient }> {
  const userName = `agent.${unique()}`;
  const password = `${userName}-password`;
  const id = await createUser(t.db, { userName, password, roles: ['Agent'], type: 'agent' });
  await t.db.query(`UPDATE users SET sim_cap = $2 WHERE id = $1`, [id, simCap]);
  return { id, api: apiClient(t, await login(t.app, userName, password)) };
}

/** A staff member holding the roles named, signed in. */
export async function staffOf(t: TestApp, roles: string[]): Promise<ApiClient> {
  const userName = `staff.${unique()}`;
  const password = `${userName}-password`;
  await createUser(t.db, { userName, password, roles });
  return apiClient(t, await login(t.app, userName, password));
}

/** Credits the agent with received and activated SIMs, as if they had come and gone live. */
export async function seedAgentHistory(
  db: Db,
  agentId: number,
  carrierId: number,
  received: number,
  activated: number,
): Promise<void> {
  const [pack] = await seedPacks(db, carrierId, 1, received);
  const ids = await db.query<{ id: number }>(
    `UPDATE sim_cards SET status = 'active', agent_id = $2, ever_active = true,
       activated_agent_id = CASE WHEN row_number <= $3 THEN $2::bigint END
     FROM (SELECT id AS sim, row_number() OVER (ORDER BY id) AS row_number
           FROM sim_cards WHERE sim_pack_id = $1) AS numbered
     WHERE sim_cards.id = numbered.sim RETURNING sim_cards.id::int AS id`,
    [pack!.id, agentId, activated],
  );
  await db.query(
    `INSERT INTO agent_sim_ledger (agent_id, sim_id, entry) SELECT $1, unnest($2::bigint[]), 'received'`,
    [agentId, ids.map((row) => row.id)],
  );
  await db.query(
    `UPDATE sim_boxes SET qty_available = 0, status = 'depleted' WHERE id =
    (SELECT sim_box_id FROM sim_packs WHERE id = $1)`,
    [pack!.id],
  );
}
