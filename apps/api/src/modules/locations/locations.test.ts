import type { BulkCreateResult, Location } from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, type ApiClient } from '../../test/api-client.js';
import { pdfPages } from '../../test/pdf-text.js';
import { bodyOf, createTestApp, createUser, login, type TestApp } from '../../test/test-app.js';

/** Storage locations: the tree, its ranges, activation, audits, labels and their rules. */

let t: TestApp;
let manager: ApiClient;
let zoneA: Location;

beforeAll(async () => {
  t = await createTestApp();
  await createUser(t.db, {
    userName: 'wm',
    password: 'wm-password-1',
    roles: ['Warehouse Manager'],
  });
  manager = apiClient(t, await login(t.app, 'wm', 'wm-password-1'));
});
afterAll(() => t.close());

const created = async (body: object) => {
  const response = await manager.post('/locations', body);
  expect(response.statusCode, response.body).toBe(201);
  return bodyOf<Location>(response).data;
};
const listed = async (query: string) =>
  bodyOf<{ items: Location[] }>(await manager.get(`/locations?limit=200&${query}`)).data.items;
const byCode = async (code: string) =>
  (await listed(`search=${code}`)).find((l) => l.code === code)!;
const bulk = async (body: object) => {
  const response = await manager.post('/locations/ranges', body);
  expect(response.statusCode, response.body).toBe(200);
  return bodyOf<BulkCreateResult>(response).data;
};

describe('a zone and a child location', () => {
  it('are created inactive; a child takes its code from its parent and its zone', async () => {
    zoneA = await created({ kind: 'zone', segment: 'a', name: 'Storage A' });
    expect(zoneA).toMatchObject({
      code: 'A',
      kind: 'zone',
      parent_id: null,
      zone_code: 'A',
      active: false,
      quarantine: false,
      holds: 0,
      next_audit_due: null,
      audit_due: false,
    });
    const aisle = await created({ kind: 'aisle', parent_id: zoneA.id, segment: '01' });
    expect(aisle).toMatchObject({ code: 'A-01', parent_code: 'A', zone_id: zoneA.id });
    const events = await t.db.query<{ action: string }>(
      `SELECT action FROM audit_events WHERE entity_type = 'location' AND entity_id = $1`,
      [String(aisle.id)],
    );
    expect(events.map((event) => event.action)).toEqual(['location.created']);
  });

  it('keep codes unique: the same code twice is a 409 that names it', async () => {
    const again = await manager.post('/locations', {
      kind: 'aisle',
      parent_id: zoneA.id,
      segment: '01',
    });
    expect(again.statusCode).toBe(409);
    expect(bodyOf(again).message).toBe('Location A-01 exists already: codes are unique.');
  });

  it('refuse a tree that is no tree (422 on the field)', async () => {
    expect(
      await manager.fieldErrors('POST', '/locations', {
        kind: 'zone',
        parent_id: zoneA.id,
        segment: 'Z',
      }),
    ).toEqual({ parent_id: ['A zone is the top of its tree: it has no parent.'] });
    expect(await manager.fieldErrors('POST', '/locations', { kind: 'bin', segment: '01' })).toEqual(
      { parent_id: ['Choose the location this bin is under.'] },
    );
    const aisle = await byCode('A-01');
    expect(
      await manager.fieldErrors('POST', '/locations', {
        kind: 'aisle',
        parent_id: aisle.id,
        segment: '02',
      }),
    ).toEqual({ kind: ['A aisle cannot be under aisle A-01: choose a deeper kind.'] });
    expect(
      await manager.fieldErrors('POST', '/locations', {
        kind: 'rack',
        parent_id: 999_999,
        segment: '01',
      }),
    ).toEqual({ parent_id: ['There is no location with id 999999.'] });
    expect(
      await manager.fieldErrors('POST', '/locations', {
        kind: 'rack',
        parent_id: aisle.id,
        segment: 'A/1',
      }),
    ).toEqual({ segment: ['The code is letters and digits only, like 01 or B.'] });
    expect(
      await manager.fieldErrors('POST', '/locations', {
        kind: 'rack',
        parent_id: aisle.id,
        segment: '1',
        capacity_boxes: 0,
      }),
    ).toEqual({ capacity_boxes: ['The capacity is at least 1 box; leave it empty for no limit.'] });
  });

  it('change name and capacity; a quarantine zone flags every location in it', async () => {
    const quarantine = await created({ kind: 'zone', segment: 'QRT', quarantine: true });
    const lane = await created({ kind: 'bin', parent_id: quarantine.id, segment: '01' });
    expect(lane).toMatchObject({ code: 'QRT-01', quarantine: true, zone_code: 'QRT' });
    const renamed = await manager.put(`/locations/${lane.id}`, {
      name: 'Held returns',
      capacity_boxes: 6,
    });
    expect(bodyOf<Location>(renamed).data).toMatchObject({
      name: 'Held returns',
      capacity_boxes: 6,
    });
    expect(
      await manager.fieldErrors('PUT', `/locations/${lane.id}`, { quarantine: false }),
    ).toEqual({ quarantine: ["A bin takes its zone's quarantine flag: change zone QRT."] });
    await manager.put(`/locations/${quarantine.id}`, { quarantine: false });
    expect((await byCode('QRT-01')).quarantine).toBe(false);
    await manager.put(`/locations/${quarantine.id}`, { quarantine: true });
    expect((await byCode('QRT-01')).quarantine).toBe(true);
    expect((await manager.put('/locations/999999', { name: 'x' })).statusCode).toBe(404);
  });
});

