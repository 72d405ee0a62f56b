import type { BoxedDevice, InventoryBoxRow, PickerOption } from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, createAdminTestApp, type ApiClient } from '../../test/api-client.js';
import { boxOf, createBins, grade, receiveDevices } from '../../test/inventory-fixtures.js';
import type { Catalogue } from '../../test/receiving-fixtures.js';
import { bodyOf, createRole, createUser, login, type TestApp } from '../../test/test-app.js';

/**
 * The device boxes' list (DOMAIN.md 4.2 /inventory-box/device): keyset pages both ways over each
 * sort, the filters and search, each box's IMEIs, the exports at box and IMEI level, the label.
 */

let t: TestApp;
let admin: ApiClient;
let catalogue: Catalogue;
let imeis: string[];
/** Seven boxes of two devices, created in code order, sealed 0, 10, 20 … 60 days ago. */
let boxes: { id: number; code: string }[];

type Page<T> = { items: T[]; nextCursor: string | null; prevCursor: string | null };

beforeAll(async () => {
  ({ t, admin } = await createAdminTestApp());
  ({ catalogue, imeis } = await receiveDevices(t, admin, 14));
  await grade(t, imeis.slice(0, 10), { grade: 'A', colorId: catalogue.colors.black });
  await grade(t, imeis.slice(10), { grade: 'B', colorId: catalogue.colors.blue });
  await createBins(t, 'A', 3, { capacity: 5 });
  await createBins(t, 'B', 2, { capacity: 5 });
  boxes = [];
  for (let n = 0; n < 7; n++) {
    boxes.push(
      await boxOf(t, imeis.slice(n * 2, n * 2 + 2), {
        status: n === 6 ? 'sealed' : 'located',
        location: n < 3 ? 'A-01' : n < 6 ? 'B-01' : undefined,
        sealedDaysAgo: n * 10,
      }),
    );
  }
});
afterAll(() => t.close());

const page = async <T = InventoryBoxRow>(path: string) => {
  const response = await admin.get(path);
  expect(response.statusCode, response.body).toBe(200);
  return bodyOf<Page<T>>(response).data;
};

