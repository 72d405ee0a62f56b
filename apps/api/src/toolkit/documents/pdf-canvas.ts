import { deflateSync } from 'node:zlib';
import type { PDFDocument, PDFFont, PDFPage } from 'pdf-lib';
import { winAnsi } from './pdf-text.js';

/** A number as a PDF operand: two decimals are a hundredth of a point. */
const n = (value: number) => String(Math.round(value * 100) / 100);

/**
 * One page drawn as PDF operators written into a text, then stored as one compressed content
 * stream. pdf-lib's drawText keeps an object per operator: at thousands of table cells that was
 * seconds and hundreds of megabytes (decision 0015), a text of operators a tenth of both.
 */
export class PageCanvas {
  private readonly operators: string[] = [];
  private readonly page: PDFPage;
  private readonly fontKeys = new Map<PDFFont, string>();

  constructor(
    private readonly pdf: PDFDocument,
    size: readonly [number, number],
  ) {
    this.page = pdf.addPage([...size]);
  }

  private fontKey(font: PDFFont): string {
    let key = this.fontKeys.get(font);
    if (!key) {
      key = this.page.node.newFontDictionary(font.name, font.ref).toString();
      this.fontKeys.set(font, key);
    }
    return key;
  }

  /**
   * Text in a standard font, its baseline at y. Those fonts encode WinAnsi, whose codes are
   * Latin-1's for every character `winAnsi` keeps.
   */
  text(value: string, x: number, y: number, size: number, font: PDFFont): void {
    const hex = Buffer.from(winAnsi(value), 'latin1').toString('hex');
    this.operators.push(`BT ${this.fontKey(font)} ${n(size)} Tf ${n(x)} ${n(y)} Td <${hex}> Tj ET`);
  }

  /** A filled rectangle, black or in a grey (0 black, 1 white). */
  rectangle(x: number, y: number, width: number, height: number, grey = 0): void {
    this.operators.push(`q ${n(grey)} g ${n(x)} ${n(y)} ${n(width)} ${n(height)} re f Q`);
  }

  line(x1: number, y1: number, x2: number, y2: number, thickness: number): void {
    this.operators.push(`q ${n(thickness)} w ${n(x1)} ${n(y1)} m ${n(x2)} ${n(y2)} l S Q`);
  }

  /** Stores what was drawn as the page's content, compressed by Node's zlib (pdf-lib's is slower). */
  finish(): void {
    const content = deflateSync(this.operators.join('\n'));
    const stream = this.pdf.context.stream(content, { Filter: 'FlateDecode' });
    this.page.node.addContentStream(this.pdf.context.register(stream));
    this.operators.length = 0;
  }
}
