import type { Accessory } from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminTestApp, type ApiClient } from '../../test/api-client.js';
import { bodyOf, type TestApp } from '../../test/test-app.js';

/** Accessories through the API: rules of the master, compatible models, import and export. */

let t: TestApp;
let admin: ApiClient;
const models: Record<string, number> = {};

async function created(payload: unknown): Promise<Accessory> {
  const response = await admin.post('/accessories', payload);
  expect(response.statusCode, response.body).toBe(201);
  return bodyOf<Accessory>(response).data;
}

async function model(brand: string, name: string, numbers: string[] = []) {
  await t.db.query(
    'INSERT INTO brands (name) SELECT $1 WHERE NOT EXISTS (SELECT 1 FROM brands WHERE name = $1)',
    [brand],
  );
  const [row] = await t.db.query<{ id: number }>(
    `INSERT INTO device_models (brand_id, name, model_numbers, device_type, os, network)
     SELECT id, $2, $3, 'phone', 'android', '5G' FROM brands WHERE name = $1 RETURNING id`,
    [brand, name, numbers],
  );
  return Number(row!.id);
}

beforeAll(async () => {
  ({ t, admin } = await createAdminTestApp());
  models.moto = await model('Motorola', 'Moto G Play 2023', ['XT2271DL']);
  models.iphone = await model('Apple', 'iPhone 13', ['A2482', 'A2633']);
  models.galaxy = await model('Samsung', 'Galaxy A15', ['SM-A155U', 'SHARED-1']);
  models.galaxy5g = await model('Samsung', 'Galaxy A15 5G', ['SHARED-1']);
});
afterAll(() => t.close());

describe('writing an accessory', () => {
  it('creates with its compatible models by name, refuses duplicates, edits, deactivates and audits', async () => {
    const charger = await created({
      sku: 'CHG-USBC-20W',
      name: 'USB-C charger 20 W',
      kind: 'charger',
      barcode: '0840163901234',
      compatible_model_ids: [models.moto, models.iphone, models.moto],
    });
    expect(charger).toMatchObject({
      sku: 'CHG-USBC-20W',
      kind: 'charger',
      barcode: '0840163901234',
      compatible_model_ids: [models.moto, models.iphone],
      compatible_models: ['Motorola Moto G Play 2023', 'Apple iPhone 13'],
      reorder_point: 0,
      active: true,
    });

    expect(
      await admin.fieldErrors('POST', '/accessories', {
        sku: 'chg-usbc-20w',
        name: 'x',
        kind: 'cable',
      }),
    ).toEqual({ sku: ['An accessory with this SKU exists.'] });
    expect(
      await admin.fieldErrors('POST', '/accessories', {
        sku: 'CBL-1',
        name: 'Cable',
        kind: 'cable',
        barcode: '0840163901234',
      }),
    ).toEqual({ barcode: ['Accessory CHG-USBC-20W has this barcode.'] });
    expect(
      await admin.fieldErrors('POST', '/accessories', {
        sku: 'CBL-1',
        name: ' ',
        kind: 'adapter',
        barcode: '12 34',
        reorder_point: -1,
      }),
    ).toEqual({
      name: ['Please enter the accessory name.'],
      kind: ['Choose a kind: charger, cable, case, protector, earbuds, other.'],
      barcode: ['A barcode holds letters, digits and symbols, without spaces.'],
      reorder_point: ['The reorder point must be at least 0.'],
    });
    expect(
      await admin.fieldErrors('POST', '/accessories', {
        sku: 'CBL-1',
        name: 'Cable',
        kind: 'cable',
        compatible_model_ids: [models.moto, 999999],
      }),
    ).toEqual({ compatible_model_ids: ['There is no model with id 999999.'] });

    const edited = bodyOf<Accessory>(
      await admin.put(`/accessories/${charger.id}`, {
        reorder_point: 25,
        barcode: '',
        compatible_model_ids: [models.galaxy],
      }),
    ).data;
    expect(edited).toMatchObject({
      name: 'USB-C charger 20 W',
      reorder_point: 25,
      barcode: null,
      compatible_models: ['Samsung Galaxy A15'],
    });
    // Its old barcode is free again.
    await created({ sku: 'CBL-1', name: 'Cable', kind: 'cable', barcode: '0840163901234' });
    const off = bodyOf<Accessory>(
      await admin.put(`/accessories/${charger.id}`, { active: false }),
    ).data;
    expect(off.active).toBe(false);
    const actions = await t.db.query<{ action: string }>(
      "SELECT action FROM audit_events WHERE entity_type = 'accessory' AND entity_id = $1 ORDER BY id",
      [String(charger.id)],
    );
    expect(actions.map((row) => row.action)).toEqual([
      'accessory.created',
      'accessory.updated',
      'accessory.deactivated',
    ]);
  });

  it('lists by kind, compatible model, activity and search, sorted', async () => {
    await created({
      sku: 'CASE-IP13',
      name: 'iPhone 13 case',
      kind: 'case',
      reorder_point: 5,
      compatible_model_ids: [models.iphone],
    });
    await created({
      sku: 'PRT-IP13',
      name: 'iPhone 13 glass',
      kind: 'protector',
      reorder_point: 50,
      compatible_model_ids: [models.iphone, models.moto],
    });
    const skus = async (query: string) =>
      bodyOf<{ items: Accessory[] }>(await admin.get(`/accessories?${query}`)).data.items.map(
        (item) => item.sku,
      );
    expect(await skus(`model_id=${models.iphone}`)).toEqual(['CASE-IP13', 'PRT-IP13']);
    expect(await skus('kind=protector')).toEqual(['PRT-IP13']);
    expect(await skus('active=false')).toEqual(['CHG-USBC-20W']);
    expect(await skus('search=glass')).toEqual(['PRT-IP13']);
    expect(await skus('sort=reorder_point&order=desc&active=true')).toEqual([
      'PRT-IP13',
      'CASE-IP13',
      'CBL-1',
    ]);
    expect((await admin.get('/accessories?kind=adapter')).statusCode).toBe(422);
  });

  it('deletes an accessory nothing refers to, and audits it', async () => {
    const unused = await created({ sku: 'TMP-1', name: 'Temporary', kind: 'other' });
    expect((await admin.delete(`/accessories/${unused.id}`)).statusCode).toBe(200);
    expect((await admin.get(`/accessories/${unused.id}`)).statusCode).toBe(404);
    const [row] = await t.db.query<{ action: string }>(
      "SELECT action FROM audit_events WHERE entity_type = 'accessory' AND entity_id = $1 ORDER BY id DESC LIMIT 1",
      [String(unused.id)],
    );
    expect(row!.action).toBe('accessory.deleted');
  });
});

