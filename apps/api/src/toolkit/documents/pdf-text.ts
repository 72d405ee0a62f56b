import type { PDFFont } from 'pdf-lib';

/** The standard PDF fonts encode WinAnsi only: anything else prints as `?`. */
export const winAnsi = (text: string) => text.replace(/[^\x20-\x7E\xA0-\xFF]/g, '?');

/**
 * A standard font's width of each WinAnsi character at size 1, measured once: a table of
 * thousands of cells is measured many times faster than by pdf-lib's per-call encoding.
 */
const widthTables = new WeakMap<PDFFont, Float64Array>();

function widthTable(font: PDFFont): Float64Array {
  let table = widthTables.get(font);
  if (!table) {
    table = new Float64Array(256);
    for (let code = 0x20; code <= 0xff; code += 1) {
      const char = winAnsi(String.fromCharCode(code));
      table[code] = font.widthOfTextAtSize(char, 1000) / 1000;
    }
    widthTables.set(font, table);
  }
  return table;
}

/** The width of WinAnsi text as drawn (one character after the other, without kerning). */
export function textWidth(font: PDFFont, text: string, size: number): number {
  const table = widthTable(font);
  let width = 0;
  for (let index = 0; index < text.length; index += 1) {
    width += table[text.charCodeAt(index) & 0xff]!;
  }
  return width * size;
}

/** The text in WinAnsi, cut short with dots when it is wider than `width`. */
export function fitted(text: string, font: PDFFont, size: number, width: number): string {
  let fitting = winAnsi(text);
  if (textWidth(font, fitting, size) <= width) return fitting;
  while (fitting.length > 1 && textWidth(font, `${fitting}...`, size) > width) {
    fitting = fitting.slice(0, -1);
  }
  return `${fitting}...`;
}
