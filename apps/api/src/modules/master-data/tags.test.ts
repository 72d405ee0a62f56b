import type { Tag } from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminTestApp, type ApiClient } from '../../test/api-client.js';
import { bodyOf, type TestApp } from '../../test/test-app.js';

/** Tags through the API: scope, usage, delete only unused, merge, import. */

let t: TestApp;
let admin: ApiClient;

async function created(payload: unknown): Promise<Tag> {
  const response = await admin.post('/tags', payload);
  expect(response.statusCode, response.body).toBe(201);
  return bodyOf<Tag>(response).data;
}

/** Puts a tag on catalogue entities, as the catalogue area will. */
const assign = (tagId: number, entities: [type: string, id: number][]) =>
  t.db.query(
    `INSERT INTO tag_assignments (tag_id, entity_type, entity_id)
     SELECT $1, e.type, e.id FROM json_to_recordset($2::json) AS e(type text, id bigint)`,
    [tagId, JSON.stringify(entities.map(([type, id]) => ({ type, id })))],
  );

const assignments = async (tagId: number) =>
  (
    await t.db.query<{ entity: string }>(
      `SELECT entity_type || ' ' || entity_id AS entity FROM tag_assignments
       WHERE tag_id = $1 ORDER BY entity_type, entity_id`,
      [tagId],
    )
  ).map((row) => row.entity);

beforeAll(async () => {
  ({ t, admin } = await createAdminTestApp());
});
afterAll(() => t.close());

describe('writing a tag', () => {
  it('creates with every scope by default, refuses duplicates and bad scopes, edits, deactivates', async () => {
    const sale = await created({ name: 'Summer sale', color: 'ffb300' });
    expect(sale).toMatchObject({
      color: '#FFB300',
      scope: ['product', 'bundle', 'combo'],
      usage_count: 0,
      active: true,
    });
    expect(await admin.fieldErrors('POST', '/tags', { name: 'SUMMER SALE' })).toEqual({
      name: ['A tag with this name exists.'],
    });
    expect(
      await admin.fieldErrors('POST', '/tags', {
        name: 'Bad',
        color: 'orange',
        scope: ['product', 'sim'],
      }),
    ).toEqual({
      color: ['Write the colour as six hex digits, like #1A2B3C.'],
      'scope.1': ['Choose where the tag applies: product, bundle, combo.'],
    });
    expect(await admin.fieldErrors('PUT', `/tags/${sale.id}`, { scope: [] })).toEqual({
      scope: ['Choose where the tag applies: product, bundle, combo.'],
    });
    const edited = bodyOf<Tag>(
      await admin.put(`/tags/${sale.id}`, { scope: ['combo', 'product', 'combo'], color: null }),
    ).data;
    expect(edited).toMatchObject({ scope: ['product', 'combo'], color: null, name: 'Summer sale' });
    const off = bodyOf<Tag>(await admin.put(`/tags/${sale.id}`, { active: false })).data;
    expect(off.active).toBe(false);
    const actions = await t.db.query<{ action: string }>(
      "SELECT action FROM audit_events WHERE entity_type = 'tag' AND entity_id = $1 ORDER BY id",
      [String(sale.id)],
    );
    expect(actions.map((row) => row.action)).toEqual([
      'tag.created',
      'tag.updated',
      'tag.deactivated',
    ]);
  });

  it('counts its uses, deletes only an unused tag (409 says where it is used)', async () => {
    const used = await created({ name: 'Clearance' });
    await assign(used.id, [
      ['product', 1],
      ['bundle', 7],
    ]);
    expect(bodyOf<Tag>(await admin.get(`/tags/${used.id}`)).data.usage_count).toBe(2);
    const refused = await admin.delete(`/tags/${used.id}`);
    expect(refused.statusCode).toBe(409);
    expect(bodyOf(refused).message).toBe(
      'This tag is used by 2 products, bundles or combos: deactivate it instead.',
    );
    const unused = await created({ name: 'Typo tag' });
    expect((await admin.delete(`/tags/${unused.id}`)).statusCode).toBe(200);
    expect((await admin.get(`/tags/${unused.id}`)).statusCode).toBe(404);

    const names = async (query: string) =>
      bodyOf<{ items: Tag[] }>(await admin.get(`/tags?${query}`)).data.items.map((i) => i.name);
    expect(await names('sort=usage_count&order=desc&active=true')).toEqual(['Clearance']);
    expect(await names('scope=combo')).toEqual(['Clearance', 'Summer sale']);
    expect(await names('scope=bundle')).toEqual(['Clearance']);
  });
});

