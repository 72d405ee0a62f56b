import type { Part } from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminTestApp, type ApiClient } from '../../test/api-client.js';
import { bodyOf, type TestApp } from '../../test/test-app.js';

/** Parts through the API: the master's rules, cost in cents and in currency units, import. */

let t: TestApp;
let admin: ApiClient;
let moto: number;
let iphone: number;

async function created(payload: unknown): Promise<Part> {
  const response = await admin.post('/parts', payload);
  expect(response.statusCode, response.body).toBe(201);
  return bodyOf<Part>(response).data;
}

beforeAll(async () => {
  ({ t, admin } = await createAdminTestApp());
  const brands = await t.db.query<{ id: number }>(
    "INSERT INTO brands (name) VALUES ('Motorola'), ('Apple') RETURNING id",
  );
  const rows = await t.db.query<{ id: number }>(
    `INSERT INTO device_models (brand_id, name, model_numbers, device_type, os, network)
     VALUES ($1, 'Moto G Play 2023', '{XT2271DL}', 'phone', 'android', '4G'),
            ($2, 'iPhone 13', '{A2482}', 'phone', 'ios', '5G')
     RETURNING id`,
    [brands[0]!.id, brands[1]!.id],
  );
  moto = Number(rows[0]!.id);
  iphone = Number(rows[1]!.id);
});
afterAll(() => t.close());

describe('writing a part', () => {
  it('creates with its cost in cents and as currency, refuses duplicates, edits and deactivates', async () => {
    const screen = await created({
      part_number: 'LCD-MG23',
      name: 'Moto G Play 2023 LCD',
      category: 'screen',
      compatible_model_ids: [moto],
      cost_cents: 1250,
      barcode: 'P-0001',
    });
    expect(screen).toMatchObject({
      category: 'screen',
      cost_cents: 1250,
      cost: '12.50',
      reorder_point: 0,
      compatible_models: ['Motorola Moto G Play 2023'],
      active: true,
    });
    expect(
      await admin.fieldErrors('POST', '/parts', {
        part_number: 'lcd-mg23',
        name: 'x',
        category: 'screen',
      }),
    ).toEqual({ part_number: ['A part with this part number exists.'] });
    expect(
      await admin.fieldErrors('POST', '/parts', {
        part_number: 'BAT-1',
        name: 'Battery',
        category: 'battery',
        barcode: 'P-0001',
      }),
    ).toEqual({ barcode: ['Part LCD-MG23 has this barcode.'] });
    expect(
      await admin.fieldErrors('POST', '/parts', {
        part_number: '',
        name: 'Battery',
        category: 'charger',
        cost_cents: 12.5,
        compatible_model_ids: [0],
      }),
    ).toEqual({
      part_number: ['Please enter the part number.'],
      category: ['Choose a category: screen, battery, port, back, camera, board, other.'],
      cost_cents: ['The cost in cents must be a whole number.'],
      'compatible_model_ids.0': ['Choose a model.'],
    });

    const edited = bodyOf<Part>(
      await admin.put(`/parts/${screen.id}`, {
        cost_cents: 99,
        compatible_model_ids: [iphone, moto],
      }),
    ).data;
    expect(edited).toMatchObject({
      cost: '0.99',
      part_number: 'LCD-MG23',
      compatible_models: ['Apple iPhone 13', 'Motorola Moto G Play 2023'],
    });
    expect(await admin.fieldErrors('PUT', `/parts/${screen.id}`, { cost_cents: -1 })).toEqual({
      cost_cents: ['The cost in cents must be at least 0.'],
    });
    const off = bodyOf<Part>(await admin.put(`/parts/${screen.id}`, { active: false })).data;
    expect(off.active).toBe(false);
    const actions = await t.db.query<{ action: string }>(
      "SELECT action FROM audit_events WHERE entity_type = 'part' AND entity_id = $1 ORDER BY id",
      [String(screen.id)],
    );
    expect(actions.map((row) => row.action)).toEqual([
      'part.created',
      'part.updated',
      'part.deactivated',
    ]);
  });

  it('filters by category, compatible model and activity, and sorts by cost', async () => {
    await created({
      part_number: 'BAT-IP13',
      name: 'iPhone 13 battery',
      category: 'battery',
      cost_cents: 1800,
      compatible_model_ids: [iphone],
    });
    await created({
      part_number: 'PORT-IP13',
      name: 'iPhone 13 port',
      category: 'port',
      cost_cents: 400,
      compatible_model_ids: [iphone],
    });
    const numbers = async (query: string) =>
      bodyOf<{ items: Part[] }>(await admin.get(`/parts?${query}`)).data.items.map(
        (item) => item.part_number,
      );
    expect(await numbers(`model_id=${iphone}&active=true`)).toEqual(['BAT-IP13', 'PORT-IP13']);
    expect(await numbers(`model_id=${moto}`)).toEqual(['LCD-MG23']);
    expect(await numbers('category=port')).toEqual(['PORT-IP13']);
    expect(await numbers('sort=cost_cents&order=desc')).toEqual([
      'BAT-IP13',
      'PORT-IP13',
      'LCD-MG23',
    ]);
    expect(await numbers('search=battery')).toEqual(['BAT-IP13']);
  });

  it('deletes a part nothing refers to', async () => {
    const unused = await created({ part_number: 'TMP', name: 'Temporary', category: 'other' });
    expect((await admin.delete(`/parts/${unused.id}`)).statusCode).toBe(200);
    expect((await admin.get(`/parts/${unused.id}`)).statusCode).toBe(404);
  });
});

