import type { InventoryBox, PutawaySuggestion } from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, createAdminTestApp, refusalOf, type ApiClient } from '../../test/api-client.js';
import { boxOf, createBins, grade, receiveDevices } from '../../test/inventory-fixtures.js';
import { bodyOf, createUser, login, type TestApp } from '../../test/test-app.js';

/**
 * The putaway station's other modes (DOMAIN.md 4.2): a located box moved X → Y, a located box
 * taken off its location, and a pallet of sealed boxes put in one location, all or none.
 */

let t: TestApp;
let admin: ApiClient;
let imeis: string[];
let next = 0;

/** A box of the next unused device: sealed, or located in `location`. */
const newBox = (options: { location?: string; status?: 'open' | 'sealed' | 'located' } = {}) =>
  boxOf(t, [imeis[next++]!], {
    status: options.status ?? (options.location ? 'located' : 'sealed'),
    ...(options.location && { location: options.location }),
  });

/** Puts the box's devices on hold: it is quarantine stock. */
const hold = (box: { id: number }) =>
  t.db.query(
    `UPDATE devices SET status = 'hold', hold_reason = 'blacklist', status_before_hold = 'in_stock'
     WHERE inventory_box_id = $1`,
    [box.id],
  );

const boxRow = async (id: number) =>
  (
    await t.db.query<{ status: string; location: string | null; located_by: number | null }>(
      `SELECT b.status, l.code AS location, b.located_by FROM inventory_boxes b
       LEFT JOIN locations l ON l.id = b.location_id WHERE b.id = $1`,
      [id],
    )
  )[0]!;

const auditsOf = (action: string, id: number) =>
  t.db.query<{ before: unknown; after: unknown }>(
    `SELECT before, after FROM audit_events
     WHERE action = $1 AND entity_type = 'inventory_box' AND entity_id = $2 ORDER BY id`,
    [action, String(id)],
  );

/** What a location holds, as migration 0032's counters keep it. */
const holds = async (code: string) =>
  (
    await t.db.query<{ n: number }>(
      'SELECT location_holds(id) AS n FROM locations WHERE code = $1',
      [code],
    )
  )[0]!.n;

beforeAll(async () => {
  let catalogue;
  ({ t, admin } = await createAdminTestApp());
  ({ catalogue, imeis } = await receiveDevices(t, admin, 60));
  await grade(t, imeis, { grade: 'A', colorId: catalogue.colors.black });
  await createBins(t, 'A', 4, { capacity: 2 });
  await createBins(t, 'B', 2, { capacity: 1 });
  await createBins(t, 'C', 2, { capacity: 3 });
  await createBins(t, 'Q', 2, { quarantine: true, capacity: 5 });
});
afterAll(() => t.close());

describe('a box by its scanned code', () => {
  it('answers the box with where it is; 404 for no box', async () => {
    const box = await newBox({ location: 'A-01' });
    const response = await admin.post('/putaway/boxes', { box_code: ` ${box.code.toLowerCase()}` });
    expect(response.statusCode, response.body).toBe(200);
    expect(bodyOf<InventoryBox>(response).data).toMatchObject({
      code: box.code,
      status: 'located',
      location_code: 'A-01',
    });
    expect(
      await refusalOf(await admin.post('/putaway/boxes', { box_code: 'IB-999999' }), 404),
    ).toBe('No inventory box has the code IB-999999.');
    expect(await admin.fieldErrors('POST', '/putaway/boxes', { box_code: '' })).toHaveProperty(
      'box_code',
    );
  });
});