describe('merging tags', () => {
  it('repoints every assignment once, takes the scope along, deletes the tag and audits', async () => {
    const keep = await created({ name: 'Refurbished', scope: ['product'] });
    const dupe = await created({ name: 'Refurb', scope: ['product', 'bundle'] });
    await assign(keep.id, [
      ['product', 1],
      ['product', 2],
    ]);
    // Product 2 carries both tags: it must end with one assignment, not a key violation.
    await assign(dupe.id, [
      ['product', 2],
      ['product', 3],
      ['bundle', 9],
    ]);
    const merged = await admin.post(`/tags/${dupe.id}/merge`, { into: keep.id });
    expect(merged.statusCode, merged.body).toBe(200);
    expect(bodyOf<Tag>(merged).data).toMatchObject({
      id: keep.id,
      name: 'Refurbished',
      scope: ['product', 'bundle'],
      usage_count: 4,
    });
    expect(await assignments(keep.id)).toEqual(['bundle 9', 'product 1', 'product 2', 'product 3']);
    expect(await assignments(dupe.id)).toEqual([]);
    expect((await admin.get(`/tags/${dupe.id}`)).statusCode).toBe(404);
    const [event] = await t.db.query<{ action: string; before: { merged: Tag } }>(
      "SELECT action, before FROM audit_events WHERE entity_type = 'tag' AND entity_id = $1 ORDER BY id DESC LIMIT 1",
      [String(keep.id)],
    );
    expect(event!.action).toBe('tag.merged');
    expect(event!.before.merged.name).toBe('Refurb');
  });

  it('refuses a merge into itself, into an unknown or an inactive tag, and changes nothing', async () => {
    const a = await created({ name: 'Holiday' });
    const b = await created({ name: 'Holidays', active: false });
    await assign(a.id, [['product', 5]]);
    const self = await admin.post(`/tags/${a.id}/merge`, { into: a.id });
    expect(self.statusCode).toBe(409);
    expect(bodyOf(self).message).toBe('A tag cannot be merged into itself.');
    expect((await admin.post(`/tags/${a.id}/merge`, { into: 999999 })).statusCode).toBe(404);
    expect(await admin.fieldErrors('POST', `/tags/${a.id}/merge`, { into: b.id })).toEqual({
      into: ['The tag "Holidays" is inactive: activate it first.'],
    });
    expect(await admin.fieldErrors('POST', `/tags/${a.id}/merge`, {})).toHaveProperty('into');
    expect(await assignments(a.id)).toEqual(['product 5']);
  });
});

describe('importing tags', () => {
  it('shows bad rows at the check, then creates and updates by name', async () => {
    const bad = await admin.uploadAndCheck(
      'tags',
      'tags.csv',
      [
        'Name,Colour,Scope',
        'New arrivals,#00AA00,product',
        'Loud,#GGGGGG,',
        'Kits,,kit|bundle',
      ].join('\n'),
    );
    expect(bad.check.errors).toEqual([
      {
        row: 3,
        column: 'Colour',
        value: '#GGGGGG',
        message: 'Write the colour as six hex digits, like #1A2B3C.',
      },
      {
        row: 4,
        column: 'Scope',
        value: 'kit|bundle',
        message: 'Choose where the tag applies: product, bundle, combo.',
      },
    ]);
    expect((await admin.commitImport('tags', bad.id)).statusCode).toBe(422);

    const good = await admin.uploadAndCheck(
      'tags',
      'tags.csv',
      ['Name,Colour,Scope', 'New arrivals,#00AA00,product', 'clearance,#FF0000,'].join('\n'),
    );
    expect(good.check).toMatchObject({ errors: [], willCreate: 1, willUpdate: 1 });
    expect(bodyOf(await admin.commitImport('tags', good.id)).data).toMatchObject({
      created_count: 1,
      updated_count: 1,
    });
    const items = bodyOf<{ items: Tag[] }>(
      await admin.get('/tags?search=a&sort=name'),
    ).data.items.filter((tag) => ['New arrivals', 'Clearance'].includes(tag.name));
    expect(
      items.map(({ name, color, scope, usage_count }) => ({ name, color, scope, usage_count })),
    ).toEqual([
      {
        name: 'Clearance',
        color: '#FF0000',
        scope: ['product', 'bundle', 'combo'],
        usage_count: 2,
      },
      { name: 'New arrivals', color: '#00AA00', scope: ['product'], usage_count: 0 },
    ]);
  });
});
