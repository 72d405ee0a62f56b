import type {
  ImportBatch,
  ImportCheck,
  SimBoxRow,
  SimListImportSummary,
  SimPack,
} from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf, refusalOf, type ApiClient } from '../../test/api-client.js';
import { bodyOf, createTestApp, type TestApp } from '../../test/test-app.js';
import {
  attIccids,
  carrier,
  countOf,
  iccidOf,
  location,
  signedIn,
} from './sim-stock.test-support.js';

/**
 * SIM boxes (`/sim/box`): receiving by range (count, check digits, duplicates, the carrier from
 * the prefix), by ICCID list (with and without check digits, errors by line), splitting into
 * packs, moving, labels, and who may.
 */

let t: TestApp;
let coordinator: ApiClient;
let worker: ApiClient;
let carrierId: number;
let prefixCarrierId: number;
let shelf: number;
let closedShelf: number;

beforeAll(async () => {
  t = await createTestApp();
  carrierId = await carrier(t, 'AirTalk Wireless');
  prefixCarrierId = await carrier(t, 'Surge Lifeline');
  // A prefix whose boxes always serve one client carrier.
  await t.db.query(
    "INSERT INTO sim_prefixes (prefix, issuer, client_carrier_id) VALUES ('89012601', 'T-Mobile', $1)",
    [prefixCarrierId],
  );
  shelf = await location(t, 'SIMS');
  closedShelf = await location(t, 'OLD', false);
  coordinator = await signedIn(t, 'sc', ['SIM Coordinator']);
  worker = await signedIn(t, 'pw', ['Production Worker']);
}, 120_000);
afterAll(() => t.close());

const receive = (body: Record<string, unknown>, as = coordinator) => as.post('/sim-boxes', body);

const range = (start: bigint, qty: number) => {
  const iccids = attIccids(start, qty);
  return { iccid_first: iccids[0]!, iccid_last: iccids.at(-1)! };
};

