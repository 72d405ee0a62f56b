import { randomBytes } from 'node:crypto';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, createAdminTestApp, type ApiClient } from '../test/api-client.js';
import { bodyOf, createRole, createUser, login, type TestApp } from '../test/test-app.js';

/** The toolkit through one resource, colours: paging, count, export, import, 409, audit. */

let t: TestApp;
let admin: ApiClient;

type Page = {
  items: { id: number; name: string }[];
  nextCursor: string | null;
  prevCursor: string | null;
};

beforeAll(async () => {
  ({ t, admin } = await createAdminTestApp());
  await t.db.query(
    `INSERT INTO colors (name) SELECT 'Colour ' || lpad(n::text, 3, '0') FROM generate_series(1, 120) n`,
  );
});
afterAll(() => t.close());

describe('a toolkit list', () => {
  it('walks forward and back by cursor, and the last page is one call', async () => {
    const first = bodyOf<Page>(await admin.get('/colors?limit=50&search=colour'));
    expect(first.data.items).toHaveLength(50);
    expect(first.data.items[0]!.name).toBe('Colour 001');
    expect(first.data.prevCursor).toBeNull();
    const second = bodyOf<Page>(
      await admin.get(`/colors?limit=50&search=colour&cursor=${first.data.nextCursor}`),
    );
    expect(second.data.items[0]!.name).toBe('Colour 051');
    const back = bodyOf<Page>(
      await admin.get(`/colors?limit=50&search=colour&cursor=${second.data.prevCursor}`),
    );
    expect(back.data.items.map((item) => item.name)).toEqual(
      first.data.items.map((item) => item.name),
    );
    expect(back.data.prevCursor).toBeNull();
    const last = bodyOf<Page>(await admin.get('/colors?limit=50&search=colour&cursor=last'));
    expect(last.data.items).toHaveLength(50);
    expect(last.data.items.at(-1)!.name).toBe('Colour 120');
    expect(last.data.nextCursor).toBeNull();
    expect(last.data.prevCursor).not.toBeNull();
    const descending = bodyOf<Page>(await admin.get('/colors?limit=5&order=desc&search=colour'));
    expect(descending.data.items[0]!.name).toBe('Colour 120');
  });

  it('answers text the database cannot store with a 422, not a 500', async () => {
    const nul = await admin.get('/colors?search=a%00b');
    expect(nul.statusCode).toBe(422);
    expect(bodyOf(nul).message).toEqual({
      _: ['The text holds a character that cannot be stored (such as a NUL).'],
    });
    expect((await admin.post('/colors', { name: 'Nul\u0000Colour' })).statusCode).toBe(422);
  });

  it('counts exactly, filters, and refuses a damaged cursor with a 422', async () => {
    expect(bodyOf(await admin.get('/colors/count?search=colour%2001')).data).toEqual({
      total: 10,
      capped: false,
    });
    const damaged = await admin.get('/colors?cursor=not-a-cursor');
    expect(damaged.statusCode).toBe(422);
    expect(bodyOf(damaged).message).toHaveProperty('cursor');
  });
});

describe('writing a colour', () => {
  it('creates, refuses a duplicate name whatever its case, deactivates, and audits each', async () => {
    const created = await admin.post('/colors', {
      name: 'Sierra Blue',
      hex: '5b7c99',
      aliases: ['Blue', 'blue', ''],
    });
    expect(created.statusCode).toBe(201);
    const color = bodyOf<{ id: number; hex: string; aliases: string[] }>(created).data;
    expect(color.hex).toBe('#5B7C99');
    expect(color.aliases).toEqual(['Blue']);
    const duplicate = await admin.post('/colors', { name: 'SIERRA BLUE' });
    expect(duplicate.statusCode).toBe(422);
    expect(bodyOf(duplicate).message).toEqual({ name: ['A colour with this name exists.'] });
    const off = await admin.put(`/colors/${color.id}`, { active: false });
    expect(bodyOf<{ active: boolean; aliases: string[] }>(off).data).toMatchObject({
      active: false,
      aliases: ['Blue'],
    });
    const actions = await t.db.query<{ action: string }>(
      "SELECT action FROM audit_events WHERE entity_type = 'color' AND entity_id = $1 ORDER BY id",
      [String(color.id)],
    );
    expect(actions.map((row) => row.action)).toEqual(['color.created', 'color.deactivated']);
  });

  it('refuses to delete a colour in use (409 says where) and merges it instead', async () => {
    const [brand] = await t.db.query<{ id: number }>(
      "INSERT INTO brands (name) VALUES ('Acme') RETURNING id",
    );
    const [model] = await t.db.query<{ id: number }>(
      `INSERT INTO device_models (brand_id, name, device_type, os, network) VALUES ($1, 'Phone 1', 'phone', 'android', '5G') RETURNING id`,
      [brand!.id],
    );
    const keep = bodyOf<{ id: number }>(await admin.post('/colors', { name: 'Graphite' })).data;
    const used = bodyOf<{ id: number }>(
      await admin.post('/colors', { name: 'Grafite', aliases: ['Gray'] }),
    ).data;
    await t.db.query(
      "INSERT INTO tac_numbers (tac, model_id, color_id) VALUES ('35000001', $1, $2), ('35000002', $1, $2)",
      [model!.id, used.id],
    );
    const refused = await admin.delete(`/colors/${used.id}`);
    expect(refused.statusCode).toBe(409);
    expect(bodyOf(refused).message).toBe(
      'This colour is used by 2 TAC numbers: deactivate it instead.',
    );
    const merged = await admin.post(`/colors/${used.id}/merge`, { into: keep.id });
    expect(bodyOf<{ aliases: string[]; usage_count: number }>(merged).data).toMatchObject({
      aliases: expect.arrayContaining(['Grafite', 'Gray']),
      usage_count: 2,
    });
    expect((await admin.get(`/colors/${used.id}`)).statusCode).toBe(404);
    const unused = bodyOf<{ id: number }>(await admin.post('/colors', { name: 'Unused' })).data;
    expect((await admin.delete(`/colors/${unused.id}`)).statusCode).toBe(200);
  });
});

