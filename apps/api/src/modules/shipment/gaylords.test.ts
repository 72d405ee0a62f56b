import type {
  GaylordBoard,
  GaylordDetail,
  GaylordRow,
  GaylordScanAnswer,
  LabelBatch,
  LabelStepAnswer,
  PackageDetail,
  PackageRow,
  ScanFormAnswer,
  ShipScanAnswer,
} from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf, refusalOf, type ApiClient, signedInClient } from '../../test/api-client.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { seedFulfilledOrders, type FulfilledOptions } from './shipment.test-support.js';

let t: TestApp;
let clerk: ApiClient;
let worker: ApiClient;

const signedIn = (userName: string, roles: string[]) => signedInClient(t, userName, roles);

beforeAll(async () => {
  t = await createTestApp();
  clerk = await signedIn('gaylord-clerk', ['Shipping Clerk']);
  // Labels and the dock, but not gaylords.
  worker = await signedIn('gaylord-fw', ['Fulfilment Worker']);
});
afterAll(() => t.close());

/** Fulfilled orders labelled in one batch: their packages, in order. */
async function parcels(options: Omit<FulfilledOptions, 'devices'>): Promise<PackageRow[]> {
  const orders = await seedFulfilledOrders(t.db, options);
  const batch = await dataOf<LabelBatch>(clerk.post('/label-batches', { format: 'pdf' }), 201);
  const answer = await dataOf<LabelStepAnswer>(
    clerk.post(`/label-batches/${batch.id}/labels`, {
      order_ids: orders.map((order) => order.orderId),
    }),
  );
  return answer.results.map((result) => result.package!);
}

const openGaylord = (service: string) =>
  dataOf<GaylordRow>(clerk.post('/gaylords', { service }), 201);

const scanInto = (gaylordId: number, code: string, as: ApiClient = clerk) =>
  dataOf<GaylordScanAnswer>(as.post(`/gaylords/${gaylordId}/scans`, { code, station: 'Sorter 1' }));

const close = (gaylordId: number, count: number) =>
  dataOf<GaylordRow>(clerk.post(`/gaylords/${gaylordId}/close`, { count }));

const statusOf = async (table: string, id: number) =>
  (await t.db.query<{ status: string }>(`SELECT status FROM ${table} WHERE id = $1`, [id]))[0]!
    .status;

/** A day after the business day, far enough that no other test's form shares it. */
const futureDay = (days: number) =>
  new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

