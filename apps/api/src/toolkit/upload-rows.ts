import { Readable } from 'node:stream';
import type { FileFormat } from '@inventory/contract';
import ExcelJS from 'exceljs';
import Papa from 'papaparse';
import { CELL_MAX_CHARS, megabytes, ROWS_MAX_CHARS, UploadRefusal } from './upload-limits.js';
import { UNREADABLE, storedZip, unpackEntry, workbookEntries } from './workbook-zip.js';

/**
 * Reading an uploaded file's rows, in the reading worker (`upload-worker.ts`): every limit is
 * checked as the rows arrive, so a file is refused at the first row or cell past one.
 */

/** What the reading worker is asked: one file, and the most data rows it may hold. */
export type ReadRequest = {
  readonly format: FileFormat;
  readonly content: Uint8Array;
  readonly maxRows: number;
};

/** Adds one row, header first, numbered as the user finds it in the file. */
type Collect = (cells: string[], rowNumber: number) => void;

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

/** A worksheet's part in the package: exceljs's streaming reader reads sheets by these names. */
const SHEET_PART = /^xl\/worksheets\/sheet\d+\.xml$/;
const NO_SHARED_STRINGS =
  '<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="0" uniqueCount="0"/>';

/** What exceljs's streaming reader knows of the workbook once it has read its sheet list. */
type SheetList = { model?: { sheets?: { name: string }[] } };

/**
 * Streams the first tab's rows. The reader is given the parts it needs, each checked against its
 * declared size, in the order it needs them: the sheet list, styles (a date is a number with a
 * date style) and shared strings before the sheets, so that it streams a sheet rather than
 * parking it in a temporary file, and nothing of the upload's own ZIP is read by exceljs.
 */
async function readWorkbook(content: Buffer, collect: Collect): Promise<void> {
  const entries = workbookEntries(content);
  const part = (name: string) => {
    const entry = entries.find((candidate) => candidate.name === name);
    return entry && { name, data: unpackEntry(content, entry) };
  };
  const parts = [
    part('xl/workbook.xml'),
    part('xl/_rels/workbook.xml.rels'),
    part('xl/styles.xml'),
    part('xl/sharedStrings.xml') ?? {
      name: 'xl/sharedStrings.xml',
      data: Buffer.from(NO_SHARED_STRINGS),
    },
    ...entries.filter((entry) => SHEET_PART.test(entry.name)).map((entry) => part(entry.name)),
  ].filter((found) => found !== undefined);
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from(storedZip(parts)), {
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    worksheets: 'emit',
    entries: 'ignore',
  });
  try {
    for await (const sheet of reader) {
      // The first tab as the workbook lists its sheets, whatever its part's number.
      const firstTab = (reader as unknown as SheetList).model?.sheets?.[0]?.name;
      if (firstTab !== undefined && (sheet as unknown as { name: string }).name !== firstTab) {
        continue;
      }
      for await (const row of sheet) {
        if (!row.hasValues) continue;
        // ExcelJS numbers cells from 1: index 0 is always empty, and so are skipped cells.
        const values = (row.values as ExcelJS.CellValue[]).slice(1);
        collect(
          Array.from(values, (value) => textOf(value).trim()),
          row.number,
        );
      }
      return;
    }
  } catch (error) {
    if (error instanceof UploadRefusal) throw error;
    throw new UploadRefusal(UNREADABLE);
  }
  throw new UploadRefusal('The workbook has no sheet.');
}

function readCsv(content: Buffer, collect: Collect): void {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(content);
  } catch {
    throw new UploadRefusal('The file is not UTF-8 text: save it as "CSV UTF-8" or as .xlsx.');
  }
  if (text.includes('\u0000')) throw new UploadRefusal('The file is not a CSV file.');
  let rowNumber = 0;
  let refusal: unknown;
  // Row by row, so that parsing stops at the first row past a limit.
  Papa.parse<string[]>(text, {
    skipEmptyLines: 'greedy',
    step: (result, parser) => {
      rowNumber += 1;
      try {
        if (result.errors.some((error) => error.type === 'Quotes')) {
          throw new UploadRefusal(
            `The file is not valid CSV: a quote is not closed (row ${rowNumber}).`,
          );
        }
        collect(
          result.data.map((cell) => cell.trim()),
          rowNumber,
        );
      } catch (error) {
        refusal = error;
        parser.abort();
      }
    },
  });
  if (refusal) throw refusal;
}

/** An uploaded file's rows, header row first, refused (UploadRefusal) past a limit. */
export async function readRows({ format, content, maxRows }: ReadRequest): Promise<string[][]> {
  const rows: string[][] = [];
  // Characters of all the cells together: a shared string is stored once in a workbook but
  // copied into every cell that names it, so the rows can outgrow the unpacked file by far.
  let characters = 0;
  const collect: Collect = (cells, rowNumber) => {
    if (rows.length > maxRows) {
      throw new UploadRefusal(
        `The file has more than ${maxRows} rows; one import takes at most ${maxRows}. Split it.`,
      );
    }
    const longest = cells.reduce((most, cell) => Math.max(most, cell.length), 0);
    if (longest > CELL_MAX_CHARS) {
      throw new UploadRefusal(
        `Row ${rowNumber} has a cell of ${longest} characters; a cell may hold at most ${CELL_MAX_CHARS}.`,
      );
    }
    characters = cells.reduce((sum, cell) => sum + cell.length, characters);
    if (characters > ROWS_MAX_CHARS) {
      throw new UploadRefusal(
        `The file's cells hold more than ${megabytes(ROWS_MAX_CHARS)} of text by row ${rowNumber}: split it.`,
      );
    }
    rows.push(cells);
  };
  const file = Buffer.from(content.buffer, content.byteOffset, content.byteLength);
  if (format === 'xlsx') await readWorkbook(file, collect);
  else readCsv(file, collect);
  return rows;
}