describe('export', () => {
  it('streams the filtered list as CSV through a one-use link', async () => {
    const file = await admin.download('/colors/exports', { format: 'csv', search: 'colour 11' });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toContain('text/csv');
    expect(file.headers['content-disposition']).toMatch(/attachment; filename="colors-.*\.csv"/);
    const lines = file.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('ID,Name,Hex,Aliases,Active,TAC numbers,Updated');
    expect(lines.slice(1).map((line) => line.split(',')[1])).toEqual(
      Array.from({ length: 10 }, (_, i) => `Colour ${110 + i}`),
    );
  });

  it('writes XLSX that a spreadsheet reads back', async () => {
    const file = await admin.download('/colors/exports', { format: 'xlsx', search: 'colour 00' });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.getRow(1).getCell(2).value).toBe('Name');
    expect(sheet.rowCount).toBe(10);
  });

  it('does not serve a link twice, nor one whose session has ended', async () => {
    const link = bodyOf<{ url: string }>(
      await admin.post('/colors/exports', { format: 'csv' }),
    ).data;
    expect((await t.app.inject({ method: 'GET', url: link.url })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: link.url })).statusCode).toBe(404);
    await createUser(t.db, { userName: 'leaver', password: 'leaver-password', roles: ['admin'] });
    const leaver = apiClient(t, await login(t.app, 'leaver', 'leaver-password'));
    const orphan = bodyOf<{ url: string }>(
      await leaver.post('/colors/exports', { format: 'csv' }),
    ).data;
    await leaver.post('/logout');
    expect((await t.app.inject({ method: 'GET', url: orphan.url })).statusCode).toBe(404);
  });
});

