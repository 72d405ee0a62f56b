import { once } from 'node:events';
import { PassThrough, Readable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import {
  IMPORT_MAX_BYTES,
  IMPORT_MAX_ROWS,
  type FileColumn,
  type FileFormat,
} from '@inventory/contract';
import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import Papa from 'papaparse';
import { fieldError } from '../http/errors.js';
import { turns } from './turns.js';
import {
  READERS_AT_ONCE,
  READERS_WAITING_MAX,
  READER_HEAP_MB,
  READ_DEADLINE_MS,
  UploadRefusal,
} from './upload-limits.js';
import type { ReadRequest } from './upload-rows.js';
import type { ReaderAnswer } from './upload-worker.js';
import { workbookEntries } from './workbook-zip.js';

export const CONTENT_TYPES: Record<FileFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/**
 * Uploads (imports, attachments) arrive as the file itself; the parser is registered once for
 * every endpoint. An endpoint with a smaller `fileBody` limit applies its own.
 */
export function acceptFileBodies(app: FastifyInstance): void {
  if (app.hasContentTypeParser('application/octet-stream')) return;
  app.addContentTypeParser(
    ['text/csv', 'application/octet-stream', CONTENT_TYPES.xlsx, 'application/vnd.ms-excel'],
    { parseAs: 'buffer', bodyLimit: IMPORT_MAX_BYTES },
    (_request, body, done) => done(null, body),
  );
}

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

/** Refusals of the checks run on this thread, as the 422 the user reads. */
function refused<T>(check: () => T): T {
  try {
    return check();
  } catch (error) {
    if (error instanceof UploadRefusal) throw fieldError('file', error.message);
    throw error;
  }
}

/**
 * The reading worker. Built, it is upload-worker.js beside this module. Under vitest (and
 * `tsx watch`) this module and the worker are TypeScript sources, which Node cannot load by
 * itself and a worker does not get vitest's transform: the worker then registers tsx's loader (a
 * devDependency, there wherever the sources run) before importing its source. The loader is
 * registered in the worker, not given as `--import` in execArgv, which Node 20 applies only after
 * loading the worker's own module.
 */
function startReader(request: ReadRequest, heapMb: number): Worker {
  const options = {
    workerData: request,
    resourceLimits: { maxOldGenerationSizeMb: heapMb },
  };
  const source = new URL(
    import.meta.url.endsWith('.ts') ? './upload-worker.ts' : './upload-worker.js',
    import.meta.url,
  );
  if (!source.pathname.endsWith('.ts')) return new Worker(source, options);
  const tsx = import.meta.resolve('tsx/esm/api');
  const start = `import(${JSON.stringify(tsx)})
    .then(({ register }) => { register(); return import(${JSON.stringify(source.href)}); });`;
  return new Worker(start, { ...options, eval: true });
}

/** What reading files may take: a reader's heap and time, readers at once, files waiting. */
export type ReadLimits = {
  readonly heapMb: number;
  readonly deadlineMs: number;
  readonly atOnce: number;
  readonly waitingMax: number;
};

export const READ_LIMITS: ReadLimits = {
  heapMb: READER_HEAP_MB,
  deadlineMs: READ_DEADLINE_MS,
  atOnce: READERS_AT_ONCE,
  waitingMax: READERS_WAITING_MAX,
};

/**
 * Reads uploaded files under `limits` (the server's one reader has READ_LIMITS; a test makes one
 * with its limits cut down). Each file's rows are read in a worker thread, so that the event loop
 * keeps answering while a large file is read; a worker that runs out of its memory or time is a
 * 422, not a 500. Their memory adds up: `atOnce` read at a time, `waitingMax` files wait.
 */
export function uploadReader(limits: ReadLimits) {
  const readers = turns(
    limits.atOnce,
    limits.waitingMax,
    'The server is reading other files: send this one again in a minute.',
  );

  async function readInWorker(request: ReadRequest): Promise<string[][]> {
    await readers.take();
    let worker: Worker;
    try {
      worker = startReader(request, limits.heapMb);
    } catch (error) {
      readers.end();
      throw error;
    }
    const tooLarge = `The ${request.format === 'xlsx' ? 'workbook' : 'file'} is too large to read`;
    return new Promise((resolve, reject) => {
      const deadline = setTimeout(() => {
        reject(
          fieldError(
            'file',
            `${tooLarge}: it was still being read after ${limits.deadlineMs / 1000} seconds. Split it into smaller files.`,
          ),
        );
        void worker.terminate();
      }, limits.deadlineMs);
      worker.once('message', (answer: ReaderAnswer) => {
        if ('rows' in answer) resolve(answer.rows);
        else reject(fieldError('file', answer.refusal));
      });
      worker.once('error', (error: Error & { code?: string }) => {
        if (error.code !== 'ERR_WORKER_OUT_OF_MEMORY') reject(error);
        else {
          reject(
            fieldError(
              'file',
              `${tooLarge}: reading it needs more than ${limits.heapMb} MB of memory. Split it into smaller files.`,
            ),
          );
        }
      });
      worker.once('exit', () => {
        clearTimeout(deadline);
        readers.end();
        reject(new Error('The upload reader stopped without an answer.'));
      });
    });
  }

  /** Reads an uploaded file into a header row and data rows; a bad file is a 422 on `file`. */
  return async function readUpload(fileName: string, content: Buffer): Promise<ParsedFile> {
    const format = formatOf(fileName, content);
    // The sizes the workbook declares are checked at once, without a worker: a bomb is refused
    // before anything is inflated.
    if (format === 'xlsx') refused(() => workbookEntries(content));
    const rows = await readInWorker({ format, content, maxRows: IMPORT_MAX_ROWS });
    const [headerRow, ...data] = rows;
    const headers = (headerRow ?? []).map((header) => header.trim());
    if (headers.every((header) => header === '')) {
      throw fieldError('file', 'The file is empty: the first row must name the columns.');
    }
    if (data.length === 0) throw fieldError('file', 'The file has a header row but no data rows.');
    return { format, headers, rows: data };
  };
}

/** The server's reader of uploaded files. */
export const readUpload = uploadReader(READ_LIMITS);
