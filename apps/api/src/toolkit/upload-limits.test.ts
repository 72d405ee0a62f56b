import { constants, deflateRawSync, inflateRawSync } from 'node:zlib';
import { IMPORT_MAX_ROWS } from '@inventory/contract';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminTestApp, type ApiClient } from '../test/api-client.js';
import { bodyOf, type TestApp } from '../test/test-app.js';
import { READ_LIMITS, readUpload, uploadReader, type ReadLimits } from './files.js';
import { CELL_MAX_CHARS, WORKBOOK_UNPACKED_MAX_BYTES, megabytes } from './upload-limits.js';

/** Uploads are read under limits and off the event loop: a compressed-file bomb freezes nobody. */

let t: TestApp;
let admin: ApiClient;

beforeAll(async () => {
  ({ t, admin } = await createAdminTestApp());
});
afterAll(() => t.close());

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

type ZipFile = {
  name: string;
  /** Raw deflate data, or text to deflate. */
  packed: Buffer | string;
  /** The size the directory declares: a bomb's true size, or a lie. */
  size?: number;
};

/** A ZIP assembled by hand, so that a test may declare whatever sizes it likes. */
function zipOf(files: ZipFile[]): Buffer {
  const locals: Buffer[] = [];
  const directory: Buffer[] = [];
  let offset = 0;
  for (const file of files) {
    const name = Buffer.from(file.name);
    const packed = typeof file.packed === 'string' ? deflateRawSync(file.packed) : file.packed;
    const size = file.size ?? Buffer.byteLength(file.packed);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    entry.writeUInt16LE(8, 10);
    entry.writeUInt32LE(packed.length, 20);
    entry.writeUInt32LE(size, 24);
    entry.writeUInt16LE(name.length, 28);
    entry.writeUInt32LE(offset, 42);
    locals.push(local, name, packed);
    directory.push(entry, name);
    offset += local.length + name.length + packed.length;
  }
  const directorySize = directory.reduce((sum, part) => sum + part.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(directorySize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, ...directory, end]);
}

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const RELATIONSHIPS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

const PACKAGE_RELATIONSHIPS = 'http://schemas.openxmlformats.org/package/2006/relationships';

/**
 * An XLSX package around sheet parts: the nth part is sheet<n>.xml, and the workbook lists them
 * in `tabs` order (the parts' numbers), by default as given; `parts` adds others (shared strings).
 */
