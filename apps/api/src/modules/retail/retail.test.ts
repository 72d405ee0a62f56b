import {
  OPEN_ORDER_STATUSES,
  ORDER_STATUSES,
  type CreateRetailerInput,
  type OrderRow,
  type PortalUser,
  type Profile,
  type Retailer,
  type RetailerDetail,
  type RetailerOrder,
} from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiClient,
  createAdminTestApp,
  dataOf,
  refusalOf,
  type ApiClient,
} from '../../test/api-client.js';
import { bearer, createRole, createUser, login, type TestApp } from '../../test/test-app.js';
import { assessCredit, checkCredit } from './index.js';

/** Retailers (DOMAIN.md 4.8): the form with addresses and contacts, certificates, portal users. */

let t: TestApp;
let admin: ApiClient;
let sales: ApiClient;
let clerk: ApiClient;

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Title (Resale certificate) >> endobj\n%%EOF\n');

beforeAll(async () => {
  ({ t, admin } = await createAdminTestApp());
  await createUser(t.db, {
    userName: 'sam',
    password: 'sam-password-1',
    roles: ['Sales / Account Manager'],
  });
  sales = apiClient(t, await login(t.app, 'sam', 'sam-password-1'));
  await createRole(t.db, 'Night Clerk', ['device.scan']);
  await createUser(t.db, { userName: 'cleo', password: 'cleo-password-1', roles: ['Night Clerk'] });
  clerk = apiClient(t, await login(t.app, 'cleo', 'cleo-password-1'));
});
afterAll(() => t.close());

let names = 0;
const retailerInput = (overrides: Partial<CreateRetailerInput> = {}): CreateRetailerInput => ({
  name: `Corner Wireless ${(names += 1)}`,
  type: 'store',
  addresses: [
    {
      kind: 'billing',
      line1: '12 main st',
      city: 'Austin',
      state: 'tx',
      zip: '78701',
      is_default: true,
    },
  ],
  contacts: [
    { name: 'Dana Ruiz', email: 'dana@corner.example', phone: '+1 512 555 0100', is_main: true },
  ],
  ...overrides,
});

const create = (overrides: Partial<CreateRetailerInput> = {}) =>
  dataOf<Retailer>(admin.post('/retailers', retailerInput(overrides)), 201);

const detail = (id: number) => dataOf<RetailerDetail>(admin.get(`/retailers/${id}/detail`));

/** Attaches the certificate's file as the web does: its bytes as the body. */
async function attachCertificate(id: number) {
  return t.app.inject({
    method: 'POST',
    url: `/api/v1/retailers/${id}/attachments?fileName=certificate.pdf`,
    headers: {
      ...bearer(await login(t.app, 'pi', 'pi-password-1')),
      'content-type': 'application/octet-stream',
    },
    payload: PDF,
  });
}

const isoDay = (offsetDays: number) =>
  new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