describe('receiving a box by range', () => {
  it('puts every SIM of the range in stock with its issuer, step and audit', async () => {
    const box = await dataOf<SimBoxRow>(
      receive({ client_carrier_id: carrierId, qty: 500, ...range(890141010000000000n, 500) }),
      201,
    );
    expect(box).toMatchObject({
      client_carrier: 'AirTalk Wireless',
      issuer: 'AT&T',
      form: 'triple-cut',
      received_by_range: true,
      qty: 500,
      qty_available: 500,
      status: 'in_stock',
      pack_count: 0,
    });
    expect(box.code).toMatch(/^SB-\d{6}$/);
    expect(
      await countOf(
        t,
        `SELECT count(*)::int AS n FROM sim_cards
         WHERE sim_box_id = $1 AND status = 'in_stock' AND issuer = 'AT&T'`,
        [box.id],
      ),
    ).toBe(500);
    expect(
      await countOf(
        t,
        `SELECT count(*)::int AS n FROM sim_events e JOIN sim_cards c ON c.id = e.sim_id
         WHERE c.sim_box_id = $1 AND e.type = 'received' AND e.to_status = 'in_stock'`,
        [box.id],
      ),
    ).toBe(500);
    expect(
      await countOf(
        t,
        "SELECT count(*)::int AS n FROM audit_events WHERE action = 'sim_box.received' AND entity_id = $1",
        [box.id],
      ),
    ).toBe(1);
  });

  it('refuses a count that is not the quantity, naming both', async () => {
    const errors = await coordinator.fieldErrors('POST', '/sim-boxes', {
      client_carrier_id: carrierId,
      qty: 499,
      ...range(890141010000100000n, 500),
    });
    expect(errors).toEqual({ qty: [expect.stringMatching(/holds 500 SIMs, not 499/)] });
  });

  it('refuses an ICCID with a wrong check digit, of mixed lengths or reversed', async () => {
    const good = iccidOf(890141010000200000n);
    const bad = `${good.slice(0, -1)}${(Number(good.at(-1)) + 1) % 10}`;
    expect(
      await coordinator.fieldErrors('POST', '/sim-boxes', {
        client_carrier_id: carrierId,
        qty: 1,
        iccid_first: bad,
        iccid_last: good,
      }),
    ).toEqual({ iccid_first: ["The ICCID's check digit is wrong: rescan it."] });
    expect(
      await coordinator.fieldErrors('POST', '/sim-boxes', {
        client_carrier_id: carrierId,
        qty: 2,
        iccid_first: good,
        iccid_last: iccidOf(8901410100002000001n),
      }),
    ).toEqual({ iccid_last: [expect.stringMatching(/same length/)] });
    expect(
      await coordinator.fieldErrors('POST', '/sim-boxes', {
        client_carrier_id: carrierId,
        qty: 2,
        iccid_first: good,
        iccid_last: iccidOf(890141010000199999n),
      }),
    ).toEqual({ iccid_last: [expect.stringMatching(/before the first/)] });
  });

  it('refuses a range overlapping SIMs received already, naming them and their box', async () => {
    const first = await dataOf<SimBoxRow>(
      receive({ client_carrier_id: carrierId, qty: 10, ...range(890141010000300000n, 10) }),
      201,
    );
    const errors = (await coordinator.fieldErrors('POST', '/sim-boxes', {
      client_carrier_id: carrierId,
      qty: 10,
      ...range(890141010000300005n, 10),
    })) as Record<string, string[]>;
    expect(errors.iccid_first![0]).toMatch(
      new RegExp(
        `^5 of these ICCIDs are received already: ${iccidOf(890141010000300005n)} \\(${first.code}\\)`,
      ),
    );
    expect(
      await countOf(t, 'SELECT count(*)::int AS n FROM sim_cards WHERE iccid = $1', [
        iccidOf(890141010000300014n),
      ]),
    ).toBe(0);
  });

  it("takes the client carrier from the ICCID's prefix when none is chosen", async () => {
    const iccids = Array.from({ length: 3 }, (_, i) => iccidOf(8901260100000000000n + BigInt(i)));
    const prefix = await dataOf(coordinator.get(`/sim-boxes/prefix?iccid=${iccids[0]}`));
    expect(prefix).toEqual({
      prefix: '89012601',
      issuer: 'T-Mobile',
      client_carrier_id: prefixCarrierId,
      client_carrier: 'Surge Lifeline',
    });
    const box = await dataOf<SimBoxRow>(
      receive({ qty: 3, iccid_first: iccids[0], iccid_last: iccids[2], form: 'esim' }),
      201,
    );
    expect(box).toMatchObject({
      client_carrier_id: prefixCarrierId,
      issuer: 'T-Mobile',
      form: 'esim',
    });
    expect(
      await coordinator.fieldErrors('POST', '/sim-boxes', {
        qty: 1,
        ...range(890141010000400000n, 1),
      }),
    ).toEqual({ client_carrier_id: ["Choose the client carrier: the ICCID's prefix names none."] });
  });

  it('receives a box of 5,000 set-based, quickly', async () => {
    const started = performance.now();
    const box = await dataOf<SimBoxRow>(
      receive({ client_carrier_id: carrierId, qty: 5000, ...range(890141010001000000n, 5000) }),
      201,
    );
    expect(performance.now() - started).toBeLessThan(5000);
    expect(box.qty_available).toBe(5000);
  });

  it('is for those who hold sim.index', async () => {
    await refusalOf(
      receive({ client_carrier_id: carrierId, qty: 1, ...range(890141010000500000n, 1) }, worker),
      403,
    );
  });
});

