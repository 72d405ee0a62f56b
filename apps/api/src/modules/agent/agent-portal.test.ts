import type {
  AgentActivationAnswer,
  AgentHome,
  AgentLedgerEntry,
  AgentProfile,
  AgentSim,
  AgentSimDetail,
  SimDashboard,
} from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf, refusalOf, type ApiClient } from '../../test/api-client.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { createCarrier, iccidOf, imeiOf, seedSims, signedIn } from './agent-portal.test-support.js';

let t: TestApp;
let carrierId: number;
let otherCarrierId: number;
let dana: { id: number; client: ApiClient };
let eli: { id: number; client: ApiClient };
let coordinator: { id: number; client: ApiClient };
let today: string;

beforeAll(async () => {
  t = await createTestApp({ environment: { LOG_LEVEL: 'error' } });
  carrierId = await createCarrier(t.db, 'Portal Wireless');
  otherCarrierId = await createCarrier(t.db, 'Other Portal Wireless');
  dana = await signedIn(t, 'dana.agent', ['agent'], 'agent');
  eli = await signedIn(t, 'eli.agent', ['agent'], 'agent');
  coordinator = await signedIn(t, 'sim.coordinator', ['SIM Coordinator']);
  const [row] = await t.db.query<{ today: string }>(
    'SELECT order_business_day(now())::text AS today',
  );
  today = row!.today;
  // Dana: 3 SIMs of this week, 2 held for 40 days, 1 of another carrier; Eli: 2.
  await seedSims(t.db, { carrierId, serials: [1, 2, 3], agentId: dana.id, heldDaysAgo: 1 });
  await seedSims(t.db, { carrierId, serials: [4, 5], agentId: dana.id, heldDaysAgo: 40 });
  await seedSims(t.db, { carrierId: otherCarrierId, serials: [6], agentId: dana.id });
  await seedSims(t.db, { carrierId, serials: [7, 8], agentId: eli.id });
});
afterAll(() => t.close());

/** The ISO day `days` after `day`. */
const dayAfter = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

const activation = (serial: number, extra: Record<string, unknown> = {}) => ({
  iccid: iccidOf(serial),
  enrolment_ref: `NV-${serial}`,
  enrolled_on: today,
  ...extra,
});

describe('the agent home', () => {
  it("shows the agent's own figures: on hand by carrier, returns due, the rate", async () => {
    const home = await dataOf<AgentHome>(dana.client.get('/agent/home'));
    expect(home.on_hand).toBe(6);
    expect(home.returns_due).toBe(2);
    expect(home.received).toBe(6);
    expect(home.activation_rate).toBe(0);
    expect(home.hold_days).toBe(30);
    expect(home.by_carrier).toEqual([
      {
        client_carrier_id: otherCarrierId,
        client_carrier: 'Other Portal Wireless',
        with_agent: 1,
        assigned: 0,
      },
      {
        client_carrier_id: carrierId,
        client_carrier: 'Portal Wireless',
        with_agent: 5,
        assigned: 0,
      },
    ]);
    const eliHome = await dataOf<AgentHome>(eli.client.get('/agent/home'));
    expect(eliHome.on_hand).toBe(2);
    expect(eliHome.returns_due).toBe(0);
  });

  it('is no staff page, and staff endpoints are no agent pages', async () => {
    await refusalOf(coordinator.client.get('/agent/home'), 403);
    await refusalOf(dana.client.get('/sim/dashboard'), 403);
  });
});

