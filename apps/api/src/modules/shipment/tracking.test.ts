import type {
  ImportBatch,
  LabelBatch,
  LabelStepAnswer,
  ParcelShipmentRow,
  ParcelTracking,
  TrackingRefreshAnswer,
} from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf, refusalOf, type ApiClient, signedInClient } from '../../test/api-client.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { jobsOf } from '../../toolkit/jobs.js';
import { offlineCarrier, offlineJourney } from './carrier-adapter.js';
import { seedFulfilledOrders } from './shipment.test-support.js';
import { readEventTime } from './tracking-import.js';
import { normaliseTrackingEvent, normaliseTrackingStatus } from './tracking-status.js';
import { pollTracking } from './tracking.service.js';
import { trackingPollJob } from './tracking.routes.js';
import {
  hoursAgo,
  shippedParcels,
  trackingCsv,
  type ShippedParcel,
} from './tracking.test-support.js';

let t: TestApp;
let clerk: ApiClient;
let support: ApiClient;

const signedIn = (userName: string, roles: string[]) => signedInClient(t, userName, roles);

beforeAll(async () => {
  t = await createTestApp();
  clerk = await signedIn('clerk', ['Shipping Clerk']);
  support = await signedIn('support', ['Customer Support']);
});
afterAll(() => t.close());

const RESOURCE = 'tracking-events';

/** Uploads, checks (no row in error) and commits a tracking file; answers the check and batch. */
async function importFile(name: string, csv: string) {
  const { check } = await clerk.uploadAndCheck(RESOURCE, name, csv);
  expect(check.errors).toEqual([]);
  const batch = await dataOf<ImportBatch>(clerk.commitImport(RESOURCE, check.batch.id));
  return { check, batch };
}

const statusOf = async (table: 'packages' | 'orders', id: number) =>
  (await t.db.query<{ status: string }>(`SELECT status FROM ${table} WHERE id = $1`, [id]))[0]!
    .status;