describe('importing accessories', () => {
  const header = 'SKU,Name,Kind,Barcode,Compatible models,Reorder point';

  it('resolves compatible models by name or model number, shows bad rows, then commits', async () => {
    const bad = await admin.uploadAndCheck(
      'accessories',
      'accessories.csv',
      [
        header,
        'EAR-1,Earbuds,earbuds,,motorola moto g play 2023|A2633,10',
        'EAR-2,Earbuds 2,earbuds,,Nokia 3310|Apple iPhone 13,',
        'EAR-3,Earbuds 3,earbuds,,SHARED-1,',
        'EAR-4,Earbuds 4,headphones,,,',
        'EAR-5,Earbuds 5,earbuds,0840163901234,,',
        'EAR-6,Earbuds 6,earbuds,,,lots',
        'EAR-7,Earbuds 7,earbuds,555,,',
        'EAR-8,Earbuds 8,earbuds,555,,',
      ].join('\n'),
    );
    expect(bad.check.errors).toEqual([
      {
        row: 3,
        column: 'Compatible models',
        value: 'Nokia 3310|Apple iPhone 13',
        message:
          'No model has the name or model number "Nokia 3310": write the brand and model name, or a model number.',
      },
      {
        row: 4,
        column: 'Compatible models',
        value: 'SHARED-1',
        message:
          '"SHARED-1" is the model number of several models: write the brand and model name.',
      },
      {
        row: 5,
        column: 'Kind',
        value: 'headphones',
        message: 'Choose a kind: charger, cable, case, protector, earbuds, other.',
      },
      {
        row: 6,
        column: 'Barcode',
        value: '0840163901234',
        message: 'Accessory CBL-1 has this barcode.',
      },
      { row: 7, column: 'Reorder point', value: 'lots', message: 'Write a whole number.' },
      {
        row: 9,
        column: 'Barcode',
        value: '555',
        message: 'Another row of the file has this barcode.',
      },
    ]);
    expect((await admin.commitImport('accessories', bad.id)).statusCode).toBe(422);
    expect(
      bodyOf<{ total: number }>(await admin.get('/accessories/count?search=EAR-')).data.total,
    ).toBe(0);

    const good = await admin.uploadAndCheck(
      'accessories',
      'accessories.csv',
      [
        header,
        'EAR-1,Earbuds,earbuds,,motorola moto g play 2023|A2633,10',
        'EAR-2,Earbuds 2,earbuds,556,Samsung Galaxy A15 5G|Apple iPhone 13,',
        'cbl-1,Cable (renamed),cable,0840163901234,,3',
      ].join('\n'),
    );
    expect(good.check).toMatchObject({ errors: [], willCreate: 2, willUpdate: 1 });
    const committed = await admin.commitImport('accessories', good.id);
    expect(bodyOf(committed).data).toMatchObject({
      status: 'committed',
      created_count: 2,
      updated_count: 1,
    });
    const items = bodyOf<{ items: Accessory[] }>(
      await admin.get('/accessories?search=ear-&sort=sku'),
    ).data.items;
    expect(items.map((item) => [item.sku, item.compatible_models, item.reorder_point])).toEqual([
      ['EAR-1', ['Motorola Moto G Play 2023', 'Apple iPhone 13'], 10],
      ['EAR-2', ['Samsung Galaxy A15 5G', 'Apple iPhone 13'], 0],
    ]);
    const [cable] = await t.db.query<{ name: string; reorder_point: number; sku: string }>(
      "SELECT sku, name, reorder_point FROM accessories WHERE lower(sku) = 'cbl-1'",
    );
    expect(cable).toEqual({ sku: 'CBL-1', name: 'Cable (renamed)', reorder_point: 3 });
    const [audit] = await t.db.query<{ action: string }>(
      "SELECT action FROM audit_events WHERE entity_type = 'import_batch' AND entity_id = $1",
      [String(good.id)],
    );
    expect(audit!.action).toBe('accessory.imported');
  });

  it('exports the compatible models by name, which an import reads back', async () => {
    const file = await admin.download('/accessories/exports', { format: 'csv', search: 'EAR-1' });
    const lines = file.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe(
      'ID,SKU,Name,Kind,Barcode,Compatible models,Reorder point,Active,Updated',
    );
    expect(lines[1]).toContain(
      ',EAR-1,Earbuds,earbuds,,Motorola Moto G Play 2023|Apple iPhone 13,10,yes,',
    );
    const templateFile = await admin.download('/accessories/import-template', { format: 'csv' });
    expect(templateFile.body.replace(/^\uFEFF/, '').split('\r\n')[0]).toBe(
      'SKU,Name,Kind,Barcode,Compatible models,Reorder point,Active',
    );
  });
});
