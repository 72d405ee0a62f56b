import { setImmediate } from 'node:timers/promises';
import type { PaperSize } from '@inventory/contract';
import { PDFDocument, StandardFonts, type PDFFont } from 'pdf-lib';
import { drawCode128 } from './barcode.js';
import { PageCanvas } from './pdf-canvas.js';
import { fitted, textWidth, winAnsi } from './pdf-text.js';

/** A column of a sheet's table; `width` is its share of the table's width. */
export type SheetColumn = {
  readonly header: string;
  readonly width: number;
  readonly align?: 'left' | 'right';
};

export type SheetField = { readonly label: string; readonly value: string };

/** An address or a party block: shipper, consignee, ship to. */
export type SheetParty = { readonly title: string; readonly lines: readonly string[] };

/**
 * A document on paper: a header block (title, the document number as a Code128 barcode, parties
 * and fields), a table of lines that flows onto further pages with its headings repeated, totals
 * and notes after the table, and signature lines at the end. Packing slips, pick lists, bills of
 * lading and content lists are its layouts.
 */
export type Sheet = {
  readonly title: string;
  /** The document number, printed as a barcode on every page. */
  readonly number: string;
  readonly parties?: readonly SheetParty[];
  readonly fields?: readonly SheetField[];
  readonly columns: readonly SheetColumn[];
  readonly rows: readonly (readonly string[])[];
  readonly totals?: readonly SheetField[];
  readonly notes?: readonly string[];
  /** Captions of the signature lines: "Packed by", "Driver". */
  readonly signatures?: readonly string[];
  /** A line at the foot of every page, left of the page number. */
  readonly footer?: string;
};

/**
 * The most table lines one sheet prints. pdf-lib holds the whole document in memory until it is
 * written, so this bounds the memory and the time a print takes (decision 0015): about 110 pages.
 */
export const MAX_SHEET_ROWS = 5000;

const PAPER = { letter: [612, 792], a4: [595.28, 841.89] } as const;
const MARGIN = 36;
const TEXT = 9;
const ROW = 13;
const FOOT = 24;
const BARCODE = { width: 190, height: 46, module: 1.2 };
const GREY = 0.85;

type Fonts = { readonly regular: PDFFont; readonly bold: PDFFont };

/** Where each column starts and how wide it is, from the shares. */
function columnBoxes(columns: readonly SheetColumn[], left: number, width: number) {
  const shares = columns.reduce((sum, column) => sum + column.width, 0);
  let x = left;
  return columns.map((column) => {
    const box = { ...column, x, width: (column.width / shares) * width };
    x += box.width;
    return box;
  });
}

/** A sheet's pages, drawn from the top down; a new page repeats the header and the headings. */
class SheetWriter {
  private page!: PageCanvas;
  private y = 0;
  private readonly pages: PageCanvas[] = [];
  private readonly width: number;
  private readonly columns: ReturnType<typeof columnBoxes>;

  constructor(
    private readonly pdf: PDFDocument,
    private readonly fonts: Fonts,
    private readonly size: readonly [number, number],
    private readonly sheet: Sheet,
  ) {
    this.width = size[0] - 2 * MARGIN;
    this.columns = columnBoxes(sheet.columns, MARGIN, this.width);
  }

  /** A new page with the title and the barcoded number at its head. */
  newPage() {
    this.page = new PageCanvas(this.pdf, this.size);
    this.pages.push(this.page);
    const top = this.size[1] - MARGIN;
    drawCode128(
      this.page,
      this.sheet.number,
      { x: MARGIN + this.width - BARCODE.width, y: top - BARCODE.height, ...BARCODE },
      this.fonts.regular,
      TEXT,
      BARCODE.module,
    );
    this.text(this.sheet.title, MARGIN, top - 18, 18, this.fonts.bold, this.width - BARCODE.width);
    this.y = top - BARCODE.height - ROW;
  }

  private text(value: string, x: number, y: number, size: number, font: PDFFont, width: number) {
    this.page.text(fitted(value, font, size, width), x, y, size, font);
  }

  /** Room for `height` more points above the foot, on a new page when this one is full. */
  private room(height: number, headings: boolean) {
    if (this.y - height >= MARGIN + FOOT) return;
    this.newPage();
    if (headings) this.headings();
  }

  parties(parties: readonly SheetParty[]) {
    if (parties.length === 0) return;
    const width = this.width / parties.length;
    const height = ROW * (1 + Math.max(...parties.map((party) => party.lines.length)));
    this.room(height, false);
    parties.forEach((party, index) => {
      const x = MARGIN + index * width;
      this.text(party.title, x, this.y, TEXT, this.fonts.bold, width - 8);
      party.lines.forEach((line, row) =>
        this.text(line, x, this.y - ROW * (row + 1), TEXT, this.fonts.regular, width - 8),
      );
    });
    this.y -= height + ROW / 2;
  }