describe('moving a located box', () => {
  it('moves it X → Y, audited with both; a repeated scan says it is there already', async () => {
    const box = await newBox({ location: 'A-02' });
    const moved = await admin.post('/putaway/moves', {
      box_code: box.code,
      from_location_code: 'a-02',
      location_code: 'a-03',
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(bodyOf(moved).data).toMatchObject({
      from_location_code: 'A-02',
      already: false,
      box: { status: 'located', location_code: 'A-03' },
    });
    expect((await boxRow(box.id)).located_by).not.toBeNull();
    expect(await auditsOf('inventory_box.moved', box.id)).toEqual([
      { before: { location: 'A-02' }, after: { location: 'A-03' } },
    ]);
    // The location counters follow (migration 0032's triggers).
    expect(await holds('A-02')).toBe(0);
    expect(await holds('A-03')).toBe(1);

    const again = await admin.post('/putaway/moves', {
      box_code: box.code,
      from_location_code: 'A-02',
      location_code: 'A-03',
    });
    expect(again.statusCode, again.body).toBe(200);
    expect(bodyOf(again).data).toMatchObject({ already: true, from_location_code: 'A-03' });
    expect(await auditsOf('inventory_box.moved', box.id)).toHaveLength(1);
  });

  it('refuses a target that is inactive, full or of the wrong quarantine kind', async () => {
    const box = await newBox({ location: 'A-04' });
    const move = (location: string) =>
      admin.post('/putaway/moves', {
        box_code: box.code,
        from_location_code: 'A-04',
        location_code: location,
      });
    await newBox({ location: 'B-01' });
    expect(await refusalOf(await move('B-01'), 409)).toBe('B-01 is full (1 of 1 boxes).');
    await t.db.query("UPDATE locations SET active = false WHERE code = 'B-02'");
    expect(await refusalOf(await move('B-02'), 409)).toBe('B-02 is not active.');
    await t.db.query("UPDATE locations SET active = true WHERE code = 'B-02'");
    expect(await refusalOf(await move('Q-01'), 409)).toBe(
      'Q-01 is in the quarantine zone: only boxes with a device on hold go there.',
    );
    expect(await refusalOf(await move('Z-99'), 404)).toBe('No location has the code Z-99.');
    expect((await boxRow(box.id)).location).toBe('A-04');
    expect(await auditsOf('inventory_box.moved', box.id)).toEqual([]);

    // Put on hold on its shelf: it goes to the quarantine zone, and only there.
    await hold(box);
    expect(await refusalOf(await move('B-02'), 409)).toBe(
      `${box.code} holds a device on hold: it goes to the quarantine zone only, not B-02.`,
    );
    expect((await move('Q-01')).statusCode).toBe(200);
    expect((await boxRow(box.id)).location).toBe('Q-01');
  });

  it('refuses a box that is not on a shelf, being counted, or moved meanwhile', async () => {
    const sealed = await newBox();
    const move = (code: string, from: string, to = 'C-02') =>
      admin.post('/putaway/moves', { box_code: code, from_location_code: from, location_code: to });
    expect(await refusalOf(await move(sealed.code, 'A-01'), 409)).toBe(
      `${sealed.code} is not put away yet: put it away first.`,
    );
    const open = await newBox({ status: 'open' });
    expect(await refusalOf(await move(open.code, 'A-01'), 409)).toBe(
      `${open.code} is open: it has no location to move from.`,
    );
    expect(await refusalOf(await move('IB-999999', 'A-01'), 404)).toBe(
      'No inventory box has the code IB-999999.',
    );

    const counted = await newBox({ location: 'C-01' });
    expect((await admin.post(`/inventory-boxes/${counted.id}/counts`)).statusCode).toBe(201);
    expect(await refusalOf(await move(counted.code, 'C-01'), 409)).toBe(
      `${counted.code} is locked by a count: finish the count first.`,
    );

    const elsewhere = await newBox({ location: 'C-01' });
    expect(await refusalOf(await move(elsewhere.code, 'A-01'), 409)).toBe(
      `${elsewhere.code} is in C-01 now, not A-01: it was moved meanwhile. Scan it again.`,
    );
    expect(
      await admin.fieldErrors('POST', '/putaway/moves', {
        box_code: elsewhere.code,
        location_code: 'C-02',
      }),
    ).toHaveProperty('from_location_code');
  });

  it('moves a partly picked box and keeps its status', async () => {
    const box = await newBox({ location: 'C-02' });
    await t.db.query("UPDATE inventory_boxes SET status = 'partially_picked' WHERE id = $1", [
      box.id,
    ]);
    const moved = await admin.post('/putaway/moves', {
      box_code: box.code,
      from_location_code: 'C-02',
      location_code: 'A-01',
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(await boxRow(box.id)).toMatchObject({ status: 'partially_picked', location: 'A-01' });
  });
});

describe('unassigning a located box', () => {
  it('takes it off its location back to the queue, audited with the reason', async () => {
    const box = await newBox({ location: 'C-02' });
    const before = await holds('C-02');
    const response = await admin.post('/putaway/unassignments', {
      box_code: box.code,
      reason: 'count',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(bodyOf(response).data).toMatchObject({
      from_location_code: 'C-02',
      already: false,
      box: { status: 'sealed', location_code: null },
    });
    expect(await boxRow(box.id)).toEqual({ status: 'sealed', location: null, located_by: null });
    expect(await holds('C-02')).toBe(before - 1);
    expect(await auditsOf('inventory_box.unassigned', box.id)).toEqual([
      {
        before: { status: 'located', location: 'C-02' },
        after: { status: 'sealed', location: null, reason: 'count', note: null },
      },
    ]);
    const queue = bodyOf<InventoryBox[]>(await admin.get('/putaway/queue')).data;
    expect(queue.map((queued) => queued.code)).toContain(box.code);

    const again = await admin.post('/putaway/unassignments', {
      box_code: box.code,
      reason: 'count',
    });
    expect(bodyOf(again).data).toMatchObject({ already: true, from_location_code: null });
    expect(await auditsOf('inventory_box.unassigned', box.id)).toHaveLength(1);
    // It is put away again as any sealed box.
    const put = await admin.post('/putaway', { box_code: box.code, location_code: 'C-02' });
    expect(put.statusCode, put.body).toBe(200);
  });

  it('needs a note for another reason, and a reason at all', async () => {
    const box = await newBox({ location: 'A-01' });
    expect(
      await admin.fieldErrors('POST', '/putaway/unassignments', {
        box_code: box.code,
        reason: 'other',
        note: '  ',
      }),
    ).toEqual({ note: ['Say why the box comes off its location.'] });
    expect(
      await admin.fieldErrors('POST', '/putaway/unassignments', { box_code: box.code }),
    ).toHaveProperty('reason');
    const response = await admin.post('/putaway/unassignments', {
      box_code: box.code,
      reason: 'other',
      note: ' Shelf repaired ',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect((await auditsOf('inventory_box.unassigned', box.id))[0]!.after).toMatchObject({
      reason: 'other',
      note: 'Shelf repaired',
    });
  });

  it('refuses an open, a partly picked and a counted box', async () => {
    const unassign = (code: string) =>
      admin.post('/putaway/unassignments', { box_code: code, reason: 'mistake' });
    const open = await newBox({ status: 'open' });
    expect(await refusalOf(await unassign(open.code), 409)).toBe(
      `${open.code} is open: it has no location to come off.`,
    );
    const picked = await newBox({ location: 'A-01' });
    await t.db.query("UPDATE inventory_boxes SET status = 'partially_picked' WHERE id = $1", [
      picked.id,
    ]);
    expect(await refusalOf(await unassign(picked.code), 409)).toContain('partially picked');
    const counted = await newBox({ location: 'C-02' });
    expect((await admin.post(`/inventory-boxes/${counted.id}/counts`)).statusCode).toBe(201);
    expect(await refusalOf(await unassign(counted.code), 409)).toContain('locked by a count');
    expect(await refusalOf(await unassign('IB-999999'), 404)).toContain('IB-999999');
  });
});

describe('a pallet put away at once', () => {
  it('puts every box in the location in one go; scanned again, they are there already', async () => {
    await createBins(t, 'D', 1, { capacity: 3 });
    const pallet = [await newBox(), await newBox(), await newBox()];
    const codes = pallet.map((box) => box.code).reverse();
    const response = await admin.post('/putaway/pallets', {
      box_codes: codes.map((code) => code.toLowerCase()),
      location_code: 'd-01',
    });
    expect(response.statusCode, response.body).toBe(200);
    const answer = bodyOf<{ location_code: string; boxes: InventoryBox[]; already: string[] }>(
      response,
    ).data;
    expect(answer.location_code).toBe('D-01');
    expect(answer.already).toEqual([]);
    expect(answer.boxes.map((box) => [box.code, box.status, box.location_code])).toEqual(
      codes.map((code) => [code, 'located', 'D-01']),
    );
    expect(await holds('D-01')).toBe(3);
    for (const box of pallet) {
      expect(await auditsOf('inventory_box.located', box.id)).toEqual([
        {
          before: { status: 'sealed', location: null },
          after: { status: 'located', location: 'D-01', pallet: 3 },
        },
      ]);
    }

    const again = await admin.post('/putaway/pallets', { box_codes: codes, location_code: 'D-01' });
    expect(again.statusCode, again.body).toBe(200);
    expect(bodyOf<{ already: string[] }>(again).data.already).toEqual(codes);
    expect(await auditsOf('inventory_box.located', pallet[0]!.id)).toHaveLength(1);
  });

  it('puts none when one cannot go, naming each refusal', async () => {
    const good = await newBox();
    const open = await newBox({ status: 'open' });
    const located = await newBox({ location: 'A-03' });
    const held = await newBox();
    await hold(held);
    const response = await admin.post('/putaway/pallets', {
      box_codes: [good.code, open.code, located.code, held.code],
      location_code: 'A-04',
    });
    const message = await refusalOf(response, 409);
    expect(message).toBe(
      [
        'Nothing was put away in A-04:',
        `${open.code} is open: seal it before putting it away.`,
        `${located.code} is located in A-03 already.`,
        `${held.code} holds a device on hold: it goes to the quarantine zone only, not A-04.`,
      ].join(' '),
    );
    expect((await boxRow(good.id)).status).toBe('sealed');
    expect(await auditsOf('inventory_box.located', good.id)).toEqual([]);

    const quarantine = await admin.post('/putaway/pallets', {
      box_codes: [good.code, held.code],
      location_code: 'Q-02',
    });
    expect(await refusalOf(quarantine, 409)).toBe(
      `Nothing was put away in Q-02: Q-02 is in the quarantine zone: only boxes with a device on hold go there, not ${good.code}.`,
    );
  });

  it('checks the room for all of them', async () => {
    const pallet = [await newBox(), await newBox()];
    const full = await admin.post('/putaway/pallets', {
      box_codes: pallet.map((box) => box.code),
      location_code: 'A-04',
    });
    // A-04 no longer holds the box moved to the quarantine zone: room for both.
    expect(full.statusCode, full.body).toBe(200);
    const more = [await newBox(), await newBox()];
    const refused = await admin.post('/putaway/pallets', {
      box_codes: more.map((box) => box.code),
      location_code: 'C-01',
    });
    expect(await refusalOf(refused, 409)).toBe(
      'Nothing was put away in C-01: C-01 has room for 1 more, not 2 boxes (it holds 2 of 3).',
    );
    for (const box of more) expect((await boxRow(box.id)).status).toBe('sealed');
    await t.db.query("UPDATE locations SET active = false WHERE code = 'C-01'");
    expect(
      await refusalOf(
        await admin.post('/putaway/pallets', {
          box_codes: [more[0]!.code],
          location_code: 'C-01',
        }),
        409,
      ),
    ).toBe('Nothing was put away in C-01: C-01 is not active.');
    await t.db.query("UPDATE locations SET active = true WHERE code = 'C-01'");
  });

  it('refuses a pallet of no boxes, of more than 50, with a box twice or unknown', async () => {
    const box = await newBox();
    expect(
      await admin.fieldErrors('POST', '/putaway/pallets', { box_codes: [], location_code: 'A-01' }),
    ).toHaveProperty('box_codes');
    const many = Array.from({ length: 51 }, (_, n) => `IB-${String(900000 + n)}`);
    expect(
      await admin.fieldErrors('POST', '/putaway/pallets', {
        box_codes: many,
        location_code: 'A-01',
      }),
    ).toEqual({ box_codes: ['A pallet holds at most 50 boxes.'] });
    expect(
      await admin.fieldErrors('POST', '/putaway/pallets', {
        box_codes: [box.code, box.code.toLowerCase()],
        location_code: 'A-01',
      }),
    ).toEqual({ box_codes: [`${box.code} is on the pallet twice.`] });
    expect(
      await refusalOf(
        await admin.post('/putaway/pallets', {
          box_codes: [box.code, 'IB-999998', 'IB-999999'],
          location_code: 'A-01',
        }),
        404,
      ),
    ).toBe('No inventory box has the codes IB-999998, IB-999999.');
    expect(
      await refusalOf(
        await admin.post('/putaway/pallets', { box_codes: [box.code], location_code: 'Z-99' }),
        404,
      ),
    ).toBe('No location has the code Z-99.');
  });

  it('suggests a bin with room for the whole pallet', async () => {
    const box = await newBox();
    const suggest = async (roomFor: number) =>
      bodyOf<PutawaySuggestion>(
        await admin.post('/putaway/suggestions', { box_code: box.code, room_for: roomFor }),
      ).data;
    const alone = await suggest(1);
    const forFour = await suggest(4);
    expect(alone.location).not.toBeNull();
    expect(forFour.location).toBeNull();
    expect(forFour.reason).toBe('No active bin has room for 4 boxes: activate more locations.');
    expect(
      await admin.fieldErrors('POST', '/putaway/suggestions', { box_code: box.code, room_for: 51 }),
    ).toHaveProperty('room_for');
  });
});

describe('who may', () => {
  it('lets the putaway roles in and no one else', async () => {
    const password = 'reader-password-1';
    await createUser(t.db, { userName: 'reader', password, roles: [] });
    const reader = apiClient(t, await login(t.app, 'reader', password));
    const box = await newBox({ location: 'A-02' });
    for (const [path, body] of [
      ['/putaway/boxes', { box_code: box.code }],
      ['/putaway/moves', { box_code: box.code, from_location_code: 'A-02', location_code: 'A-03' }],
      ['/putaway/unassignments', { box_code: box.code, reason: 'count' }],
      ['/putaway/pallets', { box_codes: [box.code], location_code: 'A-03' }],
    ] as const) {
      expect((await reader.post(path, body)).statusCode, path).toBe(403);
    }
    await createUser(t.db, { userName: 'clerk', password, roles: ['Warehouse Sorting'] });
    const clerk = apiClient(t, await login(t.app, 'clerk', password));
    expect((await clerk.post('/putaway/boxes', { box_code: box.code })).statusCode).toBe(200);
  });
});