describe('the retailer form', () => {
  it('creates a retailer with its addresses and contacts, listed by its main contact and state', async () => {
    const retailer = await create({
      legal_name: 'Corner Wireless LLC',
      type: 'dealer',
      price_tier: 'gold',
      credit_terms: 'net30',
      credit_limit_cents: 500_000,
      addresses: [
        {
          kind: 'shipping',
          line1: '5 dock rd',
          city: 'Dallas',
          state: 'TX',
          zip: '75201-1234',
          is_default: true,
        },
        {
          kind: 'billing',
          line1: '1 elm st',
          line2: 'suite 4',
          city: 'Tulsa',
          state: 'ok',
          zip: '74103',
          is_default: true,
        },
      ],
    });
    expect(retailer).toMatchObject({
      type: 'dealer',
      price_tier: 'gold',
      credit_terms: 'net30',
      credit_limit_cents: 500_000,
      main_contact: 'Dana Ruiz',
      state: 'OK',
      certificate_status: 'missing',
      tax_exempt: false,
      tax_exempt_now: false,
      status: 'active',
      portal_users: 0,
    });
    const { addresses, contacts } = await detail(retailer.id);
    expect(addresses.map((a) => [a.kind, a.line1, a.line2, a.state, a.zip])).toEqual([
      ['billing', '1 ELM ST', 'SUITE 4', 'OK', '74103'],
      ['shipping', '5 DOCK RD', null, 'TX', '75201-1234'],
    ]);
    expect(contacts).toMatchObject([{ name: 'Dana Ruiz', is_main: true, role: null }]);

    const listed = await dataOf<{ items: Retailer[] }>(
      admin.get('/retailers?state=OK&type=dealer'),
    );
    expect(listed.items.map((item) => item.id)).toEqual([retailer.id]);
    const tiers = await dataOf<{ items: Retailer[] }>(admin.get('/retailers?price_tier=platinum'));
    expect(tiers.items).toEqual([]);
  });

  it('refuses bad addresses, contacts and terms field by field', async () => {
    const errors = await admin.fieldErrors('POST', '/retailers', {
      ...retailerInput(),
      credit_terms: 'net90',
      addresses: [{ kind: 'billing', line1: '1 elm st', city: 'Tulsa', state: 'XX', zip: '7410' }],
      contacts: [{ name: 'Dana', email: 'not-an-email', phone: 'call me' }],
    });
    expect(Object.keys(errors as object).sort()).toEqual([
      'addresses.0.state',
      'addresses.0.zip',
      'contacts.0.email',
      'contacts.0.phone',
      'credit_terms',
    ]);

    const rules = await admin.fieldErrors('POST', '/retailers', {
      ...retailerInput(),
      credit_limit_cents: 100,
      addresses: [
        {
          kind: 'billing',
          line1: '1 elm st',
          city: 'Tulsa',
          state: 'OK',
          zip: '74103',
          is_default: true,
        },
        {
          kind: 'billing',
          line1: '2 elm st',
          city: 'Tulsa',
          state: 'OK',
          zip: '74103',
          is_default: true,
        },
      ],
      contacts: [
        { name: 'Dana', is_main: true },
        { name: 'Lee', is_main: true },
      ],
    });
    expect(rules).toEqual({
      credit_limit_cents: [
        'Prepaid accounts buy on no credit: set the limit to 0 or choose net terms.',
      ],
      'addresses.1.is_default': ['Only one billing address is the default.'],
      'contacts.1.is_main': ['Only one contact is the main contact.'],
    });
    const duplicate = await create();
    expect(
      await admin.fieldErrors(
        'POST',
        '/retailers',
        retailerInput({ name: duplicate.name.toUpperCase() }),
      ),
    ).toEqual({ name: ['A retailer with this name exists.'] });
  });

  it('keeps addresses and contacts by id, adds new ones and drops those left out', async () => {
    const retailer = await create({
      contacts: [
        { name: 'Dana Ruiz', is_main: true },
        { name: 'Lee Park', role: 'Buyer' },
      ],
    });
    const before = await detail(retailer.id);
    const dana = before.contacts.find((c) => c.name === 'Dana Ruiz')!;
    const lee = before.contacts.find((c) => c.name === 'Lee Park')!;
    await dataOf(
      admin.put(`/retailers/${retailer.id}`, {
        contacts: [
          { id: dana.id, name: 'Dana Ruiz', is_main: false },
          { id: lee.id, name: 'Lee Park', role: 'Owner', is_main: true },
        ],
        addresses: [
          {
            kind: 'shipping',
            line1: '9 ship way',
            city: 'Reno',
            state: 'NV',
            zip: '89501',
            is_default: true,
          },
        ],
      }),
    );
    const after = await detail(retailer.id);
    expect(after.contacts.map((c) => [c.id, c.name, c.role, c.is_main])).toEqual([
      [lee.id, 'Lee Park', 'Owner', true],
      [dana.id, 'Dana Ruiz', null, false],
    ]);
    expect(after.addresses.map((a) => [a.kind, a.city])).toEqual([['shipping', 'RENO']]);
    expect(after.retailer).toMatchObject({ main_contact: 'Lee Park', state: 'NV' });

    const other = await create();
    const foreign = (await detail(other.id)).contacts[0]!;
    expect(
      await admin.fieldErrors('PUT', `/retailers/${retailer.id}`, {
        contacts: [{ id: foreign.id, name: 'Not ours' }],
      }),
    ).toEqual({ 'contacts.0.id': ['This entry is not this retailer’s any more: reload.'] });
  });
});