  /** Label and value pairs, two to a line. */
  fields(fields: readonly SheetField[]) {
    const half = this.width / 2;
    for (let index = 0; index < fields.length; index += 2) {
      this.room(ROW, false);
      fields.slice(index, index + 2).forEach((field, column) => {
        const x = MARGIN + column * half;
        const label = `${winAnsi(field.label)}: `;
        const labelWidth = textWidth(this.fonts.bold, label, TEXT);
        this.page.text(label, x, this.y, TEXT, this.fonts.bold);
        const valueWidth = half - labelWidth - 8;
        this.text(field.value, x + labelWidth, this.y, TEXT, this.fonts.regular, valueWidth);
      });
      this.y -= ROW;
    }
    this.y -= ROW / 2;
  }

  /** Totals under the table, one to a line, at its right edge. */
  totals(totals: readonly SheetField[]) {
    this.y -= ROW / 2;
    for (const total of totals) {
      this.room(ROW, false);
      const line = fitted(`${total.label}: ${total.value}`, this.fonts.bold, TEXT, this.width);
      const width = textWidth(this.fonts.bold, line, TEXT);
      this.page.text(line, MARGIN + this.width - width - 3, this.y, TEXT, this.fonts.bold);
      this.y -= ROW;
    }
  }

  /** The table's headings on a grey band, on a new page when this one has no room for a line. */
  headings() {
    this.room(2 * ROW, false);
    this.page.rectangle(MARGIN, this.y - 4, this.width, ROW + 1, GREY);
    this.cells(
      this.columns.map((column) => column.header),
      this.fonts.bold,
    );
  }

  private cells(values: readonly string[], font: PDFFont) {
    this.columns.forEach((column, index) => {
      const value = fitted(values[index] ?? '', font, TEXT, column.width - 6);
      const x =
        column.align === 'right'
          ? column.x + column.width - 3 - textWidth(font, value, TEXT)
          : column.x + 3;
      this.page.text(value, x, this.y, TEXT, font);
    });
    this.y -= ROW;
  }

  /** One table line; a full page gives way to a new one (after a turn of the event loop). */
  async row(values: readonly string[]) {
    if (this.y - ROW < MARGIN + FOOT) {
      await setImmediate();
      this.room(ROW, true);
    }
    this.cells(values, this.fonts.regular);
  }

  notes(notes: readonly string[]) {
    for (const note of notes) {
      this.room(ROW, false);
      this.text(note, MARGIN, this.y, TEXT, this.fonts.regular, this.width);
      this.y -= ROW;
    }
  }

  /** Signature lines, two to a row, with their captions under them. */
  signatures(captions: readonly string[]) {
    const half = this.width / 2;
    for (let index = 0; index < captions.length; index += 2) {
      this.room(3 * ROW, false);
      this.y -= 2 * ROW;
      captions.slice(index, index + 2).forEach((caption, column) => {
        const x = MARGIN + column * half;
        this.page.line(x, this.y + ROW / 2, x + half - 24, this.y + ROW / 2, 0.6);
        this.text(caption, x, this.y, TEXT - 1, this.fonts.regular, half - 24);
      });
      this.y -= ROW;
    }
  }

  /** The footer line and "Page n of N" on each page of this copy, which is then stored. */
  finish() {
    const size = TEXT - 1;
    this.pages.forEach((page, index) => {
      const number = `Page ${index + 1} of ${this.pages.length}`;
      const numberWidth = textWidth(this.fonts.regular, number, size);
      page.text(number, MARGIN + this.width - numberWidth, MARGIN, size, this.fonts.regular);
      if (this.sheet.footer) {
        const footer = fitted(
          this.sheet.footer,
          this.fonts.regular,
          size,
          this.width - numberWidth - 12,
        );
        page.text(footer, MARGIN, MARGIN, size, this.fonts.regular);
      }
      page.finish();
    });
  }
}

/**
 * A sheet as a PDF, `copies` times over (each copy numbered from page 1). The table prints at
 * most MAX_SHEET_ROWS lines, and says so when there were more.
 */
export async function sheetPdf(
  sheet: Sheet,
  paper: PaperSize,
  copies: number,
): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(`${sheet.title} ${sheet.number}`);
  const fonts = {
    regular: await pdf.embedFont(StandardFonts.Helvetica),
    bold: await pdf.embedFont(StandardFonts.HelveticaBold),
  };
  const cut = sheet.rows.length > MAX_SHEET_ROWS;
  const notes = [
    ...(cut ? [`Only the first ${MAX_SHEET_ROWS} lines are printed: the list has more.`] : []),
    ...(sheet.notes ?? []),
  ];
  for (let copy = 0; copy < copies; copy += 1) {
    const writer = new SheetWriter(pdf, fonts, PAPER[paper], sheet);
    writer.newPage();
    writer.parties(sheet.parties ?? []);
    writer.fields(sheet.fields ?? []);
    writer.headings();
    for (const row of sheet.rows.slice(0, MAX_SHEET_ROWS)) await writer.row(row);
    writer.totals(sheet.totals ?? []);
    writer.notes(notes);
    writer.signatures(sheet.signatures ?? []);
    writer.finish();
  }
  return pdf.save();
}
