import type { ImportCheck, LifelineMinimums, PlanPrice } from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, dataOf, refusalOf, type ApiClient } from '../../test/api-client.js';
import {
  bodyOf,
  createRole,
  createTestApp,
  createUser,
  login,
  type TestApp,
} from '../../test/test-app.js';
import { effectivePlanPrice } from './index.js';
import { lockKeys } from './plan-prices.service.js';

/**
 * Government-plan prices: versions that never overlap, started versions kept, changes scheduled,
 * expiries, ACP read-only, the import's dry run, the Lifeline minimum warning and the snapshot.
 */

let t: TestApp;
let pricing: ApiClient;
let warehouse: ApiClient;
let carrier: number;
let supplier: number;
let a15: number;
let a14: number;
let variant: number;
let today: string;

/** A day `days` from today, YYYY-MM-DD (UTC, as the database counts them). */
const dayFrom = (days: number) => {
  const date = new Date(`${today}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
};

const id = async (sql: string, params: unknown[] = []) =>
  (await t.db.query<{ id: number }>(sql, params))[0]!.id;

beforeAll(async () => {
  t = await createTestApp();
  await createRole(t.db, 'Pricing manager', ['price.management']);
  await createUser(t.db, { userName: 'pm', password: 'pm-password-1', roles: ['Pricing manager'] });
  await createUser(t.db, {
    userName: 'wm',
    password: 'wm-password-1',
    roles: ['Warehouse Manager'],
  });
  pricing = apiClient(t, await login(t.app, 'pm', 'pm-password-1'));
  warehouse = apiClient(t, await login(t.app, 'wm', 'wm-password-1'));
  carrier = await id(
    "INSERT INTO vendors (name, type) VALUES ('AirTalk Wireless', 'carrier-client') RETURNING id",
  );
  supplier = await id("INSERT INTO vendors (name, type) VALUES ('Acme', 'supplier') RETURNING id");
  await t.db.query("INSERT INTO brands (name) VALUES ('Samsung')");
  const model = (name: string) =>
    id(
      `INSERT INTO device_models (brand_id, name, model_numbers, device_type, os, network)
       SELECT id, $1, '{}', 'phone', 'android', '5G' FROM brands WHERE name = 'Samsung' RETURNING id`,
      [name],
    );
  a15 = await model('Galaxy A15');
  a14 = await model('Galaxy A14');
  const product = await id(
    "INSERT INTO products (name, model_id) VALUES ('Galaxy A15 refurbished', $1) RETURNING id",
    [a15],
  );
  variant = await id(
    "INSERT INTO product_variants (product_id, sku, grade) VALUES ($1, 'A15-GRADE-A', 'A') RETURNING id",
    [product],
  );
  today = (
    await t.db.query<{ today: string }>("SELECT to_char(plan_price_today(), 'YYYY-MM-DD') AS today")
  )[0]!.today;
});
afterAll(() => t.close());

const texas = (overrides: object = {}) => ({
  carrier_id: carrier,
  programme: 'lifeline',
  state: 'tx',
  model_id: a15,
  device_price_cents: 1001,
  plan_name: 'Unlimited talk & text, 4.5 GB',
  data_gb: 4.5,
  minutes: null,
  effective_from: today,
  ...overrides,
});

const create = (body: object) => dataOf<PlanPrice>(pricing.post('/gov-plan-prices', body), 201);

/** A version written straight into the database, as legacy data or days gone by leave it. */
const stored = (values: {
  programme?: string;
  state: string;
  from: string;
  to: string | null;
  version?: number;
}) =>
  id(
    `INSERT INTO gov_plan_prices (carrier_id, programme, state, model_id, version,
       device_price_cents, plan_name, data_gb, effective_from, effective_to)
     VALUES ($1, $2, $3, $4, $7, 0, 'Legacy plan', 10, $5, $6) RETURNING id`,
    [
      carrier,
      values.programme ?? 'lifeline',
      values.state,
      a14,
      values.from,
      values.to,
      values.version ?? 1,
    ],
  );

describe('a price', () => {
  let first: PlanPrice;

  it('is added as version 1 of its key, in effect from today', async () => {
    first = await create(texas());
    expect(first).toMatchObject({
      carrier_name: 'AirTalk Wireless',
      programme: 'lifeline',
      state: 'TX',
      model_name: 'Samsung Galaxy A15',
      variant_id: null,
      version: 1,
      device_price_cents: 1001,
      data_gb: 4.5,
      minutes: null,
      effective_from: today,
      effective_to: null,
      status: 'current',
      read_only: false,
      minimum_gb: 4.5,
      below_minimum: false,
    });
  });

  it('never shares a day with another version of its key: 409 naming the version', async () => {
    const message = await refusalOf(
      pricing.post('/gov-plan-prices', texas({ effective_from: dayFrom(30) })),
      409,
    );
    expect(message).toBe(
      `It overlaps version 1 of Lifeline, TX, Samsung Galaxy A15 (from ${today}, open-ended, id ${first.id}): versions of one price never share a day.`,
    );
    // Another state, the every-state price and a variant's price are other keys.
    await create(texas({ state: 'OK' }));
    await create(texas({ state: null }));
    await create(texas({ variant_id: variant }));
  });

  it('starts today at the earliest and names a client carrier and a variant of its model', async () => {
    expect(
      await pricing.fieldErrors(
        'POST',
        '/gov-plan-prices',
        texas({ effective_from: dayFrom(-1), state: 'CA' }),
      ),
    ).toEqual({ effective_from: [`Start today (${today}) or later: the past is not rewritten.`] });
    expect(
      await pricing.fieldErrors(
        'POST',
        '/gov-plan-prices',
        texas({ carrier_id: supplier, model_id: a14, variant_id: variant, state: 'CA' }),
      ),
    ).toEqual({
      carrier_id: ['Choose a client carrier: a vendor of type carrier-client.'],
      variant_id: ['Choose a variant of a product of this model.'],
    });
    expect(
      await pricing.fieldErrors('POST', '/gov-plan-prices', texas({ state: 'ZZ', data_gb: 4.555 })),
    ).toEqual({
      state: ['Write a state’s two letters, like TX, or leave it empty for every state.'],
      data_gb: ['At most two decimals, like 4.5.'],
    });
  });

  it('warns, without refusing, when the plan gives less data than the Lifeline minimum', async () => {
    const low = await create(texas({ state: 'NM', data_gb: 3 }));
    expect(low).toMatchObject({ below_minimum: true, minimum_gb: 4.5 });
    const upgrade = await create(texas({ state: 'NM', programme: 'prepaid', data_gb: 1 }));
    expect(upgrade).toMatchObject({ below_minimum: false, minimum_gb: null });
    const listed = await dataOf<{ items: PlanPrice[] }>(
      pricing.get('/gov-plan-prices?below_minimum=true&limit=200'),
    );
    expect(listed.items.map((price) => price.id)).toEqual([low.id]);
  });

  it('has a change scheduled: a new version from a later day closes it the day before', async () => {
    expect(
      await pricing.fieldErrors('POST', `/gov-plan-prices/${first.id}/changes`, {
        effective_from: today,
      }),
    ).toEqual({
      effective_from: [
        'A change starts tomorrow at the earliest: every order of today keeps today’s price.',
      ],
    });
    const change = await dataOf<PlanPrice>(
      pricing.post(`/gov-plan-prices/${first.id}/changes`, {
        effective_from: dayFrom(10),
        device_price_cents: 0,
      }),
      201,
    );
    expect(change).toMatchObject({
      version: 2,
      status: 'scheduled',
      device_price_cents: 0,
      plan_name: 'Unlimited talk & text, 4.5 GB',
      effective_from: dayFrom(10),
      effective_to: null,
    });
    const versions = await dataOf<PlanPrice[]>(
      pricing.get(`/gov-plan-prices/${change.id}/versions`),
    );
    expect(versions.map((v) => [v.version, v.effective_from, v.effective_to, v.status])).toEqual([
      [1, today, dayFrom(9), 'current'],
      [2, dayFrom(10), null, 'scheduled'],
    ]);
    // The scheduled version is withdrawn before it starts; the current one keeps its new end.
    await dataOf(pricing.delete(`/gov-plan-prices/${change.id}`));
    expect(
      (await dataOf<PlanPrice[]>(pricing.get(`/gov-plan-prices/${first.id}/versions`))).length,
    ).toBe(1);
  });

  it('is expired: its last day today at the earliest, never later than it was', async () => {
    expect(
      await pricing.fieldErrors('POST', `/gov-plan-prices/${first.id}/expiry`, {
        last_day: dayFrom(-1),
      }),
    ).toEqual({ last_day: [`Today (${today}) at the earliest: the past is not rewritten.`] });
    expect(
      await pricing.fieldErrors('POST', `/gov-plan-prices/${first.id}/expiry`, {
        last_day: dayFrom(20),
      }),
    ).toEqual({ last_day: [`This version ends on ${dayFrom(9)} already.`] });
    const expired = await dataOf<PlanPrice>(
      pricing.post(`/gov-plan-prices/${first.id}/expiry`, {}),
    );
    expect(expired).toMatchObject({ effective_to: today, status: 'current' });
    const events = await t.db.query<{ action: string }>(
      `SELECT action FROM audit_events WHERE entity_type = 'gov_plan_price' AND entity_id = $1
       ORDER BY id`,
      [String(first.id)],
    );
    expect(events.map((event) => event.action)).toEqual([
      'gov_plan_price.created',
      'gov_plan_price.closed_by_change',
      'gov_plan_price.expired',
    ]);
  });
});

describe('a version that has started', () => {
  it('is kept: a past one is neither changed nor expired, a started one never withdrawn', async () => {
    const past = await stored({ state: 'AZ', from: dayFrom(-60), to: dayFrom(-1) });
    const ended = `ended on ${dayFrom(-1)}: a past price is kept as it was.`;
    expect(await refusalOf(pricing.post(`/gov-plan-prices/${past}/expiry`, {}), 409)).toBe(
      `Version 1 of Lifeline, AZ, Samsung Galaxy A14 ${ended}`,
    );
    expect(
      await refusalOf(
        pricing.post(`/gov-plan-prices/${past}/changes`, { effective_from: dayFrom(5) }),
        409,
      ),
    ).toContain(ended);
    const started = await stored({ state: 'AR', from: dayFrom(-5), to: null });
    expect(await refusalOf(pricing.delete(`/gov-plan-prices/${started}`), 409)).toBe(
      `Version 1 of Lifeline, AR, Samsung Galaxy A14 started on ${dayFrom(-5)}: it is kept; expire it instead.`,
    );
  });

  it('is kept by the database too, whatever writes to it', async () => {
    const started = await stored({ state: 'AL', from: dayFrom(-5), to: null });
    await expect(
      t.db.query('UPDATE gov_plan_prices SET device_price_cents = 5 WHERE id = $1', [started]),
    ).rejects.toThrow(/has started/);
    await expect(
      t.db.query('UPDATE gov_plan_prices SET effective_to = $2 WHERE id = $1', [
        started,
        dayFrom(-1),
      ]),
    ).rejects.toThrow(/has started/);
    await expect(
      t.db.query('DELETE FROM gov_plan_prices WHERE id = $1', [started]),
    ).rejects.toThrow(/has started/);
    // Its last day brought forward to today is the one change allowed (an expiry).
    await t.db.query('UPDATE gov_plan_prices SET effective_to = $2 WHERE id = $1', [
      started,
      today,
    ]);
  });

  it('never overlaps another version of its key, whatever writes it (the exclusion constraint)', async () => {
    await stored({ state: 'AK', from: dayFrom(-10), to: null });
    await expect(
      stored({ state: 'AK', from: dayFrom(-3), to: dayFrom(-2), version: 2 }),
    ).rejects.toThrow(/gov_plan_prices_no_overlap/);
  });
});

describe('ACP', () => {
  it('is read-only: no price is added, changed, expired or withdrawn', async () => {
    const reason =
      'ACP ended in June 2024: its prices are kept as they were for the orders that used them, and cannot be added or changed.';
    expect(
      await refusalOf(
        pricing.post('/gov-plan-prices', texas({ programme: 'acp-legacy', state: 'GA' })),
        409,
      ),
    ).toBe(reason);
    const legacy = await stored({
      programme: 'acp-legacy',
      state: 'GA',
      from: '2023-01-01',
      to: null,
    });
    expect(await refusalOf(pricing.post(`/gov-plan-prices/${legacy}/expiry`, {}), 409)).toBe(
      reason,
    );
    expect(
      await refusalOf(
        pricing.post(`/gov-plan-prices/${legacy}/changes`, { effective_from: dayFrom(3) }),
        409,
      ),
    ).toBe(reason);
    expect(await refusalOf(pricing.delete(`/gov-plan-prices/${legacy}`), 409)).toBe(reason);
    const listed = await dataOf<{ items: PlanPrice[] }>(
      pricing.get('/gov-plan-prices?programme=acp-legacy'),
    );
    expect(listed.items).toMatchObject([{ id: legacy, read_only: true }]);
  });
});

describe('the import', () => {
  const header =
    'Carrier,Programme,State,Model,Variant SKU,Device price,Plan,Data (GB),Minutes,Effective from,Effective to,Note';

  it('reports each wrong row by its line in a dry run, overlaps in the file and with the database included', async () => {
    const csv = [
      header,
      `AirTalk Wireless,Lifeline,FL,Samsung Galaxy A15,,10.01,Plan A,4.5,,${dayFrom(1)},${dayFrom(30)},`,
      `AirTalk Wireless,Lifeline,FL,Samsung Galaxy A15,,5,Plan B,4.5,,${dayFrom(20)},,`,
      `AirTalk Wireless,ACP (legacy),FL,Samsung Galaxy A15,,0,ACP plan,,,${dayFrom(1)},,`,
      `AirTalk Wireless,Lifeline,TX,Samsung Galaxy A15,A15-GRADE-A,0,Plan C,4.5,,${today},,`,
      `Acme,Lifeline,ZZ,Galaxy Nothing,,1.234,Plan D,,,${dayFrom(1)},,`,
      `AirTalk Wireless,Tribal Lifeline,FL,Samsung Galaxy A15,,0,Tribal plan,2,1000,${dayFrom(1)},,`,
    ].join('\n');
    const { check } = await pricing.uploadAndCheck('gov-plan-prices', 'prices.csv', csv);
    const variantPrice = (
      await dataOf<{ items: PlanPrice[] }>(pricing.get(`/gov-plan-prices?state=TX&limit=200`))
    ).items.find((price) => price.variant_id === variant)!;
    expect(check.errors.map((e) => [e.row, e.column, e.message])).toEqual([
      [
        3,
        'Effective from',
        `It overlaps another row of this file for the same price (from ${dayFrom(1)} to ${dayFrom(30)}).`,
      ],
      [4, 'Programme', expect.stringContaining('ACP ended in June 2024')],
      [
        5,
        'Effective from',
        `It overlaps version 1 of Lifeline, TX, Samsung Galaxy A15 (A15-GRADE-A) (from ${today}, open-ended, id ${variantPrice.id}): versions of one price never share a day. A change starts tomorrow at the earliest.`,
      ],
      [6, 'State', 'Write a state’s two letters, like TX, or leave it empty for every state.'],
      [6, 'Device price', 'At most two decimals.'],
    ]);
    expect(check.willCreate).toBe(2);
    const committed = await pricing.commitImport('gov-plan-prices', check.batch.id);
    expect(committed.statusCode).toBe(422);
  });

  it('writes every row of a clean file as a new version, closing the open version it follows', async () => {
    const csv = [
      header,
      `AirTalk Wireless,lifeline,OK,Samsung Galaxy A15,,2.50,New Oklahoma plan,6,,${dayFrom(7)},,`,
      `AirTalk Wireless,prepaid upgrade,,Samsung Galaxy A14,,49.99,Upgrade,10,,${dayFrom(1)},${dayFrom(90)},`,
    ].join('\n');
    const { check } = await pricing.uploadAndCheck('gov-plan-prices', 'clean.csv', csv);
    expect(check.errors).toEqual([]);
    const batch = await dataOf<ImportCheck['batch']>(
      pricing.commitImport('gov-plan-prices', check.batch.id),
    );
    expect(batch).toMatchObject({ status: 'committed', created_count: 2, updated_count: 1 });
    const oklahoma = await dataOf<{ items: PlanPrice[] }>(
      pricing.get('/gov-plan-prices?state=OK&programme=lifeline&sort=effective_from&order=asc'),
    );
    expect(
      oklahoma.items.map((v) => [
        v.version,
        v.effective_from,
        v.effective_to,
        v.device_price_cents,
      ]),
    ).toEqual([
      [1, today, dayFrom(6), 1001],
      [2, dayFrom(7), null, 250],
    ]);
  });
});

describe('the writers of a file of prices', () => {
  it('take one lock per carrier and programme, however many keys the file has', async () => {
    // A lock per key was one per row: a 100,000-row file exhausted the lock table (a 500).
    const keys = Array.from({ length: 2_000 }, (_, i) => ({
      carrier_id: carrier,
      programme: i % 2 === 0 ? ('lifeline' as const) : ('tribal' as const),
      state: i % 3 === 0 ? null : 'TX',
      model_id: i,
      variant_id: null,
    }));
    const held = await t.db.transaction(async (tx) => {
      await lockKeys(tx, keys);
      const [locks] = await tx.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()",
      );
      return locks!.n;
    });
    expect(held).toBe(2);
  });
});

describe('the Lifeline minimum service standard', () => {
  it('is 4.5 GB until changed; a higher value from today warns of the plans below it', async () => {
    const standards = await dataOf<LifelineMinimums>(pricing.get('/lifeline-minimum-standards'));
    expect(standards.current).toMatchObject({ effective_from: '2020-12-01', data_gb: 4.5 });
    const raised = await dataOf<LifelineMinimums>(
      pricing.put('/lifeline-minimum-standards', { effective_from: today, data_gb: 5 }),
    );
    expect(raised.current).toMatchObject({ effective_from: today, data_gb: 5 });
    const texasPrices = await dataOf<{ items: PlanPrice[] }>(
      pricing.get('/gov-plan-prices?state=TX&programme=lifeline&status=current'),
    );
    expect(texasPrices.items.every((price) => price.below_minimum && price.minimum_gb === 5)).toBe(
      true,
    );
    expect(
      await pricing.fieldErrors('PUT', '/lifeline-minimum-standards', {
        effective_from: today,
        data_gb: 0,
      }),
    ).toEqual({ data_gb: ['The minimum is more than 0 GB.'] });
  });
});

describe('the snapshot an order takes', () => {
  it('is the variant’s own price before the model’s, the state’s before every state’s', async () => {
    const key = { carrierId: carrier, programme: 'lifeline' as const, modelId: a15 };
    const variantPrice = await effectivePlanPrice(
      t.db,
      { ...key, state: 'TX', variantId: variant },
      today,
    );
    expect(variantPrice).toMatchObject({ state: 'TX', variant_id: variant });
    const modelPrice = await effectivePlanPrice(
      t.db,
      { ...key, state: 'TX', variantId: null },
      today,
    );
    expect(modelPrice).toMatchObject({ state: 'TX', variant_id: null });
    const everyState = await effectivePlanPrice(
      t.db,
      { ...key, state: 'WY', variantId: null },
      today,
    );
    expect(everyState).toMatchObject({ state: null, variant_id: null });
    expect(
      await effectivePlanPrice(t.db, { ...key, state: 'WY', variantId: null }, dayFrom(-1)),
    ).toBeNull();
  });
});

describe('access', () => {
  it('needs price.management for every endpoint of the page', async () => {
    expect((await warehouse.get('/gov-plan-prices')).statusCode).toBe(403);
    expect((await warehouse.post('/gov-plan-prices', texas({ state: 'UT' }))).statusCode).toBe(403);
    expect(
      (await warehouse.put('/lifeline-minimum-standards', { effective_from: today, data_gb: 1 }))
        .statusCode,
    ).toBe(403);
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/v1/gov-plan-prices' });
    expect(anonymous.statusCode).toBe(401);
    expect(bodyOf(anonymous).code).toBe(401);
  });
});