const countOf = async (sql: string, params: unknown[]) =>
  (await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`, params))[0]!.n;

const rowOf = async (parcel: ShippedParcel) => {
  const page = await dataOf<{ items: ParcelShipmentRow[] }>(
    clerk.get(`/parcel-shipments?search=${parcel.tracking}`),
  );
  expect(page.items).toHaveLength(1);
  return page.items[0]!;
};

describe('normalised statuses', () => {
  it("read the carriers' codes and words as one set", () => {
    expect(normaliseTrackingStatus('usps', 'Delivered, In/At Mailbox')).toBe('delivered');
    expect(normaliseTrackingStatus('usps', '01')).toBe('delivered');
    expect(normaliseTrackingStatus('usps', 'OF')).toBe('out_for_delivery');
    expect(normaliseTrackingStatus('usps', 'Notice Left (No Authorized Recipient Available)')).toBe(
      'failed_attempt',
    );
    expect(normaliseTrackingStatus('usps', 'Return to Sender')).toBe('return_to_sender');
    expect(normaliseTrackingStatus('usps', 'Undeliverable as Addressed')).toBe('failure');
    expect(normaliseTrackingStatus('usps', 'Available for Pickup')).toBe('available_for_pickup');
    expect(normaliseTrackingStatus('usps', 'Arrived at USPS Regional Facility')).toBe('in_transit');
    expect(normaliseTrackingStatus('usps', 'Shipping Label Created, USPS Awaiting Item')).toBe(
      'pre_transit',
    );
    expect(normaliseTrackingStatus('ups', 'D')).toBe('delivered');
    expect(normaliseTrackingStatus('ups', 'RS')).toBe('return_to_sender');
    expect(normaliseTrackingStatus('ups', 'out-for-delivery')).toBe('out_for_delivery');
    expect(normaliseTrackingStatus('usps', 'Teleported')).toBeNull();
    // UPS's "I" says in transit; its description may say more.
    expect(normaliseTrackingEvent('ups', 'I', 'Out For Delivery Today')).toBe('out_for_delivery');
    expect(normaliseTrackingEvent('ups', 'I', 'Departed from Facility')).toBe('in_transit');
    expect(normaliseTrackingEvent('usps', 'Teleported', 'Delivered')).toBe('delivered');
  });

  it('read the times of a carrier export, with or without a zone', () => {
    expect(readEventTime('2026-11-20 14:05')).toEqual({
      value: '2026-11-20 14:05:00',
      zoned: false,
    });
    expect(readEventTime('2026-11-20T14:05:09.5Z')).toEqual({
      value: '2026-11-20 14:05:09.5Z',
      zoned: true,
    });
    expect(readEventTime('11/20/2026 2:05 PM')).toEqual({
      value: '2026-11-20 14:05:00',
      zoned: false,
    });
    expect(readEventTime('2026-02-30 10:00')).toBeNull();
    expect(readEventTime('yesterday')).toBeNull();
    expect(readEventTime('11/20/2026 13:05 PM')).toBeNull();
  });
});

describe('the offline carrier', () => {
  it('answers the part of each journey that has happened, the same every time', async () => {
    const carrier = offlineCarrier({ uspsMailerId: '901234', upsShipperNumber: 'A1B2C3' });
    const request = {
      carrier: 'usps' as const,
      trackingNumber: '9400190123400000123450',
      shippedAt: new Date(Date.now() - 30 * 3_600_000),
    };
    const journey = offlineJourney(request);
    expect(journey.length).toBeGreaterThanOrEqual(4);
    const events = await carrier.track([request]);
    expect(events).toEqual(journey.filter((event) => event.occurredAt.getTime() <= Date.now()));
    expect(events.map((event) => event.status)).toEqual([
      'Accepted at USPS Origin Facility',
      'In Transit to Next Facility',
    ]);
    expect(await carrier.track([request])).toEqual(events);
  });
});

describe('a tracking file', () => {
  let delivered: ShippedParcel;
  let returned: ShippedParcel;
  let csv: string;

  it('marks one parcel delivered and one returned to sender; their orders follow', async () => {
    [delivered, returned] = (await shippedParcels(t, clerk, 2)) as [ShippedParcel, ShippedParcel];
    csv = trackingCsv([
      [delivered.tracking, 'Accepted at USPS Origin Facility', hoursAgo(40), 'DALLAS, TX 75260'],
      [delivered.tracking, 'Out for Delivery', hoursAgo(6), 'HOUSTON, TX 77002'],
      [
        delivered.tracking,
        'Delivered',
        hoursAgo(2),
        'HOUSTON, TX 77002',
        'Delivered, In/At Mailbox',
      ],
      [returned.tracking, '03', hoursAgo(40), 'DALLAS, TX 75260'],
      [returned.tracking, 'Return to Sender', hoursAgo(1), 'HOUSTON, TX 77002', 'Refused'],
    ]);
    const { check, batch } = await importFile('tracking.csv', csv);
    expect(check).toMatchObject({ willCreate: 5, willUpdate: 0 });
    expect(batch).toMatchObject({ status: 'committed', created_count: 5, updated_count: 2 });

    expect(await statusOf('packages', delivered.id)).toBe('delivered');
    expect(await statusOf('orders', delivered.orderId)).toBe('delivered');
    expect(await statusOf('packages', returned.id)).toBe('return_to_sender');
    expect(await statusOf('orders', returned.orderId)).toBe('returned');
    // The devices follow their parcel: delivered, or still shipped until the return is unpacked.
    const deviceStatuses = await t.db.query<{ order_id: number; status: string }>(
      `SELECT l.order_id::int AS order_id, d.status FROM order_lines l
       JOIN order_line_units u ON u.order_line_id = l.id JOIN devices d ON d.id = u.device_id
       WHERE l.order_id = ANY ($1::bigint[]) ORDER BY l.order_id`,
      [[delivered.orderId, returned.orderId]],
    );
    expect(deviceStatuses.map((row) => [row.order_id, row.status])).toEqual([
      [delivered.orderId, 'delivered'],
      [returned.orderId, 'shipped'],
    ]);

    const row = await rowOf(delivered);
    expect(row).toMatchObject({
      status: 'delivered',
      tracking_status: 'delivered',
      order_status: 'delivered',
      last_event_text: 'Delivered, In/At Mailbox',
      last_event_location: 'HOUSTON, TX 77002',
      days_in_transit: 0,
      possible_lost: false,
    });
    expect(row.delivered_at).not.toBeNull();
    expect((await rowOf(returned)).tracking_status).toBe('return_to_sender');

    const tracking = await dataOf<ParcelTracking>(
      support.get(`/parcel-shipments/${delivered.id}/tracking`),
    );
    expect(tracking.events.map((event) => [event.status, event.source, event.moved_to])).toEqual([
      ['delivered', 'file', 'delivered'],
      ['out_for_delivery', 'file', null],
      ['in_transit', 'file', null],
    ]);
    expect(tracking.steps.map((step) => step.type)).toContain('delivered');
    const orderEvents = await t.db.query<{ type: string }>(
      "SELECT type FROM order_events WHERE order_id = $1 AND type IN ('delivered', 'returned_to_sender')",
      [delivered.orderId],
    );
    expect(orderEvents).toEqual([{ type: 'delivered' }]);
  });

  it('imported again records nothing and moves nothing', async () => {
    const events = await countOf('tracking_events WHERE package_id = ANY ($1::bigint[])', [
      [delivered.id, returned.id],
    ]);
    const steps = await countOf('package_events WHERE package_id = ANY ($1::bigint[])', [
      [delivered.id, returned.id],
    ]);
    const { check, batch } = await importFile('tracking-again.csv', csv);
    expect(check).toMatchObject({ willCreate: 0, willUpdate: 5 });
    expect(batch).toMatchObject({ created_count: 0, updated_count: 0 });
    expect(
      await countOf('tracking_events WHERE package_id = ANY ($1::bigint[])', [
        [delivered.id, returned.id],
      ]),
    ).toBe(events);
    expect(
      await countOf('package_events WHERE package_id = ANY ($1::bigint[])', [
        [delivered.id, returned.id],
      ]),
    ).toBe(steps);
    expect(await statusOf('orders', returned.orderId)).toBe('returned');
  });

  it('never moves a parcel backwards with an older event, nor out of delivered', async () => {
    const [parcel] = await shippedParcels(t, clerk, 1);
    await importFile(
      'first.csv',
      trackingCsv([[parcel!.tracking, 'Out for Delivery', hoursAgo(3)]]),
    );
    expect(await statusOf('packages', parcel!.id)).toBe('out_for_delivery');
    // An event of the day before arrives late: kept, and the parcel stays out for delivery.
    const late = await importFile(
      'late.csv',
      trackingCsv([[parcel!.tracking, 'In Transit to Next Facility', hoursAgo(20)]]),
    );
    expect(late.batch).toMatchObject({ created_count: 1, updated_count: 0 });
    expect(await statusOf('packages', parcel!.id)).toBe('out_for_delivery');
    const row = await rowOf(parcel!);
    expect(row.tracking_status).toBe('out_for_delivery');

    await importFile('delivered.csv', trackingCsv([[parcel!.tracking, '01', hoursAgo(1)]]));
    expect(await statusOf('packages', parcel!.id)).toBe('delivered');
    // A carrier's stray scan after delivery is kept and reopens nothing.
    await importFile(
      'stray.csv',
      trackingCsv([[parcel!.tracking, 'Return to Sender', hoursAgo(0.5)]]),
    );
    expect(await statusOf('packages', parcel!.id)).toBe('delivered');
    expect(await statusOf('orders', parcel!.orderId)).toBe('delivered');
    const tracking = await dataOf<ParcelTracking>(
      clerk.get(`/parcel-shipments/${parcel!.id}/tracking`),
    );
    expect(tracking.events.map((event) => [event.status, event.moved_to])).toEqual([
      ['return_to_sender', null],
      ['delivered', 'delivered'],
      ['out_for_delivery', 'out_for_delivery'],
      ['in_transit', null],
    ]);
  });

  it('names every wrong row by its line and writes nothing', async () => {
    const [parcel] = await shippedParcels(t, clerk, 1);
    const [waiting] = await seedFulfilledOrders(t.db, { count: 1 });
    const batch = await dataOf<LabelBatch>(clerk.post('/label-batches', { format: 'pdf' }), 201);
    const labelled = await dataOf<LabelStepAnswer>(
      clerk.post(`/label-batches/${batch.id}/labels`, { order_ids: [waiting!.orderId] }),
    );
    const notShipped = labelled.results[0]!.package!.tracking_number;
    const unknown = '9400111111111111111111';
    const future = new Date(Date.now() + 5 * 3_600_000).toISOString();
    const { check } = await clerk.uploadAndCheck(
      RESOURCE,
      'bad.csv',
      trackingCsv([
        [unknown, 'Delivered', hoursAgo(1)],
        [notShipped, 'Delivered', hoursAgo(1)],
        [parcel!.tracking, 'Teleported', hoursAgo(1)],
        [parcel!.tracking, 'Delivered', 'yesterday'],
        [parcel!.tracking, 'Delivered', future],
        [parcel!.tracking, 'In transit', '2026-11-20 10:00'],
        [parcel!.tracking, 'In transit', '2026-11-20 10:00'],
        [parcel!.tracking, '', hoursAgo(1)],
      ]),
    );
    expect(check.errors.map(({ row, column, message }) => [row, column, message])).toEqual([
      [2, 'Tracking number', `No parcel has the tracking number ${unknown}.`],
      [
        3,
        'Tracking number',
        `Parcel ${notShipped} is not scanned out yet: scan it out at the dock first.`,
      ],
      [
        4,
        'Status',
        "Write the carrier's status (Delivered, Out for delivery, Return to sender…) or one of pre_transit, in_transit, out_for_delivery, failed_attempt, available_for_pickup, delivered, return_to_sender, failure, cancelled, unknown.",
      ],
      [
        5,
        'Occurred at',
        'Write the date and time as 2026-11-20 14:05 (or 11/20/2026 2:05 PM), with a zone (Z, -06:00) or in the business time zone.',
      ],
      [6, 'Occurred at', 'The time is in the future.'],
      [8, 'Occurred at', 'Repeats row 7.'],
      [9, 'Status', 'Please enter the status.'],
    ]);
    expect(await refusalOf(clerk.commitImport(RESOURCE, check.batch.id), 422)).toBeTruthy();
    expect(await countOf('tracking_events WHERE package_id = $1', [parcel!.id])).toBe(0);
    expect(await statusOf('packages', parcel!.id)).toBe('scanned_out');
  });

  it('is for those who ship: support reads the list, and may not import', async () => {
    const uploaded = await support.uploadImport(RESOURCE, 'x.csv', trackingCsv([]));
    expect(uploaded.statusCode).toBe(403);
    expect(
      (await support.post('/parcel-shipments/tracking-refreshes', { package_ids: [1] })).statusCode,
    ).toBe(403);
    await dataOf(support.get('/parcel-shipments?limit=5'));
  });
});

describe('possible lost', () => {
  it('marks a parcel without news for days; flagging it lost writes off the order too', async () => {
    const [quiet, moving] = (await shippedParcels(t, clerk, 2)) as [ShippedParcel, ShippedParcel];
    await t.db.query(
      "UPDATE packages SET scanned_out_at = now() - interval '8 days' WHERE id = ANY ($1::bigint[])",
      [[quiet.id, moving.id]],
    );
    await importFile(
      'moving.csv',
      trackingCsv([[moving.tracking, 'In Transit to Next Facility', hoursAgo(30)]]),
    );
    expect((await rowOf(quiet)).possible_lost).toBe(true);
    expect((await rowOf(moving)).possible_lost).toBe(false);
    const flagged = await dataOf<{ items: ParcelShipmentRow[] }>(
      clerk.get('/parcel-shipments?possible_lost=true&limit=200'),
    );
    expect(flagged.items.map((row) => row.id)).toContain(quiet.id);
    expect(flagged.items.map((row) => row.id)).not.toContain(moving.id);

    expect(
      await refusalOf(support.post(`/parcel-shipments/${quiet.id}/lost`, { reason: 'Gone' }), 403),
    ).toBeTruthy();
    const missing = await clerk.fieldErrors('POST', `/parcel-shipments/${quiet.id}/lost`, {
      reason: ' ',
    });
    expect(missing.reason).toEqual(['Please enter the reason.']);
    const lost = await dataOf<ParcelShipmentRow>(
      clerk.post(`/parcel-shipments/${quiet.id}/lost`, { reason: 'No scan for 8 days' }),
    );
    expect(lost).toMatchObject({ status: 'lost', order_status: 'lost', possible_lost: false });
    expect(
      await refusalOf(clerk.post(`/parcel-shipments/${quiet.id}/lost`, { reason: 'Again' }), 409),
    ).toBe('A package that is lost cannot be flagged lost.');
    const [step] = await t.db.query<{ data: { reason: string } }>(
      "SELECT data FROM package_events WHERE package_id = $1 AND type = 'flagged_lost'",
      [quiet.id],
    );
    expect(step!.data.reason).toBe('No scan for 8 days');
  });
});

describe('the carrier adapter', () => {
  it('is asked for the chosen parcels on their way; a refresh again records nothing new', async () => {
    const [parcel] = await shippedParcels(t, clerk, 1);
    const shippedAt = new Date(Date.now() - 9 * 24 * 3_600_000);
    await t.db.query('UPDATE packages SET scanned_out_at = $2 WHERE id = $1', [
      parcel!.id,
      shippedAt.toISOString(),
    ]);
    const journey = offlineJourney({
      carrier: 'usps',
      trackingNumber: parcel!.tracking,
      shippedAt,
    });
    const last = journey.at(-1)!;
    const expected = normaliseTrackingEvent('usps', last.status, last.description);

    const answer = await dataOf<TrackingRefreshAnswer>(
      clerk.post('/parcel-shipments/tracking-refreshes', { package_ids: [parcel!.id] }),
    );
    expect(answer).toEqual({ asked: 1, recorded: journey.length, moved: 1 });
    const row = await rowOf(parcel!);
    expect(row.tracking_status).toBe(expected);
    expect(row.status).toBe(expected === 'delivered' ? 'delivered' : 'return_to_sender');
    expect(row.order_status).toBe(expected === 'delivered' ? 'delivered' : 'returned');

    const again = await dataOf<TrackingRefreshAnswer>(
      clerk.post('/parcel-shipments/tracking-refreshes', { package_ids: [parcel!.id] }),
    );
    expect(again).toEqual({ asked: 0, recorded: 0, moved: 0 });
  });

  it('is polled for the parcels on their way nobody asked about for an hour, as the server', async () => {
    expect(jobsOf(t.app)!.names).toContain(trackingPollJob(t.config.carrier).name);
    const [parcel] = await shippedParcels(t, clerk, 1);
    await t.db.query(
      "UPDATE packages SET scanned_out_at = now() - interval '30 hours' WHERE id = $1",
      [parcel!.id],
    );
    await pollTracking(t.db, t.config.carrier);
    expect(await statusOf('packages', parcel!.id)).toBe('in_transit');
    const [step] = await t.db.query<{ actor_name: string }>(
      "SELECT actor_name FROM package_events WHERE package_id = $1 AND type = 'in_transit'",
      [parcel!.id],
    );
    expect(step!.actor_name).toBe('system: carrier tracking');
    // Asked a moment ago: the next run passes it over.
    const events = await countOf('tracking_events WHERE package_id = $1', [parcel!.id]);
    await t.db.query(
      "UPDATE packages SET scanned_out_at = now() - interval '60 hours' WHERE id = $1",
      [parcel!.id],
    );
    await pollTracking(t.db, t.config.carrier);
    expect(await countOf('tracking_events WHERE package_id = $1', [parcel!.id])).toBe(events);
  });
});