describe('a range', () => {
  it('counts on a dry run what it would create and what exists, and writes nothing', async () => {
    const aisle = await byCode('A-01');
    await created({ kind: 'rack', parent_id: aisle.id, segment: '02' });
    const before = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM locations');
    const dry = await bulk({
      parent_id: aisle.id,
      levels: [
        { kind: 'rack', from: '01', to: '05' },
        { kind: 'level', from: 'a', to: 'd' },
      ],
      dry_run: true,
    });
    expect(dry).toMatchObject({ dry_run: true, created: 24, existing: 1 });
    expect(dry.existing_codes).toEqual(['A-01-02']);
    expect(dry.created_codes.slice(0, 5)).toEqual([
      'A-01-01',
      'A-01-01-A',
      'A-01-01-B',
      'A-01-01-C',
      'A-01-01-D',
    ]);
    const after = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM locations');
    expect(after).toEqual(before);
  });

  it('creates racks x levels under the parent in one go, codes built from the parent’s', async () => {
    const aisle = await byCode('A-01');
    const result = await bulk({
      parent_id: aisle.id,
      levels: [
        { kind: 'rack', from: '01', to: '05' },
        { kind: 'level', from: 'A', to: 'D' },
      ],
      capacity_boxes: 4,
    });
    expect(result).toMatchObject({ dry_run: false, created: 24, existing: 1 });
    const levels = await listed(`kind=level&zone_id=${zoneA.id}`);
    expect(levels).toHaveLength(20);
    expect(levels.map((level) => level.code)).toContain('A-01-03-B');
    expect(levels.every((level) => level.capacity_boxes === 4 && !level.active)).toBe(true);
    expect((await byCode('A-01-02-C')).parent_code).toBe('A-01-02');
    const count = bodyOf<{ total: number }>(
      await manager.get(`/locations/count?kind=rack&zone_id=${zoneA.id}`),
    ).data;
    expect(count.total).toBe(5);
    const [audits] = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM audit_events WHERE action = 'location.created'
       AND after->>'range_under' = 'A-01'`,
    );
    expect(audits!.n).toBe(24);
  });

  it('refuses more than 2,000 at once, backwards ranges and mixed ones (422)', async () => {
    const zone = zoneA.id;
    expect(
      await manager.fieldErrors('POST', '/locations/ranges', {
        parent_id: zone,
        levels: [
          { kind: 'aisle', from: '01', to: '50' },
          { kind: 'rack', from: '01', to: '40' },
        ],
      }),
    ).toEqual({ levels: ['These ranges make 2,050 locations: create at most 2,000 at once.'] });
    expect(
      await manager.fieldErrors('POST', '/locations/ranges', {
        parent_id: zone,
        levels: [{ kind: 'aisle', from: '09', to: '03' }],
      }),
    ).toEqual({ 'levels.0': ['09 comes after 03.'] });
    expect(
      await manager.fieldErrors('POST', '/locations/ranges', {
        parent_id: zone,
        levels: [{ kind: 'aisle', from: '01', to: 'D' }],
      }),
    ).toEqual({
      'levels.0': [
        'A range runs from number to number (01 to 20) or from letter to letter (A to D).',
      ],
    });
    expect(
      await manager.fieldErrors('POST', '/locations/ranges', {
        parent_id: zone,
        levels: [
          { kind: 'level', from: 'A', to: 'B' },
          { kind: 'rack', from: '01', to: '02' },
        ],
      }),
    ).toEqual({
      'levels.1.kind': ['A rack cannot be under a level: each range goes one kind deeper.'],
    });
  });

  it('refuses a code that exists as something else (409 naming it)', async () => {
    // A zone code has no dash when created here; one written by other means may have.
    await t.db.query(`INSERT INTO locations (code, kind) VALUES ('B-01', 'zone')`);
    const zoneB = await created({ kind: 'zone', segment: 'B' });
    const clash = await manager.post('/locations/ranges', {
      parent_id: zoneB.id,
      levels: [{ kind: 'aisle', from: '01', to: '03' }],
    });
    expect(clash.statusCode).toBe(409);
    expect(bodyOf(clash).message).toBe(
      'Location B-01 exists already as a zone: it cannot be a aisle under B.',
    );
    expect(await listed(`zone_id=${zoneB.id}&kind=aisle`)).toEqual([]);
  });
});

describe('activation', () => {
  it('activates and deactivates the chosen locations and everything below them, audited', async () => {
    const rack = await byCode('A-01-03');
    const answer = await manager.post('/locations/activation', { ids: [rack.id], active: true });
    expect(bodyOf(answer).data).toEqual({ changed: 5 });
    expect((await byCode('A-01-03-D')).active).toBe(true);
    expect((await byCode('A-01-04-D')).active).toBe(false);
    const active = await listed(`active=true&zone_id=${zoneA.id}`);
    expect(active.map((l) => l.code)).toEqual([
      'A-01-03',
      'A-01-03-A',
      'A-01-03-B',
      'A-01-03-C',
      'A-01-03-D',
    ]);
    const [events] = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM audit_events WHERE action = 'location.activated'`,
    );
    expect(events!.n).toBe(5);
  });

  it('answers 404 for an unknown location and changes nothing', async () => {
    const rack = await byCode('A-01-04');
    const refused = await manager.post('/locations/activation', {
      ids: [rack.id, 999_998],
      active: true,
    });
    expect(refused.statusCode).toBe(404);
    expect(bodyOf(refused).message).toBe('There is no location with id 999998.');
    expect((await byCode('A-01-04')).active).toBe(false);
  });

  it('keeps a location active that holds anything, itself or below it (409 naming it)', async () => {
    const level = await byCode('A-01-03-B');
    // Three item levels with units in the level, as counted stock leaves them.
    await t.db.query(
      `WITH items AS (
         INSERT INTO accessories (sku, name, kind)
         SELECT 'HELD-' || n, 'Held cable ' || n, 'cable' FROM generate_series(1, 3) AS n
         RETURNING id
       )
       INSERT INTO stock_levels (item_kind, item_id, location_id, on_hand)
       SELECT 'accessory', id, $1, 2 FROM items`,
      [level.id],
    );
    try {
      const rack = await byCode('A-01-03');
      expect(rack.holds).toBe(3);
      expect((await byCode('A-01-03-B')).holds).toBe(3);
      expect((await byCode('A-01-03-A')).holds).toBe(0);
      const refused = await manager.post('/locations/activation', {
        ids: [(await byCode('A-01-03-A')).id, rack.id],
        active: false,
      });
      expect(refused.statusCode).toBe(409);
      expect(bodyOf(refused).message).toBe(
        'Not deactivated: A-01-03 (3) holds stock, in it or in the locations below. Move it out first.',
      );
      expect((await byCode('A-01-03-A')).active).toBe(true);
      const emptyOne = await manager.post('/locations/activation', {
        ids: [(await byCode('A-01-03-A')).id],
        active: false,
      });
      expect(bodyOf(emptyOne).data).toEqual({ changed: 1 });
    } finally {
      await t.db.query('UPDATE stock_levels SET on_hand = 0 WHERE location_id = $1', [level.id]);
    }
    // Emptied, it holds nothing, and neither does its rack.
    expect((await byCode('A-01-03')).holds).toBe(0);
  });

  it('counts what is held where it is held: a move updates both paths', async () => {
    const [from, to] = [await byCode('A-01-03-C'), await byCode('A-01-03-D')];
    const [level] = await t.db.query<{ id: number }>(
      `INSERT INTO stock_levels (item_kind, item_id, location_id, on_hand)
       SELECT 'accessory', min(id), $1, 5 FROM accessories RETURNING id`,
      [from.id],
    );
    const holdsOf = async () =>
      Object.fromEntries(
        await Promise.all(
          ['A', 'A-01', 'A-01-03', 'A-01-03-C', 'A-01-03-D'].map(
            async (code) => [code, (await byCode(code)).holds] as const,
          ),
        ),
      );
    expect(await holdsOf()).toEqual({
      A: 1,
      'A-01': 1,
      'A-01-03': 1,
      'A-01-03-C': 1,
      'A-01-03-D': 0,
    });
    await t.db.query('UPDATE stock_levels SET location_id = $2 WHERE id = $1', [level!.id, to.id]);
    expect(await holdsOf()).toMatchObject({ 'A-01-03': 1, 'A-01-03-C': 0, 'A-01-03-D': 1 });
    await t.db.query('DELETE FROM stock_levels WHERE id = $1', [level!.id]);
    expect(await holdsOf()).toMatchObject({ A: 0, 'A-01-03-D': 0 });
  });

  it('never lets anything into an inactive location, whoever writes it', async () => {
    const inactive = await byCode('A-01-04-D');
    expect(inactive.active).toBe(false);
    await expect(
      t.db.query(
        `INSERT INTO stock_levels (item_kind, item_id, location_id, on_hand)
         SELECT 'accessory', min(id), $1, 1 FROM accessories`,
        [inactive.id],
      ),
    ).rejects.toThrow('Location A-01-04-D is not active: nothing can be put there.');
  });

  it('needs at least one location', async () => {
    expect(
      await manager.fieldErrors('POST', '/locations/activation', { ids: [], active: true }),
    ).toEqual({ ids: ['Choose at least one location.'] });
  });
});

