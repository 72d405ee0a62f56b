import type { Property } from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminTestApp, type ApiClient } from '../../test/api-client.js';
import { bodyOf, type TestApp } from '../../test/test-app.js';

/** Properties through the API: the enum rule, the data-type lock, usage, import. */

let t: TestApp;
let admin: ApiClient;

async function created(payload: unknown): Promise<Property> {
  const response = await admin.post('/properties', payload);
  expect(response.statusCode, response.body).toBe(201);
  return bodyOf<Property>(response).data;
}

async function updated(id: number, payload: unknown): Promise<Property> {
  const response = await admin.put(`/properties/${id}`, payload);
  expect(response.statusCode, response.body).toBe(200);
  return bodyOf<Property>(response).data;
}

/** Gives products values of a property, as the catalogue area will. */
const giveValues = (propertyId: number, values: unknown[]) =>
  t.db.query(
    `INSERT INTO property_values (property_id, entity_type, entity_id, value)
     SELECT $1, 'product', n, v FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY AS e(v, n)`,
    [propertyId, JSON.stringify(values)],
  );

const enumMissing = ['An enum property needs at least one value to choose from.'];

beforeAll(async () => {
  ({ t, admin } = await createAdminTestApp());
});
afterAll(() => t.close());

describe('the enum rule', () => {
  it('wants values for an enum and none for any other type, on create and on edit', async () => {
    expect(
      await admin.fieldErrors('POST', '/properties', { name: 'Grade', data_type: 'enum' }),
    ).toEqual({
      enum_values: enumMissing,
    });
    expect(
      await admin.fieldErrors('POST', '/properties', {
        name: 'Weight',
        data_type: 'decimal',
        enum_values: ['light'],
      }),
    ).toEqual({
      enum_values: [
        'Only an enum property has values to choose from: leave them empty for decimal.',
      ],
    });
    const grade = await created({
      name: 'Grade',
      data_type: 'enum',
      enum_values: ['A', 'B', 'b', ' C '],
      applies_to: ['variant'],
    });
    expect(grade).toMatchObject({
      data_type: 'enum',
      enum_values: ['A', 'B', 'C'],
      applies_to: ['variant'],
      unit: null,
      usage_count: 0,
      active: true,
    });
    expect(await admin.fieldErrors('PUT', `/properties/${grade.id}`, { enum_values: [] })).toEqual({
      enum_values: enumMissing,
    });
    expect(await updated(grade.id, { enum_values: ['A', 'B'] })).toMatchObject({
      enum_values: ['A', 'B'],
    });
    // Without values, the type may change; an enum's values go with it.
    expect(await updated(grade.id, { data_type: 'text' })).toMatchObject({
      data_type: 'text',
      enum_values: [],
    });
    expect(
      await admin.fieldErrors('PUT', `/properties/${grade.id}`, { data_type: 'enum' }),
    ).toEqual({
      enum_values: enumMissing,
    });
    expect(
      await admin.fieldErrors('PUT', `/properties/${grade.id}`, { enum_values: ['A'] }),
    ).toEqual({
      enum_values: ['Only an enum property has values to choose from: leave them empty for text.'],
    });
    expect(
      await updated(grade.id, { data_type: 'enum', enum_values: ['Like new', 'Good'] }),
    ).toMatchObject({ data_type: 'enum', enum_values: ['Like new', 'Good'] });
  });

  it('checks names and the other fields with messages on the right fields', async () => {
    await created({ name: 'Screen size', data_type: 'decimal', unit: 'in' });
    expect(
      await admin.fieldErrors('POST', '/properties', { name: 'screen SIZE', data_type: 'decimal' }),
    ).toEqual({ name: ['A property with this name exists.'] });
    expect(
      await admin.fieldErrors('POST', '/properties', {
        name: '',
        data_type: 'float',
        unit: 'x'.repeat(21),
        applies_to: [],
      }),
    ).toEqual({
      name: ['Please enter the property name.'],
      data_type: ['Choose a data type: text, int, decimal, bool, enum.'],
      unit: ['The unit is too long (at most 20 characters).'],
      applies_to: ['Choose what the property applies to: product, variant.'],
    });
  });
});