describe('the resale certificate', () => {
  it('makes a retailer tax-exempt only while it is valid: number, expiry and file', async () => {
    expect(
      await admin.fieldErrors('POST', '/retailers', retailerInput({ tax_exempt: true })),
    ).toMatchObject({ tax_exempt: [expect.stringContaining('has no resale certificate')] });

    const retailer = await create();
    const certificate = `/retailers/${retailer.id}/resale-certificate`;
    expect(
      await admin.fieldErrors('PUT', certificate, {
        resale_certificate_no: 'TX-RC-1',
        resale_certificate_expires_on: isoDay(-1),
      }),
    ).toEqual({
      resale_certificate_expires_on: ['This certificate has expired: record the renewed one.'],
    });
    const recorded = await dataOf<Retailer>(
      admin.put(certificate, {
        resale_certificate_no: 'TX-RC-1',
        resale_certificate_expires_on: isoDay(365),
      }),
    );
    // The file is still missing.
    expect(recorded.certificate_status).toBe('missing');
    expect(
      await admin.fieldErrors('PUT', `/retailers/${retailer.id}`, { tax_exempt: true }),
    ).toMatchObject({ tax_exempt: [expect.stringContaining('its file attached')] });

    const attached = await attachCertificate(retailer.id);
    expect(attached.statusCode, attached.body).toBe(201);
    const exempt = await dataOf<Retailer>(
      admin.put(`/retailers/${retailer.id}`, { tax_exempt: true }),
    );
    expect(exempt).toMatchObject({
      tax_exempt: true,
      tax_exempt_now: true,
      certificate_status: 'valid',
    });

    await dataOf(
      admin.put(certificate, {
        resale_certificate_no: 'TX-RC-1',
        resale_certificate_expires_on: isoDay(10),
      }),
    );
    expect(
      (await dataOf<{ items: Retailer[] }>(admin.get('/retailers?certificate=expiring'))).items.map(
        (item) => item.id,
      ),
    ).toContain(retailer.id);

    // The calendar passes the expiry: the exemption ends and the list warns.
    await t.db.query(
      'UPDATE retailers SET resale_certificate_expires_on = CURRENT_DATE - 1 WHERE id = $1',
      [retailer.id],
    );
    const expired = await dataOf<Retailer>(admin.get(`/retailers/${retailer.id}`));
    expect(expired).toMatchObject({
      tax_exempt: true,
      tax_exempt_now: false,
      certificate_status: 'expired',
    });
    expect(
      (await dataOf<{ items: Retailer[] }>(admin.get('/retailers?certificate=expired'))).items.map(
        (item) => item.id,
      ),
    ).toEqual([retailer.id]);
    expect(
      await admin.fieldErrors('PUT', `/retailers/${retailer.id}`, { tax_exempt: true }),
    ).toMatchObject({ tax_exempt: [expect.stringContaining('expired on')] });
  });
});