describe('a location audit', () => {
  it('records now, the auditor and the next due date, 90 days on by default', async () => {
    const level = await byCode('A-01-03-C');
    const answer = await manager.post('/locations/audits', { ids: [level.id] });
    expect(answer.statusCode, answer.body).toBe(200);
    const [expected] = await t.db.query<{ due: string }>(
      `SELECT to_char(current_date + 90, 'YYYY-MM-DD') AS due`,
    );
    expect(bodyOf(answer).data).toEqual({ audited: 1, next_audit_due: expected!.due });
    const audited = await byCode('A-01-03-C');
    expect(audited).toMatchObject({
      last_audit_by_name: expect.any(String),
      next_audit_due: expected!.due,
      audit_due: false,
    });
    expect(audited.last_audit_at).not.toBeNull();
  });

  it('takes the date chosen, after today only', async () => {
    const level = await byCode('A-01-03-D');
    const answer = await manager.post('/locations/audits', {
      ids: [level.id],
      next_audit_due: '2099-01-31',
    });
    expect(bodyOf(answer).data).toEqual({ audited: 1, next_audit_due: '2099-01-31' });
    expect(
      await manager.fieldErrors('POST', '/locations/audits', {
        ids: [level.id],
        next_audit_due: '2000-01-01',
      }),
    ).toEqual({ next_audit_due: ['The next audit is due after today.'] });
    expect(
      await manager.fieldErrors('POST', '/locations/audits', {
        ids: [level.id],
        next_audit_due: 'soon',
      }),
    ).toEqual({ next_audit_due: ['Write the next audit date as YYYY-MM-DD.'] });
  });

  it('is due when its date has come: the "audit due" filter and the sort find it', async () => {
    const level = await byCode('A-01-03-C');
    await t.db.query(`UPDATE locations SET next_audit_due = current_date WHERE id = $1`, [
      level.id,
    ]);
    const due = await listed('audit_due=true');
    expect(due.map((l) => l.code)).toEqual(['A-01-03-C']);
    expect(due[0]!.audit_due).toBe(true);
    const response = await manager.get('/locations?sort=next_audit_due&limit=2');
    expect(response.statusCode, response.body).toBe(200);
    const soonest = bodyOf<{ items: Location[] }>(response).data.items;
    expect(soonest.map((l) => l.code)).toEqual(['A-01-03-C', 'A-01-03-D']);
  });
});

