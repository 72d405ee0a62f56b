import type { LabelFormat, LabelSize } from '@inventory/contract';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { code128Modules, drawCode128, QUIET_MODULES } from './barcode.js';
import { PageCanvas } from './pdf-canvas.js';
import { fitted } from './pdf-text.js';

/**
 * One label: a Code128 barcode of `barcode`, a bold title and a few lines of text; with
 * `secondBarcode`, a second Code128 barcode under the text (a bin label: the item and its bin).
 */
export type Label = {
  readonly barcode: string;
  readonly title: string;
  readonly lines: readonly string[];
  readonly secondBarcode?: string;
};

/** A label file made elsewhere (a carrier's shipping label), printed as it is. */
export type LabelFile = { readonly format: LabelFormat; readonly content: Uint8Array };

/** What a label printable prints: a label we draw, or a file made elsewhere. */
export type PrintedLabel = Label | LabelFile;

/** A label file's content for a print in `format`. */
const contentOf = (file: LabelFile, format: LabelFormat) => {
  // The print's `ask` refuses a file of the other format before its link is issued.
  if (file.format !== format)
    throw new Error(`A ${file.format} label file cannot print as ${format}.`);
  return file.content;
};

/**
 * The layout of each stock, in points (1/72 inch) for PDF and in dots at 203 dpi (8 dots a
 * millimetre, the Zebra desktop printers') for ZPL. `lines` is how many text lines fit; on a label
 * with two barcodes, `pair` says how high each is and how many lines fit between them.
 */
const STOCK = {
  '4x6': {
    points: { width: 288, height: 432, margin: 18, title: 22, text: 12, barcode: 90, module: 3 },
    dots: { width: 812, height: 1218, margin: 40, title: 64, text: 36, barcode: 200, module: 4 },
    lines: 12,
    pair: { points: 80, dots: 180, lines: 8 },
  },
  '2x1': {
    points: { width: 144, height: 72, margin: 5, title: 7, text: 5.5, barcode: 30, module: 1.5 },
    dots: { width: 406, height: 203, margin: 12, title: 24, text: 20, barcode: 70, module: 2 },
    lines: 2,
    pair: { points: 20, dots: 40, lines: 1 },
  },
} as const;

/** How high each barcode of a label is and the text lines that fit. */
const layoutOf = (size: LabelSize, label: Label) => {
  const stock = STOCK[size];
  const { points, dots, lines } =
    label.secondBarcode === undefined
      ? { points: stock.points.barcode, dots: stock.dots.barcode, lines: stock.lines }
      : stock.pair;
  return { points, dots, lines: label.lines.slice(0, lines) };
};

/** A PDF with one page per label copy, each barcode drawn as bars to the label's width. */
export async function labelsPdf(
  size: LabelSize,
  labels: readonly PrintedLabel[],
  copies: number,
): Promise<Uint8Array> {
  const { points: stock } = STOCK[size];
  const pdf = await PDFDocument.create();
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const usable = stock.width - 2 * stock.margin;
  for (const label of labels) {
    if ('content' in label) {
      const source = await PDFDocument.load(contentOf(label, 'pdf'));
      for (let copy = 0; copy < copies; copy += 1) {
        for (const page of await pdf.copyPages(source, source.getPageIndices())) pdf.addPage(page);
      }
      continue;
    }
    const layout = layoutOf(size, label);
    for (let copy = 0; copy < copies; copy += 1) {
      const page = new PageCanvas(pdf, [stock.width, stock.height]);
      let y = stock.height - stock.margin - stock.title;
      const barcode = (text: string) => {
        y -= stock.margin / 2 + layout.points;
        const box = { x: stock.margin, y, width: usable, height: layout.points };
        drawCode128(page, text, box, regular, stock.text, stock.module);
      };
      page.text(fitted(label.title, bold, stock.title, usable), stock.margin, y, stock.title, bold);
      barcode(label.barcode);
      for (const line of layout.lines) {
        y -= stock.text * 1.4;
        page.text(fitted(line, regular, stock.text, usable), stock.margin, y, stock.text, regular);
      }
      if (label.secondBarcode !== undefined) barcode(label.secondBarcode);
      page.finish();
    }
  }
  return pdf.save();
}

/**
 * Text in a ZPL field: with ^FH, `_` starts a hex escape, so the characters that would end the
 * field or start a command (^ and ~) and `_` itself are written as hex; line breaks and other
 * control characters become spaces.
 */
export const zplText = (text: string) =>
  text
    // eslint-disable-next-line no-control-regex
    .replace(/[\x00-\x1F\x7F]/g, ' ')
    .replace(/[_^~]/g, (char) => `_${char.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * Cuts text to the width of the label in font 0, whose characters average about half their
 * height in width; the printer would otherwise run it off the label.
 */
const zplFitted = (text: string, height: number, width: number) => {
  const fits = Math.floor(width / (height * 0.55));
  return text.length <= fits ? text : `${text.slice(0, fits - 3)}...`;
};

/** One label in ZPL: ^XA...^XZ with a Code128 barcode (^BC), text in font 0, UTF-8 (^CI28). */
export function labelZpl(size: LabelSize, label: Label, copies: number): string {
  const { dots: stock } = STOCK[size];
  const layout = layoutOf(size, label);
  const usable = stock.width - 2 * stock.margin;
  const text = (y: number, height: number, value: string) =>
    `^FO${stock.margin},${y}^A0N,${height},${height}^FH^FD${zplText(zplFitted(value, height, usable))}^FS`;
  let y = stock.margin + stock.title + stock.margin / 2;
  const barcode = (value: string) => {
    const modules = code128Modules(value) + 2 * QUIET_MODULES;
    const module = Math.max(1, Math.min(stock.module, Math.floor(usable / modules)));
    const x = stock.margin + Math.max(0, Math.floor((usable - modules * module) / 2));
    // Mode A: the printer picks the Code128 subsets, so any text is encoded as it is.
    const field = `^FO${x + QUIET_MODULES * module},${y}^BY${module}^BCN,${layout.dots},Y,N,N,A^FH^FD${zplText(value)}^FS`;
    // The barcode's human-readable line, which the printer adds under the bars, is about as
    // high as a module is wide times nine.
    y += layout.dots + module * 9 + stock.margin / 2;
    return field;
  };
  const parts = [
    `^XA^CI28^PW${stock.width}^LL${stock.height}^LH0,0`,
    text(stock.margin, stock.title, label.title),
    barcode(label.barcode),
  ];
  for (const line of layout.lines) {
    parts.push(text(y, stock.text, line));
    y += Math.round(stock.text * 1.3);
  }
  if (label.secondBarcode !== undefined) parts.push(barcode(label.secondBarcode));
  parts.push(`^PQ${copies}^XZ\n`);
  return parts.join('\n');
}

/** Labels in ZPL, one format after the other, made as they are read. */
export function* labelsZpl(size: LabelSize, labels: readonly PrintedLabel[], copies: number) {
  for (const label of labels) {
    if (!('content' in label)) {
      yield labelZpl(size, label, copies);
      continue;
    }
    const text = Buffer.from(contentOf(label, 'zpl')).toString('utf8');
    for (let copy = 0; copy < copies; copy += 1) yield text.endsWith('\n') ? text : `${text}\n`;
  }
}