describe('importing and exporting parts', () => {
  const header = 'Part number,Name,Category,Compatible models,Cost';

  it('reads Cost in currency units, shows bad rows at the check, then commits', async () => {
    const bad = await admin.uploadAndCheck(
      'parts',
      'parts.csv',
      [
        header,
        'CAM-1,Camera,camera,XT2271DL,12.5',
        'CAM-2,Camera 2,camera,,12.345',
        'CAM-3,Camera 3,camera,,-4',
        'CAM-4,Camera 4,camera,Unknown Phone,1',
        'CAM-5,Camera 5,lens,,1',
        'CAM-6,Camera 6,camera,,1000000.01',
      ].join('\n'),
    );
    const costMessage = 'Write the cost in currency units with at most two decimals, like 12.50.';
    expect(bad.check.errors).toEqual([
      { row: 3, column: 'Cost', value: '12.345', message: costMessage },
      { row: 4, column: 'Cost', value: '-4', message: costMessage },
      {
        row: 5,
        column: 'Compatible models',
        value: 'Unknown Phone',
        message:
          'No model has the name or model number "Unknown Phone": write the brand and model name, or a model number.',
      },
      {
        row: 6,
        column: 'Category',
        value: 'lens',
        message: 'Choose a category: screen, battery, port, back, camera, board, other.',
      },
      {
        row: 7,
        column: 'Cost',
        value: '1000000.01',
        message: 'The cost must be at most 1000000.00.',
      },
    ]);
    expect((await admin.commitImport('parts', bad.id)).statusCode).toBe(422);

    const good = await admin.uploadAndCheck(
      'parts',
      'parts.csv',
      [
        header,
        'CAM-1,Camera,camera,XT2271DL,12.5',
        'CAM-2,Camera 2,camera,Apple iPhone 13,"$1,234.56"',
        'CAM-3,Camera 3,camera,,',
        'bat-ip13,iPhone 13 battery,battery,a2482,19.99',
      ].join('\n'),
    );
    expect(good.check).toMatchObject({ errors: [], willCreate: 3, willUpdate: 1 });
    expect(bodyOf(await admin.commitImport('parts', good.id)).data).toMatchObject({
      status: 'committed',
      created_count: 3,
      updated_count: 1,
    });
    const rows = await t.db.query<{ part_number: string; cost_cents: number }>(
      "SELECT part_number, cost_cents FROM parts WHERE part_number IN ('CAM-1', 'CAM-2', 'CAM-3', 'BAT-IP13') ORDER BY part_number",
    );
    expect(rows).toEqual([
      { part_number: 'BAT-IP13', cost_cents: 1999 },
      { part_number: 'CAM-1', cost_cents: 1250 },
      { part_number: 'CAM-2', cost_cents: 123456 },
      { part_number: 'CAM-3', cost_cents: 0 },
    ]);
  });

  it('exports Cost in currency units with two decimals', async () => {
    const file = await admin.download('/parts/exports', {
      format: 'csv',
      search: 'CAM-',
      sort: 'part_number',
    });
    const lines = file.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe(
      'ID,Part number,Name,Category,Compatible models,Cost,Reorder point,Barcode,Active,Updated',
    );
    expect(lines.slice(1).map((line) => line.split(',').slice(1, 6))).toEqual([
      ['CAM-1', 'Camera', 'camera', 'Motorola Moto G Play 2023', '12.50'],
      ['CAM-2', 'Camera 2', 'camera', 'Apple iPhone 13', '1234.56'],
      ['CAM-3', 'Camera 3', 'camera', '', '0.00'],
    ]);
  });
});
