import bwipjs from 'bwip-js';
import type { PDFFont } from 'pdf-lib';
import type { PageCanvas } from './pdf-canvas.js';
import { textWidth, winAnsi } from './pdf-text.js';

/**
 * A Code128 symbol as the widths of its bars and spaces in modules, bar first. Drawn as vector
 * bars in a PDF, and measured for ZPL, whose printer encodes the symbol itself.
 */
export function code128Widths(text: string): readonly number[] {
  // Each page of a sheet and each copy of a label draws the same symbol again.
  if (last?.text !== text) {
    const [symbol] = bwipjs.raw('code128', text);
    // A linear symbol: bar and space widths (a matrix symbol would give pixels instead).
    last = { text, widths: (symbol as { sbs: number[] }).sbs };
  }
  return last.widths;
}
let last: { readonly text: string; readonly widths: readonly number[] } | undefined;

/** The width of a Code128 symbol in modules, without its quiet zones. */
export const code128Modules = (text: string) =>
  code128Widths(text).reduce((sum, width) => sum + width, 0);

/** Quiet zone each side of a symbol, in modules (ISO/IEC 15417 asks for 10). */
export const QUIET_MODULES = 10;

export type BarcodeBox = {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
};

/**
 * Draws a Code128 symbol of `text` as bars, centred in the box and at most `maxModule` points a
 * module wide, with the text under it.
 */
export function drawCode128(
  page: PageCanvas,
  text: string,
  box: BarcodeBox,
  font: PDFFont,
  textSize: number,
  maxModule: number,
): void {
  const widths = code128Widths(text);
  const modules = widths.reduce((sum, width) => sum + width, 0);
  const module = Math.min(maxModule, box.width / (modules + 2 * QUIET_MODULES));
  const barHeight = box.height - textSize * 1.2;
  let x = box.x + (box.width - modules * module) / 2;
  const y = box.y + box.height - barHeight;
  widths.forEach((width, index) => {
    if (index % 2 === 0) page.rectangle(x, y, width * module, barHeight);
    x += width * module;
  });
  const caption = winAnsi(text);
  const captionX = box.x + (box.width - textWidth(font, caption, textSize)) / 2;
  page.text(caption, captionX, box.y, textSize, font);
}