const workbookOf = (
  sheets: Omit<ZipFile, 'name'>[],
  tabs = sheets.map((_, i) => i + 1),
  parts: ZipFile[] = [],
) =>
  zipOf([
    {
      name: '[Content_Types].xml',
      packed: `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/></Types>`,
    },
    {
      name: '_rels/.rels',
      packed: `<Relationships xmlns="${PACKAGE_RELATIONSHIPS}"><Relationship Id="rId1" Type="${RELATIONSHIPS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    },
    {
      name: 'xl/workbook.xml',
      packed: `<workbook xmlns="${MAIN}" xmlns:r="${RELATIONSHIPS}"><sheets>${tabs.map((n) => `<sheet name="Tab ${n}" sheetId="${n}" r:id="rId${n}"/>`).join('')}</sheets></workbook>`,
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      packed: `<Relationships xmlns="${PACKAGE_RELATIONSHIPS}">${sheets.map((_, i) => `<Relationship Id="rId${i + 1}" Type="${RELATIONSHIPS}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`).join('')}</Relationships>`,
    },
    ...sheets.map((sheet, i) => ({ name: `xl/worksheets/sheet${i + 1}.xml`, ...sheet })),
    ...parts,
  ]);

const cellOf = (column: string, row: number, text: string) =>
  `<c r="${column}${row}" t="inlineStr"><is><t>${text}</t></is></c>`;

/** A sheet part of a header row and the given colour names, one a row. */
const sheetOf = (names: Iterable<string>) => {
  const rows = [`<row r="1">${cellOf('A', 1, 'Name')}</row>`];
  let row = 1;
  for (const name of names) {
    row += 1;
    rows.push(`<row r="${row}">${cellOf('A', row, name)}</row>`);
  }
  return `<worksheet xmlns="${MAIN}"><sheetData>${rows.join('')}</sheetData></worksheet>`;
};

/**
 * A sheet part of 300 MB of rows deflated to under 1 MB, made in milliseconds: a part deflated
 * with a full flush ends on a byte boundary and refers to nothing before it, so parts can be laid
 * end to end, the rows' part many times over, and the last part closes the stream.
 */
function bombSheet(): { packed: Buffer; size: number } {
  const open = Buffer.from(`<worksheet xmlns="${MAIN}"><sheetData>`);
  const rows = Buffer.from(
    '<row><c t="inlineStr"><is><t>Bomb colour</t></is></c></row>'.repeat(10_000),
  );
  const close = Buffer.from('</sheetData></worksheet>');
  const flushed = (part: Buffer) => deflateRawSync(part, { finishFlush: constants.Z_FULL_FLUSH });
  const copies = Math.ceil(300_000_000 / rows.length);
  return {
    packed: Buffer.concat([
      flushed(open),
      ...Array<Buffer>(copies).fill(flushed(rows)),
      deflateRawSync(close),
    ]),
    size: open.length + copies * rows.length + close.length,
  };
}

/**
 * How late each health answer came while `work` ran. The test shares the server's thread, so a
 * request cannot even be sent while the event loop is blocked: each one is timed from when it was
 * due, 50 ms after the one before, as a client's request would wait from when it arrived.
 */
async function healthDelaysDuring<T>(work: Promise<T>): Promise<{ result: T; delays: number[] }> {
  const delays: number[] = [];
  let done = false;
  const result = work.finally(() => {
    done = true;
  });
  while (!done) {
    const due = performance.now() + 50;
    await new Promise((resolve) => setTimeout(resolve, 50));
    const health = await t.app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(health.statusCode).toBe(200);
    delays.push(performance.now() - due);
  }
  return { result: await result, delays };
}

const fileMessage = (response: { json: () => unknown }) =>
  (response.json() as { message: { file?: string[] } }).message.file?.[0];

describe('a compressed-file bomb', () => {
  it('is refused by its declared size, and health answers within a second meanwhile', async () => {
    // 300 MB of rows packed into under 1 MB, as the probe's 729 KB workbook unpacking to 250 MB.
    const sheet = bombSheet();
    const bomb = workbookOf([sheet]);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    expect(sheet.size).toBeGreaterThan(WORKBOOK_UNPACKED_MAX_BYTES);
    const { result, delays } = await healthDelaysDuring(
      admin.uploadImport('colors', 'bomb.xlsx', bomb, XLSX),
    );
    expect(result.statusCode).toBe(422);
    expect(fileMessage(result)).toMatch(
      new RegExp(
        `^The workbook is too large to read: it unpacks to \\d+ MB and an import may unpack to at most ${megabytes(WORKBOOK_UNPACKED_MAX_BYTES)}\\.`,
      ),
    );
    expect(Math.max(...delays)).toBeLessThan(1000);
  });

  it('that lies about its sizes is refused before its bomb is inflated', async () => {
    const { packed } = bombSheet();
    const liar = workbookOf([{ packed, size: 1024 * 1024 }]);
    let started = performance.now();
    const response = await admin.uploadImport('colors', 'liar.xlsx', liar, XLSX);
    const refusedIn = performance.now() - started;
    expect(response.statusCode).toBe(422);
    expect(fileMessage(response)).toBe(
      'The workbook is damaged: a file inside it unpacks to more than it declares. Save it again as .xlsx or .csv.',
    );
    // Measured against inflating the whole bomb on the same machine, at the same load: a reader
    // that inflated it all would take at least that long.
    started = performance.now();
    expect(inflateRawSync(packed).length).toBeGreaterThan(250_000_000);
    expect(refusedIn).toBeLessThan(performance.now() - started);
  });

  it('of too many files inside is refused before anything is read', async () => {
    const files = Array.from({ length: 10_001 }, (_, i) => ({ name: `x/${i}.xml`, packed: '' }));
    const response = await admin.uploadImport('colors', 'many.xlsx', zipOf(files), XLSX);
    expect(response.statusCode).toBe(422);
    expect(fileMessage(response)).toBe(
      'The workbook is too large to read: it holds 10001 files inside and a workbook may hold at most 10000.',
    );
  });
});

describe('an upload past a limit', () => {
  const tooMany = `The file has more than ${IMPORT_MAX_ROWS} rows; one import takes at most ${IMPORT_MAX_ROWS}. Split it.`;

  it('of too many rows is refused at the first row past the limit, read off the event loop', async () => {
    // A million rows: refused once row 200,002 is read, long before the last.
    const names = (function* () {
      for (let i = 0; i < 1_000_000; i += 1) yield `Colour ${i}`;
    })();
    const workbook = workbookOf([{ packed: sheetOf(names) }]);
    const { result, delays } = await healthDelaysDuring(
      admin.uploadImport('colors', 'rows.xlsx', workbook, XLSX),
    );
    expect(result.statusCode).toBe(422);
    expect(fileMessage(result)).toBe(tooMany);
    // The read takes seconds; the event loop answered all along.
    expect(delays.length).toBeGreaterThan(3);
    expect(Math.max(...delays)).toBeLessThan(1000);
  });

  it('of too many CSV rows is refused', async () => {
    const csv = `Name\n${'x\n'.repeat(IMPORT_MAX_ROWS + 1)}`;
    const response = await admin.uploadImport('colors', 'rows.csv', csv);
    expect(fileMessage(response)).toBe(tooMany);
    const fits = await readUpload(
      'fits.csv',
      Buffer.from(`Name\n${'x\n'.repeat(IMPORT_MAX_ROWS)}`),
    );
    expect(fits.rows).toHaveLength(IMPORT_MAX_ROWS);
  });

  it('with an over-long cell is refused with its row number', async () => {
    const long = 'x'.repeat(CELL_MAX_CHARS + 1);
    const message = `Row 3 has a cell of ${CELL_MAX_CHARS + 1} characters; a cell may hold at most ${CELL_MAX_CHARS}.`;
    const workbook = workbookOf([{ packed: sheetOf(['Short', long]) }]);
    const xlsx = await admin.uploadImport('colors', 'long.xlsx', workbook, XLSX);
    expect(xlsx.statusCode).toBe(422);
    expect(fileMessage(xlsx)).toBe(message);
    const csv = await admin.uploadImport('colors', 'long.csv', `Name\nShort\n${long}\n`);
    expect(fileMessage(csv)).toBe(message);
  });
});

describe('a workbook whose cells all name one long shared string', () => {
  it('is refused once its cells hold more text than a workbook may unpack to', async () => {
    const long = 'x'.repeat(100_000);
    const rows = Array.from(
      { length: 2_100 },
      (_, i) => `<row r="${i + 2}"><c r="A${i + 2}" t="s"><v>0</v></c></row>`,
    );
    const sheet = `<worksheet xmlns="${MAIN}"><sheetData><row r="1">${cellOf('A', 1, 'Name')}</row>${rows.join('')}</sheetData></worksheet>`;
    const shared = `<sst xmlns="${MAIN}" count="1" uniqueCount="1"><si><t>${long}</t></si></sst>`;
    const workbook = workbookOf([{ packed: sheet }], undefined, [
      { name: 'xl/sharedStrings.xml', packed: shared },
    ]);
    const response = await admin.uploadImport('colors', 'shared.xlsx', workbook, XLSX);
    expect(response.statusCode).toBe(422);
    expect(fileMessage(response)).toMatch(
      /^The file's cells hold more than 192 MB of text by row \d+: split it\.$/,
    );
  });
});

describe('a reading worker', () => {
  /** A reader of uploads with the reading worker's memory or time cut down. */
  const readUploadWith = (limits: Partial<ReadLimits>) =>
    uploadReader({ ...READ_LIMITS, ...limits });
  const workbook = workbookOf([{ packed: sheetOf(['Teal']) }]);

  it('past the readers at work and the files waiting for one, answers 503: try again', async () => {
    const read = readUploadWith({ atOnce: 1, waitingMax: 1 });
    const [reading, waiting, refusedNow] = await Promise.allSettled([
      read('one.xlsx', workbook),
      read('two.xlsx', workbook),
      read('three.xlsx', workbook),
    ]);
    expect(reading.status).toBe('fulfilled');
    expect(waiting.status).toBe('fulfilled');
    expect(refusedNow).toMatchObject({
      status: 'rejected',
      reason: { statusCode: 503, headers: { 'retry-after': '60' } },
    });
  });

  it('that runs out of memory is a 422, and the server reads on', async () => {
    const read = readUploadWith({ heapMb: 8 });
    await expect(read('small.xlsx', workbook)).rejects.toMatchObject({
      statusCode: 422,
      fields: {
        file: [
          'The workbook is too large to read: reading it needs more than 8 MB of memory. Split it into smaller files.',
        ],
      },
    });
    expect((await readUpload('small.xlsx', workbook)).rows).toEqual([['Teal']]);
  });

  it('that passes its deadline is a 422', async () => {
    const read = readUploadWith({ deadlineMs: 1 });
    await expect(read('small.csv', Buffer.from('Name\nTeal\n'))).rejects.toMatchObject({
      statusCode: 422,
      fields: {
        file: [
          expect.stringMatching(/^The file is too large to read: it was still being read after/),
        ],
      },
    });
  });
});

describe('a normal upload', () => {
  it('reads a workbook as before: text, numbers, dates, formulas, rich text, links', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Colours');
    sheet.addRow(['Name', 'Hex', 'Since', 'Count', 'Active', 'Sum']);
    sheet.addRow(['  Teal  ', '#008080', new Date(Date.UTC(2024, 4, 17)), 12.5, true, null]);
    sheet.addRow([
      { richText: [{ text: 'Deep ' }, { text: 'Red', font: { bold: true } }] },
      { text: 'link', hyperlink: 'https://example.com' },
      null,
      352836110000008,
      false,
      { formula: 'D3*2', result: 705672220000016 },
    ]);
    sheet.addRow([]);
    sheet.addRow(['Last']);
    const file = await readUpload('c.xlsx', Buffer.from(await workbook.xlsx.writeBuffer()));
    expect(file).toEqual({
      format: 'xlsx',
      headers: ['Name', 'Hex', 'Since', 'Count', 'Active', 'Sum'],
      rows: [
        ['Teal', '#008080', '2024-05-17', '12.5', 'true'],
        ['Deep Red', 'link', '', '352836110000008', 'false', '705672220000016'],
        ['Last'],
      ],
    });
  });

  it('reads the first tab, whatever its part is named', async () => {
    const notes = { packed: sheetOf(['Read me first']) };
    const colours = { packed: sheetOf(['Teal']) };
    const file = await readUpload('tabs.xlsx', workbookOf([notes, colours], [2, 1]));
    expect(file.rows).toEqual([['Teal']]);
  });

  it('imports a small workbook and CSV file', async () => {
    const workbook = workbookOf([{ packed: sheetOf(['Limit Teal']) }]);
    const uploaded = await admin.uploadImport('colors', 'ok.xlsx', workbook, XLSX);
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const { id } = bodyOf<{ id: number }>(uploaded).data;
    expect(bodyOf(await admin.checkImport('colors', id)).data).toMatchObject({ willCreate: 1 });
    expect((await admin.commitImport('colors', id)).statusCode).toBe(200);
    const { check } = await admin.uploadAndCheck('colors', 'ok.csv', 'Name\nLimit Coral\n');
    expect(check).toMatchObject({ willCreate: 1, errors: [] });
  });
});
