import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminTestApp, dataOf, type ApiClient } from '../../test/api-client.js';
import { devicesIn, seedRepair, type RepairPlaces } from '../../test/repair-fixtures.js';
import { ledgerOf } from '../../test/stock-fixtures.js';
import type { TestApp } from '../../test/test-app.js';

/**
 * Two requests for one device, technicians scanning the last parts out, two clocks started on one
 * ticket. On PostgreSQL (TEST_DATABASE_URL) the requests run on concurrent connections; on PGlite
 * one at a time.
 */

const IN_STOCK = 3;
let t: TestApp;
let admin: ApiClient;
let places: RepairPlaces;

beforeAll(async () => {
  ({ t, admin } = await createAdminTestApp());
  places = await seedRepair(t, admin, IN_STOCK);
});
afterAll(() => t.close());

/** A ticket assigned to the technician, its clock running: in repair. */
async function inRepair() {
  const [device] = await devicesIn(t.db, places, 1);
  const { id } = await dataOf<{ id: number }>(
    admin.post('/repair-tickets', { code: device!.identifier }),
    201,
  );
  await dataOf(
    admin.post(`/repair-tickets/${id}/sorting`, {
      issue_codes: [],
      priority: 'normal',
      estimated_cost_cents: null,
      resale_value_cents: null,
      ber_candidate: false,
    }),
  );
  await dataOf(
    admin.post(`/repair-tickets/${id}/assignment`, { technician_id: places.technician.id }),
  );
  return id;
}

describe('at the same time', () => {
  it('two requests for one device: one ticket opens, the other is refused naming it', async () => {
    for (let round = 0; round < 5; round++) {
      const [device] = await devicesIn(t.db, places, 1);
      const answers = await Promise.all([
        places.sorter.post('/repair-tickets', { code: device!.identifier }),
        admin.post('/repair-tickets', { code: device!.identifier }),
      ]);
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 409]);
      const open = await t.db.query(
        "SELECT id FROM repair_tickets WHERE device_id = $1 AND status = 'requested'",
        [device!.id],
      );
      expect(open).toHaveLength(1);
      const sent = await t.db.query(
        "SELECT id FROM device_events WHERE device_id = $1 AND type = 'sent_to_repair'",
        [device!.id],
      );
      expect(sent).toHaveLength(1);
    }
  });

  it('technicians scanning out more parts than there are: each unit issued once, never below zero', async () => {
    const tickets = [];
    for (let n = 0; n < IN_STOCK + 2; n++) tickets.push(await inRepair());
    const tech = places.technician.client;
    for (const id of tickets)
      await dataOf(tech.post(`/repair-tickets/${id}/clock`, { running: true }));
    const answers = await Promise.all(
      tickets.map((id) =>
        tech.post(`/repair-tickets/${id}/parts`, {
          code: 'LCD-A15',
          location_id: places.stock.bins[0],
          qty: 1,
        }),
      ),
    );
    const codes = answers.map((answer) => answer.statusCode).sort();
    expect(codes).toEqual([...Array(IN_STOCK).fill(200), 422, 422]);
    const [level] = await ledgerOf(t.db, 'part', places.stock.part);
    expect(level).toMatchObject({ on_hand: 0, ledger: 0 });
    const issued = await t.db.query<{ total: number }>(
      'SELECT COALESCE(sum(qty), 0)::int AS total FROM repair_ticket_parts',
    );
    expect(issued[0]!.total).toBe(IN_STOCK);
  });

  it('two clocks started on one ticket: one runs', async () => {
    const id = await inRepair();
    const tech = places.technician.client;
    const answers = await Promise.all([
      tech.post(`/repair-tickets/${id}/clock`, { running: true }),
      tech.post(`/repair-tickets/${id}/clock`, { running: true }),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    const running = await t.db.query(
      'SELECT id FROM repair_labour WHERE ticket_id = $1 AND stopped_at IS NULL',
      [id],
    );
    expect(running).toHaveLength(1);
  });
});