describe('location labels', () => {
  it('print 2x1 as ZPL: each code as Code128 and as text, in code order', async () => {
    const ids = [(await byCode('A-01-03-B')).id, (await byCode('A-01-03-A')).id];
    const file = await manager.download('/locations/labels', { ids, format: 'zpl', copies: 2 });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/x-zpl');
    expect(file.body.startsWith('^XA^CI28^PW406^LL203')).toBe(true);
    const barcodes = [...file.body.matchAll(/\^BC[^^]*\^FH\^FD([^^]+)\^FS/g)].map((m) => m[1]);
    expect(barcodes).toEqual(['A-01-03-A', 'A-01-03-B']);
    expect(file.body).toContain('^PQ2');
  });

  it('print as PDF, one page per label', async () => {
    const ids = [(await byCode('A-01-03-B')).id, (await byCode('QRT-01')).id];
    const file = await manager.download('/locations/labels', { ids });
    const pages = await pdfPages(file.rawPayload);
    expect(pages.map((page) => page.size)).toEqual([
      [144, 72],
      [144, 72],
    ]);
    expect(pages[1]!.text).toEqual(expect.arrayContaining(['QRT-01', 'QUARANTINE zone QRT']));
  });

  it('answer 404 for an unknown location and 422 for a size it is not printed on', async () => {
    expect((await manager.post('/locations/labels', { ids: [999_997] })).statusCode).toBe(404);
    expect(
      await manager.fieldErrors('POST', '/locations/labels', {
        ids: [zoneA.id],
        size: '4x6',
      }),
    ).toEqual({ size: ['Choose the label size: 2x1.'] });
  });
});
