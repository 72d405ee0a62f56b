import { describe, expect, it } from 'vitest';
import { pdfPages } from '../../test/pdf-text.js';
import { code128Modules, QUIET_MODULES } from './barcode.js';
import { labelsPdf, labelsZpl, labelZpl, zplText, type Label } from './label.js';
import { billOfLading, packingSlip, pickList } from './layouts.js';
import { MAX_SHEET_ROWS, sheetPdf, type Sheet } from './sheet.js';

const BOX: Label = {
  barcode: 'WB-000042',
  title: 'WB-000042',
  lines: ['Invoice INV-7', 'Acme Recyclers', 'Vendor label: CARTON ^7~12_x'],
};
const DEVICE: Label = { barcode: '356938035643809', title: 'Samsung Galaxy A15', lines: ['Black'] };

const ADDRESS = { name: 'Acme Wireless', lines: ['1 Dock Road', 'Dallas TX 75201'] };

describe('labels as PDF', () => {
  it('prints each label as many times as asked, on its stock', async () => {
    const pages = await pdfPages(await labelsPdf('4x6', [BOX, { ...BOX, title: 'WB-2' }], 2));
    expect(pages.map((page) => page.size)).toEqual(Array(4).fill([288, 432]));
    expect(pages.map((page) => page.text[0])).toEqual(['WB-000042', 'WB-000042', 'WB-2', 'WB-2']);
    // The title, the barcode's own line, then the text lines.
    expect(pages[0]!.text).toEqual(['WB-000042', 'WB-000042', ...BOX.lines]);
  });

  it('cuts text wider than a 2x1 label, and anything beyond WinAnsi prints as ?', async () => {
    const [page] = await pdfPages(
      await labelsPdf(
        '2x1',
        [{ ...DEVICE, title: 'Samsung Galaxy A15 Ultra Enterprise Edition 5G', lines: ['Ünï 中'] }],
        1,
      ),
    );
    expect(page!.size).toEqual([144, 72]);
    expect(page!.text[0]).toMatch(/^Samsung Galaxy .+\.\.\.$/);
    expect(page!.text).toContain('Ünï ?');
  });
});

describe('labels as ZPL', () => {
  it('is one ^XA...^XZ format per label, with its copies as ^PQ', () => {
    const zpl = [...labelsZpl('4x6', [BOX, DEVICE], 3)];
    expect(zpl).toHaveLength(2);
    for (const format of zpl) {
      expect(format.startsWith('^XA^CI28^PW812^LL1218')).toBe(true);
      expect(format.trimEnd().endsWith('^PQ3^XZ')).toBe(true);
    }
    expect(zpl[1]).toContain('^BCN,200,Y,N,N,A^FH^FD356938035643809^FS');
  });

  it('escapes ^, ~ and the hex sign _ in fields, and breaks no line', () => {
    expect(zplText('A^B~C_D\r\nE')).toBe('A_5EB_7EC_5FD  E');
    const format = labelZpl('4x6', BOX, 1);
    expect(format).toContain('^FDVendor label: CARTON _5E7_7E12_5Fx^FS');
    // Only the commands' own carets: every field's data is free of them.
    for (const field of format.matchAll(/\^FD(.*?)\^FS/g)) expect(field[1]).not.toMatch(/[\^~]/);
  });

  it('sizes the barcode in dots at 203 dpi so that it fits the label with its quiet zones', () => {
    for (const [size, width, margin] of [
      ['2x1', 406, 12],
      ['4x6', 812, 40],
    ] as const) {
      for (const code of [DEVICE.barcode, 'WB-000042', 'A-LONGER-LOCATION-CODE-0001']) {
        const format = labelZpl(size, { ...DEVICE, barcode: code }, 1);
        const [, x, module] = /\^FO(\d+),\d+\^BY(\d+)\^BC/.exec(format)!.map(Number);
        const bars = code128Modules(code) * module!;
        expect(x! - QUIET_MODULES * module!).toBeGreaterThanOrEqual(margin);
        expect(x! + bars + QUIET_MODULES * module!).toBeLessThanOrEqual(width - margin);
      }
    }
  });
});

