import type { LabelSize } from '@inventory/contract';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { code128Modules, drawCode128, QUIET_MODULES } from './barcode.js';
import { PageCanvas } from './pdf-canvas.js';
import { fitted } from './pdf-text.js';

/** One label: a Code128 barcode of `barcode`, a bold title and a few lines of text. */
export type Label = {
  readonly barcode: string;
  readonly title: string;
  readonly lines: readonly string[];
};

/**
 * The layout of each stock, in points (1/72 inch) for PDF and in dots at 203 dpi (8 dots a
 * millimetre, the Zebra desktop printers') for ZPL. `lines` is how many text lines fit.
 */
const STOCK = {
  '4x6': {
    points: { width: 288, height: 432, margin: 18, title: 22, text: 12, barcode: 90, module: 3 },
    dots: { width: 812, height: 1218, margin: 40, title: 64, text: 36, barcode: 200, module: 4 },
    lines: 12,
  },
  '2x1': {
    points: { width: 144, height: 72, margin: 5, title: 7, text: 5.5, barcode: 30, module: 1.5 },
    dots: { width: 406, height: 203, margin: 12, title: 24, text: 20, barcode: 70, module: 2 },
    lines: 2,
  },
} as const;

/** A PDF with one page per label copy, each barcode drawn as bars to the label's width. */
export async function labelsPdf(
  size: LabelSize,
  labels: readonly Label[],
  copies: number,
): Promise<Uint8Array> {
  const { points: stock, lines: maxLines } = STOCK[size];
  const pdf = await PDFDocument.create();
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const usable = stock.width - 2 * stock.margin;
  for (const label of labels) {
    for (let copy = 0; copy < copies; copy += 1) {
      const page = new PageCanvas(pdf, [stock.width, stock.height]);
      let y = stock.height - stock.margin - stock.title;
      page.text(fitted(label.title, bold, stock.title, usable), stock.margin, y, stock.title, bold);
      y -= stock.margin / 2 + stock.barcode;
      drawCode128(
        page,
        label.barcode,
        { x: stock.margin, y, width: usable, height: stock.barcode },
        regular,
        stock.text,
        stock.module,
      );
      for (const line of label.lines.slice(0, maxLines)) {
        y -= stock.text * 1.4;
        page.text(fitted(line, regular, stock.text, usable), stock.margin, y, stock.text, regular);
      }
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
  const { dots: stock, lines: maxLines } = STOCK[size];
  const usable = stock.width - 2 * stock.margin;
  const modules = code128Modules(label.barcode) + 2 * QUIET_MODULES;
  const module = Math.max(1, Math.min(stock.module, Math.floor(usable / modules)));
  const barcodeX = stock.margin + Math.max(0, Math.floor((usable - modules * module) / 2));
  const text = (y: number, height: number, value: string) =>
    `^FO${stock.margin},${y}^A0N,${height},${height}^FH^FD${zplText(zplFitted(value, height, usable))}^FS`;
  // The barcode's human-readable line, which the printer adds under the bars, is about as
  // high as a module is wide times nine.
  let y = stock.margin + stock.title + stock.margin / 2;
  const parts = [
    `^XA^CI28^PW${stock.width}^LL${stock.height}^LH0,0`,
    text(stock.margin, stock.title, label.title),
    // Mode A: the printer picks the Code128 subsets, so any text is encoded as it is.
    `^FO${barcodeX + QUIET_MODULES * module},${y}^BY${module}^BCN,${stock.barcode},Y,N,N,A^FH^FD${zplText(label.barcode)}^FS`,
  ];
  y += stock.barcode + module * 9 + stock.margin / 2;
  for (const line of label.lines.slice(0, maxLines)) {
    parts.push(text(y, stock.text, line));
    y += Math.round(stock.text * 1.3);
  }
  parts.push(`^PQ${copies}^XZ\n`);
  return parts.join('\n');
}

/** Labels in ZPL, one format after the other, made as they are read. */
export function* labelsZpl(size: LabelSize, labels: readonly Label[], copies: number) {
  for (const label of labels) yield labelZpl(size, label, copies);
}
