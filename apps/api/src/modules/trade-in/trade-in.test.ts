import type { TradeInBoard, TradeInDetail, TradeInSettings } from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf, refusalOf, signedInClient, type ApiClient } from '../../test/api-client.js';
import { imeiOf, seedCatalogue, TACS, type Catalogue } from '../../test/receiving-fixtures.js';
import { createRole, createTestApp, type TestApp } from '../../test/test-app.js';

let t: TestApp;
let catalogue: Catalogue;
let desk: ApiClient;
let manager: ApiClient;
let serial = 0;

beforeAll(async () => {
  t = await createTestApp();
  catalogue = await seedCatalogue(t);
  // No default role holds trade-ins yet: a role of its own.
  await createRole(t.db, 'Trade-in desk', ['trade-in.process']);
  desk = await signedInClient(t, 'trade-desk', ['Trade-in desk']);
  manager = await signedInClient(t, 'trade-admin', ['admin']);
});
afterAll(() => t.close());

const nextImei = (tac: string = TACS.a15) => imeiOf(tac, 700_000 + (serial += 1));

const CUSTOMER = {
  customer_name: 'Maria Lopez',
  line1: '9 Oak Ave',
  city: 'Austin',
  state: 'tx',
  zip: '78701',
  declared_model: 'Galaxy A15, good condition',
  quoted_cents: 6000,
};

const INSPECTION = {
  powers_on: true,
  erased: true,
  activation_lock_off: true,
  functions_ok: true,
  screen_ok: false,
  body_ok: true,
  grade: 'C',
};

const expectTradeIn = async () =>
  (await dataOf<TradeInDetail>(desk.post('/trade-ins', CUSTOMER), 201)).trade_in;

const step = (id: number, path: string, body: unknown = {}) =>
  desk.post(`/trade-ins/${id}/${path}`, body);

async function inspected(imei = nextImei()) {
  const tradeIn = await expectTradeIn();
  await dataOf(step(tradeIn.id, 'receive', { imei, station: 'Returns 1' }));
  await dataOf(step(tradeIn.id, 'inspect', INSPECTION));
  return { id: tradeIn.id, imei };
}

describe('a trade-in', () => {
  it('is received by IMEI with its model from the TAC, and not received twice', async () => {
    const tradeIn = await expectTradeIn();
    expect(tradeIn).toMatchObject({ status: 'expected', state: 'TX', imei: null });
    const unknownTac = await desk.fieldErrors('POST', `/trade-ins/${tradeIn.id}/receive`, {
      imei: nextImei('99999999'),
    });
    expect(unknownTac.imei?.[0]).toMatch(/TAC 99999999 is not in the TAC list/);
    const imei = nextImei();
    const received = await dataOf<TradeInDetail>(step(tradeIn.id, 'receive', { imei }));
    expect(received.trade_in).toMatchObject({
      status: 'received',
      imei,
      model: 'Samsung Galaxy A15',
    });
    expect(await refusalOf(step(tradeIn.id, 'receive', { imei }), 409)).toMatch(
      /cannot be received/,
    );
    const other = await expectTradeIn();
    expect(await refusalOf(step(other.id, 'receive', { imei }), 409)).toContain(
      received.trade_in.number,
    );
  });

  it('is rejected when its IMEI is blacklisted or it is activation-locked', async () => {
    const blocked = nextImei();
    await t.db.query(
      "INSERT INTO blacklist_entries (imei, source, reason) VALUES ($1, 'gsma', 'stolen')",
      [blocked],
    );
    const first = await expectTradeIn();
    const rejected = await dataOf<TradeInDetail>(step(first.id, 'receive', { imei: blocked }));
    expect(rejected.trade_in).toMatchObject({ status: 'rejected', reason: 'blacklisted' });

    const second = await expectTradeIn();
    await dataOf(step(second.id, 'receive', { imei: nextImei() }));
    const locked = await dataOf<TradeInDetail>(
      step(second.id, 'inspect', { ...INSPECTION, activation_lock_off: false }),
    );
    expect(locked.trade_in).toMatchObject({ status: 'rejected', reason: 'activation_locked' });
  });

  it('accepted at its quote becomes a returned device of ours with the credit as its cost', async () => {
    const { id, imei } = await inspected();
    const accepted = await dataOf<TradeInDetail>(step(id, 'accept'));
    expect(accepted.trade_in).toMatchObject({ status: 'accepted', credit_cents: 6000 });
    const [device] = await t.db.query<{ status: string; model_id: number; cost: number }>(
      'SELECT status, model_id::int AS model_id, unit_cost_cents::int AS cost FROM devices WHERE imei = $1',
      [imei],
    );
    expect(device).toEqual({ status: 'returned', model_id: catalogue.models.a15, cost: 6000 });
    expect(accepted.trade_in.device_id).toBeTypeOf('number');
  });

  it('revalued is accepted at the offer while it is open, and not after it expired', async () => {
    const { id } = await inspected();
    const revalued = await dataOf<TradeInDetail>(step(id, 'revalue', { offer_cents: 4500 }));
    expect(revalued.trade_in).toMatchObject({ status: 'revalued', offer_cents: 4500 });
    expect(revalued.trade_in.offer_expires_at).not.toBeNull();
    const accepted = await dataOf<TradeInDetail>(step(id, 'accept'));
    expect(accepted.trade_in.credit_cents).toBe(4500);

    const late = await inspected();
    await dataOf(step(late.id, 'revalue', { offer_cents: 3000 }));
    await t.db.query(
      "UPDATE trade_ins SET offer_expires_at = now() - interval '1 hour' WHERE id = $1",
      [late.id],
    );
    const board = await dataOf<TradeInBoard>(desk.get('/trade-ins'));
    expect(board.open.find((row) => row.id === late.id)?.offer_expired).toBe(true);
    expect(await refusalOf(step(late.id, 'accept'), 409)).toMatch(/expired/);
  });

  it('declined is sent back with a return label', async () => {
    const { id } = await inspected();
    await dataOf(step(id, 'revalue', { offer_cents: 1000 }));
    const declined = await dataOf<TradeInDetail>(step(id, 'decline', { reason: 'Too low' }));
    expect(declined.trade_in).toMatchObject({ status: 'declined', reason: 'Too low' });
    const sent = await dataOf<TradeInDetail>(step(id, 'send-back'));
    expect(sent.trade_in.status).toBe('returned');
    expect(sent.trade_in.return_tracking_number).toMatch(/^94/);
  });

  it('has its offer window changed by a manager only', async () => {
    expect(
      await refusalOf(desk.put('/trade-ins/settings', { offer_valid_days: 3 }), 403),
    ).toBeTruthy();
    const settings = await dataOf<TradeInSettings>(
      manager.put('/trade-ins/settings', { offer_valid_days: 3 }),
    );
    expect(settings.offer_valid_days).toBe(3);
    const errors = await manager.fieldErrors('PUT', '/trade-ins/settings', { offer_valid_days: 0 });
    expect(errors.offer_valid_days).toBeDefined();
  });
});