describe('a label with two barcodes', () => {
  const BIN: Label = {
    barcode: 'CHG-USBC-20W',
    title: 'CHG-USBC-20W',
    lines: ['USB-C charger 20 W', 'a line that no longer fits'],
    secondBarcode: 'A-01-01-A',
  };

  it('prints the second under the text, one line between them on 2x1', async () => {
    const [page] = await pdfPages(await labelsPdf('2x1', [BIN], 1));
    expect(page!.text).toEqual(['CHG-USBC-20W', 'CHG-USBC-20W', 'USB-C charger 20 W', 'A-01-01-A']);
  });

  it('keeps both barcodes and their lines inside the label in ZPL', () => {
    for (const [size, height, margin] of [
      ['2x1', 203, 12],
      ['4x6', 1218, 40],
    ] as const) {
      const format = labelZpl(size, BIN, 1);
      const bars = [
        ...format.matchAll(/\^FO\d+,(\d+)\^BY(\d+)\^BCN,(\d+),Y[^^]*\^FH\^FD([^^]+)\^FS/g),
      ];
      expect(bars.map((bar) => bar[4])).toEqual(['CHG-USBC-20W', 'A-01-01-A']);
      const [y, module, barHeight] = bars[1]!.slice(1, 4).map(Number);
      // The bars and the human-readable line under them (about nine modules high).
      expect(y! + barHeight! + 9 * module!).toBeLessThanOrEqual(height - margin / 2);
      const text = /\^FO\d+,(\d+)\^A0N,\d+,\d+\^FH\^FDUSB-C charger 20 W\^FS/.exec(format)!;
      expect(Number(text[1])).toBeLessThan(y!);
    }
  });
});

const DEVICE_COLUMNS = [
  { header: '#', width: 1, align: 'right' as const },
  { header: 'IMEI', width: 3 },
  { header: 'Model', width: 4 },
];
const lines = (count: number) =>
  Array.from({ length: count }, (_, index) => [String(index + 1), `IMEI-${index + 1}`, 'A15']);

describe('a sheet', () => {
  const sheet: Sheet = {
    title: 'Warehouse box content',
    number: 'WB-000042',
    fields: [{ label: 'Invoice', value: 'INV-7' }],
    columns: DEVICE_COLUMNS,
    rows: lines(120),
    totals: [{ label: 'Devices', value: '120' }],
    signatures: ['Counted by', 'Checked by'],
    footer: 'WB-000042 - invoice INV-7',
  };

  it('flows its table onto further pages with the headings, number and page count on each', async () => {
    const pages = await pdfPages(await sheetPdf(sheet, 'letter', 1));
    expect(pages.length).toBeGreaterThan(2);
    pages.forEach((page, index) => {
      expect(page.size).toEqual([612, 792]);
      expect(page.text).toContain('Warehouse box content');
      expect(page.text).toContain('WB-000042');
      expect(page.text).toContain('IMEI');
      expect(page.text).toContain(`Page ${index + 1} of ${pages.length}`);
      expect(page.text).toContain('WB-000042 - invoice INV-7');
    });
    const all = pages.flatMap((page) => page.text);
    expect(all.filter((text) => text.startsWith('IMEI-'))).toEqual(lines(120).map((l) => l[1]));
    // The header block on the first page only; totals and signatures after the last line.
    expect(pages[0]!.text).toContain('INV-7');
    expect(pages[1]!.text).not.toContain('INV-7');
    expect(all.slice(all.indexOf('IMEI-120'))).toEqual(
      expect.arrayContaining(['Devices: 120', 'Counted by', 'Checked by']),
    );
  });

  it('prints each copy from page 1, on A4 when asked', async () => {
    const one = await pdfPages(await sheetPdf(sheet, 'a4', 1));
    const two = await pdfPages(await sheetPdf(sheet, 'a4', 2));
    expect(two).toHaveLength(2 * one.length);
    expect(two[0]!.size.map(Math.round)).toEqual([595, 842]);
    expect(two[one.length]!.text).toContain(`Page 1 of ${one.length}`);
  });

  it(`prints at most ${MAX_SHEET_ROWS} lines, and says the list has more`, async () => {
    const pages = await pdfPages(
      await sheetPdf({ ...sheet, rows: lines(MAX_SHEET_ROWS + 1) }, 'letter', 1),
    );
    const all = pages.flatMap((page) => page.text);
    expect(all).toContain(`IMEI-${MAX_SHEET_ROWS}`);
    expect(all).not.toContain(`IMEI-${MAX_SHEET_ROWS + 1}`);
    expect(all).toContain(`Only the first ${MAX_SHEET_ROWS} lines are printed: the list has more.`);
  }, 30_000);
});

