import type { WarehouseBox } from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, createAdminTestApp, type ApiClient } from '../../test/api-client.js';
import { pdfPages } from '../../test/pdf-text.js';
import {
  imeiOf,
  importManifest,
  invoiceIdOf,
  manifestCsv,
  openBox,
  scan,
  seedCatalogue,
  TACS,
} from '../../test/receiving-fixtures.js';
import { bodyOf, createUser, login, type TestApp } from '../../test/test-app.js';

/** What a warehouse box prints: its label (PDF or ZPL) and its content list. */

let t: TestApp;
let admin: ApiClient;
let clerk: ApiClient;
let box: WarehouseBox;

const A15 = [1, 2, 3].map((n) => imeiOf(TACS.a15, n));
const A14 = imeiOf(TACS.a14, 4);

beforeAll(async () => {
  ({ t, admin } = await createAdminTestApp());
  await seedCatalogue(t);
  await importManifest(admin, manifestCsv([...A15, A14].map((imei) => ({ imei }))));
  await createUser(t.db, {
    userName: 'sorter',
    password: 'sorter-password-1',
    roles: ['Warehouse Sorting'],
  });
  clerk = apiClient(t, await login(t.app, 'sorter', 'sorter-password-1'));
  const id = await openBox(clerk, await invoiceIdOf(t, 'INV-1'), { vendor_label: 'CARTON ^1~2' });
  for (const imei of [...A15, A14]) await scan(clerk, id, imei);
  box = bodyOf<WarehouseBox>(await clerk.get(`/warehouse-boxes/${id}`)).data;
});
afterAll(() => t.close());

describe("a warehouse box's label", () => {
  it('prints as ZPL for a Zebra printer: the box code as Code128, copies as ^PQ', async () => {
    const file = await clerk.download(`/warehouse-boxes/${box.id}/label`, {
      format: 'zpl',
      copies: 3,
    });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/x-zpl');
    expect(file.headers['content-disposition']).toBe(`attachment; filename="${box.code}.zpl"`);
    expect(file.body.startsWith('^XA^CI28^PW812^LL1218')).toBe(true);
    expect(file.body).toContain(`^BCN,200,Y,N,N,A^FH^FD${box.code}^FS`);
    expect(file.body).toContain('^FDVendor label: CARTON _5E1_7E2^FS');
    expect(file.body.trimEnd().endsWith('^PQ3^XZ')).toBe(true);
  });

  it('prints copies as PDF pages', async () => {
    const file = await clerk.download(`/warehouse-boxes/${box.id}/label`, { copies: 2 });
    const pages = await pdfPages(file.rawPayload);
    expect(pages.map((page) => page.size)).toEqual([
      [288, 432],
      [288, 432],
    ]);
    expect(pages[0]!.text).toEqual(expect.arrayContaining([box.code, 'Acme Recyclers']));
  });

  it('refuses options its declaration does not allow', async () => {
    expect(
      await clerk.fieldErrors('POST', `/warehouse-boxes/${box.id}/label`, {
        format: 'svg',
        size: '2x1',
        copies: 0,
      }),
    ).toEqual({
      format: ['Choose the format: pdf or zpl.'],
      size: ['Choose the label size: 4x6.'],
      copies: ['Print at least one copy.'],
    });
    expect(
      await clerk.fieldErrors('POST', `/warehouse-boxes/${box.id}/label`, { copies: 51 }),
    ).toEqual({ copies: ['Print at most 50 copies at a time.'] });
    expect((await clerk.post('/warehouse-boxes/999999/label', {})).statusCode).toBe(404);
  });
});

describe("a warehouse box's content list", () => {
  it('lists its devices by model and IMEI under the barcoded box code, with counts', async () => {
    const file = await clerk.download(`/warehouse-boxes/${box.id}/content-list`, undefined);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.headers['content-disposition']).toBe(`inline; filename="${box.code}-content.pdf"`);
    const [page, ...more] = await pdfPages(file.rawPayload);
    expect(more).toHaveLength(0);
    expect(page!.size).toEqual([612, 792]);
    const text = page!.text;
    expect(text).toEqual(
      expect.arrayContaining([
        'Warehouse box content',
        box.code,
        box.invoice_no,
        'Samsung Galaxy A14: 1',
        'Samsung Galaxy A15: 3',
        'Devices: 4',
        'Counted by',
        'Page 1 of 1',
      ]),
    );
    // Model by model, IMEI by IMEI.
    expect(text.filter((line) => /^\d{15}$/.test(line))).toEqual([A14, ...A15]);
  });

  it('prints on A4, as a PDF only', async () => {
    const file = await clerk.download(`/warehouse-boxes/${box.id}/content-list`, {
      paper: 'a4',
      copies: 2,
    });
    const pages = await pdfPages(file.rawPayload);
    expect(pages.map((page) => page.size.map(Math.round))).toEqual([
      [595, 842],
      [595, 842],
    ]);
    expect(
      await clerk.fieldErrors('POST', `/warehouse-boxes/${box.id}/content-list`, {
        format: 'zpl',
        copies: 6,
      }),
    ).toEqual({
      format: ['Choose the format: pdf.'],
      copies: ['Print at most 5 copies at a time.'],
    });
  });
});
