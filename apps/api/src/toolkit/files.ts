import { once } from 'node:events';
import { PassThrough, Readable } from 'node:stream';
import { IMPORT_MAX_ROWS, type FileColumn, type FileFormat } from '@inventory/contract';
import ExcelJS from 'exceljs';
import Papa from 'papaparse';
import { fieldError } from '../http/errors.js';

export const CONTENT_TYPES: Record<FileFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** A cell as a file carries it. */
export type Cell = string | number | boolean | null;

/** CSV text of some rows; formulae are escaped so a spreadsheet never runs a cell. */
const csvLines = (rows: Cell[][]) =>
  `${Papa.unparse(rows, { header: false, escapeFormulae: true, newline: '\r\n' })}\r\n`;

/**
 * A CSV or XLSX file written as its rows arrive, so its size never sits in memory. XLSX is
 * written without shared strings or styles, which would otherwise grow with the row count.
 */
export function fileStream(
  format: FileFormat,
  sheetName: string,
  columns: readonly FileColumn[],
  chunks: AsyncIterable<Cell[][]>,
): Readable {
  const headers = columns.map((column) => column.header);
  if (format === 'csv') {
    return Readable.from(
      (async function* () {
        // The byte order mark makes spreadsheet programs read the file as UTF-8.
        yield `\uFEFF${csvLines([headers])}`;
        for await (const rows of chunks) yield csvLines(rows);
      })(),
    );
  }
  const output = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: output,
    useStyles: false,
    useSharedStrings: false,
  });
  const sheet = workbook.addWorksheet(sheetName.slice(0, 31));
  (async () => {
    sheet.addRow(headers).commit();
    for await (const rows of chunks) {
      for (const row of rows) sheet.addRow(row).commit();
      if (output.writableNeedDrain) await once(output, 'drain');
    }
    sheet.commit();
    await workbook.commit();
  })().catch((error: unknown) => output.destroy(error as Error));
  return output;
}

/** A file's rows as text, with its header row apart. */
export type ParsedFile = {
  readonly format: FileFormat;
  readonly headers: string[];
  readonly rows: string[][];
};

const EXTENSIONS: Record<string, FileFormat> = {
  csv: 'csv',
  txt: 'csv',
  tsv: 'csv',
  xlsx: 'xlsx',
};

const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

/** CSV or XLSX from the file name's extension, checked against the content. */
export function formatOf(fileName: string, content: Buffer): FileFormat {
  const extension = /\.([A-Za-z0-9]+)$/.exec(fileName)?.[1]?.toLowerCase() ?? '';
  const format = EXTENSIONS[extension];
  if (!format) throw fieldError('file', 'Upload a .csv or .xlsx file.');
  if (content.length === 0) throw fieldError('file', 'The file is empty.');
  const zipped = content.subarray(0, 4).equals(ZIP_MAGIC);
  if (format === 'xlsx' && !zipped) {
    throw fieldError('file', 'The file is not an XLSX workbook: save it again as .xlsx or .csv.');
  }
  if (format === 'csv' && zipped) {
    throw fieldError(
      'file',
      'This is a workbook, not a CSV file: name it .xlsx or save it as CSV.',
    );
  }
  return format;
}

const textOf = (value: ExcelJS.CellValue): string => {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'object') {
    if ('richText' in value) return value.richText.map((part) => part.text).join('');
    if ('result' in value) return textOf(value.result as ExcelJS.CellValue);
    if ('text' in value) return String(value.text);
    if ('error' in value) return '';
  }
  return String(value);
};

async function readWorkbook(content: Buffer): Promise<string[][]> {
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(content as unknown as ArrayBuffer);
  } catch {
    throw fieldError('file', 'The workbook cannot be read: save it again as .xlsx or .csv.');
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) throw fieldError('file', 'The workbook has no sheet.');
  const rows: string[][] = [];
  sheet.eachRow({ includeEmpty: false }, (row) => {
    const values = row.values as ExcelJS.CellValue[];
    // ExcelJS numbers cells from 1: index 0 is always empty.
    rows.push(values.slice(1).map((value) => textOf(value).trim()));
  });
  return rows;
}

function readCsv(content: Buffer): string[][] {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(content);
  } catch {
    throw fieldError('file', 'The file is not UTF-8 text: save it as "CSV UTF-8" or as .xlsx.');
  }
  if (text.includes('\u0000')) throw fieldError('file', 'The file is not a CSV file.');
  const parsed = Papa.parse<string[]>(text, { skipEmptyLines: 'greedy' });
  const broken = parsed.errors.find((error) => error.type === 'Quotes');
  if (broken) {
    throw fieldError(
      'file',
      `The file is not valid CSV: a quote is not closed (row ${(broken.row ?? 0) + 1}).`,
    );
  }
  return parsed.data.map((row) => row.map((cell) => cell.trim()));
}

/** Reads an uploaded file into a header row and data rows; a bad file is a 422 on `file`. */
export async function readUpload(fileName: string, content: Buffer): Promise<ParsedFile> {
  const format = formatOf(fileName, content);
  const rows = format === 'xlsx' ? await readWorkbook(content) : readCsv(content);
  const [headerRow, ...data] = rows;
  const headers = (headerRow ?? []).map((header) => header.trim());
  if (headers.every((header) => header === '')) {
    throw fieldError('file', 'The file is empty: the first row must name the columns.');
  }
  if (data.length === 0) throw fieldError('file', 'The file has a header row but no data rows.');
  if (data.length > IMPORT_MAX_ROWS) {
    throw fieldError(
      'file',
      `The file has ${data.length} rows; one import takes at most ${IMPORT_MAX_ROWS}. Split it.`,
    );
  }
  return { format, headers, rows: data };
}
