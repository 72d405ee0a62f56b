import {
  importEndpoints,
  type FieldErrors,
  type FileColumn,
  type ImportBatch,
  type ImportEndpoints,
  type ImportError,
} from '@inventory/contract';
import * as z from 'zod/mini';
import type { Queryable } from '../db/db.js';
import { fieldErrorsOf } from '../http/endpoint.js';
import { ConflictError, NotFoundError, ValidationError, fieldError } from '../http/errors.js';
import { auditActor, recordAudit } from '../modules/audit/audit.service.js';
import type { ModuleContext } from '../modules/module.js';
import { acceptFileBodies, CONTENT_TYPES, fileStream, readUpload, type Cell } from './files.js';
import { quoteIdentifier } from '../http/sql.js';
import type { ImportKey, ImportStore, Prepared } from './stores.js';

/** The errors an answer carries; the error file has them all. */
const ERRORS_SHOWN = 500;
/** The errors kept with a batch: past this a file is junk, not a list of fixes. */
const ERRORS_KEPT = 50_000;

const BATCH_COLUMNS = `b.id, b.resource, b.file_name, b.format, b.status, b.headers,
  COALESCE(b.mapping, '{}') AS mapping, b.row_count, b.error_count, b.created_count,
  b.updated_count, to_json(b.created_at) #>> '{}' AS created_at, u.name AS created_by_name,
  to_json(b.committed_at) #>> '{}' AS committed_at`;

const comparable = (text: string) => text.toLowerCase().replace(/[\s_-]+/g, '');

/** Each import column's file header: by header text or key, ignoring case, spaces and dashes. */
export function suggestMapping(columns: readonly FileColumn[], headers: readonly string[]) {
  const byName = new Map(headers.map((header) => [comparable(header), header]));
  return Object.fromEntries(
    columns.map((column) => [
      column.key,
      byName.get(comparable(column.header)) ?? byName.get(comparable(column.key)) ?? null,
    ]),
  ) as Record<string, string | null>;
}

const BOOLEAN_WORDS: Record<string, boolean> = {
  yes: true,
  y: true,
  true: true,
  '1': true,
  active: true,
  no: false,
  n: false,
  false: false,
  '0': false,
  inactive: false,
};

/** A cell as the input field wants it, or the message that says what to write. */
function readCell(column: FileColumn, text: string): { value: unknown } | { message: string } {
  switch (column.kind ?? 'text') {
    case 'list':
      return {
        value: text
          .split(/[|;]/)
          .map((part) => part.trim())
          .filter(Boolean),
      };
    case 'integer':
      return /^-?\d+$/.test(text) ? { value: Number(text) } : { message: 'Write a whole number.' };
    case 'number':
      return /^-?\d+(\.\d+)?$/.test(text)
        ? { value: Number(text) }
        : { message: 'Write a number.' };
    case 'boolean': {
      const value = BOOLEAN_WORDS[text.toLowerCase()];
      return value === undefined ? { message: 'Write yes or no.' } : { value };
    }
    default:
      return { value: text };
  }
}

type Checked = {
  errors: ImportError[];
  errorCount: number;
  records: Record<string, unknown>[];
  /** The import key of each record, lower case. */
  keys: string[];
};

/**
 * The dry run: every row read, validated by the contract, prepared by the resource (references
 * resolved in bulk) and matched on the import key. Writes nothing.
 */
