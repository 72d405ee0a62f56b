import type { CarrierTerms, ClaimBoard, ClaimDetail, ClaimPackage } from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf, refusalOf, signedInClient, type ApiClient } from '../../test/api-client.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import {
  shippedLifelineParcels,
  type ReturnedParcelSeed,
} from '../../test/returned-parcel-fixtures.js';

let t: TestApp;
let clerk: ApiClient;
let support: ApiClient;
let manager: ApiClient;

beforeAll(async () => {
  t = await createTestApp();
  clerk = await signedInClient(t, 'claim-clerk', ['Shipping Clerk']);
  support = await signedInClient(t, 'claim-support', ['Customer Support']);
  manager = await signedInClient(t, 'claim-admin', ['admin']);
});
afterAll(() => t.close());

/** A parcel scanned out `days` ago, its devices given a cost and its order's line a price. */
async function parcelShipped(days: number): Promise<ReturnedParcelSeed> {
  const [parcel] = await shippedLifelineParcels(t, clerk, 1, false);
  await t.db.query(
    `UPDATE packages SET scanned_out_at = now() - make_interval(days => $2) WHERE id = $1`,
    [parcel!.packageId, days],
  );
  await t.db.query(
    `UPDATE devices SET unit_cost_cents = 4200 WHERE id IN (
       SELECT u.device_id FROM order_lines l JOIN order_line_units u ON u.order_line_id = l.id
       WHERE l.order_id = $1)`,
    [parcel!.orderId],
  );
  await t.db.query('UPDATE order_lines SET unit_price_cents = 9900 WHERE order_id = $1', [
    parcel!.orderId,
  ]);
  return parcel!;
}

const flagLost = (parcel: ReturnedParcelSeed) =>
  dataOf(clerk.post(`/parcel-shipments/${parcel.packageId}/lost`, { reason: 'No scan for weeks' }));

const prefillOf = (parcel: ReturnedParcelSeed) =>
  dataOf<ClaimPackage>(support.get(`/claims/parcels?tracking_number=${parcel.tracking}`));

const draftLost = async (parcel: ReturnedParcelSeed) => {
  const values = await prefillOf(parcel);
  return support.post('/claims', {
    package_id: values.package_id,
    type: 'lost',
    declared_cents: values.declared_cents,
    claimed_cents: values.claimed_cents,
  });
};

const deviceStatuses = async (orderId: number) =>
  (
    await t.db.query<{ status: string }>(
      `SELECT d.status FROM order_lines l JOIN order_line_units u ON u.order_line_id = l.id
       JOIN devices d ON d.id = u.device_id WHERE l.order_id = $1`,
      [orderId],
    )
  ).map((row) => row.status);