describe('my SIMs', () => {
  it("lists the agent's own SIMs only, with the ones held over the hold days", async () => {
    const page = await dataOf<{ items: AgentSim[] }>(dana.client.get('/agent/sims?limit=50'));
    expect(page.items.map((sim) => sim.iccid).sort()).toEqual([1, 2, 3, 4, 5, 6].map(iccidOf));
    const held = await dataOf<{ items: AgentSim[] }>(dana.client.get('/agent/sims?held_over=true'));
    expect(held.items.map((sim) => sim.iccid).sort()).toEqual([4, 5].map(iccidOf));
    expect(held.items.every((sim) => sim.days_held === 40)).toBe(true);
    const count = await dataOf<{ total: number }>(eli.client.get('/agent/sims/count'));
    expect(count.total).toBe(2);
  });

  it("answers 404 for another agent's SIM, by id and by ICCID, never the record", async () => {
    const danas = await dataOf<{ items: AgentSim[] }>(dana.client.get('/agent/sims?limit=1'));
    const sim = danas.items[0]!;
    await refusalOf(eli.client.get(`/agent/sims/${sim.id}`), 404);
    const response = await eli.client.get(`/agent/sims/iccid/${sim.iccid}`);
    expect(response.statusCode).toBe(404);
    expect(response.body).not.toContain('"client_carrier"');
    const own = await dataOf<AgentSimDetail>(dana.client.get(`/agent/sims/iccid/${sim.iccid}`));
    expect(own.sim.id).toBe(sim.id);
  });
});

describe('recording an activation', () => {
  it('assigns the SIM with the reference and IMEI, on its timeline, ledger and audit', async () => {
    const imei = imeiOf(1);
    const answer = await dataOf<AgentActivationAnswer>(
      // Dated by a phone a day ahead of the business's zone.
      dana.client.post(
        '/agent/activations',
        activation(1, { imei, enrolled_on: dayAfter(today, 1) }),
      ),
    );
    expect(answer.result).toBe('recorded');
    expect(answer.sim).toMatchObject({
      status: 'assigned',
      enrolment_ref: 'NV-1',
      paired_imei: imei,
    });
    const [row] = await t.db.query<{ events: number; ledger: number; audits: number }>(
      `SELECT
         (SELECT count(*)::int FROM sim_events WHERE sim_id = $1 AND type = 'assigned') AS events,
         (SELECT count(*)::int FROM agent_sim_ledger WHERE sim_id = $1 AND entry = 'assigned'
            AND agent_id = $2) AS ledger,
         (SELECT count(*)::int FROM audit_events WHERE action = 'SIM.assigned'
            AND entity_id = $1::text) AS audits`,
      [answer.sim.id, dana.id],
    );
    expect(row).toEqual({ events: 1, ledger: 1, audits: 1 });
    const home = await dataOf<AgentHome>(dana.client.get('/agent/home'));
    expect(home.by_carrier.find((c) => c.client_carrier_id === carrierId)).toMatchObject({
      with_agent: 4,
      assigned: 1,
    });
  });

  it('answers "already recorded" for the same ICCID again (invariant 7)', async () => {
    const again = await dataOf<AgentActivationAnswer>(
      dana.client.post('/agent/activations', activation(1, { enrolment_ref: 'NV-other' })),
    );
    expect(again.result).toBe('already_recorded');
    expect(again.message).toMatch(/recorded already \(reference NV-1\)/);
    expect(again.sim.enrolment_ref).toBe('NV-1');
  });

  it("answers 404 for another agent's ICCID and for one nobody has", async () => {
    expect(await refusalOf(eli.client.post('/agent/activations', activation(2)), 404)).toMatch(
      /no SIM .* among yours/,
    );
    await refusalOf(dana.client.post('/agent/activations', activation(999)), 404);
    const [sim] = await t.db.query<{ status: string }>(
      'SELECT status FROM sim_cards WHERE iccid = $1',
      [iccidOf(2)],
    );
    expect(sim!.status).toBe('with_agent');
  });

  it('refuses a wrong ICCID, IMEI, reference or date with the field named', async () => {
    const bad = iccidOf(3).slice(0, -1) + String((Number(iccidOf(3).at(-1)) + 1) % 10);
    expect(
      await dana.client.fieldErrors('POST', '/agent/activations', activation(3, { iccid: bad })),
    ).toHaveProperty('iccid');
    expect(
      await dana.client.fieldErrors('POST', '/agent/activations', activation(3, { imei: '12345' })),
    ).toHaveProperty('imei');
    expect(
      await dana.client.fieldErrors(
        'POST',
        '/agent/activations',
        activation(3, { enrolment_ref: '' }),
      ),
    ).toHaveProperty('enrolment_ref');
    expect(
      await dana.client.fieldErrors(
        'POST',
        '/agent/activations',
        activation(3, { enrolment_ref: 'Jane Doe' }),
      ),
    ).toHaveProperty('enrolment_ref');
    // A phone's calendar may be a day ahead of the business's zone, never two; 90 days back.
    for (const days of [2, -91]) {
      expect(
        await dana.client.fieldErrors(
          'POST',
          '/agent/activations',
          activation(3, { enrolled_on: dayAfter(today, days) }),
        ),
      ).toHaveProperty('enrolled_on');
    }
  });

  it('asks to receive a SIM still on its way first', async () => {
    const [request] = await t.db.query<{ id: number }>(
      `INSERT INTO sim_requests (number, agent_id, client_carrier_id, qty_requested, status)
       VALUES ('SR-990001', $1, $2, 1, 'shipped') RETURNING id`,
      [dana.id, carrierId],
    );
    await seedSims(t.db, {
      carrierId,
      serials: [20],
      status: 'in_transit',
      requestId: request!.id,
    });
    expect(await refusalOf(dana.client.post('/agent/activations', activation(20)), 409)).toMatch(
      /receive its shipment first/,
    );
    await refusalOf(eli.client.post('/agent/activations', activation(20)), 404);
  });
});