describe('receiving a box by ICCID list', () => {
  type Check = ImportCheck & { summary: SimListImportSummary };
  const upload = async (csv: string) => {
    const uploaded = await coordinator.uploadImport('sim-box-iccids', 'box.csv', csv);
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    return bodyOf<ImportBatch>(uploaded).data.id;
  };
  const check = (id: number, options: Record<string, unknown>) =>
    dataOf<Check>(
      coordinator.checkImport('sim-box-iccids', id, {
        options: { client_carrier_id: carrierId, ...options },
      }),
    );

  it('reports bad check digits, repeats and SIMs received already by line', async () => {
    const received = iccidOf(890141010000000001n);
    const good = attIccids(890141010002000000n, 3);
    const bad = `${good[0]!.slice(0, -1)}${(Number(good[0]!.at(-1)) + 1) % 10}`;
    const id = await upload(
      ['iccid', good[0], bad, good[1], good[0], received, '12345', good[2]].join('\n'),
    );
    const checked = await check(id, {});
    expect(checked.errors.map((error) => [error.row, error.message])).toEqual([
      [3, "The ICCID's check digit is wrong: rescan it."],
      [5, 'Repeats row 2.'],
      [6, expect.stringMatching(new RegExp(`^${received} is received already in SB-`))],
      [7, 'An ICCID has 19 or 20 digits, not 5.'],
    ]);
    expect(checked.summary).toEqual({
      qty: 3,
      iccid_first: good[0],
      iccid_last: good[2],
      issuers: [{ issuer: 'AT&T', qty: 3 }],
    });
    await refusalOf(coordinator.post(`/sim-box-iccids/imports/${id}/commit`, {}), 422);
    const committed = await dataOf<ImportBatch>(
      coordinator.post(`/sim-box-iccids/imports/${id}/commit`, { mode: 'valid_rows' }),
    );
    expect(committed.created_count).toBe(3);
    const [box] = await t.db.query<{
      qty: number;
      received_by_range: boolean;
      iccid_first: string;
    }>('SELECT qty, received_by_range, iccid_first FROM sim_boxes WHERE import_batch_id = $1', [
      id,
    ]);
    expect(box).toEqual({ qty: 3, received_by_range: false, iccid_first: good[0] });
  });

  it('appends the check digit when the file has none, and only then', async () => {
    const payloads = ['890141010003000000', '890141010003000001', '890141010003000007'];
    const id = await upload(['iccid', ...payloads].join('\n'));
    const strict = await check(id, {});
    expect(strict.errors.map((error) => error.row)).toEqual([2, 3, 4]);
    const lenient = await check(id, { without_check_digits: true, location_id: shelf });
    expect(lenient.errors).toEqual([]);
    expect(lenient.summary.iccid_first).toBe(iccidOf(payloads[0]!));
    await dataOf(coordinator.post(`/sim-box-iccids/imports/${id}/commit`, {}));
    expect(
      await countOf(t, 'SELECT count(*)::int AS n FROM sim_cards WHERE iccid = ANY ($1::text[])', [
        payloads.map((payload) => iccidOf(payload)),
      ]),
    ).toBe(3);
  });

  it('refuses options without a client carrier', async () => {
    const id = await upload(['iccid', iccidOf(890141010004000000n)].join('\n'));
    const response = await coordinator.checkImport('sim-box-iccids', id, {
      options: { form: 'esim' },
    });
    expect(response.statusCode).toBe(422);
    expect(bodyOf(response).message).toHaveProperty(['options.client_carrier_id']);
  });
});

