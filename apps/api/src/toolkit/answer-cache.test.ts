import type { TacNumber } from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, createAdminTestApp, type ApiClient } from '../test/api-client.js';
import { bodyOf, createUser, login, type TestApp } from '../test/test-app.js';
import { createDataVersions } from './answer-cache.js';

/**
 * Kept list answers: served again while their tables stay as they were, retired by any write to
 * any table they read, whoever makes it (another app server writes straight to the database).
 */

let t: TestApp;
let admin: ApiClient;
let modelId: number;

const tacsOf = async (client: ApiClient, query = 'sort=tac&limit=50') => {
  const response = await client.get(`/tac-numbers?${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return bodyOf<{ items: TacNumber[] }>(response).data.items;
};

beforeAll(async () => {
  ({ t, admin } = await createAdminTestApp());
  const model = await admin.post('/models', {
    brand: 'Nokia',
    name: 'G42',
    model_numbers: [],
    device_type: 'phone',
    os: 'android',
    network: '5G',
    active: true,
  });
  expect(model.statusCode, model.body).toBe(201);
  modelId = bodyOf<{ id: number }>(model).data.id;
  const tac = await admin.post('/tac-numbers', { tac: '35999901', model_id: modelId });
  expect(tac.statusCode, tac.body).toBe(201);
});

afterAll(() => t.close());

describe('kept list answers', () => {
  it('answer again from memory while no table of the list was written', async () => {
    expect((await tacsOf(admin)).map((tac) => tac.capacity_gb)).toEqual([null]);
    // A write that moves no version (its trigger is off) is not seen: the answer was kept.
    await t.db.exec('ALTER TABLE tac_numbers DISABLE TRIGGER tac_numbers_data_version');
    await t.db.query("UPDATE tac_numbers SET capacity_gb = 64 WHERE tac = '35999901'");
    await t.db.exec('ALTER TABLE tac_numbers ENABLE TRIGGER tac_numbers_data_version');
    expect((await tacsOf(admin)).map((tac) => tac.capacity_gb)).toEqual([null]);
    // Any later write to the table retires it.
    await t.db.query("UPDATE tac_numbers SET capacity_gb = 128 WHERE tac = '35999901'");
    expect((await tacsOf(admin)).map((tac) => tac.capacity_gb)).toEqual([128]);
  });

  it('show a write to a joined table, made outside the app, on the next request', async () => {
    expect((await tacsOf(admin)).map((tac) => tac.model)).toEqual(['Nokia G42']);
    await t.db.query("UPDATE brands SET name = 'HMD' WHERE name = 'Nokia'");
    expect((await tacsOf(admin)).map((tac) => tac.model)).toEqual(['HMD G42']);
    const count = await admin.get('/tac-numbers/count?active=true');
    expect(bodyOf<{ total: number }>(count).data.total).toBe(1);
    await t.db.query("UPDATE tac_numbers SET active = false WHERE tac = '35999901'");
    const recount = await admin.get('/tac-numbers/count?active=true');
    expect(bodyOf<{ total: number }>(recount).data.total).toBe(0);
  });

  it('are the same for every user allowed to read the list', async () => {
    await createUser(t.db, { userName: 'viewer', password: 'viewer-password-1', roles: ['admin'] });
    const viewer = apiClient(t, await login(t.app, 'viewer', 'viewer-password-1'));
    expect(await tacsOf(viewer)).toEqual(await tacsOf(admin));
  });

  it('are kept under the versions of the declared tables only, and never without them', async () => {
    const versions = createDataVersions(t.db);
    expect(await versions.keyOf([], null)).toBe(null);
    expect(await versions.keyOf(['brands', 'tac_numbers'], 'brands=4,tac_numbers=7,users=2')).toBe(
      'brands=4,tac_numbers=7',
    );
    expect(await versions.keyOf(['brands', 'colors'], 'brands=4,tac_numbers=7')).toBe(null);
    // A table versioned in shards (migration 0032) has their sum as its version.
    expect(
      await versions.keyOf(
        ['location_holdings', 'locations'],
        'location_holdings#0=3,locations=2,location_holdings#1=5',
      ),
    ).toBe('location_holdings=8,locations=2');
  });
});
