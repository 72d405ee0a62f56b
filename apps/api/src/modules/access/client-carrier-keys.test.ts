import { createHash } from 'node:crypto';
import type { ClientCarrierKey } from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, createAdminTestApp, dataOf, type ApiClient } from '../../test/api-client.js';
import { createRole, createUser, login, type TestApp } from '../../test/test-app.js';
import { authenticateClientCarrier } from './client-carrier-keys.service.js';

/** Client carriers' API keys: created once, kept hashed, revoked, and only for carrier vendors. */

let t: TestApp;
let admin: ApiClient;
let carrierId: number;

beforeAll(async () => {
  ({ t, admin } = await createAdminTestApp('ck'));
  carrierId = (
    await dataOf<{ id: number }>(
      admin.post('/vendors', { name: 'AirTalk Wireless', type: 'carrier-client' }),
      201,
    )
  ).id;
});
afterAll(() => t.close());

describe("a client carrier's API keys", () => {
  it('shows the key once, keeps only its hash, and lets it call until revoked', async () => {
    const { key, secret } = await dataOf<{ key: ClientCarrierKey; secret: string }>(
      admin.post('/client-carrier-keys', { client_carrier_id: carrierId, name: 'Enrolment' }),
      201,
    );
    expect(secret).toMatch(/^ck_[A-Za-z0-9_-]{43}$/);
    expect(key).toMatchObject({
      client_carrier_name: 'AirTalk Wireless',
      status: 'active',
      key_prefix: secret.slice(0, 8),
      last_used_at: null,
    });
    const [stored] = await t.db.query<{ key_hash: string }>(
      'SELECT key_hash FROM client_carrier_api_keys WHERE id = $1',
      [key.id],
    );
    expect(stored!.key_hash).toBe(createHash('sha256').update(secret).digest('hex'));
    const listed = await dataOf<{ items: ClientCarrierKey[] }>(admin.get('/client-carrier-keys'));
    expect(JSON.stringify(listed)).not.toContain(secret);

    expect(await authenticateClientCarrier(t.db, secret)).toEqual({
      keyId: key.id,
      clientCarrierId: carrierId,
      clientCarrierName: 'AirTalk Wireless',
    });
    expect(await authenticateClientCarrier(t.db, `${secret.slice(0, -1)}x`)).toBeNull();
    const used = await dataOf<ClientCarrierKey>(admin.get(`/client-carrier-keys/${key.id}`));
    expect(used.last_used_at).not.toBeNull();

    const revoked = await dataOf<ClientCarrierKey>(
      admin.post(`/client-carrier-keys/${key.id}/revoke`),
    );
    expect(revoked).toMatchObject({ status: 'revoked', revoked_by_name: 'ck' });
    expect(await authenticateClientCarrier(t.db, secret)).toBeNull();
    expect((await admin.post(`/client-carrier-keys/${key.id}/revoke`)).statusCode).toBe(409);
    const [audit] = await t.db.query<{ n: string }>(
      `SELECT count(*) AS n FROM audit_events
       WHERE entity_type = 'client_carrier_api_key' AND entity_id = $1`,
      [String(key.id)],
    );
    expect(Number(audit!.n)).toBe(2);
  });

  it('gives keys only to active client carriers and answers 404 for an unknown key', async () => {
    const supplier = await dataOf<{ id: number }>(
      admin.post('/vendors', { name: 'Acme Supply', type: 'supplier' }),
      201,
    );
    expect(
      await admin.fieldErrors('POST', '/client-carrier-keys', {
        client_carrier_id: supplier.id,
        name: ' ',
      }),
    ).toEqual({
      name: ['Name the key after the system that will use it.'],
    });
    expect(
      await admin.fieldErrors('POST', '/client-carrier-keys', {
        client_carrier_id: supplier.id,
        name: 'Orders',
      }),
    ).toEqual({ client_carrier_id: ['Choose an active vendor of type carrier-client.'] });
    expect((await admin.post('/client-carrier-keys/999999/revoke')).statusCode).toBe(404);
    const options = await dataOf<{ label: string }[]>(
      admin.get('/client-carrier-keys/carrier-options?search=air'),
    );
    expect(options.map((option) => option.label)).toEqual(['AirTalk Wireless']);
  });

  it('is refused to a user without client-carrier-key.manage', async () => {
    await createRole(t.db, 'User admin', ['user.view-list', 'user.manage']);
    await createUser(t.db, {
      userName: 'ck_clerk',
      password: 'Clerk-pass-1',
      roles: ['User admin'],
    });
    const clerk = apiClient(t, await login(t.app, 'ck_clerk', 'Clerk-pass-1'));
    expect((await clerk.get('/client-carrier-keys')).statusCode).toBe(403);
    expect(
      (await clerk.post('/client-carrier-keys', { client_carrier_id: carrierId, name: 'x' }))
        .statusCode,
    ).toBe(403);
  });
});
