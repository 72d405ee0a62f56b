import type { Vendor } from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, createAdminTestApp, type ApiClient } from '../../test/api-client.js';
import { bodyOf, createRole, createUser, login, type TestApp } from '../../test/test-app.js';

/** Vendors through the API: contacts checked, names unique, import by name. */

let t: TestApp;
let admin: ApiClient;

async function created(payload: unknown): Promise<Vendor> {
  const response = await admin.post('/vendors', payload);
  expect(response.statusCode, response.body).toBe(201);
  return bodyOf<Vendor>(response).data;
}

beforeAll(async () => {
  ({ t, admin } = await createAdminTestApp('im'));
});
afterAll(() => t.close());

describe('writing a vendor', () => {
  it('creates with checked contacts, refuses a duplicate name, edits, deactivates and audits', async () => {
    const acme = await created({
      name: 'Acme Wireless Supply',
      type: 'supplier',
      contact_name: ' Dana Ruiz ',
      email: 'orders@acme.example',
      phone: '+1 (555) 010-2030 ext 12',
      terms: 'Net 30',
      notes: '',
    });
    expect(acme).toMatchObject({
      contact_name: 'Dana Ruiz',
      email: 'orders@acme.example',
      rtv_address: null,
      notes: null,
      active: true,
    });
    expect(
      await admin.fieldErrors('POST', '/vendors', { name: 'ACME WIRELESS SUPPLY', type: 'repair' }),
    ).toEqual({
      name: ['A vendor with this name exists.'],
    });
    expect(
      await admin.fieldErrors('POST', '/vendors', {
        name: '',
        type: 'wholesaler',
        email: 'orders at acme',
        phone: 'call me',
      }),
    ).toEqual({
      name: ['Please enter the vendor name.'],
      type: ['Choose a type: supplier, recycler, repair, carrier-client.'],
      email: ['Write the email like name@example.com.'],
      phone: ['Write the phone number with digits, spaces, + - ( ) and an optional "ext 12".'],
    });

    const edited = bodyOf<Vendor>(
      await admin.put(`/vendors/${acme.id}`, {
        rtv_address: '1 Dock Rd\nDallas TX 75201',
        email: '',
      }),
    ).data;
    expect(edited).toMatchObject({
      rtv_address: '1 Dock Rd\nDallas TX 75201',
      email: null,
      phone: '+1 (555) 010-2030 ext 12',
    });
    expect(await admin.fieldErrors('PUT', `/vendors/${acme.id}`, { email: 'x@y' })).toEqual({
      email: ['Write the email like name@example.com.'],
    });
    const off = bodyOf<Vendor>(await admin.put(`/vendors/${acme.id}`, { active: false })).data;
    expect(off.active).toBe(false);
    const actions = await t.db.query<{ action: string }>(
      "SELECT action FROM audit_events WHERE entity_type = 'vendor' AND entity_id = $1 ORDER BY id",
      [String(acme.id)],
    );
    expect(actions.map((row) => row.action)).toEqual([
      'vendor.created',
      'vendor.updated',
      'vendor.deactivated',
    ]);
  });

  it('filters by type and activity and searches contacts', async () => {
    await created({ name: 'GreenCycle', type: 'recycler', email: 'pickup@greencycle.example' });
    await created({ name: 'FixIt Labs', type: 'repair', contact_name: 'Sam Lee' });
    const names = async (query: string) =>
      bodyOf<{ items: Vendor[] }>(await admin.get(`/vendors?${query}`)).data.items.map(
        (item) => item.name,
      );
    expect(await names('type=recycler')).toEqual(['GreenCycle']);
    expect(await names('active=true')).toEqual(['FixIt Labs', 'GreenCycle']);
    expect(await names('search=sam')).toEqual(['FixIt Labs']);
    expect(await names('search=greencycle.example')).toEqual(['GreenCycle']);
    expect(await names('sort=type&order=desc')).toEqual([
      'Acme Wireless Supply',
      'FixIt Labs',
      'GreenCycle',
    ]);
  });

  it('deletes a vendor nothing refers to; a viewer may list but not write', async () => {
    const unused = await created({ name: 'Typo Vendor', type: 'supplier' });
    expect((await admin.delete(`/vendors/${unused.id}`)).statusCode).toBe(200);
    await createRole(t.db, 'Vendor viewer', ['vendor.view-list']);
    await createUser(t.db, { userName: 'wm', password: 'wm-password-1', roles: ['Vendor viewer'] });
    const viewer = apiClient(t, await login(t.app, 'wm', 'wm-password-1'));
    expect((await viewer.get('/vendors')).statusCode).toBe(200);
    expect((await viewer.post('/vendors', { name: 'Nope', type: 'supplier' })).statusCode).toBe(
      403,
    );
  });
});

describe('importing vendors', () => {
  const header = 'Name,Type,Contact,Email,Phone,Terms';

  it('shows bad rows at the check, then creates and updates by name', async () => {
    const bad = await admin.uploadAndCheck(
      'vendors',
      'vendors.csv',
      [
        header,
        'Blue Ridge Phones,supplier,Ann,ann@blueridge.example,555-0100,Net 15',
        'Bad Mail Co,supplier,,not-an-email,,',
        ',recycler,,,,',
        'Odd Type,broker,,,,',
        'blue ridge phones,supplier,,,,',
      ].join('\n'),
    );
    expect(bad.check.errors).toEqual([
      {
        row: 3,
        column: 'Email',
        value: 'not-an-email',
        message: 'Write the email like name@example.com.',
      },
      { row: 4, column: 'Name', value: '', message: 'Please enter the vendor name.' },
      {
        row: 5,
        column: 'Type',
        value: 'broker',
        message: 'Choose a type: supplier, recycler, repair, carrier-client.',
      },
      { row: 6, column: 'Name', value: 'blue ridge phones', message: 'Repeats row 2.' },
    ]);
    expect((await admin.commitImport('vendors', bad.id)).statusCode).toBe(422);
    expect(
      bodyOf<{ total: number }>(await admin.get('/vendors/count?search=blue')).data.total,
    ).toBe(0);

    const good = await admin.uploadAndCheck(
      'vendors',
      'vendors.csv',
      [
        header,
        'Blue Ridge Phones,supplier,Ann,ann@blueridge.example,555-0100,Net 15',
        'greencycle,recycler,Mo,,,Net 45',
      ].join('\n'),
    );
    expect(good.check).toMatchObject({ errors: [], willCreate: 1, willUpdate: 1 });
    expect(bodyOf(await admin.commitImport('vendors', good.id)).data).toMatchObject({
      status: 'committed',
      created_count: 1,
      updated_count: 1,
    });
    const green = bodyOf<{ items: Vendor[] }>(await admin.get('/vendors?search=greencycle')).data
      .items[0]!;
    // Mapped columns are written, empty cells clear; the name keeps its spelling.
    expect(green).toMatchObject({
      name: 'GreenCycle',
      contact_name: 'Mo',
      email: null,
      terms: 'Net 45',
    });
  });
});