describe("agents' scans per minute", () => {
  it('answers 429 past the limit, with Retry-After', async () => {
    const limited = await signedIn(t, 'fast.agent', ['agent'], 'agent');
    await seedSims(t.db, { carrierId, serials: [30, 31, 32, 33], agentId: limited.id });
    await t.db.query('UPDATE sim_settings SET agent_scans_per_minute = 3');
    try {
      // Each minute starts a new window: start at the beginning of one so all four fall in it.
      const [row] = await t.db.query<{ left: number }>(
        "SELECT extract(epoch FROM date_trunc('minute', now()) + interval '1 minute' - now())::float8 AS left",
      );
      if (row!.left < 5)
        await new Promise((resolve) => setTimeout(resolve, row!.left * 1000 + 200));
      for (const serial of [30, 31, 32]) {
        await dataOf(limited.client.post('/agent/activations', activation(serial)));
      }
      const refused = await limited.client.post('/agent/activations', activation(33));
      expect(refused.statusCode).toBe(429);
      expect(refused.json<{ message: string }>().message).toMatch(
        /Too many scans: at most 3 a minute/,
      );
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      // Other agents scan on: one without SIMs is told so, not refused for speed.
      const other = await signedIn(t, 'other.agent', ['agent'], 'agent');
      await refusalOf(other.client.post('/agent/activations', activation(33)), 404);
    } finally {
      await t.db.query('UPDATE sim_settings SET agent_scans_per_minute = 120');
    }
  });
});

describe('history and profile', () => {
  it("lists the agent's own ledger entries", async () => {
    const page = await dataOf<{ items: AgentLedgerEntry[] }>(eli.client.get('/agent/history'));
    expect(page.items.map((entry) => entry.iccid).sort()).toEqual([7, 8].map(iccidOf));
    const assigned = await dataOf<{ items: AgentLedgerEntry[] }>(
      dana.client.get('/agent/history?entry=assigned'),
    );
    expect(assigned.items.map((entry) => entry.iccid)).toContain(iccidOf(1));
  });

  it('keeps an address change pending until a coordinator approves it', async () => {
    const profile = await dataOf<AgentProfile>(
      dana.client.put('/agent/profile', { name: 'Dana Ruiz', phone: '555-0100' }),
    );
    expect(profile).toMatchObject({ name: 'Dana Ruiz', phone: '555-0100', address: null });
    const asked = await dataOf<AgentProfile>(
      dana.client.post('/agent/profile/address-changes', {
        line1: '12 Main St',
        city: 'Austin',
        state: 'tx',
        zip: '78701',
      }),
      201,
    );
    expect(asked.address).toBeNull();
    expect(asked.address_changes[0]).toMatchObject({
      status: 'pending',
      address: { line1: '12 MAIN ST', state: 'TX' },
    });
    await refusalOf(dana.client.get('/sim/agent-address-changes'), 403);
    const pending = await dataOf<{ id: number; agent_name: string }[]>(
      coordinator.client.get('/sim/agent-address-changes'),
    );
    const change = pending.find((row) => row.agent_name === 'Dana Ruiz')!;
    await dataOf(coordinator.client.post(`/sim/agent-address-changes/${change.id}/approval`));
    expect(
      await refusalOf(
        coordinator.client.post(`/sim/agent-address-changes/${change.id}/approval`),
        409,
      ),
    ).toMatch(/approved already/);
    const after = await dataOf<AgentProfile>(dana.client.get('/agent/profile'));
    expect(after.address).toEqual({
      line1: '12 MAIN ST',
      line2: null,
      city: 'AUSTIN',
      state: 'TX',
      zip: '78701',
    });

    await dataOf(
      dana.client.post('/agent/profile/address-changes', {
        line1: '1 Elm St',
        city: 'Austin',
        state: 'TX',
        zip: '78702',
      }),
      201,
    );
    const next = (
      await dataOf<{ id: number; agent_name: string }[]>(
        coordinator.client.get('/sim/agent-address-changes'),
      )
    ).find((row) => row.agent_name === 'Dana Ruiz')!;
    await coordinator.client.fieldErrors(
      'POST',
      `/sim/agent-address-changes/${next.id}/rejection`,
      {},
    );
    await dataOf(
      coordinator.client.post(`/sim/agent-address-changes/${next.id}/rejection`, {
        reason: 'Not a shipping address we can reach.',
      }),
    );
    const rejected = await dataOf<AgentProfile>(dana.client.get('/agent/profile'));
    expect(rejected.address?.line1).toBe('12 MAIN ST');
    expect(rejected.address_changes[0]).toMatchObject({
      status: 'rejected',
      reason: 'Not a shipping address we can reach.',
    });
  });
});

