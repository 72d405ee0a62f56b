import {
  decodePDFRawStream,
  PDFArray,
  PDFDocument,
  PDFRawStream,
  type PDFPage,
  type PDFObject,
} from 'pdf-lib';

/** The content streams of a page, decoded. */
function pageContent(page: PDFPage): string {
  const contents = page.node.Contents();
  const streams: PDFObject[] = contents instanceof PDFArray ? contents.asArray() : [contents!];
  return streams
    .map((ref) => page.doc.context.lookup(ref))
    .filter((stream): stream is PDFRawStream => stream instanceof PDFRawStream)
    .map((stream) => Buffer.from(decodePDFRawStream(stream).decode()).toString('latin1'))
    .join('\n');
}

/**
 * A PDF's pages and the text drawn on each, line by line. pdf-lib writes each string of the
 * standard fonts as hex (`<48656C6C6F> Tj`), one drawText call a string.
 */
export async function pdfPages(bytes: Uint8Array): Promise<{ size: number[]; text: string[] }[]> {
  const pdf = await PDFDocument.load(bytes);
  return pdf.getPages().map((page) => ({
    size: [page.getWidth(), page.getHeight()],
    text: [...pageContent(page).matchAll(/<([0-9A-Fa-f]*)> Tj/g)].map((match) =>
      Buffer.from(match[1]!, 'hex').toString('latin1'),
    ),
  }));
}