async function checkRows(
  store: ImportStore,
  db: Queryable,
  headers: readonly string[],
  rows: readonly string[][],
  mapping: Record<string, string | null>,
  options: unknown,
): Promise<Checked> {
  const columns = store.contract.importColumns;
  const mapped = columns.filter((column) => mapping[column.key]);
  if (mapped.length === 0) {
    throw fieldError(
      'file',
      `None of the file's columns is one of this import's: ${columns.map((c) => c.header).join(', ')}. Download the template.`,
    );
  }
  const missing: FieldErrors = {};
  for (const column of columns) {
    const header = mapping[column.key];
    if (header && !headers.includes(header)) {
      (missing[`mapping.${column.key}`] ??= []).push(`The file has no column "${header}".`);
    } else if (column.required && !header) {
      (missing[`mapping.${column.key}`] ??= []).push(
        `Choose the column that holds ${column.header}.`,
      );
    }
  }
  if (Object.keys(missing).length > 0) throw new ValidationError(missing);

  const schema = store.imports.rowSchema;
  const positions = mapped.map((column) => headers.indexOf(mapping[column.key]!));
  const headerOf = new Map(mapped.map((column) => [column.key, column.header]));
  const errors: ImportError[] = [];
  let errorCount = 0;
  const addError = (row: number, column: string, value: string, message: string) => {
    errorCount += 1;
    if (errors.length < ERRORS_KEPT) errors.push({ row, column, value, message });
  };
  const valid: { row: number; cells: Record<string, string>; input: Record<string, unknown> }[] =
    [];

  rows.forEach((cellsOfRow, index) => {
    const row = index + 2;
    const raw: Record<string, unknown> = {};
    const cells: Record<string, string> = {};
    let bad = false;
    mapped.forEach((column, i) => {
      const text = cellsOfRow[positions[i]!] ?? '';
      cells[column.key] = text;
      if (text === '') {
        // An empty required cell goes to the schema, whose message names what is missing.
        if (column.required) raw[column.key] = (column.kind ?? 'text') === 'text' ? '' : undefined;
        return;
      }
      const read = readCell(column, text);
      if ('message' in read) {
        addError(row, column.header, text, read.message);
        bad = true;
      } else raw[column.key] = read.value;
    });
    if (bad) return;
    const parsed = z.safeParse(schema, raw);
    if (!parsed.success) {
      for (const [field, messages] of Object.entries(fieldErrorsOf(parsed.error))) {
        const key = field.split('.')[0]!;
        for (const message of messages) {
          addError(row, headerOf.get(key) ?? key, cells[key] ?? '', message);
        }
      }
      return;
    }
    // Only mapped fields are written: a column left out of the file changes nothing, an empty
    // cell in a mapped column takes the field's default or no value.
    // Built key by key: Object.fromEntries of the filtered entries measured five to ten times
    // slower on a 100,000-row file, and its objects were slower to read afterwards.
    const data = parsed.data as Record<string, unknown>;
    const input: Record<string, unknown> = {};
    for (const { key } of mapped) if (key in data) input[key] = data[key];
    valid.push({ row, cells, input });
  });

  const inputs = valid.map(({ input }) => ({ input, id: null }));
  const { withOptions } = store.imports;
  const prepared: Prepared[] = withOptions
    ? await withOptions.prepare(inputs, db, options)
    : store.prepare
      ? await store.prepare(inputs, db)
      : valid.map(({ input }) => ({ values: input }));
  const records: Record<string, unknown>[] = [];
  const keyFields =
    'writer' in store.imports ? store.imports.writer.fields : store.imports.key.fields;
  const keyField = keyFields.at(-1)!;
  const firstRowOfKey = new Map<string, number>();
  prepared.forEach((result, i) => {
    const { row, cells } = valid[i]!;
    if (result.errors) {
      for (const [field, messages] of Object.entries(result.errors)) {
        for (const message of messages) {
          addError(row, headerOf.get(field) ?? field, cells[field] ?? '', message);
        }
      }
      return;
    }
    const values = result.values!;
    const key = keyFields.map((field) => String(values[field] ?? '').toLowerCase()).join('|');
    const earlier = firstRowOfKey.get(key);
    if (earlier !== undefined) {
      addError(
        row,
        headerOf.get(keyField) ?? keyField,
        cells[keyField] ?? '',
        `Repeats row ${earlier}.`,
      );
      return;
    }
    firstRowOfKey.set(key, row);
    records.push(values);
  });
  errors.sort((a, b) => a.row - b.row);
  return { errors, errorCount, records, keys: [...firstRowOfKey.keys()] };
}

/** What the dry run tells before a commit: how many checked rows are new, how many known. */
async function plannedCounts(
  store: ImportStore,
  db: Queryable,
  checked: Checked,
  options: unknown,
) {
  const willUpdate =
    'writer' in store.imports
      ? await store.imports.writer.countExisting(checked.records, db, options)
      : await countByKey(db, store.table, store.imports.key, checked.keys);
  return { willCreate: checked.records.length - willUpdate, willUpdate };
}

