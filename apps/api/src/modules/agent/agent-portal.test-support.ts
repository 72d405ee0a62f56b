import { luhnCheckDigit } from '@inventory/contract';
import type { Db } from '../../db/db.js';
import { apiClient, type ApiClient } from '../../test/api-client.js';
import { createUser, login, type TestApp } from '../../test/test-app.js';

/** A valid ICCID (with its Luhn check digit) from a serial. */
export function iccidOf(serial: number): string {
  const payload = `890141${String(serial).padStart(12, '0')}`;
  return `${payload}${luhnCheckDigit(payload)}`;
}

/** An IMEI with its Luhn check digit from a serial. */
export function imeiOf(serial: number): string {
  const payload = `3500000${String(serial).padStart(7, '0')}`;
  return `${payload}${luhnCheckDigit(payload)}`;
}

/** A signed-in user of the app, with the API client acting as them. */
export async function signedIn(
  t: TestApp,
  userName: string,
  roles: string[],
  type: 'staff' | 'agent' = 'staff',
): Promise<{ id: number; client: ApiClient }> {
  const password = `${userName}-password-1`;
  const id = await createUser(t.db, { userName, password, roles, type });
  return { id, client: apiClient(t, await login(t.app, userName, password)) };
}

export async function createCarrier(db: Db, name: string): Promise<number> {
  const [row] = await db.query<{ id: number }>(
    "INSERT INTO vendors (name, type) VALUES ($1, 'carrier-client') RETURNING id",
    [name],
  );
  return row!.id;
}

/**
 * SIMs of a carrier written straight into a new box, in a state, held by an agent since some
 * days ago (receipts on the agent's ledger): the other areas' screens make them in real use.
 */
export async function seedSims(
  db: Db,
  options: {
    carrierId: number;
    serials: readonly number[];
    status?: string;
    agentId?: number | null;
    heldDaysAgo?: number;
    requestId?: number | null;
  },
): Promise<number[]> {
  const iccids = options.serials.map(iccidOf);
  const [box] = await db.query<{ id: number }>(
    `INSERT INTO sim_boxes (code, client_carrier_id, received_by_range, iccid_first, iccid_last,
                            qty, qty_available)
     VALUES ('SB-' || lpad(nextval('sim_box_numbers')::text, 6, '0'), $1, false, $2, $3, $4, 0)
     RETURNING id`,
    [options.carrierId, iccids[0], iccids.at(-1), iccids.length],
  );
  const rows = await db.query<{ id: number }>(
    `INSERT INTO sim_cards (iccid, client_carrier_id, sim_box_id, status, agent_id, held_since,
                            sim_request_id)
     SELECT iccid, $2, $3, $4, $5,
       -- Noon of the business day $6 days back: days held count business days, and a plain
       -- "now() - N days" lands a day short near midnight across a daylight-saving change.
       ((order_business_day(now()) - $6::int) + time '12:00')
         AT TIME ZONE (SELECT time_zone FROM order_settings), $7
     FROM unnest($1::text[]) AS s (iccid) RETURNING id`,
    [
      iccids,
      options.carrierId,
      box!.id,
      options.status ?? 'with_agent',
      options.agentId ?? null,
      options.heldDaysAgo ?? 0,
      options.requestId ?? null,
    ],
  );
  const ids = rows.map((row) => row.id);
  if (options.agentId) {
    await db.query(
      `INSERT INTO agent_sim_ledger (agent_id, sim_id, entry)
       SELECT $2, id, 'received' FROM unnest($1::bigint[]) AS s (id)`,
      [ids, options.agentId],
    );
  }
  return ids;
}