describe('splitting, moving and labels', () => {
  let box: SimBoxRow;
  beforeAll(async () => {
    box = await dataOf<SimBoxRow>(
      receive({ client_carrier_id: carrierId, qty: 25, ...range(890141010005000000n, 25) }),
      201,
    );
  });

  it('splits the unpacked in-stock SIMs into packs in ICCID order, the last pack smaller', async () => {
    // One SIM is lost before the split: it goes in no pack.
    const iccids = attIccids(890141010005000000n, 25);
    await t.db.query("UPDATE sim_cards SET status = 'lost' WHERE iccid = $1", [iccids[3]]);
    const split = await dataOf<{ box: SimBoxRow; packs: SimPack[] }>(
      coordinator.post(`/sim-boxes/${box.id}/split`, { size: 10 }),
    );
    expect(split.box).toMatchObject({ status: 'split', pack_count: 3 });
    expect(split.packs.map((pack) => [pack.size, pack.iccid_first])).toEqual([
      [10, iccids[0]],
      [10, iccids[11]],
      [4, iccids[21]],
    ]);
    expect(split.packs[0]!.code).toMatch(/^SP-\d{6}$/);
    expect(
      await countOf(
        t,
        `SELECT count(*)::int AS n FROM sim_events e JOIN sim_cards c ON c.id = e.sim_id
         WHERE c.sim_box_id = $1 AND e.type = 'split'`,
        [box.id],
      ),
    ).toBe(24);
    // Again: nothing is left to pack.
    expect(
      await refusalOf(coordinator.post(`/sim-boxes/${box.id}/split`, { size: 50 }), 409),
    ).toMatch(/nothing to split/);
    await t.db.query("UPDATE sim_cards SET status = 'in_stock' WHERE iccid = $1", [iccids[3]]);
    const again = await dataOf<{ packs: SimPack[] }>(
      coordinator.post(`/sim-boxes/${box.id}/split`, { size: 50 }),
    );
    expect(again.packs.map((pack) => pack.size)).toEqual([1]);
  });

  it('splits only into packs of 10 or 50', async () => {
    expect(
      await coordinator.fieldErrors('POST', `/sim-boxes/${box.id}/split`, { size: 20 }),
    ).toEqual({
      size: ['Choose packs of 10 or 50.'],
    });
  });

  it('prints the box label and the pack labels as PDF', async () => {
    const label = await coordinator.download(`/sim-boxes/${box.id}/label`, {
      format: 'pdf',
      size: '4x6',
    });
    expect(label.statusCode).toBe(200);
    expect(label.headers['content-type']).toBe('application/pdf');
    const packs = await coordinator.download(`/sim-boxes/${box.id}/pack-labels`, {
      format: 'zpl',
      size: '2x1',
    });
    expect(packs.body.match(/\^XA/g)).toHaveLength(4);
    const [pack] = await dataOf<SimPack[]>(coordinator.get(`/sim-boxes/${box.id}/packs`));
    const one = await coordinator.download(`/sim-packs/${pack!.id}/label`, {
      format: 'pdf',
      size: '2x1',
    });
    expect(one.headers['content-type']).toBe('application/pdf');
  });

  it('refuses pack labels of a box never split', async () => {
    const whole = await dataOf<SimBoxRow>(
      receive({ client_carrier_id: carrierId, qty: 1, ...range(890141010006000000n, 1) }),
      201,
    );
    expect(
      await refusalOf(
        coordinator.post(`/sim-boxes/${whole.id}/pack-labels`, { format: 'pdf', size: '2x1' }),
        409,
      ),
    ).toMatch(/split it first/);
  });

  it('moves a box to an active location only', async () => {
    const moved = await dataOf<SimBoxRow>(
      coordinator.put(`/sim-boxes/${box.id}/location`, { location_id: shelf }),
    );
    expect(moved.location_code).toBe('SIMS');
    expect(
      await coordinator.fieldErrors('PUT', `/sim-boxes/${box.id}/location`, {
        location_id: closedShelf,
      }),
    ).toEqual({ location_id: ['Choose an active location.'] });
    await refusalOf(coordinator.put('/sim-boxes/999999/location', { location_id: shelf }), 404);
  });

  it('lists boxes by carrier and finds a box by one of its ICCIDs', async () => {
    const page = await dataOf<{ items: SimBoxRow[] }>(
      coordinator.get(`/sim-boxes?search=${iccidOf(890141010005000007n)}`),
    );
    expect(page.items.map((row) => row.code)).toEqual([box.code]);
    const byLocation = await dataOf<{ items: SimBoxRow[] }>(
      coordinator.get(`/sim-boxes?location_id=${shelf}`),
    );
    expect(byLocation.items.map((row) => row.code)).toContain(box.code);
    const options = await dataOf<{ id: number; label: string }[]>(
      coordinator.get('/sim-boxes/carrier-options?search=airtalk'),
    );
    expect(options).toEqual([{ id: carrierId, label: 'AirTalk Wireless' }]);
  });
});
