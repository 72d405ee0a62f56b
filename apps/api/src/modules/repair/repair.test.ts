import type { RepairStatistics, RepairTicketDetail } from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminTestApp, dataOf, refusalOf, type ApiClient } from '../../test/api-client.js';
import { ALL_PASS } from '../../test/production-fixtures.js';
import { devicesIn, seedRepair, type RepairPlaces } from '../../test/repair-fixtures.js';
import { ledgerOf } from '../../test/stock-fixtures.js';
import type { TestApp } from '../../test/test-app.js';
import { businessDay } from '../../test/business-day.js';

let t: TestApp;
let admin: ApiClient;
let places: RepairPlaces;

beforeAll(async () => {
  ({ t, admin } = await createAdminTestApp());
  places = await seedRepair(t, admin);
});
afterAll(() => t.close());

const deviceStatus = async (id: number) =>
  (await t.db.query<{ status: string }>('SELECT status FROM devices WHERE id = $1', [id]))[0]!
    .status;
const onHand = async () =>
  (await ledgerOf(t.db, 'part', places.stock.part)).find(
    (level) => level.location_id === places.stock.bins[0],
  )!;

const fieldsOf = async (client: ApiClient, url: string, payload: unknown) =>
  Object.keys(await client.fieldErrors('POST', url, payload));

/** A device failed QC, raised, sorted and assigned to the first technician. */
async function assignedTicket() {
  const [device] = await devicesIn(t.db, places, 1);
  const { id } = await dataOf<{ id: number }>(
    places.sorter.post('/repair-tickets', { code: device!.identifier, issue_codes: ['LCD-CRACK'] }),
    201,
  );
  await dataOf(
    places.sorter.post(`/repair-tickets/${id}/sorting`, {
      issue_codes: ['LCD-CRACK'],
      priority: 'high',
      estimated_cost_cents: 2500,
      resale_value_cents: 12000,
      ber_candidate: false,
    }),
  );
  await dataOf(
    places.leader.post(`/repair-tickets/${id}/assignment`, {
      technician_id: places.technician.id,
    }),
  );
  return { id, device: device! };
}

describe('a repair request', () => {
  it('sends a failed-QC device to repair and opens one ticket; a second is refused naming it', async () => {
    const [device] = await devicesIn(t.db, places, 1);
    const ticket = await dataOf<{ id: number; number: string }>(
      places.sorter.post('/repair-tickets', {
        code: device!.identifier,
        issue_codes: ['NO-POWER'],
      }),
      201,
    );
    expect(ticket.number).toMatch(/^RT-\d{6}$/);
    expect(await deviceStatus(device!.id)).toBe('in_repair');
    const message = await refusalOf(
      places.sorter.post('/repair-tickets', { code: device!.identifier }),
      409,
    );
    expect(message).toContain(ticket.number);
    const events = await t.db.query<{ type: string }>(
      'SELECT type FROM device_events WHERE device_id = $1 ORDER BY id',
      [device!.id],
    );
    expect(events.map((event) => event.type)).toContain('sent_to_repair');
  });

  it('refuses a device in stock (409), an unknown IMEI and unknown issue codes (422)', async () => {
    const [device] = await devicesIn(t.db, places, 1, 'in_stock');
    expect(
      await refusalOf(places.sorter.post('/repair-tickets', { code: device!.identifier }), 409),
    ).toContain('failed QC or came back');
    expect(await fieldsOf(admin, '/repair-tickets', { code: '350000019999999' })).toEqual(['code']);
    expect(
      await fieldsOf(admin, '/repair-tickets', {
        code: device!.identifier,
        issue_codes: ['NOT-A-CODE'],
      }),
    ).toEqual(['issue_codes.0']);
  });
});

