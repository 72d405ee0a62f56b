import type { DeviceModel, ImportBatch } from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminTestApp, type ApiClient } from '../../test/api-client.js';
import { bodyOf, type TestApp } from '../../test/test-app.js';

/** Device models through the API: brands by name, rules, 409 on use, merge, import. */

let t: TestApp;
let admin: ApiClient;

const phone = {
  device_type: 'phone',
  os: 'android',
  network: '5G',
} as const;

async function created(payload: Record<string, unknown>): Promise<DeviceModel> {
  const response = await admin.post('/models', { ...phone, ...payload });
  expect(response.statusCode, response.body).toBe(201);
  return bodyOf<DeviceModel>(response).data;
}

const listOf = async (query: string) => {
  const response = await admin.get(`/models?${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return bodyOf<{ items: DeviceModel[] }>(response).data.items;
};

const brandCount = async () =>
  (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM brands'))[0]!.n;

beforeAll(async () => {
  ({ t, admin } = await createAdminTestApp());
});
afterAll(() => t.close());

describe('writing a model', () => {
  it('creates its brand by name once, shows brand and model together, and keeps defaults', async () => {
    const before = await brandCount();
    const moto = await created({
      brand: 'Motorola',
      name: 'Moto G Play 2023',
      model_numbers: ['XT2271DL', 'xt2271dl', ' '],
      storage_gb: 32,
      weight_g: 204,
    });
    expect(moto).toMatchObject({
      brand: 'Motorola',
      name: 'Moto G Play 2023',
      display_name: 'Motorola Moto G Play 2023',
      model_numbers: ['XT2271DL'],
      device_type: 'phone',
      os: 'android',
      network: '5G',
      storage_gb: 32,
      ram_gb: null,
      weight_g: 204,
      esim: false,
      dual_sim: false,
      hotspot: false,
      tac_count: 0,
      active: true,
    });
    // The same brand in another case is the same brand.
    const edge = await created({ brand: 'MOTOROLA', name: 'Edge 2024', os: 'android' });
    expect(edge.brand_id).toBe(moto.brand_id);
    expect(edge.brand).toBe('Motorola');
    expect(await brandCount()).toBe(before + 1);
  });

  it('says what is wrong with each field', async () => {
    expect(
      await admin.fieldErrors('POST', '/models', {
        brand: ' ',
        name: '',
        device_type: 'laptop',
        network: '6G',
        storage_gb: -1,
        weight_g: 0,
      }),
    ).toEqual({
      brand: ['Please enter the brand.'],
      name: ['Please enter the model name.'],
      device_type: ['Choose the type: phone, tablet, hotspot, watch or other.'],
      os: ['Choose the operating system: android, ios or other.'],
      network: ['Choose the network: 3G, 4G or 5G.'],
      storage_gb: ['The storage must be at least 0.'],
      weight_g: ['The weight must be at least 1.'],
    });
    await created({ brand: 'Apple', name: 'iPhone 13', os: 'ios' });
    expect(
      await admin.fieldErrors('POST', '/models', { ...phone, brand: 'apple', name: 'IPHONE 13' }),
    ).toEqual({ name: ['This brand has a model with this name already.'] });
    // Another brand may use the name.
    await created({ brand: 'Fake Apple', name: 'iPhone 13' });
  });

  it('edits, moves to a new brand, deactivates, and audits each', async () => {
    const model = await created({ brand: 'Nokia', name: 'G100' });
    const edited = await admin.put(`/models/${model.id}`, { ram_gb: 4, hotspot: true });
    expect(bodyOf<DeviceModel>(edited).data).toMatchObject({
      ram_gb: 4,
      hotspot: true,
      name: 'G100',
    });
    const moved = bodyOf<DeviceModel>(
      await admin.put(`/models/${model.id}`, { brand: 'HMD Global' }),
    ).data;
    expect(moved).toMatchObject({ brand: 'HMD Global', display_name: 'HMD Global G100' });
    expect(
      await admin.fieldErrors('PUT', `/models/${model.id}`, { os: null, storage_gb: 1.5 }),
    ).toEqual({
      os: ['Choose the operating system: android, ios or other.'],
      storage_gb: ['The storage must be a whole number.'],
    });
    const off = bodyOf<DeviceModel>(await admin.put(`/models/${model.id}`, { active: false })).data;
    expect(off.active).toBe(false);
    const actions = await t.db.query<{ action: string }>(
      `SELECT action FROM audit_events WHERE entity_type = 'device_model' AND entity_id = $1
       ORDER BY id`,
      [String(model.id)],
    );
    expect(actions.map((row) => row.action)).toEqual([
      'device_model.created',
      'device_model.updated',
      'device_model.updated',
      'device_model.deactivated',
    ]);
  });
});

describe('the model list', () => {
  it('filters, searches brand, name and model numbers, and sorts by brand then model', async () => {
    await created({
      brand: 'Samsung',
      name: 'Galaxy Tab A9',
      device_type: 'tablet',
      network: '4G',
    });
    await created({ brand: 'Samsung', name: 'Galaxy A15', model_numbers: ['SM-A155U'] });
    const samsung = await listOf('search=samsung&sort=brand');
    expect(samsung.map((model) => model.name)).toEqual(['Galaxy A15', 'Galaxy Tab A9']);
    expect((await listOf('search=sm-a155')).map((model) => model.display_name)).toEqual([
      'Samsung Galaxy A15',
    ]);
    expect((await listOf('search=samsung galaxy tab')).map((model) => model.name)).toEqual([
      'Galaxy Tab A9',
    ]);
    expect((await listOf('device_type=tablet')).map((model) => model.name)).toEqual([
      'Galaxy Tab A9',
    ]);
    expect((await listOf('os=ios')).map((model) => model.display_name)).toEqual([
      'Apple iPhone 13',
    ]);
    const fourG = await listOf('network=4G&active=true');
    expect(fourG.map((model) => model.name)).toEqual(['Galaxy Tab A9']);
    const brandId = samsung[0]!.brand_id;
    expect(await listOf(`brand_id=${brandId}&sort=name&order=desc`)).toHaveLength(2);
    const byBrand = await listOf('sort=brand&limit=200');
    const names = byBrand.map((model) => model.display_name.toLowerCase());
    expect(names).toEqual([...names].sort());
    expect((await listOf('active=false')).map((model) => model.name)).toEqual(['G100']);
    expect((await admin.get('/models?os=windows')).statusCode).toBe(422);
  });
});

describe('deleting and merging models', () => {
  it('refuses to delete a model in use, saying where, and deletes an unused one', async () => {
    const used = await created({ brand: 'Google', name: 'Pixel 7' });
    await t.db.query(
      "INSERT INTO tac_numbers (tac, model_id) VALUES ('35000101', $1), ('35000102', $1)",
      [used.id],
    );
    await t.db.query(
      `INSERT INTO accessories (sku, name, kind, compatible_model_ids)
       VALUES ('CASE-P7', 'Pixel 7 case', 'case', ARRAY[$1::bigint])`,
      [used.id],
    );
    await t.db.query(
      `INSERT INTO parts (part_number, name, category, compatible_model_ids)
       VALUES ('SCR-P7', 'Pixel 7 screen', 'screen', ARRAY[$1::bigint])`,
      [used.id],
    );
    const refused = await admin.delete(`/models/${used.id}`);
    expect(refused.statusCode).toBe(409);
    expect(bodyOf(refused).message).toBe(
      'This model is used by 2 TAC numbers and 1 accessories and 1 parts: deactivate it instead.',
    );
    expect(bodyOf<DeviceModel>(await admin.get(`/models/${used.id}`)).data.tac_count).toBe(2);
    const unused = await created({ brand: 'Google', name: 'Pixel 7 (typo)' });
    expect((await admin.delete(`/models/${unused.id}`)).statusCode).toBe(200);
    expect((await admin.get(`/models/${unused.id}`)).statusCode).toBe(404);
  });

  it('merges a duplicate: its TACs, accessories and parts move, its model numbers stay', async () => {
    const keep = await created({ brand: 'Apple', name: 'iPhone 14', model_numbers: ['A2649'] });
    const duplicate = await created({
      brand: 'Apple',
      name: 'iPhone14',
      model_numbers: ['a2649', 'A2881'],
    });
    await t.db.query("INSERT INTO tac_numbers (tac, model_id) VALUES ('35000201', $1)", [
      duplicate.id,
    ]);
    const [accessory] = await t.db.query<{ id: number }>(
      `INSERT INTO accessories (sku, name, kind, compatible_model_ids)
       VALUES ('CASE-I14', 'iPhone 14 case', 'case', ARRAY[$1::bigint, $2::bigint]) RETURNING id`,
      [keep.id, duplicate.id],
    );
    expect((await admin.post(`/models/${keep.id}/merge`, { into: keep.id })).statusCode).toBe(409);
    const merged = await admin.post(`/models/${duplicate.id}/merge`, { into: keep.id });
    expect(merged.statusCode, merged.body).toBe(200);
    expect(bodyOf<DeviceModel>(merged).data).toMatchObject({
      id: keep.id,
      model_numbers: ['A2649', 'A2881'],
      tac_count: 1,
    });
    expect((await admin.get(`/models/${duplicate.id}`)).statusCode).toBe(404);
    const [fits] = await t.db.query<{ ids: number[] }>(
      'SELECT compatible_model_ids AS ids FROM accessories WHERE id = $1',
      [accessory!.id],
    );
    expect(fits!.ids.map(Number)).toEqual([keep.id]);
    const [audit] = await t.db.query<{ action: string }>(
      "SELECT action FROM audit_events WHERE entity_type = 'device_model' AND entity_id = $1 ORDER BY id DESC LIMIT 1",
      [String(keep.id)],
    );
    expect(audit!.action).toBe('device_model.merged');
    expect((await admin.post(`/models/${keep.id}/merge`, { into: 999_999 })).statusCode).toBe(404);
  });
});

describe('importing models', () => {
  const header =
    'Brand,Model,Model numbers,Type,OS,Storage GB,RAM GB,Network,eSIM,Dual SIM,Hotspot,Weight g';

  it('shows every bad row at the check and writes nothing, no brand either', async () => {
    const brands = await brandCount();
    const { id, check } = await admin.uploadAndCheck(
      'models',
      'models.csv',
      [
        header,
        'Brandnew,Phone One,BN-1|BN-1B,Phone,Android,64,4,5g,no,yes,yes,190',
        'Brandnew,Phone Two,,tablet,windows,,,4G,,,,',
        'BRANDNEW,phone one,,phone,android,,,4G,,,,',
        ',Nameless,,phone,android,,,4G,,,,',
        'Motorola,Moto X,,phone,android,lots,,4G,,,,',
      ].join('\n'),
    );
    expect(check.errors).toEqual([
      {
        row: 3,
        column: 'OS',
        value: 'windows',
        message: 'Choose the operating system: android, ios or other.',
      },
      { row: 4, column: 'Model', value: 'phone one', message: 'Repeats row 2.' },
      { row: 5, column: 'Brand', value: '', message: 'Please enter the brand.' },
      { row: 6, column: 'Storage GB', value: 'lots', message: 'Write a whole number.' },
    ]);
    expect((await admin.commitImport('models', id)).statusCode).toBe(422);
    expect(await brandCount()).toBe(brands);
    expect(await listOf('search=brandnew')).toEqual([]);
  });

  it('creates new brands and models and updates known ones at the commit', async () => {
    const brands = await brandCount();
    const { id, check } = await admin.uploadAndCheck(
      'models',
      'models.csv',
      [
        header,
        'Brandnew,Phone One,BN-1|BN-1B,Phone,Android,64,4,5g,no,yes,yes,190',
        'Other New,Phone One,,phone,ios,,,4G,,,,',
        'motorola,moto g play 2023,XT2271DL|XT2271-5,phone,android,32,3,4G,no,no,yes,',
      ].join('\n'),
    );
    expect(check).toMatchObject({ errors: [], willCreate: 2, willUpdate: 1 });
    expect(await brandCount()).toBe(brands);
    const committed = await admin.commitImport('models', id);
    expect(committed.statusCode, committed.body).toBe(200);
    expect(bodyOf<ImportBatch>(committed).data).toMatchObject({
      status: 'committed',
      created_count: 2,
      updated_count: 1,
    });
    expect(await brandCount()).toBe(brands + 2);
    const [phoneOne] = await listOf('search=brandnew');
    expect(phoneOne).toMatchObject({
      display_name: 'Brandnew Phone One',
      model_numbers: ['BN-1', 'BN-1B'],
      device_type: 'phone',
      os: 'android',
      network: '5G',
      storage_gb: 64,
      ram_gb: 4,
      dual_sim: true,
      hotspot: true,
      weight_g: 190,
    });
    // The known model keeps its name's spelling; a column's empty cell clears its value.
    const [moto] = await listOf('search=moto g play');
    expect(moto).toMatchObject({
      name: 'Moto G Play 2023',
      model_numbers: ['XT2271DL', 'XT2271-5'],
      network: '4G',
      ram_gb: 3,
      hotspot: true,
      weight_g: null,
    });
  });
});