describe('sorting parcels into a gaylord', () => {
  it('opens a gaylord for a service and prints its 4x6 label', async () => {
    const gaylord = await openGaylord('usps_ground_advantage');
    expect(gaylord).toMatchObject({
      carrier: 'usps',
      service: 'usps_ground_advantage',
      status: 'open',
      direction: 'outbound',
      parcels: 0,
      weight_g: 0,
      opened_by_name: expect.any(String),
    });
    expect(gaylord.code).toMatch(/^GL-\d{6}$/);
    const pdf = await clerk.download(`/gaylords/${gaylord.id}/label`, {});
    expect(pdf.statusCode).toBe(200);
    expect(pdf.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const zpl = await clerk.download(`/gaylords/${gaylord.id}/label`, { format: 'zpl' });
    expect(zpl.body).toContain(gaylord.code);
    expect(zpl.body).toContain('USPS GROUND ADV');
    const board = await dataOf<GaylordBoard>(clerk.get('/gaylords'));
    expect(board.open.map((row) => row.id)).toContain(gaylord.id);
    expect((await clerk.fieldErrors('POST', '/gaylords', { service: 'pigeon' })).service).toEqual([
      'Choose the carrier service the gaylord is for.',
    ]);
    await refusalOf(clerk.get('/gaylords/999999'), 404);
  });

  it('takes labelled parcels of its service; a repeat changes nothing; counts and weighs them', async () => {
    const gaylord = await openGaylord('usps_ground_advantage');
    const [first, second] = await parcels({ count: 2 });
    const sorted = await scanInto(gaylord.id, first!.tracking_number);
    expect(sorted).toMatchObject({ result: 'sorted', code: first!.tracking_number });
    expect(sorted.message).toBe(
      `Parcel ${first!.tracking_number} is in ${gaylord.code}: 1 parcel now.`,
    );
    expect(sorted.package).toMatchObject({
      status: 'in_gaylord',
      gaylord_id: gaylord.id,
      gaylord_code: gaylord.code,
    });
    expect(sorted.gaylord).toMatchObject({ parcels: 1, weight_g: first!.weight_g });
    // The IMpb barcode with its routing code reads as its tracking number.
    const next = await scanInto(gaylord.id, `42077002${second!.tracking_number}`);
    expect(next.result).toBe('sorted');
    expect(next.gaylord).toMatchObject({
      parcels: 2,
      weight_g: first!.weight_g + second!.weight_g,
    });
    const again = await scanInto(gaylord.id, first!.tracking_number);
    expect(again).toMatchObject({ result: 'already_in_gaylord', gaylord: { parcels: 2 } });
    expect(again.message).toMatch(/in this gaylord already/);

    const detail = await dataOf<GaylordDetail>(clerk.get(`/gaylords/${gaylord.id}`));
    expect(detail.parcels.map((row) => row.id)).toEqual([second!.id, first!.id]);
    const record = await dataOf<PackageDetail>(clerk.get(`/packages/${first!.id}/detail`));
    expect(record.events[0]).toMatchObject({
      type: 'sorted_into_gaylord',
      from_status: 'label_created',
      to_status: 'in_gaylord',
      data: { gaylord: gaylord.code, station: 'Sorter 1' },
    });
    expect(record.events.filter((event) => event.type === 'sorted_into_gaylord')).toHaveLength(1);
  });

  it('refuses another carrier, another service, a second gaylord, a voided label and an unknown code', async () => {
    const ground = await openGaylord('usps_ground_advantage');
    const other = await openGaylord('usps_ground_advantage');
    const [ups] = await parcels({ count: 1, shipMethod: 'overnight' });
    const [priority] = await parcels({ count: 1, shipMethod: 'priority' });
    const [mine, voided] = await parcels({ count: 2 });

    const carrier = await scanInto(ground.id, ups!.tracking_number);
    expect(carrier.result).toBe('wrong_carrier');
    expect(carrier.message).toBe(
      `Parcel ${ups!.tracking_number} goes by UPS Next Day Air: it does not go into this USPS gaylord. Put it with the UPS parcels.`,
    );
    const service = await scanInto(ground.id, priority!.tracking_number);
    expect(service.result).toBe('wrong_service');
    expect(service.message).toMatch(
      /USPS Priority Mail: this gaylord is for USPS Ground Advantage/,
    );

    expect((await scanInto(ground.id, mine!.tracking_number)).result).toBe('sorted');
    const elsewhere = await scanInto(other.id, mine!.tracking_number);
    expect(elsewhere.result).toBe('other_gaylord');
    expect(elsewhere.message).toMatch(new RegExp(`in gaylord ${ground.code} already`));
    expect(elsewhere.gaylord.parcels).toBe(0);

    await dataOf(clerk.post(`/packages/${voided!.id}/void`, {}));
    expect((await scanInto(ground.id, voided!.tracking_number)).result).toBe('voided');
    const unknown = await scanInto(ground.id, '9400100000000000000000');
    expect(unknown).toMatchObject({ result: 'unknown', package: null });

    // Nothing was written for the refusals.
    expect(await statusOf('packages', ups!.id)).toBe('label_created');
    expect(await statusOf('packages', priority!.id)).toBe('label_created');
    const [row] = await t.db.query<{ gaylord_id: number }>(
      'SELECT gaylord_id::int AS gaylord_id FROM packages WHERE id = $1',
      [mine!.id],
    );
    expect(row!.gaylord_id).toBe(ground.id);
  });

  it('refuses a parcel whose order has a cancellation requested, and one scanned out', async () => {
    const gaylord = await openGaylord('usps_ground_advantage');
    const [held, gone] = await parcels({ count: 2 });
    await t.db.query("UPDATE orders SET status = 'cancel_requested' WHERE id = $1", [
      held!.order_id,
    ]);
    const cancel = await scanInto(gaylord.id, held!.tracking_number);
    expect(cancel.result).toBe('cancel_requested');
    expect(
      (await dataOf<ShipScanAnswer>(clerk.post('/ship-scans', { code: gone!.tracking_number })))
        .result,
    ).toBe('shipped');
    const shipped = await scanInto(gaylord.id, gone!.tracking_number);
    expect(shipped.result).toBe('scanned_out');
    expect(shipped.message).toMatch(/is scanned out: it goes into no gaylord/);
  });

  it('takes a parcel out while the gaylord is open; its label stays active', async () => {
    const gaylord = await openGaylord('usps_ground_advantage');
    const [parcel] = await parcels({ count: 1 });
    await scanInto(gaylord.id, parcel!.tracking_number);
    const detail = await dataOf<GaylordDetail>(
      clerk.post(`/gaylords/${gaylord.id}/take-out`, { package_id: parcel!.id }),
    );
    expect(detail.gaylord.parcels).toBe(0);
    expect(detail.parcels).toEqual([]);
    const [row] = await t.db.query<{ status: string; gaylord_id: number | null }>(
      'SELECT status, gaylord_id FROM packages WHERE id = $1',
      [parcel!.id],
    );
    expect(row).toEqual({ status: 'label_created', gaylord_id: null });
    expect(
      await refusalOf(
        clerk.post(`/gaylords/${gaylord.id}/take-out`, { package_id: parcel!.id }),
        409,
      ),
    ).toMatch(/is not in gaylord/);
    // Back in, closed: no longer taken out.
    await scanInto(gaylord.id, parcel!.tracking_number);
    await close(gaylord.id, 1);
    expect(
      await refusalOf(
        clerk.post(`/gaylords/${gaylord.id}/take-out`, { package_id: parcel!.id }),
        409,
      ),
    ).toMatch(/taken out only while its gaylord is open/);
  });

  it('ships a parcel in a gaylord at the dock too', async () => {
    const gaylord = await openGaylord('usps_ground_advantage');
    const [parcel] = await parcels({ count: 1 });
    await scanInto(gaylord.id, parcel!.tracking_number);
    const shipped = await dataOf<ShipScanAnswer>(
      clerk.post('/ship-scans', { code: parcel!.tracking_number }),
    );
    expect(shipped.result).toBe('shipped');
    expect(shipped.parcel!.package).toMatchObject({
      status: 'scanned_out',
      gaylord_id: gaylord.id,
      order_status: 'shipped',
    });
  });
});

describe('closing a gaylord', () => {
  it('confirms the count (422 saying it otherwise); an empty one stays open; a closed one takes no parcel', async () => {
    const empty = await openGaylord('usps_priority');
    expect(await refusalOf(clerk.post(`/gaylords/${empty.id}/close`, { count: 1 }), 409)).toMatch(
      /is empty: scan parcels into it before closing it/,
    );
    const gaylord = await openGaylord('usps_priority');
    const [first, second, late] = await parcels({ count: 3, shipMethod: 'priority' });
    await scanInto(gaylord.id, first!.tracking_number);
    await scanInto(gaylord.id, second!.tracking_number);
    const fields = await clerk.fieldErrors('POST', `/gaylords/${gaylord.id}/close`, { count: 3 });
    expect(fields.count).toEqual([
      `Gaylord ${gaylord.code} holds 2 parcels, not 3: count them again, and scan in any parcel not yet scanned.`,
    ]);
    expect(
      (await clerk.fieldErrors('POST', `/gaylords/${gaylord.id}/close`, { count: 0 })).count,
    ).toEqual(['A gaylord is closed with at least one parcel.']);
    expect(await statusOf('gaylords', gaylord.id)).toBe('open');

    const closed = await close(gaylord.id, 2);
    expect(closed).toMatchObject({
      status: 'closed',
      parcels: 2,
      closed_by_name: expect.any(String),
    });
    const refused = await scanInto(gaylord.id, late!.tracking_number);
    expect(refused.result).toBe('gaylord_closed');
    expect(refused.message).toMatch(/is closed: open another gaylord for USPS Priority Mail/);
    expect(await refusalOf(clerk.post(`/gaylords/${gaylord.id}/close`, { count: 2 }), 409)).toMatch(
      /closed already/,
    );
    const record = await dataOf<PackageDetail>(clerk.get(`/packages/${first!.id}/detail`));
    expect(record.events[0]).toMatchObject({ type: 'gaylord_closed', data: { parcels: 2 } });
    const board = await dataOf<GaylordBoard>(clerk.get('/gaylords'));
    expect(board.closed.map((row) => row.id)).toContain(gaylord.id);
    expect(board.open.map((row) => row.id)).not.toContain(gaylord.id);
  });
});

describe('SCAN forms and the pickup', () => {
  it('puts closed gaylords of a carrier on one form per ship date and origin ZIP', async () => {
    const day = futureDay(30);
    const a = await openGaylord('usps_ground_advantage');
    const b = await openGaylord('usps_priority');
    const [groundParcel] = await parcels({ count: 1 });
    const [priorityParcel] = await parcels({ count: 1, shipMethod: 'priority' });
    await scanInto(a.id, groundParcel!.tracking_number);
    await scanInto(b.id, priorityParcel!.tracking_number);
    await close(a.id, 1);

    const first = await dataOf<ScanFormAnswer>(
      clerk.post('/scan-forms', { carrier: 'usps', ship_date: day }),
    );
    expect(first.created).toBe(true);
    expect(first.gaylords).toContain(a.code);
    expect(first.form).toMatchObject({ carrier: 'usps', ship_date: day, origin_zip: '75247' });
    expect(first.form.number).toMatch(/^SF-\d{6}$/);

    // Another gaylord closed later the same day joins the same form.
    await close(b.id, 1);
    const second = await dataOf<ScanFormAnswer>(
      clerk.post('/scan-forms', { carrier: 'usps', ship_date: day }),
    );
    expect(second).toMatchObject({ created: false, gaylords: [b.code] });
    expect(second.form.id).toBe(first.form.id);
    expect(second.form.package_count).toBe(first.form.package_count + 1);
    expect(second.form.gaylords).toBe(first.form.gaylords + 1);
    const [forms] = await t.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM scan_forms WHERE carrier = 'usps' AND ship_date = $1",
      [day],
    );
    expect(forms!.n).toBe(1);
    const [gaylordForm] = await t.db.query<{ scan_form_id: number }>(
      'SELECT scan_form_id::int AS scan_form_id FROM gaylords WHERE id = $1',
      [b.id],
    );
    expect(gaylordForm!.scan_form_id).toBe(first.form.id);

    // Nothing left to put on a form.
    expect(
      await refusalOf(clerk.post('/scan-forms', { carrier: 'usps', ship_date: day }), 409),
    ).toMatch(/No closed USPS gaylord is waiting for a SCAN form/);
    expect(
      (await clerk.fieldErrors('POST', '/scan-forms', { carrier: 'usps', ship_date: '2001-01-01' }))
        .ship_date,
    ).toEqual([
      expect.stringMatching(/^A SCAN form is for today \(\d{4}-\d{2}-\d{2}\) or a later day\.$/),
    ]);

    // The form's PDF lists the parcels.
    const pdf = await clerk.download(`/scan-forms/${first.form.id}/print`, {});
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const record = await dataOf<PackageDetail>(clerk.get(`/packages/${groundParcel!.id}/detail`));
    expect(record.events[0]).toMatchObject({
      type: 'manifested',
      data: { scan_form: first.form.number, ship_date: day },
    });
    const board = await dataOf<GaylordBoard>(clerk.get('/gaylords'));
    expect(board.scan_forms.map((form) => form.id)).toContain(first.form.id);
    expect(board.closed.find((row) => row.id === a.id)).toMatchObject({
      scan_form_number: first.form.number,
      ship_date: day,
    });
  });

  it('picked up: its parcels scan out and their orders ship, as at the dock; the form is then complete', async () => {
    const day = futureDay(40);
    const orders = await seedFulfilledOrders(t.db, { count: 2, withSim: true });
    const batch = await dataOf<LabelBatch>(clerk.post('/label-batches', { format: 'pdf' }), 201);
    const labelled = await dataOf<LabelStepAnswer>(
      clerk.post(`/label-batches/${batch.id}/labels`, {
        order_ids: orders.map((order) => order.orderId),
      }),
    );
    const [first, second] = labelled.results.map((result) => result.package!);
    const gaylord = await openGaylord('usps_ground_advantage');
    await scanInto(gaylord.id, first!.tracking_number);
    await scanInto(gaylord.id, second!.tracking_number);
    expect(await refusalOf(clerk.post(`/gaylords/${gaylord.id}/pickup`), 409)).toMatch(
      /is open: close it with its count before the pickup/,
    );
    await close(gaylord.id, 2);
    // The second parcel went out at the dock meanwhile: the pickup leaves it as it is.
    await dataOf<ShipScanAnswer>(clerk.post('/ship-scans', { code: second!.tracking_number }));
    const form = await dataOf<ScanFormAnswer>(
      clerk.post('/scan-forms', { carrier: 'usps', ship_date: day }),
    );
    expect(form.gaylords).toContain(gaylord.code);

    const picked = await dataOf<GaylordRow>(clerk.post(`/gaylords/${gaylord.id}/pickup`));
    expect(picked).toMatchObject({
      status: 'picked_up',
      parcels: 2,
      picked_up_by_name: expect.any(String),
      scan_form_number: form.form.number,
    });
    for (const order of orders) {
      expect(await statusOf('orders', order.orderId)).toBe('shipped');
      expect(await statusOf('devices', order.deviceIds[0]!)).toBe('shipped');
    }
    expect(await statusOf('packages', first!.id)).toBe('scanned_out');
    const [sim] = await t.db.query<{ status: string }>(
      'SELECT status FROM sim_cards WHERE iccid = $1',
      [orders[0]!.iccids[0]],
    );
    expect(sim!.status).toBe('shipped');
    const [listing] = await t.db.query<{ qty_reserved: number; qty_sold: number }>(
      'SELECT qty_reserved, qty_sold FROM pts_listings WHERE id = $1',
      [orders[0]!.listingId],
    );
    expect(listing).toEqual({ qty_reserved: 0, qty_sold: 2 });
    const [shipped] = await t.db.query<{ shipped_at: Date | null }>(
      'SELECT shipped_at FROM orders WHERE id = $1',
      [orders[0]!.orderId],
    );
    expect(shipped!.shipped_at).not.toBeNull();
    const events = await t.db.query<{ type: string; data: Record<string, unknown> }>(
      `SELECT type, data FROM package_events WHERE package_id = $1 AND type = 'scanned_out'`,
      [first!.id],
    );
    expect(events).toEqual([
      {
        type: 'scanned_out',
        data: { gaylord: gaylord.code, scan_form: form.form.number, verified: false },
      },
    ]);
    const [dockScans] = await t.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM package_events WHERE package_id = $1 AND type = 'scanned_out'",
      [second!.id],
    );
    expect(dockScans!.n).toBe(1);
    const board = await dataOf<GaylordBoard>(clerk.get('/gaylords'));
    expect(board.picked_up.map((row) => row.id)).toContain(gaylord.id);
    expect(board.closed.map((row) => row.id)).not.toContain(gaylord.id);

    expect(await refusalOf(clerk.post(`/gaylords/${gaylord.id}/pickup`), 409)).toMatch(
      /picked up already/,
    );
    // The form went with the carrier: a gaylord closed later goes on another day's form.
    const late = await openGaylord('usps_ground_advantage');
    const [lateParcel] = await parcels({ count: 1 });
    await scanInto(late.id, lateParcel!.tracking_number);
    await close(late.id, 1);
    expect(
      await refusalOf(clerk.post('/scan-forms', { carrier: 'usps', ship_date: day }), 409),
    ).toMatch(new RegExp(`SCAN form ${form.form.number} .* went with the carrier`));
    expect(
      (
        await dataOf<ScanFormAnswer>(
          clerk.post('/scan-forms', { carrier: 'usps', ship_date: futureDay(41) }),
        )
      ).gaylords,
    ).toContain(late.code);
  });

  it('does not go while a parcel in it cannot ship: its label is voided first', async () => {
    const gaylord = await openGaylord('ups_next_day_air');
    const [good, held] = await parcels({ count: 2, shipMethod: 'overnight' });
    await scanInto(gaylord.id, good!.tracking_number);
    await scanInto(gaylord.id, held!.tracking_number);
    await close(gaylord.id, 2);
    await t.db.query("UPDATE orders SET status = 'cancel_requested' WHERE id = $1", [
      held!.order_id,
    ]);
    const message = await refusalOf(clerk.post(`/gaylords/${gaylord.id}/pickup`), 409);
    expect(message).toMatch(
      new RegExp(`${held!.tracking_number}: Order .* cancellation requested`),
    );
    expect(await statusOf('packages', good!.id)).toBe('in_gaylord');
    // The cancelled parcel's label voided (and the parcel pulled): the gaylord goes.
    await dataOf(clerk.post(`/packages/${held!.id}/void`, {}));
    const picked = await dataOf<GaylordRow>(clerk.post(`/gaylords/${gaylord.id}/pickup`));
    expect(picked).toMatchObject({ status: 'picked_up', parcels: 1, scan_form_id: null });
    expect(await statusOf('orders', good!.order_id)).toBe('shipped');
    expect(await statusOf('orders', held!.order_id)).toBe('cancel_requested');
  });
});

describe('who may', () => {
  it('reads the gaylords with the shipping right; works them with gaylord.manage (403)', async () => {
    const board = await dataOf<GaylordBoard>(worker.get('/gaylords'));
    expect(Array.isArray(board.open)).toBe(true);
    await refusalOf(worker.post('/gaylords', { service: 'usps_ground_advantage' }), 403);
    const gaylord = await openGaylord('usps_ground_advantage');
    await refusalOf(worker.post(`/gaylords/${gaylord.id}/scans`, { code: '1' }), 403);
    await refusalOf(worker.post('/scan-forms', { carrier: 'usps' }), 403);
  });
});