describe('status, portal users and delete', () => {
  it('deactivates and reactivates, each once', async () => {
    const retailer = await create();
    const inactive = await dataOf<Retailer>(admin.post(`/retailers/${retailer.id}/deactivate`));
    expect(inactive.status).toBe('inactive');
    expect(await refusalOf(admin.post(`/retailers/${retailer.id}/deactivate`), 409)).toMatch(
      /is inactive already/,
    );
    expect(
      await refusalOf(
        admin.post(`/retailers/${retailer.id}/portal-users`, { user_name: 'x.y', name: 'X Y' }),
        409,
      ),
    ).toMatch(/deactivated: reactivate it first/);
    expect(
      (await dataOf<Retailer>(admin.post(`/retailers/${retailer.id}/reactivate`))).status,
    ).toBe('active');
  });

  it('creates portal users who reach nothing of the back office', async () => {
    const retailer = await create();
    // A sales manager holds no user.manage: a portal user is granted no role, so they may.
    const created = await dataOf<{
      user: { id: number; first_login: number; roles: unknown[] };
      temporary_password: string;
    }>(
      sales.post(`/retailers/${retailer.id}/portal-users`, {
        user_name: 'buyer.corner',
        name: 'Bea Buyer',
        email: 'bea@corner.example',
      }),
      201,
    );
    expect(created.user).toMatchObject({ first_login: 1, roles: [] });
    expect(created.temporary_password).toHaveLength(14);
    expect(
      await sales.fieldErrors('POST', `/retailers/${retailer.id}/portal-users`, {
        user_name: 'buyer.corner',
        name: 'Twice',
      }),
    ).toEqual({ user_name: ['This user name is taken.'] });
    const listed = await dataOf<PortalUser[]>(sales.get(`/retailers/${retailer.id}/portal-users`));
    expect(listed.map((user) => user.user_name)).toEqual(['buyer.corner']);
    expect((await dataOf<Retailer>(sales.get(`/retailers/${retailer.id}`))).portal_users).toBe(1);

    const portalToken = await login(t.app, 'buyer.corner', created.temporary_password);
    const portal = apiClient(t, portalToken);
    await dataOf(
      portal.post('/profile/password', {
        new_password: 'corner-buyer-2026!',
        new_password_confirm: 'corner-buyer-2026!',
      }),
    );
    const buyer = apiClient(t, await login(t.app, 'buyer.corner', 'corner-buyer-2026!'));
    const profile = await dataOf<Profile>(buyer.get('/profile'));
    expect(profile).toMatchObject({ allRoles: [], allPermissions: [] });
    expect((await buyer.get('/retailers')).statusCode).toBe(403);
    expect((await buyer.get(`/retailers/${retailer.id}/detail`)).statusCode).toBe(403);
    expect((await buyer.get('/users')).statusCode).toBe(403);

    // A portal user is never offered as an account rep.
    const reps = await dataOf<{ label: string }[]>(
      admin.get('/retailers/account-rep-options?search=Bea'),
    );
    expect(reps).toEqual([]);
    expect(
      await admin.fieldErrors('PUT', `/retailers/${retailer.id}`, {
        account_rep_id: created.user.id,
      }),
    ).toEqual({ account_rep_id: ['Choose an active staff member.'] });

    expect(await refusalOf(admin.delete(`/retailers/${retailer.id}`), 409)).toMatch(
      /1 portal user\(s\): deactivate it instead/,
    );
  });

  it('deletes a retailer created by mistake, its addresses, contacts and files with it', async () => {
    const retailer = await create();
    expect((await attachCertificate(retailer.id)).statusCode).toBe(201);
    await dataOf(admin.delete(`/retailers/${retailer.id}`));
    const [left] = await t.db.query<{ n: number }>(
      `SELECT (SELECT count(*) FROM attachments WHERE record_kind = 'retailer' AND record_id = $1)
        + (SELECT count(*) FROM retailer_addresses WHERE retailer_id = $1)
        + (SELECT count(*) FROM retailer_contacts WHERE retailer_id = $1) AS n`,
      [retailer.id],
    );
    expect(Number(left!.n)).toBe(0);
  });

  it('answers 403 without customer.management and 404 for a retailer that does not exist', async () => {
    const retailer = await create();
    for (const answer of [
      clerk.get('/retailers'),
      clerk.get(`/retailers/${retailer.id}/detail`),
      clerk.post('/retailers', retailerInput()),
      clerk.post(`/retailers/${retailer.id}/deactivate`),
      clerk.post(`/retailers/${retailer.id}/portal-users`, { user_name: 'nope', name: 'Nope' }),
    ]) {
      expect((await answer).statusCode).toBe(403);
    }
    for (const answer of [
      admin.get('/retailers/999999/detail'),
      admin.put('/retailers/999999', { name: 'Gone' }),
      admin.put('/retailers/999999/resale-certificate', {
        resale_certificate_no: 'X',
        resale_certificate_expires_on: isoDay(30),
      }),
      admin.post('/retailers/999999/deactivate'),
      admin.get('/retailers/999999/portal-users'),
      admin.post('/retailers/999999/portal-users', { user_name: 'ghost', name: 'Ghost' }),
    ]) {
      expect((await answer).statusCode).toBe(404);
    }
  });
});

/** An order of the retailer as intake leaves it, `daysAgo` days old (number and day by trigger). */
async function placeOrder(retailerId: number, status: string, totalCents: number, daysAgo = 1) {
  const [order] = await t.db.query<{ id: number; number: string }>(
    `INSERT INTO orders (source, fulfilment_type, retailer_id, status, subtotal_cents, total_cents,
       created_at)
     VALUES ('retailer', 'wholesale', $1, $2, $3, $3, now() - make_interval(days => $4))
     RETURNING id, number`,
    [retailerId, status, totalCents, daysAgo],
  );
  return order!;
}

