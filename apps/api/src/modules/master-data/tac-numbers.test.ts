import {
  luhnCheckDigit,
  type ImportBatch,
  type PickerOption,
  type TacLookup,
  type TacNumber,
} from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, createAdminTestApp, type ApiClient } from '../../test/api-client.js';
import { bodyOf, createRole, createUser, login, type TestApp } from '../../test/test-app.js';

/** TAC numbers through the API: one TAC one model, list, import by model name, IMEI lookup. */

let t: TestApp;
let admin: ApiClient;
const models: Record<string, number> = {};
const colors: Record<string, number> = {};

async function created(payload: Record<string, unknown>): Promise<TacNumber> {
  const response = await admin.post('/tac-numbers', payload);
  expect(response.statusCode, response.body).toBe(201);
  return bodyOf<TacNumber>(response).data;
}

const listOf = async (query: string) => {
  const response = await admin.get(`/tac-numbers?${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return bodyOf<{ items: TacNumber[]; nextCursor: string | null }>(response).data;
};
const tacsOf = async (query: string) => (await listOf(query)).items.map((item) => item.tac);

async function model(brand: string, name: string, numbers: string[] = [], active = true) {
  const response = await admin.post('/models', {
    brand,
    name,
    model_numbers: numbers,
    device_type: 'phone',
    os: brand === 'Apple' ? 'ios' : 'android',
    network: '5G',
    active,
  });
  expect(response.statusCode, response.body).toBe(201);
  return bodyOf<{ id: number }>(response).data.id;
}

async function color(name: string, aliases: string[] = [], active = true) {
  const response = await admin.post('/colors', { name, aliases, active });
  expect(response.statusCode, response.body).toBe(201);
  return bodyOf<{ id: number }>(response).data.id;
}

/** A valid IMEI of a TAC: the TAC, a serial and the Luhn check digit. */
const imeiOf = (tac: string, serial = '123456') =>
  `${tac}${serial}${luhnCheckDigit(`${tac}${serial}`)}`;

beforeAll(async () => {
  ({ t, admin } = await createAdminTestApp());
  models.moto = await model('Motorola', 'Moto G Play 2023', ['XT2271DL']);
  models.iphone = await model('Apple', 'iPhone 13', ['A2482', 'SHARED-1']);
  models.galaxy = await model('Samsung', 'Galaxy A15', ['SM-A155U', 'SHARED-1']);
  models.fakeGalaxy = await model('Fakesung', 'Galaxy A15');
  models.old = await model('Nokia', '3310', [], false);
  colors.black = await color('Midnight Black', ['Black', 'Jet']);
  colors.blue = await color('Navy Blue', ['Blue']);
  colors.navy = await color('Navy', ['Blue']);
  colors.gone = await color('Retired Red', [], false);
});
afterAll(() => t.close());

describe('writing a TAC', () => {
  it('maps a TAC to a model, read from a scan, and shows the model, brand and colour', async () => {
    const tac = await created({
      tac: ' 3528-3611 ',
      model_id: models.moto,
      capacity_gb: 32,
      color_id: colors.black,
    });
    expect(tac).toMatchObject({
      tac: '35283611',
      model_id: models.moto,
      model: 'Motorola Moto G Play 2023',
      brand: 'Motorola',
      capacity_gb: 32,
      color_id: colors.black,
      color: 'Midnight Black',
      source: 'manual',
      active: true,
    });
    const bare = await created({ tac: '35283612', model_id: models.moto });
    expect(bare).toMatchObject({ capacity_gb: null, color_id: null, color: null });
  });

  it('refuses a second mapping of a TAC, a TAC that is not 8 digits and unknown references', async () => {
    expect(
      await admin.fieldErrors('POST', '/tac-numbers', { tac: '35283611', model_id: models.iphone }),
    ).toEqual({ tac: ['This TAC is already mapped to a model.'] });
    expect(
      await admin.fieldErrors('POST', '/tac-numbers', {
        tac: '3528361',
        model_id: 0,
        capacity_gb: 0,
      }),
    ).toEqual({
      tac: ['A TAC has 8 digits (the start of the IMEI), not 7.'],
      model_id: ['Choose a model.'],
      capacity_gb: ['The capacity must be at least 1.'],
    });
    expect(await admin.fieldErrors('POST', '/tac-numbers', { tac: '3528AB11' })).toEqual({
      tac: ['The TAC may only contain digits.'],
      model_id: ['Choose a model.'],
    });
    expect(
      await admin.fieldErrors('POST', '/tac-numbers', {
        tac: '35283613',
        model_id: 999_999,
        color_id: 999_999,
      }),
    ).toEqual({
      model_id: ['There is no model with id 999999.'],
      color_id: ['There is no colour with id 999999.'],
    });
    expect(
      await admin.fieldErrors('POST', '/tac-numbers', {
        tac: '35283613',
        model_id: models.old,
        color_id: colors.gone,
      }),
    ).toEqual({
      model_id: ['Nokia 3310 is deactivated: choose an active model.'],
      color_id: ['Retired Red is deactivated: choose an active colour.'],
    });
  });

  it('edits, remaps, deactivates and deletes an unused TAC, auditing each', async () => {
    const tac = await created({ tac: '01234567', model_id: models.iphone });
    const edited = bodyOf<TacNumber>(
      await admin.put(`/tac-numbers/${tac.id}`, { capacity_gb: 128, color_id: colors.blue }),
    ).data;
    expect(edited).toMatchObject({ tac: '01234567', capacity_gb: 128, color: 'Navy Blue' });
    const remapped = bodyOf<TacNumber>(
      await admin.put(`/tac-numbers/${tac.id}`, { model_id: models.galaxy, color_id: null }),
    ).data;
    expect(remapped).toMatchObject({ model: 'Samsung Galaxy A15', color_id: null });
    expect(await admin.fieldErrors('PUT', `/tac-numbers/${tac.id}`, { tac: '35283611' })).toEqual({
      tac: ['This TAC is already mapped to a model.'],
    });
    const off = bodyOf<TacNumber>(
      await admin.put(`/tac-numbers/${tac.id}`, { active: false }),
    ).data;
    expect(off.active).toBe(false);
    expect((await admin.delete(`/tac-numbers/${tac.id}`)).statusCode).toBe(200);
    expect((await admin.get(`/tac-numbers/${tac.id}`)).statusCode).toBe(404);
    const actions = await t.db.query<{ action: string }>(
      `SELECT action FROM audit_events WHERE entity_type = 'tac_number' AND entity_id = $1
       ORDER BY id`,
      [String(tac.id)],
    );
    expect(actions.map((row) => row.action)).toEqual([
      'tac_number.created',
      'tac_number.updated',
      'tac_number.updated',
      'tac_number.deactivated',
      'tac_number.deleted',
    ]);
  });
});

describe('the TAC list', () => {
  beforeAll(async () => {
    await t.db.query(
      `INSERT INTO tac_numbers (tac, model_id, source, color_id)
       SELECT (35290000 + n)::text, CASE WHEN n % 2 = 0 THEN $1 ELSE $2 END::bigint,
         CASE WHEN n % 10 = 0 THEN 'learned' ELSE 'gsma' END,
         CASE WHEN n % 5 = 0 THEN $3::bigint END
       FROM generate_series(1, 120) n`,
      [models.iphone, models.galaxy, colors.navy],
    );
  });

  it('pages by TAC both ways', async () => {
    const first = await listOf('limit=50');
    expect(first.items.slice(0, 2).map((item) => item.tac)).toEqual(['35283611', '35283612']);
    const second = await listOf(`limit=50&cursor=${first.nextCursor}`);
    expect(second.items[0]!.tac).toBe('35290049');
    const last = await tacsOf('limit=5&cursor=last');
    expect(last).toEqual(['35290116', '35290117', '35290118', '35290119', '35290120']);
    expect(await tacsOf('limit=3&order=desc')).toEqual(['35290120', '35290119', '35290118']);
  });

  it('searches digits as the start of a TAC or an IMEI, and words in the model', async () => {
    expect(await tacsOf('search=3528')).toEqual(['35283611', '35283612']);
    expect(await tacsOf(`search=${imeiOf('35283612')}`)).toEqual(['35283612']);
    expect(await tacsOf('search=3529011')).toHaveLength(10);
    expect(await tacsOf('search=99')).toEqual([]);
    expect(await tacsOf('search=moto g')).toEqual(['35283611', '35283612']);
    expect(await tacsOf('search=xt2271')).toEqual(['35283611', '35283612']);
    const count = await admin.get('/tac-numbers/count?search=galaxy');
    expect(bodyOf(count).data).toEqual({ total: 60, capped: false });
  });

  it('filters by model, colour, source and status, and sorts by model and by change', async () => {
    expect((await listOf(`model_id=${models.moto}`)).items).toHaveLength(2);
    expect(await tacsOf(`color_id=${colors.navy}&limit=3`)).toEqual([
      '35290005',
      '35290010',
      '35290015',
    ]);
    expect(await tacsOf('source=learned&limit=200')).toHaveLength(12);
    expect(await tacsOf('source=manual')).toEqual(['35283611', '35283612']);
    expect(await tacsOf('active=false')).toEqual([]);
    const byModel = (await listOf('sort=model&limit=200')).items.map((item) => item.model);
    expect([...new Set(byModel)]).toEqual([
      'Apple iPhone 13',
      'Motorola Moto G Play 2023',
      'Samsung Galaxy A15',
    ]);
    const desc = await listOf('sort=model&order=desc&limit=1');
    expect(desc.items[0]!.model).toBe('Samsung Galaxy A15');
    await admin.put(`/tac-numbers/${(await listOf('search=35283612')).items[0]!.id}`, {
      capacity_gb: 64,
    });
    expect((await tacsOf('sort=updated_at&order=desc&limit=1'))[0]).toBe('35283612');
    expect((await admin.get('/tac-numbers?source=stolen')).statusCode).toBe(422);
  });
});

describe('importing TACs', () => {
  const header = 'TAC,Model,Capacity GB,Colour';

  it('shows every bad row at the check and writes nothing', async () => {
    const before = await listOf('search=3530');
    const { id, check } = await admin.uploadAndCheck(
      'tac-numbers',
      'tacs.csv',
      [
        header,
        '35300001,Samsung Galaxy A15,128,Black',
        '35300002,Galaxy Note 99,,',
        '3530003,iPhone 13,,',
        '35300001,iPhone 13,,',
        '35300004,Galaxy A15,,',
        '35300005,SHARED-1,,',
        '35300006,Nokia 3310,,',
        '35300007,iPhone 13,,Plaid',
        '35300008,iPhone 13,,Blue',
        '35300009,,64,',
      ].join('\n'),
    );
    expect(check.errors).toEqual([
      {
        row: 3,
        column: 'Model',
        value: 'Galaxy Note 99',
        message: 'No model named "Galaxy Note 99".',
      },
      {
        row: 4,
        column: 'TAC',
        value: '3530003',
        message: 'A TAC has 8 digits (the start of the IMEI), not 7.',
      },
      { row: 5, column: 'TAC', value: '35300001', message: 'Repeats row 2.' },
      {
        row: 6,
        column: 'Model',
        value: 'Galaxy A15',
        message: expect.stringMatching(
          /^"Galaxy A15" matches several models: use Brand Model, like "(Samsung|Fakesung) Galaxy A15"\.$/,
        ),
      },
      {
        row: 7,
        column: 'Model',
        value: 'SHARED-1',
        message: expect.stringContaining('"SHARED-1" matches several models'),
      },
      {
        row: 8,
        column: 'Model',
        value: 'Nokia 3310',
        message: 'Nokia 3310 is deactivated: activate it first.',
      },
      { row: 9, column: 'Colour', value: 'Plaid', message: 'No colour named "Plaid".' },
      {
        row: 10,
        column: 'Colour',
        value: 'Blue',
        message: '"Blue" is an alias of several colours: use its name.',
      },
      { row: 11, column: 'Model', value: '', message: 'Please enter the model.' },
    ]);
    expect((await admin.commitImport('tac-numbers', id)).statusCode).toBe(422);
    expect(await listOf('search=3530')).toEqual(before);
  });

  it('resolves models by display name, name or model number and colours by alias, at the commit', async () => {
    const { id, check } = await admin.uploadAndCheck(
      'tac-numbers',
      'tacs.csv',
      [
        header,
        '35300001,samsung galaxy a15,128,black',
        '35300002,iPhone 13,,Navy',
        '35300003,XT2271DL,64,',
        // A known TAC: remapped, and marked as imported.
        '35283611,A2482,,',
      ].join('\n'),
    );
    expect(check).toMatchObject({ errors: [], willCreate: 3, willUpdate: 1 });
    expect(await tacsOf('search=3530')).toEqual([]);
    const committed = await admin.commitImport('tac-numbers', id);
    expect(bodyOf<ImportBatch>(committed).data).toMatchObject({
      status: 'committed',
      created_count: 3,
      updated_count: 1,
    });
    const imported = (await listOf('search=3530')).items;
    expect(
      imported.map(({ tac, model, capacity_gb, color, source }) => ({
        tac,
        model,
        capacity_gb,
        color,
        source,
      })),
    ).toEqual([
      {
        tac: '35300001',
        model: 'Samsung Galaxy A15',
        capacity_gb: 128,
        color: 'Midnight Black',
        source: 'import',
      },
      {
        tac: '35300002',
        model: 'Apple iPhone 13',
        capacity_gb: null,
        color: 'Navy',
        source: 'import',
      },
      {
        tac: '35300003',
        model: 'Motorola Moto G Play 2023',
        capacity_gb: 64,
        color: null,
        source: 'import',
      },
    ]);
    const [remapped] = (await listOf('search=35283611')).items;
    expect(remapped).toMatchObject({
      model: 'Apple iPhone 13',
      capacity_gb: null,
      source: 'import',
    });
  });
});

describe('exporting TACs', () => {
  it('writes the import columns first, so that the file imports back as it is', async () => {
    const file = await admin.download('/tac-numbers/exports', { format: 'csv', search: '3530' });
    const lines = file.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('TAC,Model,Capacity GB,Colour,Brand,Source,Active,ID,Updated');
    expect(lines[1]).toMatch(/^35300001,Samsung Galaxy A15,128,Midnight Black,Samsung,import,yes,/);
    expect(lines).toHaveLength(4);
  });
});

describe('looking up a scan', () => {
  const lookUp = async (code: string) => {
    const response = await admin.get(`/tac-numbers/lookup?code=${encodeURIComponent(code)}`);
    expect(response.statusCode, response.body).toBe(200);
    return bodyOf<TacLookup>(response).data;
  };

  it('shows the model of a valid IMEI, however it was scanned', async () => {
    const imei = imeiOf('35300003');
    const found = await lookUp(` ${imei.slice(0, 8)}-${imei.slice(8)} `);
    expect(found).toMatchObject({
      kind: 'imei',
      input: imei,
      tac: '35300003',
      problem: null,
      tacNumber: { model: 'Motorola Moto G Play 2023', capacity_gb: 64 },
    });
    expect(await lookUp('35300002')).toMatchObject({
      kind: 'tac',
      tac: '35300002',
      tacNumber: { model: 'Apple iPhone 13', color: 'Navy' },
      problem: null,
    });
  });

  it('says what is wrong with an IMEISV, a bad check digit, an unknown TAC and a MEID', async () => {
    const imei = imeiOf('35300003');
    expect(await lookUp(`${imei.slice(0, 14)}01`)).toMatchObject({
      kind: 'imei',
      tac: '35300003',
      problem: 'This is an IMEISV (16 digits): scan the IMEI, not the IMEISV.',
      tacNumber: { model: 'Motorola Moto G Play 2023' },
    });
    const wrong = `${imei.slice(0, 14)}${(Number(imei[14]) + 1) % 10}`;
    expect(await lookUp(wrong)).toMatchObject({
      kind: 'imei',
      problem: "The IMEI's check digit is wrong: rescan it.",
    });
    expect(await lookUp(imeiOf('99999999'))).toMatchObject({
      kind: 'imei',
      tac: '99999999',
      tacNumber: null,
      problem: 'TAC 99999999 is not mapped to a model yet.',
    });
    const meid = await lookUp('a10000009296f2');
    expect(meid).toMatchObject({
      kind: 'meid',
      input: 'A10000009296F2',
      tac: null,
      tacNumber: null,
    });
    expect(meid.problem).toContain('A MEID has no TAC');
    for (const [code, message] of [
      [
        '12345',
        'Scan an IMEI (15 digits), a MEID (14 characters) or a TAC (8 digits). This has 5 characters.',
      ],
      ['hello-world', 'An IMEI or a TAC has only digits; a MEID digits and the letters A to F.'],
      ['--', 'Scan or type an IMEI, MEID or TAC.'],
    ] as const) {
      const refused = await admin.get(`/tac-numbers/lookup?code=${code}`);
      expect(refused.statusCode, code).toBe(422);
      expect(bodyOf(refused).message, code).toEqual({ code: [message] });
    }
  });
});

describe('the model picker', () => {
  it('offers active models by brand, name or model number to a TAC viewer', async () => {
    await createRole(t.db, 'TAC viewer', ['TacNumber.view-list']);
    await createUser(t.db, {
      userName: 'clerk',
      password: 'clerk-password',
      roles: ['TAC viewer'],
    });
    const clerk = apiClient(t, await login(t.app, 'clerk', 'clerk-password'));
    const options = async (search: string) => {
      const response = await clerk.get(
        `/tac-numbers/model-options?search=${encodeURIComponent(search)}`,
      );
      expect(response.statusCode, response.body).toBe(200);
      return bodyOf<PickerOption[]>(response).data;
    };
    expect(await options('galaxy')).toEqual([
      { id: models.fakeGalaxy, label: 'Fakesung Galaxy A15' },
      { id: models.galaxy, label: 'Samsung Galaxy A15' },
    ]);
    expect(await options('a2482')).toEqual([{ id: models.iphone, label: 'Apple iPhone 13' }]);
    expect(await options('nokia')).toEqual([]);
    expect((await options('')).length).toBe(4);
    expect((await clerk.get('/tac-numbers')).statusCode).toBe(200);
    expect((await clerk.post('/tac-numbers', { tac: '11111111' })).statusCode).toBe(403);
    expect((await clerk.get('/models')).statusCode).toBe(403);
  });
});
