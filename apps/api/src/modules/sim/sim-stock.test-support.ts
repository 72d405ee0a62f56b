import { luhnCheckDigit } from '@inventory/contract';
import { apiClient, type ApiClient } from '../../test/api-client.js';
import { createUser, login, type TestApp } from '../../test/test-app.js';

/** What the SIM stock tests share: ICCIDs, a carrier, a location, people. */

/** An ICCID of the payload (18 or 19 digits) with its check digit. */
export const iccidOf = (payload: string | bigint) => {
  const digits = String(payload);
  return `${digits}${luhnCheckDigit(digits)}`;
};

/** `count` ICCIDs on from an AT&T payload (19-digit ICCIDs). */
export const attIccids = (start: bigint, count: number) =>
  Array.from({ length: count }, (_, i) => iccidOf(start + BigInt(i)));

export async function one(t: TestApp, sql: string, params: unknown[] = []): Promise<number> {
  return (await t.db.query<{ id: number }>(`${sql} RETURNING id::int AS id`, params))[0]!.id;
}

export const carrier = (t: TestApp, name: string) =>
  one(t, "INSERT INTO vendors (name, type) VALUES ($1, 'carrier-client')", [name]);

export const location = (t: TestApp, code: string, active = true) =>
  one(t, "INSERT INTO locations (code, kind, active) VALUES ($1, 'zone', $2)", [code, active]);

export async function signedIn(t: TestApp, userName: string, roles: string[]): Promise<ApiClient> {
  const password = `${userName}-password-1`;
  await createUser(t.db, { userName, password, roles });
  return apiClient(t, await login(t.app, userName, password));
}

/** An agent with a SIM cap (null: none). */
export async function agent(t: TestApp, userName: string, simCap: number | null, active = true) {
  const id = await createUser(t.db, {
    userName,
    password: `${userName}-password-1`,
    roles: ['Agent'],
    type: 'agent',
    status: active ? 'active' : 'disabled',
  });
  await t.db.query('UPDATE users SET sim_cap = $2 WHERE id = $1', [id, simCap]);
  return id;
}

export const countOf = async (t: TestApp, sql: string, params: unknown[] = []) =>
  (await t.db.query<{ n: number }>(sql, params))[0]!.n;