describe("a retailer's orders", () => {
  it('lists its open orders and its revenue of the last 12 months', async () => {
    const retailer = await create();
    await placeOrder(retailer.id, 'pending', 10_000);
    await placeOrder(retailer.id, 'shipped', 20_000, 30);
    await placeOrder(retailer.id, 'delivered', 40_000, 100);
    await placeOrder(retailer.id, 'cancelled', 80_000);
    await placeOrder(retailer.id, 'returned', 160_000);
    await placeOrder(retailer.id, 'closed', 320_000, 400);
    const other = await create();
    await placeOrder(other.id, 'ready', 5_000);
    const page = await dataOf<{ items: Retailer[] }>(
      admin.get(`/retailers?search=${encodeURIComponent(retailer.name)}`),
    );
    expect(page.items.find((item) => item.id === retailer.id)).toMatchObject({
      open_orders: 2,
      revenue_12m_cents: 70_000,
    });
    expect(await dataOf<Retailer>(admin.get(`/retailers/${other.id}`))).toMatchObject({
      open_orders: 1,
      revenue_12m_cents: 5_000,
    });
  });

  it('counts open orders through an index whose condition names exactly the open statuses', async () => {
    const [index] = await t.db.query<{ def: string }>(
      "SELECT indexdef AS def FROM pg_indexes WHERE indexname = 'orders_retailer_open'",
    );
    const named = ORDER_STATUSES.filter((status) => index!.def.includes(`'${status}'`));
    expect(named).toEqual([...OPEN_ORDER_STATUSES]);
  });

  it('shows its latest orders, newest first, and the order list filters by it', async () => {
    const retailer = await create();
    const old = await placeOrder(retailer.id, 'delivered', 12_345, 20);
    const recent = await placeOrder(retailer.id, 'pending', 500, 1);
    await placeOrder((await create()).id, 'pending', 700);
    const orders = await dataOf<RetailerOrder[]>(sales.get(`/retailers/${retailer.id}/orders`));
    expect(orders.map((order) => order.number)).toEqual([recent.number, old.number]);
    expect(orders[1]).toMatchObject({ status: 'delivered', total_cents: 12_345 });
    const listed = await dataOf<{ items: OrderRow[] }>(
      admin.get(`/orders?retailer_id=${retailer.id}`),
    );
    expect(listed.items.map((order) => order.number)).toEqual([recent.number, old.number]);
    await refusalOf(admin.get('/retailers/999999/orders'), 404);
    await refusalOf(clerk.get(`/retailers/${retailer.id}/orders`), 403);
  });

  it('refuses to deactivate or delete a retailer with open orders, naming how many', async () => {
    const retailer = await create();
    const orders = [
      await placeOrder(retailer.id, 'substitution_pending', 1_000),
      await placeOrder(retailer.id, 'cancel_requested', 1_000),
    ];
    expect(await refusalOf(admin.post(`/retailers/${retailer.id}/deactivate`), 409)).toMatch(
      /has 2 open orders: finish or cancel them before deactivating it/,
    );
    expect(await refusalOf(admin.delete(`/retailers/${retailer.id}`), 409)).toMatch(
      /has 2 open orders: finish or cancel them before deleting it/,
    );
    await t.db.query(`UPDATE orders SET status = 'cancelled' WHERE id = $1`, [orders[0]!.id]);
    expect(await refusalOf(admin.post(`/retailers/${retailer.id}/deactivate`), 409)).toMatch(
      /has 1 open order: finish or cancel it/,
    );
    await t.db.query(`UPDATE orders SET status = 'cancelled' WHERE id = $1`, [orders[1]!.id]);
    expect(
      (await dataOf<Retailer>(admin.post(`/retailers/${retailer.id}/deactivate`))).status,
    ).toBe('inactive');
    // Closed orders keep naming it: it stays, deactivated.
    expect(await refusalOf(admin.delete(`/retailers/${retailer.id}`), 409)).toMatch(
      /has orders on record: deactivate it instead/,
    );
  });
});

describe('the credit check', () => {
  const account = {
    id: 1,
    name: 'Corner Wireless',
    status: 'active',
    credit_terms: 'net30',
    credit_limit_cents: 100_000,
  } as const;

  it('passes an order while the open orders and it stay within the limit', () => {
    expect(assessCredit(account, 60_000, 40_000)).toMatchObject({
      decision: 'within_limit',
      availableCents: 40_000,
    });
    expect(assessCredit(account, 60_000, 40_001)).toMatchObject({
      decision: 'over_limit',
      reason: 'Corner Wireless would owe $1,000.01 against a credit limit of $1,000.00.',
    });
    expect(
      assessCredit({ ...account, credit_terms: 'prepaid', credit_limit_cents: 0 }, 0, 1).decision,
    ).toBe('prepaid');
    expect(assessCredit({ ...account, status: 'inactive' }, 0, 1).decision).toBe('inactive');
  });

  it("reads the retailer's terms in the caller's transaction", async () => {
    const retailer = await create({ credit_terms: 'net15', credit_limit_cents: 250_000 });
    const standing = await t.db.transaction((tx) =>
      checkCredit(tx, retailer.id, { openExposureCents: 200_000, orderCents: 60_000 }),
    );
    expect(standing).toMatchObject({
      decision: 'over_limit',
      terms: 'net15',
      availableCents: 50_000,
    });
    await expect(
      t.db.transaction((tx) => checkCredit(tx, 999_999, { openExposureCents: 0, orderCents: 1 })),
    ).rejects.toThrow(/no retailer with id 999999/);
  });
});