describe('import', () => {
  const csv = (rows: string[]) => ['Name,Hex,Aliases', ...rows].join('\n');

  it('shows every bad row at the check, writes nothing, then commits all at once', async () => {
    const uploaded = await admin.uploadImport(
      'colors',
      'colours.csv',
      csv(['Imported One,#112233,One|Uno', 'Imported Two,not-hex,', 'Imported One,,', ',#000000,']),
    );
    expect(uploaded.statusCode).toBe(201);
    const batch = bodyOf<{ id: number; mapping: Record<string, string | null>; row_count: number }>(
      uploaded,
    ).data;
    expect(batch.mapping).toEqual({ name: 'Name', hex: 'Hex', aliases: 'Aliases', active: null });
    expect(batch.row_count).toBe(4);
    const check = bodyOf<{ errors: { row: number; column: string; message: string }[] }>(
      await admin.checkImport('colors', batch.id),
    ).data;
    expect(check.errors).toEqual([
      {
        row: 3,
        column: 'Hex',
        value: 'not-hex',
        message: 'Write the colour as six hex digits, like #1A2B3C.',
      },
      { row: 4, column: 'Name', value: 'Imported One', message: 'Repeats row 2.' },
      { row: 5, column: 'Name', value: '', message: 'Please enter the colour name.' },
    ]);
    const refused = await admin.commitImport('colors', batch.id);
    expect(refused.statusCode).toBe(422);
    expect((await admin.get('/colors/count?search=imported')).json().data.total).toBe(0);

    const errorFile = await admin.download(`/colors/imports/${batch.id}/error-file`, {});
    expect(errorFile.body).toContain('Repeats row 2.');

    const fixed = bodyOf<{ id: number }>(
      await admin.uploadImport(
        'colors',
        'colours.csv',
        csv(['Imported One,#112233,One|Uno', 'Imported Two,#445566,', 'Colour 001,#000000,']),
      ),
    ).data;
    const ok = bodyOf<{ willCreate: number; willUpdate: number; errors: unknown[] }>(
      await admin.checkImport('colors', fixed.id),
    ).data;
    expect(ok).toMatchObject({ willCreate: 2, willUpdate: 1, errors: [] });
    const committed = await admin.commitImport('colors', fixed.id);
    expect(bodyOf(committed).data).toMatchObject({
      status: 'committed',
      created_count: 2,
      updated_count: 1,
    });
    expect((await admin.commitImport('colors', fixed.id)).statusCode).toBe(409);
    const [updated] = await t.db.query<{ hex: string }>(
      "SELECT hex FROM colors WHERE name = 'Colour 001'",
    );
    expect(updated!.hex).toBe('#000000');
    const history = bodyOf<{ id: number; status: string }[]>(
      await admin.get('/colors/imports'),
    ).data;
    expect(history.map((entry) => entry.status)).toEqual(['committed', 'checked']);
  });

  it('reads XLSX, maps renamed columns, and requires the key column', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('x');
    sheet.addRow(['Colour', 'Code']);
    sheet.addRow(['From Excel', '#ABCDEF']);
    const content = Buffer.from(await workbook.xlsx.writeBuffer());
    const batch = bodyOf<{ id: number }>(
      await admin.uploadImport('colors', 'c.xlsx', content, 'application/octet-stream'),
    ).data;
    const unmapped = await admin.checkImport('colors', batch.id);
    expect(unmapped.statusCode).toBe(422);
    const mapped = await admin.checkImport('colors', batch.id, {
      mapping: { name: 'Colour', hex: 'Code' },
    });
    expect(bodyOf(mapped).data).toMatchObject({ willCreate: 1, errors: [] });
    expect((await admin.commitImport('colors', batch.id)).statusCode).toBe(200);
  });

  it('refuses bad files with a clear message and keeps nothing', async () => {
    const cases: [string, Buffer | string, string][] = [
      ['empty.csv', '', 'The file is empty.'],
      ['notes.pdf', '%PDF-1.4', 'Upload a .csv or .xlsx file.'],
      ['fake.xlsx', 'Name\nx', 'The file is not an XLSX workbook: save it again as .xlsx or .csv.'],
      [
        'binary.csv',
        Buffer.from([0xff, 0xfe, 0x00, 0x01, 0x80]),
        'The file is not UTF-8 text: save it as "CSV UTF-8" or as .xlsx.',
      ],
      ['header-only.csv', 'Name,Hex\n', 'The file has a header row but no data rows.'],
    ];
    for (const [name, content, message] of cases) {
      const response = await admin.uploadImport('colors', name, content);
      expect(response.statusCode, name).toBe(422);
      expect(bodyOf(response).message, name).toEqual({ file: [message] });
    }
    const wrong = bodyOf<{ id: number }>(
      await admin.uploadImport('colors', 'wrong.csv', 'Foo,Bar\n1,2'),
    ).data;
    const check = await admin.checkImport('colors', wrong.id);
    expect(check.statusCode).toBe(422);
    expect(String((bodyOf(check).message as { file: string[] }).file[0])).toContain(
      'Download the template',
    );
    const randomJunk = randomBytes(49 * 1024 * 1024);
    expect(bodyOf(await admin.uploadImport('colors', 'junk.csv', randomJunk)).message).toEqual({
      file: ['The file is not UTF-8 text: save it as "CSV UTF-8" or as .xlsx.'],
    });
    expect(bodyOf(await admin.uploadImport('colors', 'junk.xlsx', randomJunk)).message).toEqual({
      file: ['The file is not an XLSX workbook: save it again as .xlsx or .csv.'],
    });
    const junk = Buffer.alloc(50 * 1024 * 1024 + 10, 'x');
    expect((await admin.uploadImport('colors', 'junk.csv', junk)).statusCode).toBe(413);
    const json = await admin.post('/colors/imports?fileName=a.csv', { not: 'a file' });
    expect(json.statusCode).toBe(422);
    const [{ n }] = (await t.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM import_batches WHERE file_name <> 'wrong.csv' AND status = 'uploaded'",
    )) as [{ n: number }];
    expect(n).toBe(0);
  });

  it('offers a template with the import columns', async () => {
    const file = await admin.download('/colors/import-template', { format: 'csv' });
    expect(file.body.replace(/^\uFEFF/, '').split('\r\n')[0]).toBe('Name,Hex,Aliases,Active');
  });
});

describe('access', () => {
  it('lets a viewer list and export but not write or import', async () => {
    await createRole(t.db, 'Colour viewer', ['color.view-list']);
    await createUser(t.db, {
      userName: 'viewer',
      password: 'viewer-password',
      roles: ['Colour viewer'],
    });
    const viewer = apiClient(t, await login(t.app, 'viewer', 'viewer-password'));
    expect((await viewer.get('/colors')).statusCode).toBe(200);
    expect((await viewer.download('/colors/exports', { format: 'csv' })).statusCode).toBe(200);
    expect((await viewer.post('/colors', { name: 'Nope' })).statusCode).toBe(403);
    expect((await viewer.uploadImport('colors', 'a.csv', 'Name\nx')).statusCode).toBe(403);
  });
});