describe('the repair line', () => {
  it('repairs with a part from stock, fails a test, passes the next and releases the device', async () => {
    const { id, device } = await assignedTicket();
    const tech = places.technician.client;
    const before = (await onHand()).on_hand;
    await dataOf(tech.post(`/repair-tickets/${id}/clock`, { running: true }));
    const issued = await dataOf<RepairTicketDetail>(
      tech.post(`/repair-tickets/${id}/parts`, {
        code: 'lcd-a15',
        location_id: places.stock.bins[0],
        qty: 1,
      }),
    );
    expect(issued.status).toBe('in_repair');
    expect(issued.parts).toMatchObject([{ part_number: 'LCD-A15', qty: 1, unit_cost_cents: 1000 }]);
    expect(issued.parts_cost_cents).toBe(1000);
    expect((await onHand()).on_hand).toBe(before - 1);
    await dataOf(tech.post(`/repair-tickets/${id}/notes`, { note: 'Screen replaced' }));
    const done = await dataOf<RepairTicketDetail>(
      tech.post(`/repair-tickets/${id}/completion`, {}),
    );
    expect(done.status).toBe('repaired');
    expect(done.clock_started_at).toBeNull();

    expect(
      await fieldsOf(admin, `/repair-tickets/${id}/test`, { items: ALL_PASS, grade: 'Z' }),
    ).toEqual(['grade']);
    expect(await fieldsOf(admin, `/repair-tickets/${id}/test`, { items: ALL_PASS })).toEqual([
      'grade',
    ]);
    const failed = await dataOf<RepairTicketDetail>(
      places.tester.post(`/repair-tickets/${id}/test`, { items: { ...ALL_PASS, touch: 'fail' } }),
    );
    expect(failed).toMatchObject({ status: 'failed', failed_items: ['touch'], test_count: 1 });
    expect(await deviceStatus(device.id)).toBe('in_repair');

    await dataOf(tech.post(`/repair-tickets/${id}/clock`, { running: true }));
    await dataOf(tech.post(`/repair-tickets/${id}/completion`, {}));
    const passed = await dataOf<RepairTicketDetail>(
      places.tester.post(`/repair-tickets/${id}/test`, { items: ALL_PASS, grade: 'B' }),
    );
    expect(passed).toMatchObject({ status: 'released', grade: 'B', test_count: 2 });
    expect(passed.tests.map((test) => test.passed)).toEqual([false, true]);
    const [row] = await t.db.query<{ status: string; grade: string }>(
      'SELECT status, grade FROM devices WHERE id = $1',
      [device.id],
    );
    expect(row).toEqual({ status: 'repaired', grade: 'B' });

    const history = await dataOf<RepairTicketDetail[]>(
      places.sorter.get(`/repair-process/history?code=${device.identifier}`),
    );
    expect(history.map((ticket) => ticket.id)).toEqual([id]);
    const timeline = await t.db.query<{ type: string }>(
      "SELECT type FROM device_events WHERE device_id = $1 AND ref_type = 'repair_ticket' ORDER BY id",
      [device.id],
    );
    expect(timeline.map((event) => event.type)).toEqual(
      expect.arrayContaining([
        'sent_to_repair',
        'repair_sorted',
        'repair_assigned',
        'repair_part_issued',
        'repair_note',
        'repair_test_failed',
        'repair_test_passed',
        'repair_released',
      ]),
    );
    // The device's own event records the passed test; the ticket's step adds no second line.
    expect(timeline.filter((event) => event.type === 'repair_test_passed')).toHaveLength(1);
  });

  it('keeps a technician to their own tickets and parts stock never below zero', async () => {
    const { id } = await assignedTicket();
    expect(
      await refusalOf(
        places.otherTechnician.client.post(`/repair-tickets/${id}/clock`, { running: true }),
        409,
      ),
    ).toContain('not assigned to you');
    const tech = places.technician.client;
    await dataOf(tech.post(`/repair-tickets/${id}/clock`, { running: true }));
    expect(
      await fieldsOf(tech, `/repair-tickets/${id}/parts`, {
        code: 'LCD-A15',
        location_id: places.stock.bins[0],
        qty: 50,
      }),
    ).toEqual(['qty']);
  });

  it('cancels a ticket: unfitted parts go back to stock, the device is failed QC again', async () => {
    const { id, device } = await assignedTicket();
    const tech = places.technician.client;
    await dataOf(tech.post(`/repair-tickets/${id}/clock`, { running: true }));
    const before = (await onHand()).on_hand;
    await dataOf(
      tech.post(`/repair-tickets/${id}/parts`, {
        code: 'LCD-A15',
        location_id: places.stock.bins[0],
        qty: 2,
      }),
    );
    const cancelled = await dataOf<RepairTicketDetail>(
      places.leader.post(`/repair-tickets/${id}/cancellation`, { reason: 'Customer kept it' }),
    );
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.parts[0]!.returned).toBe(true);
    expect(cancelled.clock_started_at).toBeNull();
    const level = await onHand();
    expect(level.on_hand).toBe(before);
    expect(level.ledger).toBe(level.on_hand);
    expect(await deviceStatus(device.id)).toBe('failed_qc');
  });

  it('lets the leader approve BER: the device is kept for parts, the ticket closes', async () => {
    const { id, device } = await assignedTicket();
    expect(
      await fieldsOf(places.leader, `/repair-tickets/${id}/beyond-repair`, { outcome: 'parts' }),
    ).toEqual(['reason']);
    const closed = await dataOf<RepairTicketDetail>(
      places.leader.post(`/repair-tickets/${id}/beyond-repair`, {
        outcome: 'parts',
        reason: 'Board damage costs more than it resells for',
      }),
    );
    expect(closed).toMatchObject({ status: 'beyond_repair', ber_outcome: 'parts' });
    expect(await deviceStatus(device.id)).toBe('parts');
    expect(
      await refusalOf(places.leader.post(`/repair-tickets/${id}/cancellation`, {}), 409),
    ).toContain('RT-');
  });

  it('waits for parts the leader requests and resumes', async () => {
    const { id } = await assignedTicket();
    const tech = places.technician.client;
    await dataOf(tech.post(`/repair-tickets/${id}/clock`, { running: true }));
    const waiting = await dataOf<RepairTicketDetail>(
      places.leader.post(`/repair-tickets/${id}/part-requests`, {
        part_id: places.stock.part,
        qty: 1,
      }),
    );
    expect(waiting.status).toBe('waiting_parts');
    expect(waiting.part_requests).toHaveLength(1);
    const resumed = await dataOf<RepairTicketDetail>(
      tech.post(`/repair-tickets/${id}/waiting`, { waiting: false }),
    );
    expect(resumed.status).toBe('in_repair');
  });

  it('shows each station its queue and the leader the technicians by load', async () => {
    const board = await dataOf<{ technicians: { id: number; open_tickets: number }[] }>(
      places.leader.get('/repair-process/leader/board'),
    );
    expect(board.technicians.map((technician) => technician.id)).toEqual([
      places.otherTechnician.id,
      places.technician.id,
    ]);
    const mine = await dataOf<{ technician_id: number }[]>(
      places.technician.client.get('/repair-process/worker/queue'),
    );
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((ticket) => ticket.technician_id === places.technician.id)).toBe(true);
    await refusalOf(places.technician.client.get('/repair-process/leader/board'), 403);
  });
});

describe('the statistics', () => {
  it('count tickets closed in the range, first-pass yield, parts cost and BER per technician and issue', async () => {
    const today = await businessDay(t.db);
    const stats = await dataOf<RepairStatistics>(
      places.leader.get(`/repair-process/statistics?from=${today}&to=${today}`),
    );
    expect(stats.totals).toMatchObject({
      tickets: 3,
      released: 1,
      first_pass: 0,
      beyond_repair: 1,
    });
    expect(stats.totals.parts_cost_cents).toBe(1000);
    expect(stats.issues.find((issue) => issue.issue_code === 'LCD-CRACK')?.tickets).toBe(3);
    const [tech] = await t.db.query<{ name: string }>('SELECT name FROM users WHERE id = $1', [
      places.technician.id,
    ]);
    expect(stats.technicians.find((row) => row.technician === tech!.name)?.released).toBe(1);
    expect(stats.days).toHaveLength(1);
    expect(stats.open_by_state.length).toBeGreaterThan(0);
    const backwards = await places.leader.get(
      `/repair-process/statistics?from=${today}&to=2000-01-01`,
    );
    expect(backwards.statusCode, backwards.body).toBe(422);
  });
});
