import { Readable } from 'node:stream';
import bwipjs from 'bwip-js';
import { PDFDocument, StandardFonts, type PDFFont } from 'pdf-lib';
import type { PreparedFile } from './downloads.js';

/** One label: a Code128 barcode of `barcode`, a bold title and a few lines of text. */
export type Label = {
  readonly barcode: string;
  readonly title: string;
  readonly lines: readonly string[];
};

/** Label stock in points (1/72 inch): 4x6 for boxes and parcels, 2x1 for devices (DOMAIN.md B). */
const SIZES = {
  '4x6': { width: 288, height: 432, margin: 18, title: 22, text: 12, barcodeHeight: 90 },
  '2x1': { width: 144, height: 72, margin: 5, title: 7, text: 5.5, barcodeHeight: 28 },
} as const;
export type LabelSize = keyof typeof SIZES;

/** The standard PDF fonts encode WinAnsi only: anything else prints as `?`. */
const printable = (text: string) => text.replace(/[^\x20-\x7E\xA0-\xFF]/g, '?');

/** The text, cut short with dots when it is wider than the label. */
function fitted(text: string, font: PDFFont, size: number, width: number): string {
  let fitting = printable(text);
  if (font.widthOfTextAtSize(fitting, size) <= width) return fitting;
  while (fitting.length > 1 && font.widthOfTextAtSize(`${fitting}...`, size) > width) {
    fitting = fitting.slice(0, -1);
  }
  return `${fitting}...`;
}

/** A PDF with one page per label, each barcode scaled to the label's width. */
export async function labelsPdf(size: LabelSize, labels: readonly Label[]): Promise<Buffer> {
  const stock = SIZES[size];
  const pdf = await PDFDocument.create();
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const usable = stock.width - 2 * stock.margin;
  for (const label of labels) {
    const page = pdf.addPage([stock.width, stock.height]);
    const png = await bwipjs.toBuffer({
      bcid: 'code128',
      text: label.barcode,
      scale: 3,
      height: 12,
      includetext: true,
      textxalign: 'center',
    });
    const image = await pdf.embedPng(png);
    const scale = Math.min(usable / image.width, stock.barcodeHeight / image.height);
    const barcode = { width: image.width * scale, height: image.height * scale };
    let y = stock.height - stock.margin - stock.title;
    page.drawText(fitted(label.title, bold, stock.title, usable), {
      x: stock.margin,
      y,
      size: stock.title,
      font: bold,
    });
    y -= stock.margin / 2 + barcode.height;
    page.drawImage(image, {
      x: stock.margin + (usable - barcode.width) / 2,
      y,
      width: barcode.width,
      height: barcode.height,
    });
    for (const line of label.lines) {
      y -= stock.text * 1.4;
      if (y < stock.margin / 2) break;
      page.drawText(fitted(line, regular, stock.text, usable), {
        x: stock.margin,
        y,
        size: stock.text,
        font: regular,
      });
    }
  }
  return Buffer.from(await pdf.save());
}

/** Labels as a file for the download links. */
export async function labelFile(
  fileName: string,
  size: LabelSize,
  labels: readonly Label[],
): Promise<PreparedFile> {
  return {
    fileName,
    contentType: 'application/pdf',
    stream: Readable.from([await labelsPdf(size, labels)]),
  };
}