describe('the data-type lock', () => {
  it('refuses a new data type once values exist, says how many, and allows other edits', async () => {
    const weight = await created({ name: 'Weight', data_type: 'decimal', unit: 'g' });
    await giveValues(weight.id, [187.5, 204]);
    expect(bodyOf<Property>(await admin.get(`/properties/${weight.id}`)).data.usage_count).toBe(2);
    expect(
      await admin.fieldErrors('PUT', `/properties/${weight.id}`, { data_type: 'int' }),
    ).toEqual({
      data_type: ['"Weight" has 2 values as decimal: its data type cannot change.'],
    });
    // The same type again, and other fields, are fine.
    expect(
      await updated(weight.id, { data_type: 'decimal', unit: 'grams', name: 'Weight (g)' }),
    ).toMatchObject({ data_type: 'decimal', unit: 'grams', name: 'Weight (g)' });

    const refused = await admin.delete(`/properties/${weight.id}`);
    expect(refused.statusCode).toBe(409);
    expect(bodyOf(refused).message).toBe(
      'This property is used by 2 product and variant values: deactivate it instead.',
    );
    expect(await updated(weight.id, { active: false })).toMatchObject({ active: false });
    const actions = await t.db.query<{ action: string }>(
      "SELECT action FROM audit_events WHERE entity_type = 'property' AND entity_id = $1 ORDER BY id",
      [String(weight.id)],
    );
    expect(actions.map((row) => row.action)).toEqual([
      'property.created',
      'property.updated',
      'property.deactivated',
    ]);

    const unused = await created({ name: 'Unused', data_type: 'bool' });
    expect((await admin.delete(`/properties/${unused.id}`)).statusCode).toBe(200);
  });

  it('lists by data type, target and activity, and sorts by usage', async () => {
    const names = async (query: string) =>
      bodyOf<{ items: Property[] }>(await admin.get(`/properties?${query}`)).data.items.map(
        (item) => item.name,
      );
    expect(await names('data_type=decimal')).toEqual(['Screen size', 'Weight (g)']);
    expect(await names('applies_to=variant&active=true')).toEqual(['Grade', 'Screen size']);
    expect(await names('active=false')).toEqual(['Weight (g)']);
    expect(await names('sort=usage_count&order=desc&limit=1')).toEqual(['Weight (g)']);
    expect(await names('search=grams')).toEqual(['Weight (g)']);
  });
});

describe('importing properties', () => {
  const header = 'Name,Data type,Unit,Enum values,Applies to';

  it('applies the enum rule and the lock to each row, then commits a clean file', async () => {
    const bad = await admin.uploadAndCheck(
      'properties',
      'properties.csv',
      [
        header,
        'Battery,int,mAh,,product',
        'weight (g),text,,,',
        'Lock,enum,,,variant',
        'Storage,int,GB,64|128,',
        'Network,enum,,4G|5G,device',
      ].join('\n'),
    );
    expect(bad.check.errors).toEqual([
      {
        row: 3,
        column: 'Data type',
        value: 'text',
        message: '"Weight (g)" has 2 values as decimal: its data type cannot change.',
      },
      { row: 4, column: 'Enum values', value: '', message: enumMissing[0] },
      {
        row: 5,
        column: 'Enum values',
        value: '64|128',
        message: 'Only an enum property has values to choose from: leave them empty for int.',
      },
      {
        row: 6,
        column: 'Applies to',
        value: 'device',
        message: 'Choose what the property applies to: product, variant.',
      },
    ]);
    expect((await admin.commitImport('properties', bad.id)).statusCode).toBe(422);

    const good = await admin.uploadAndCheck(
      'properties',
      'properties.csv',
      [
        header,
        'Battery,int,mAh,,product',
        'weight (g),decimal,kg,,',
        'Lock,enum,,Unlocked|Carrier locked,variant',
        'grade,text,,,',
      ].join('\n'),
    );
    expect(good.check).toMatchObject({ errors: [], willCreate: 2, willUpdate: 2 });
    expect(bodyOf(await admin.commitImport('properties', good.id)).data).toMatchObject({
      created_count: 2,
      updated_count: 2,
    });
    const rows = await t.db.query<Record<string, unknown>>(
      `SELECT name, data_type, unit, enum_values, applies_to FROM properties
       WHERE name IN ('Battery', 'Weight (g)', 'Lock', 'Grade') ORDER BY name`,
    );
    expect(rows).toEqual([
      { name: 'Battery', data_type: 'int', unit: 'mAh', enum_values: [], applies_to: ['product'] },
      // Grade had no values: it may become text, and its choices are cleared.
      {
        name: 'Grade',
        data_type: 'text',
        unit: null,
        enum_values: [],
        applies_to: ['product', 'variant'],
      },
      {
        name: 'Lock',
        data_type: 'enum',
        unit: null,
        enum_values: ['Unlocked', 'Carrier locked'],
        applies_to: ['variant'],
      },
      {
        name: 'Weight (g)',
        data_type: 'decimal',
        unit: 'kg',
        enum_values: [],
        applies_to: ['product', 'variant'],
      },
    ]);
  });
});