/** Every row of a list, page by page forward from the first, then backward from the last. */
async function walk(path: string) {
  const join = path.includes('?') ? '&' : '?';
  const forward: string[] = [];
  let cursor: string | null = '';
  while (cursor !== null) {
    const current: Page<InventoryBoxRow> = await page(
      `${path}${join}limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    forward.push(...current.items.map((row) => row.code));
    cursor = current.nextCursor;
  }
  const backward: string[] = [];
  cursor = 'last';
  while (cursor !== null) {
    const current: Page<InventoryBoxRow> = await page(
      `${path}${join}limit=3&cursor=${encodeURIComponent(cursor)}`,
    );
    backward.unshift(...current.items.map((row) => row.code));
    cursor = current.prevCursor;
  }
  return { forward, backward };
}

describe('the device boxes', () => {
  it('page both ways by code, newest first unless asked', async () => {
    const codes = boxes.map((box) => box.code);
    const byDefault = await walk('/inventory-boxes');
    expect(byDefault.forward).toEqual([...codes].reverse());
    expect(byDefault.backward).toEqual(byDefault.forward);
    const ascending = await walk('/inventory-boxes?sort=code&order=asc');
    expect(ascending.forward).toEqual(codes);
    expect(ascending.backward).toEqual(codes);
  });

  it('page both ways by the day sealed, the oldest first', async () => {
    const oldest = await walk('/inventory-boxes?sort=sealed_at&order=asc');
    expect(oldest.forward).toEqual(boxes.map((box) => box.code).reverse());
    expect(oldest.backward).toEqual(oldest.forward);
    const newest = await walk('/inventory-boxes?sort=sealed_at&order=desc');
    expect(newest.forward).toEqual(boxes.map((box) => box.code));
  });

  it('show each box with its kind, fill, place and age', async () => {
    const [row] = (await page(`/inventory-boxes?search=${boxes[2]!.code}`)).items;
    expect(row).toEqual({
      id: boxes[2]!.id,
      code: boxes[2]!.code,
      model_id: catalogue.models.a15,
      model: 'Samsung Galaxy A15',
      color_id: catalogue.colors.black,
      color: 'Black',
      capacity_gb: 128,
      grade: 'A',
      carrier_lock: null,
      qty: 2,
      max_qty: 20,
      status: 'located',
      location_id: expect.any(Number),
      location_code: 'A-01',
      sealed_at: expect.any(String),
      age_days: 20,
      count_id: null,
    });
  });

  it('filter by model, colour, grade, status, zone and age, and find a box by an IMEI', async () => {
    const codes = async (query: string) =>
      (await page(`/inventory-boxes?sort=code&order=asc&${query}`)).items.map((row) => row.code);
    const all = boxes.map((box) => box.code);
    expect(await codes(`model_id=${catalogue.models.a15}`)).toEqual(all);
    expect(await codes(`model_id=${catalogue.models.moto}`)).toEqual([]);
    expect(await codes(`color_id=${catalogue.colors.blue}`)).toEqual(all.slice(5));
    expect(await codes('grade=B')).toEqual(all.slice(5));
    expect(await codes('status=sealed')).toEqual(all.slice(6));
    const [zoneB] = await t.db.query<{ id: number }>("SELECT id FROM locations WHERE code = 'B'");
    expect(await codes(`zone_id=${zoneB!.id}`)).toEqual(all.slice(3, 6));
    expect(await codes('min_age_days=40')).toEqual(all.slice(4));
    expect(await codes('min_age_days=0')).toEqual(all);
    expect(await codes(`search=${imeis[7]}`)).toEqual([boxes[3]!.code]);
    expect(await codes('search=ib-0000')).toEqual(all);

    const count = bodyOf<{ total: number; capped: boolean }>(
      await admin.get('/inventory-boxes/count?grade=A'),
    ).data;
    expect(count).toEqual({ total: 5, capped: false });
    expect((await admin.get('/inventory-boxes?grade=Z')).statusCode).toBe(422);
    expect((await admin.get('/inventory-boxes?min_age_days=-1')).statusCode).toBe(422);
    expect((await admin.get('/inventory-boxes/999999')).statusCode).toBe(404);
  });

  it("page a box's IMEIs both ways, and the IMEIs of the boxes that match", async () => {
    const inBox = await page<BoxedDevice>(`/inventory-box-devices?box_id=${boxes[0]!.id}&limit=1`);
    expect(inBox.items).toEqual([
      expect.objectContaining({
        identifier: [...imeis.slice(0, 2)].sort()[0],
        box_code: boxes[0]!.code,
        location_code: 'A-01',
        status: 'in_stock',
      }),
    ]);
    const second = await page<BoxedDevice>(
      `/inventory-box-devices?box_id=${boxes[0]!.id}&limit=1&cursor=${encodeURIComponent(inBox.nextCursor!)}`,
    );
    expect(second.items.map((device) => device.identifier)).toEqual([
      [...imeis.slice(0, 2)].sort()[1],
    ]);
    expect(second.nextCursor).toBeNull();
    const last = await page<BoxedDevice>(
      `/inventory-box-devices?box_id=${boxes[0]!.id}&limit=1&cursor=last`,
    );
    expect(last.items).toEqual(second.items);
    const back = await page<BoxedDevice>(
      `/inventory-box-devices?box_id=${boxes[0]!.id}&limit=1&cursor=${encodeURIComponent(last.prevCursor!)}`,
    );
    expect(back.items).toEqual(inBox.items);

    const blue = await page<BoxedDevice>('/inventory-box-devices?grade=B&limit=50');
    expect(blue.items.map((device) => device.identifier)).toEqual([...imeis.slice(10)].sort());
    const sealed = await page<BoxedDevice>(
      `/inventory-box-devices?search=${boxes[6]!.code}&limit=50`,
    );
    expect(sealed.items.map((device) => device.box_code)).toEqual([boxes[6]!.code, boxes[6]!.code]);
  });

  it('export at box level and at IMEI level, with the filters shown', async () => {
    const boxFile = await admin.download('/inventory-boxes/exports', {
      format: 'csv',
      grade: 'B',
    });
    expect(boxFile.statusCode).toBe(200);
    const boxLines = boxFile.body.trim().split(/\r?\n/);
    expect(boxLines[0]).toContain('Box,Model,Colour');
    expect(boxLines).toHaveLength(3);
    expect(boxFile.body).toContain(boxes[5]!.code);

    const imeiFile = await admin.download('/inventory-box-devices/exports', {
      format: 'csv',
      grade: 'B',
    });
    expect(imeiFile.statusCode).toBe(200);
    const imeiLines = imeiFile.body.trim().split(/\r?\n/);
    expect(imeiLines[0]).toContain('Box,IMEI');
    expect(imeiLines).toHaveLength(5);
    for (const imei of imeis.slice(10)) expect(imeiFile.body).toContain(imei);
  });

  it('print the box label for whoever reads the list, and offer the filters’ choices', async () => {
    // Someone who reads the list only (DOMAIN.md 4.2: sales), not a consolidation role.
    await createRole(t.db, 'Box reader', ['box.view-list']);
    const reader = await userWith('reader', ['Box reader']);
    const label = await reader.download(`/inventory-boxes/${boxes[0]!.id}/reprint`, {
      format: 'zpl',
      size: '4x6',
    });
    expect(label.statusCode).toBe(200);
    expect(label.body).toContain(boxes[0]!.code);
    expect(
      (await reader.post('/inventory-boxes/999999/reprint', { format: 'pdf' })).statusCode,
    ).toBe(404);

    const options = async (path: string) =>
      bodyOf<PickerOption[]>(await reader.get(path)).data.map((option) => option.label);
    expect(await options('/inventory-boxes/model-options?search=a15')).toEqual([
      'Samsung Galaxy A15',
    ]);
    expect(await options('/inventory-boxes/color-options')).toEqual(['Black', 'Blue']);
    expect(await options('/inventory-boxes/zone-options')).toEqual(['A', 'B']);

    const stranger = await userWith('clerk', ['Warehouse Sorting']);
    expect((await stranger.get('/inventory-boxes')).statusCode).toBe(403);
    expect((await stranger.get('/inventory-box-devices')).statusCode).toBe(403);
  });
});

/** A user holding these roles. */
async function userWith(userName: string, roles: string[]) {
  await createUser(t.db, { userName, password: `${userName}-password-1`, roles });
  return apiClient(t, await login(t.app, userName, `${userName}-password-1`));
}