describe('the fulfilment layouts', () => {
  it('a packing slip lists each unit serial under its item and counts the units', async () => {
    const slip = packingSlip({
      orderNumber: 'SO-1001',
      orderDate: '2026-11-25',
      shipFrom: ADDRESS,
      shipTo: { name: 'Jane Doe', lines: ['5 Elm St', 'Austin TX 73301'] },
      trackingNumber: '1Z999',
      lines: [
        {
          sku: 'A15-128-BK',
          description: 'Galaxy A15',
          quantity: 2,
          serials: ['IMEI-1', 'IMEI-2'],
        },
        { sku: 'CHG-USB-C', description: 'Charger', quantity: 1, serials: [] },
      ],
    });
    expect(slip.rows).toEqual([
      ['A15-128-BK', 'Galaxy A15', 'IMEI-1', '2'],
      ['', '', 'IMEI-2', ''],
      ['CHG-USB-C', 'Charger', '', '1'],
    ]);
    const [page] = await pdfPages(await sheetPdf(slip, 'letter', 1));
    expect(page!.text).toEqual(
      expect.arrayContaining([
        'Packing slip',
        'SO-1001',
        'Ship to',
        'Jane Doe',
        'Acme Wireless',
        '1Z999',
        'Units: 3',
        'Packed by',
      ]),
    );
  });

  it('a pick list walks the locations in order, numbers within codes as numbers', async () => {
    const line = { sku: 'A15', description: 'Galaxy A15', order: 'SO-1', quantity: 1 };
    const list = pickList({
      number: 'PL-77',
      createdAt: '2026-11-25 08:00',
      lines: [
        { ...line, location: 'A-10', box: 'IB-2' },
        { ...line, location: 'A-2', box: 'IB-9', order: 'SO-2' },
        { ...line, location: 'A-2', box: 'IB-10' },
      ],
    });
    expect(list.rows.map((row) => `${row[1]} ${row[2]}`)).toEqual([
      'A-2 IB-9',
      'A-2 IB-10',
      'A-10 IB-2',
    ]);
    const [page] = await pdfPages(await sheetPdf(list, 'letter', 1));
    expect(page!.text).toEqual(
      expect.arrayContaining(['Pick list', 'PL-77', 'Location', 'Units: 3', 'Picked by']),
    );
  });

  it('a bill of lading totals handling units and weight, with the three signatures', async () => {
    const bill = billOfLading({
      number: 'BOL-5',
      shipDate: '2026-11-25',
      shipper: ADDRESS,
      consignee: { name: 'Wholesale Buyer LLC', lines: ['9 Port Ave', 'Miami FL 33101'] },
      carrier: 'Old Dominion',
      scac: 'ODFL',
      freightTerms: 'prepaid',
      handlingUnits: [
        {
          quantity: 2,
          type: 'Pallet',
          description: 'Used phones',
          weightLb: 1250,
          freightClass: '85',
        },
        { quantity: 1, type: 'Gaylord', description: 'Accessories', weightLb: 300 },
      ],
    });
    const pages = await pdfPages(await sheetPdf(bill, 'letter', 1));
    expect(pages).toHaveLength(1);
    expect(pages[0]!.text).toEqual(
      expect.arrayContaining([
        'Bill of lading',
        'BOL-5',
        'Ship to (consignee)',
        'Wholesale Buyer LLC',
        'ODFL',
        'Handling units: 3',
        'Total weight (lb): 1,550',
        'Shipper',
        'Carrier (driver)',
        'Consignee',
      ]),
    );
  });
});