describe('a claim for a lost parcel', () => {
  it('is prefilled, waits for the parcel to be flagged lost and for the search period, and once paid writes the devices off', async () => {
    const parcel = await parcelShipped(20);
    const values = await prefillOf(parcel);
    expect(values).toMatchObject({
      declared_cents: 9900,
      claimed_cents: 4200,
      open_claim_number: null,
    });
    expect(values.devices).toHaveLength(1);

    expect(await refusalOf(draftLost(parcel), 409)).toMatch(/flag it lost/);
    await flagLost(parcel);
    const draft = await dataOf<ClaimDetail>(draftLost(parcel), 201);
    expect(draft.claim).toMatchObject({ status: 'draft', type: 'lost', past_deadline: false });
    expect(await refusalOf(draftLost(parcel), 409)).toContain(draft.claim.number);
    expect((await prefillOf(parcel)).open_claim_number).toBe(draft.claim.number);

    const id = draft.claim.id;
    const missing = await support.fieldErrors('POST', `/claims/${id}/file`, {
      carrier_claim_number: ' ',
    });
    expect(missing.carrier_claim_number).toBeDefined();
    await dataOf(support.post(`/claims/${id}/file`, { carrier_claim_number: 'USPS-77' }));
    expect(await refusalOf(support.post(`/claims/${id}/pay`, { paid_cents: 4200 }), 409)).toMatch(
      /cannot be recorded as paid/,
    );
    await dataOf(support.post(`/claims/${id}/review`));
    const paid = await dataOf<ClaimDetail>(support.post(`/claims/${id}/pay`, { paid_cents: 4200 }));
    expect(paid.claim).toMatchObject({ status: 'paid', paid_cents: 4200 });
    expect(await deviceStatuses(parcel.orderId)).toEqual(['lost']);
    expect(paid.events.map((event) => event.type)).toEqual([
      'created',
      'filed',
      'in_review',
      'paid',
    ]);
    const closed = await dataOf<ClaimDetail>(support.post(`/claims/${id}/close`, {}));
    expect(closed.claim.status).toBe('closed');
    const board = await dataOf<ClaimBoard>(support.get('/claims'));
    expect(board.closed.map((claim) => claim.id)).toContain(id);
    expect(board.open.map((claim) => claim.id)).not.toContain(id);
  });

  it('is not filed during the carrier search period nor past the filing window', async () => {
    const early = await parcelShipped(2);
    await flagLost(early);
    const tooEarly = await dataOf<ClaimDetail>(draftLost(early), 201);
    expect(
      await refusalOf(
        support.post(`/claims/${tooEarly.claim.id}/file`, { carrier_claim_number: 'X1' }),
        409,
      ),
    ).toMatch(/searches for a lost parcel/);

    const late = await parcelShipped(90);
    await flagLost(late);
    const tooLate = await dataOf<ClaimDetail>(draftLost(late), 201);
    expect(tooLate.claim.past_deadline).toBe(true);
    expect(
      await refusalOf(
        support.post(`/claims/${tooLate.claim.id}/file`, { carrier_claim_number: 'X2' }),
        409,
      ),
    ).toMatch(/filing window has passed/);
    // A manager widens the window: the same draft may be filed.
    const terms = await dataOf<CarrierTerms>(
      manager.put('/claims/carrier-terms/usps', { lost_wait_days: 15, filing_window_days: 120 }),
    );
    expect(terms.filing_window_days).toBe(120);
    await dataOf(support.post(`/claims/${tooLate.claim.id}/file`, { carrier_claim_number: 'X2' }));
  });
});

describe('a claim for a damaged parcel', () => {
  it('needs the parcel delivered, and a denial is recorded with its reason', async () => {
    const parcel = await parcelShipped(3);
    const values = await prefillOf(parcel);
    const body = { ...values, type: 'damaged', note: 'Cracked screen on arrival' };
    expect(await refusalOf(support.post('/claims', body), 409)).toMatch(/needs it delivered/);
    await t.db.query("UPDATE packages SET status = 'delivered' WHERE id = $1", [parcel.packageId]);
    const draft = await dataOf<ClaimDetail>(support.post('/claims', body), 201);
    const id = draft.claim.id;
    await dataOf(support.post(`/claims/${id}/file`, { carrier_claim_number: 'D-1' }));
    await dataOf(support.post(`/claims/${id}/review`));
    expect(
      (await support.fieldErrors('POST', `/claims/${id}/deny`, { reason: '' })).reason,
    ).toBeDefined();
    const denied = await dataOf<ClaimDetail>(
      support.post(`/claims/${id}/deny`, { reason: 'Packaging insufficient' }),
    );
    expect(denied.claim.status).toBe('denied');
    expect(await deviceStatuses(parcel.orderId)).toEqual(['shipped']);
  });
});

describe('the carriers’ terms and the guards', () => {
  it('are a manager’s to change, with checked input', async () => {
    expect(
      await refusalOf(
        support.put('/claims/carrier-terms/ups', { lost_wait_days: 1, filing_window_days: 60 }),
        403,
      ),
    ).toBeTruthy();
    const errors = await manager.fieldErrors('PUT', '/claims/carrier-terms/ups', {
      lost_wait_days: 70,
      filing_window_days: 60,
    });
    expect(errors.lost_wait_days).toEqual([
      'The waiting period must end before the filing window.',
    ]);
    expect(await refusalOf(clerk.get('/claims'), 403)).toBeTruthy();
    expect(await refusalOf(support.get('/claims/999999'), 404)).toMatch(/no claim/);
    expect(
      await refusalOf(support.get('/claims/parcels?tracking_number=9400100000000000000000'), 404),
    ).toMatch(/no parcel/);
  });
});