/** How many rows of a table have these keys (the rows an import would update). */
async function countByKey(db: Queryable, table: string, key: ImportKey, keys: readonly string[]) {
  const [existing] = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM ${table}
     WHERE ${key.match} = ANY ($1::text[]) ${key.conflictWhere ? `AND ${key.conflictWhere}` : ''}`,
    [keys],
  );
  return existing?.n ?? 0;
}

/** Writes checked records in one statement: new keys are created, known keys updated. */
async function writeRecords(
  table: string,
  key: ImportKey,
  db: Queryable,
  records: readonly Record<string, unknown>[],
  actorId: number,
) {
  // Every field any row sets: a row without one writes null there (JSON leaves it out).
  const columns = [...new Set(records.flatMap((record) => Object.keys(record)))];
  if (columns.length === 0) return { created: 0, updated: 0 };
  const quoted = columns.map(quoteIdentifier);
  const keyColumns = new Set(key.fields.map(quoteIdentifier));
  const updates = quoted
    .filter((column) => !keyColumns.has(column))
    .map((column) => `${column} = EXCLUDED.${column}`);
  const [counts] = await db.query<{ created: number; updated: number }>(
    `WITH written AS (
       INSERT INTO ${table} (${quoted.join(', ')}, created_by, updated_by)
       SELECT ${quoted.join(', ')}, $2, $2 FROM json_populate_recordset(NULL::${table}, $1::json)
       ON CONFLICT (${key.conflict})
         ${key.conflictWhere ? `WHERE ${key.conflictWhere}` : ''} DO UPDATE SET
         ${[...updates, 'updated_at = now()', 'updated_by = EXCLUDED.updated_by'].join(', ')}
       RETURNING (xmax = 0) AS created)
     SELECT count(*) FILTER (WHERE created)::int AS created,
            count(*) FILTER (WHERE NOT created)::int AS updated
     FROM written`,
    [JSON.stringify(records), actorId],
  );
  return counts ?? { created: 0, updated: 0 };
}

const errorColumns: FileColumn[] = [
  { key: 'row', header: 'Row', example: '2' },
  { key: 'column', header: 'Column', example: '' },
  { key: 'value', header: 'Value', example: '' },
  { key: 'message', header: 'Error', example: '' },
];

async function* once<T>(value: T) {
  yield value;
}

/** The import endpoints of a resource and its template and error-file producers. */
export function registerImports(context: ModuleContext, store: ImportStore): ImportEndpoints {
  const { endpoint, db, downloads, app } = context;
  const { contract } = store;
  const endpoints = importEndpoints(contract);

  /**
   * A batch; with `withFile` also its uploaded file, and with `lock` locked for a commit. The file
   * travels as base64 text: PGlite's own bytea decoding takes seconds on a file of megabytes.
   */
  const findBatch = async (tx: Queryable, id: number, { withFile = false, lock = false } = {}) => {
    const [found] = await tx.query<ImportBatch & { content?: string | null; options?: unknown }>(
      `SELECT ${BATCH_COLUMNS}${withFile ? ", encode(b.content, 'base64') AS content, b.options" : ''}
       FROM import_batches b LEFT JOIN users u ON u.id = b.created_by
       WHERE b.id = $1 AND b.resource = $2 ${lock ? 'FOR UPDATE OF b' : ''}`,
      [id, contract.name],
    );
    if (!found) throw new NotFoundError(`There is no ${contract.singular} import ${id}.`);
    const { content, options, ...batch } = found;
    const file = content == null ? null : Buffer.from(content, 'base64');
    return { batch: batch as ImportBatch, file, options: options ?? null };
  };

  endpoint(endpoints.upload, async ({ request, principal, query }) => {
    if (!Buffer.isBuffer(request.body)) {
      throw fieldError('file', 'Send the file itself as the body (CSV or XLSX).');
    }
    const parsed = await readUpload(query.fileName, request.body);
    if (contract.maxRows !== undefined && parsed.rows.length > contract.maxRows) {
      throw fieldError(
        'file',
        `The file has ${parsed.rows.length.toLocaleString('en-US')} rows: one file holds at most ${contract.maxRows.toLocaleString('en-US')}. Split it.`,
      );
    }
    const mapping = suggestMapping(contract.importColumns, parsed.headers);
    const [row] = await db.query<{ id: number }>(
      `INSERT INTO import_batches (resource, file_name, format, content, headers, mapping, row_count, created_by)
       VALUES ($1, $2, $3, decode($4, 'base64'), $5, $6, $7, $8) RETURNING id`,
      [
        contract.name,
        query.fileName,
        parsed.format,
        request.body.toString('base64'),
        parsed.headers,
        JSON.stringify(mapping),
        parsed.rows.length,
        principal.userId,
      ],
    );
    return (await findBatch(db, row!.id)).batch;
  });

  endpoint(endpoints.imports, () =>
    db.query<ImportBatch>(
      `SELECT ${BATCH_COLUMNS} FROM import_batches b LEFT JOIN users u ON u.id = b.created_by
       WHERE b.resource = $1 ORDER BY b.id DESC LIMIT 100`,
      [contract.name],
    ),
  );

  const contentOf = async (batch: ImportBatch, file: Buffer | null) => {
    if (!file) throw new ConflictError('This import is committed: upload the file again.');
    return readUpload(batch.file_name, file);
  };

  endpoint(endpoints.check, async ({ params, body }) => {
    const { batch, file: upload } = await findBatch(db, params.id, { withFile: true });
    const file = await contentOf(batch, upload);
    const mapping = body.mapping ?? batch.mapping;
    const options = body.options ?? null;
    const checked = await checkRows(store, db, file.headers, file.rows, mapping, options);
    await db.query(
      `UPDATE import_batches SET status = 'checked', mapping = $2, error_count = $3, errors = $4,
         options = $5
       WHERE id = $1`,
      [
        batch.id,
        JSON.stringify(mapping),
        checked.errorCount,
        JSON.stringify(checked.errors),
        JSON.stringify(options),
      ],
    );
    const summarize = store.imports.withOptions?.summarize;
    return {
      batch: (await findBatch(db, batch.id)).batch,
      errors: checked.errors.slice(0, ERRORS_SHOWN),
      ...(await plannedCounts(store, db, checked, options)),
      // The definition's summary schema types it; an import store in general cannot name it.
      ...(summarize && { summary: (await summarize(checked.records, db, options)) as null }),
    };
  });

  endpoint(endpoints.commit, async ({ principal, params, body, meta }) => {
    const validRowsOnly = body.mode === 'valid_rows';
    const result = await db.transaction(async (tx) => {
      const {
        batch,
        file: upload,
        options,
      } = await findBatch(tx, params.id, {
        withFile: true,
        lock: true,
      });
      if (batch.status === 'committed')
        throw new ConflictError('This import is committed already.');
      if (batch.status !== 'checked')
        throw new ConflictError('Check the import before committing it.');
      const file = await contentOf(batch, upload);
      // Checked again inside the transaction: the data may have changed since the dry run.
      const checked = await checkRows(store, tx, file.headers, file.rows, batch.mapping, options);
      if (checked.errorCount > 0 && !validRowsOnly) return { errors: checked.errorCount };
      if (checked.records.length === 0) return { errors: checked.errorCount };
      const writer = { actor: principal, meta };
      const records = store.finish
        ? await store.finish(checked.records, tx, writer)
        : checked.records;
      const counts =
        'writer' in store.imports
          ? await store.imports.writer.write(records, tx, writer, options, {
              id: batch.id,
              fileName: batch.file_name,
            })
          : await writeRecords(store.table, store.imports.key, tx, records, principal.userId);
      // Valid rows only: the rows left out stay in the batch's error file.
      await tx.query(
        `UPDATE import_batches SET status = 'committed', content = NULL, error_count = $4,
           errors = $5, created_count = $2, updated_count = $3, committed_at = now()
         WHERE id = $1`,
        [
          batch.id,
          counts.created,
          counts.updated,
          checked.errorCount,
          JSON.stringify(checked.errors),
        ],
      );
      await recordAudit(tx, {
        ...auditActor(principal, meta),
        action: `${store.entity}.imported`,
        entityType: 'import_batch',
        entityId: batch.id,
        after: {
          resource: contract.name,
          file: batch.file_name,
          mode: body.mode,
          ...counts,
          ...(checked.errorCount > 0 && { rows_left_out: checked.errorCount }),
        },
      });
      return { errors: 0 };
    });
    if (result.errors > 0 && validRowsOnly) {
      throw fieldError('file', 'No row is right: nothing was written. Check again.');
    }
    if (result.errors > 0) {
      throw fieldError(
        'file',
        `${result.errors} ${result.errors === 1 ? 'error' : 'errors'} since the check: nothing was written. Check again.`,
      );
    }
    return (await findBatch(db, params.id)).batch;
  });

  const errorsProducer = `${contract.name}:import-errors`;
  downloads.addProducer(errorsProducer, async (request) => {
    const [row] = await db.query<{ errors: ImportError[]; file_name: string }>(
      'SELECT errors, file_name FROM import_batches WHERE id = $1',
      [request.batchId],
    );
    const errors = row?.errors ?? [];
    return {
      fileName: `errors-of-${(row?.file_name ?? 'import').replace(/\.[^.]*$/, '')}.csv`,
      contentType: CONTENT_TYPES.csv,
      stream: fileStream(
        'csv',
        'Errors',
        errorColumns,
        once(errors.map((error): Cell[] => [error.row, error.column, error.value, error.message])),
      ),
    };
  });
  endpoint(endpoints.errorFile, async ({ principal, params }) => {
    await findBatch(db, params.id);
    return downloads.issue(principal, {
      producer: errorsProducer,
      access: contract.manage,
      batchId: params.id,
    });
  });

  const templateProducer = `${contract.name}:template`;
  downloads.addProducer(templateProducer, async (request) => {
    const format = request.format as 'csv' | 'xlsx';
    const columns = contract.importColumns;
    return {
      fileName: `${contract.name}-template.${format}`,
      contentType: CONTENT_TYPES[format],
      stream: fileStream(format, contract.plural, columns, once([columns.map((c) => c.example)])),
    };
  });
  endpoint(endpoints.template, ({ principal, body }) =>
    downloads.issue(principal, {
      producer: templateProducer,
      access: contract.manage,
      format: body.format,
    }),
  );

  acceptFileBodies(app);
  return endpoints;
}