describe('the SIM dashboard', () => {
  it('shows figures equal to counting the SIMs, the agents and the days', async () => {
    // A detection credits two of Dana's SIMs: one today, one 10 days ago.
    await t.db.query(
      `UPDATE sim_cards SET status = 'active', activated_agent_id = agent_id,
         activated_at = now() - make_interval(days => CASE WHEN iccid = $1 THEN 0 ELSE 10 END)
       WHERE iccid = ANY ($2::text[])`,
      [iccidOf(1), [iccidOf(1), iccidOf(2)]],
    );
    const figures = await dataOf<SimDashboard>(coordinator.client.get('/sim/dashboard'));
    const counted = await t.db.query<{ client_carrier_id: number; status: string; sims: number }>(
      `SELECT client_carrier_id, status, count(*)::int AS sims FROM sim_cards
       GROUP BY 1, 2 ORDER BY 1, 2`,
    );
    expect(
      figures.by_status
        .map(({ client_carrier_id, status, sims }) => ({ client_carrier_id, status, sims }))
        .sort(
          (a, b) => a.client_carrier_id - b.client_carrier_id || a.status.localeCompare(b.status),
        ),
    ).toEqual(counted);
    const danaRow = figures.agents.find((row) => row.agent_id === dana.id)!;
    const [held] = await t.db.query<{ with_agent: number; assigned: number }>(
      `SELECT count(*) FILTER (WHERE status = 'with_agent')::int AS with_agent,
         count(*) FILTER (WHERE status = 'assigned')::int AS assigned
       FROM sim_cards WHERE agent_id = $1`,
      [dana.id],
    );
    expect(danaRow).toMatchObject({
      ...held,
      on_hand: held!.with_agent + held!.assigned,
      aged: 2,
      received: 6,
      activated: 2,
      activation_rate: 0.333,
      activations_7d: 1,
      activations_30d: 2,
    });
    expect(figures.activations.last_7_days).toBe(1);
    expect(figures.activations.last_30_days).toBe(2);
    expect(figures.activations.by_day).toHaveLength(30);
    expect(figures.activations.by_day.at(-1)).toEqual({ day: today, sims: 1 });
    expect(figures.requests.find((row) => row.status === 'shipped')).toEqual({
      status: 'shipped',
      requests: 1,
      sims: 1,
    });
  });

  it('exports a table of its figures', async () => {
    const file = await coordinator.client.download('/sim/dashboard/exports', {
      widget: 'agents',
      format: 'csv',
    });
    expect(file.statusCode).toBe(200);
    expect(file.body).toContain('Dana Ruiz');
  });
});
