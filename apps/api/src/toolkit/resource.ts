import {
  listEndpoints,
  resourceEndpoints,
  writeEndpoints,
  type FieldErrors,
  type ImportDefinition,
  type ListDefinition,
  type ListEndpoints,
  type ResourceDefinition,
  type ResourceEndpoints,
  type Schema,
  type WriteEndpoints,
} from '@inventory/contract';
import * as z from 'zod/mini';
import type { Queryable, Row } from '../db/db.js';
import { Answer, JsonAnswer } from '../http/endpoint.js';
import {
  ConflictError,
  NotFoundError,
  ValidationError,
  uniqueViolationAs,
} from '../http/errors.js';
import { auditActor, recordAudit } from '../modules/audit/audit.service.js';
import type { ModuleContext } from '../modules/module.js';
import type { Principal, RequestMeta } from '../modules/session/session.service.js';
import { registerImports } from './imports.js';
import { CONTENT_TYPES, fileStream, type Cell } from './files.js';
import { createAnswerCache } from './answer-cache.js';
import { allRows, countRows, listPage, listSqlText, type ListSql } from './list.js';

/** A list's parsed query: its filters' values and the toolkit's paging and sort. */
export type ListQueryOf<R extends ListDefinition> =
  R extends ListDefinition<infer _I, infer Filters, infer Sort>
    ? { [K in keyof Filters]?: z.output<Filters[K]> } & {
        search?: string | undefined;
        sort: Sort;
        order: 'asc' | 'desc';
        cursor?: string | undefined;
        limit: number;
      }
    : never;

/** An input to prepare for writing: a create (id null) or an update of row `id`. */
export type WriteInput = { readonly input: Record<string, unknown>; readonly id: number | null };

/** Column values to write, or the field messages that stop the write. */
export type Prepared =
  | { readonly values: Record<string, unknown>; readonly errors?: undefined }
  | { readonly errors: FieldErrors; readonly values?: undefined };

/** Where a row may be used: a count of the rows that refer to row `$1`. */
export type Reference = { readonly label: string; readonly countSql: string };

/** The server half of a toolkit list: how its rows are read. */
export type ListStore<L extends ListDefinition = ListDefinition> = {
  readonly contract: L;
  readonly list: ListSql<ListQueryOf<L>>;
};

/** Turns inputs into column values, many at once (an import resolves references in one query). */
export type PrepareRows = (inputs: readonly WriteInput[], db: Queryable) => Promise<Prepared[]>;

/** Who writes, for the events and audit entries that a last step writes itself. */
export type Writer = { readonly actor: Principal; readonly meta: RequestMeta };

/**
 * Last step before rows are written, inside the writing transaction (never at a dry run): e.g.
 * creating the brands that imported models name. Gets and gives column values.
 */
export type FinishRows = (
  records: Record<string, unknown>[],
  db: Queryable,
  writer: Writer,
) => Promise<Record<string, unknown>[]>;

/** How an import matches the rows of its table that a file row updates. */
export type ImportKey = {
  /** The fields of the unique key; the last one is named in errors. */
  readonly fields: readonly string[];
  /** The ON CONFLICT target: the columns of the unique index. */
  readonly conflict: string;
  /** The index's predicate when it is a partial unique index. */
  readonly conflictWhere?: string;
  /** A SQL expression giving the key as the fields' values lower-cased and joined by `|`. */
  readonly match: string;
};

/**
 * An import that writes more than one table (a manifest creates invoices, lines and IMEIs): it
 * writes the checked rows itself and counts the rows a commit would update.
 */
export type ImportWriter = {
  /** The fields that make a row unique in a file; the last one is named in errors. */
  readonly fields: readonly string[];
  countExisting(records: readonly Record<string, unknown>[], db: Queryable): Promise<number>;
  write(
    records: readonly Record<string, unknown>[],
    tx: Queryable,
    writer: Writer,
  ): Promise<{ created: number; updated: number }>;
};

/**
 * The server half of a file import (the toolkit's upload, check and commit): into one table by
 * its unique key, or through a writer of its own.
 */
export type ImportStore = {
  readonly contract: ImportDefinition;
  readonly table: string;
  /** The audit log's entity type: `color`, `tac_number`. */
  readonly entity: string;
  readonly prepare?: PrepareRows;
  readonly finish?: FinishRows;
  readonly imports: {
    /** The schema of one file row. */
    readonly rowSchema: Schema;
  } & ({ readonly key: ImportKey } | { readonly writer: ImportWriter });
};

/**
 * The server half of a toolkit resource: how its rows are read, written and imported. Everything
 * else (endpoints, paging, count, export, import steps, audit, 409 on use) comes from the toolkit.
 */
export type ResourceStore<R extends ResourceDefinition = ResourceDefinition> = ListStore<R> & {
  readonly table: string;
  /** The audit log's entity type: `color`, `tac_number`. */
  readonly entity: string;
  /** Unique index name to the field and message of its 422. */
  readonly uniques: Readonly<Record<string, readonly [field: string, message: string]>>;
  readonly references: readonly Reference[];
  /** Each result has the same keys for inputs of the same fields. Default: as given. */
  readonly prepare?: PrepareRows;
  readonly finish?: FinishRows;
  readonly imports: {
    readonly key: ImportKey;
    /** The schema of one file row, when it differs from the create input. */
    readonly rowSchema?: Schema;
  };
};

export const quoteIdentifier = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The fields of an input that are set, as values to write; or the errors, when there are any. */
export const preparedOf = (input: Record<string, unknown>, errors: FieldErrors = {}): Prepared =>
  Object.keys(errors).length > 0
    ? { errors }
    : {
        values: Object.fromEntries(
          Object.entries(input).filter(([, value]) => value !== undefined),
        ),
      };

const defaultPrepare = async (inputs: readonly WriteInput[]): Promise<Prepared[]> =>
  inputs.map(({ input }) => preparedOf(input));

export async function prepareOne(
  store: ResourceStore,
  input: Record<string, unknown>,
  id: number | null,
  db: Queryable,
): Promise<Record<string, unknown>> {
  const [prepared] = await (store.prepare ?? defaultPrepare)([{ input, id }], db);
  if (prepared?.errors) throw new ValidationError(prepared.errors);
  return prepared!.values;
}

/** Column values after the store's last step before writing. */
export async function finishOne(
  store: ResourceStore,
  values: Record<string, unknown>,
  db: Queryable,
  writer: Writer,
): Promise<Record<string, unknown>> {
  return store.finish ? (await store.finish([values], db, writer))[0]! : values;
}

/** What reading one row by id needs of a store. */
type ItemSource = {
  readonly contract: { readonly singular: string };
  readonly list: Pick<ListSql<never>, 'from' | 'id' | 'columns'>;
};

export async function findItem(store: ItemSource, db: Queryable, id: number): Promise<Row> {
  const [item] = await db.query(
    `SELECT ${store.list.columns} FROM ${store.list.from} WHERE ${store.list.id} = $1`,
    [id],
  );
  if (!item) throw new NotFoundError(`There is no ${store.contract.singular} with id ${id}.`);
  return item;
}

/** How many rows refer to a row, per reference that has any: "12 TAC numbers". */
export async function usesOf(store: ResourceStore, db: Queryable, id: number): Promise<string[]> {
  const uses: string[] = [];
  for (const reference of store.references) {
    const [row] = await db.query<{ n: number }>(`SELECT (${reference.countSql})::int AS n`, [id]);
    if (row && row.n > 0) uses.push(`${row.n} ${reference.label}`);
  }
  return uses;
}

const auditAction = (store: ResourceStore, verb: string) => `${store.entity}.${verb}`;

async function createItem(
  store: ResourceStore,
  db: Queryable,
  actor: Principal,
  input: Record<string, unknown>,
  meta: RequestMeta,
) {
  const values = await finishOne(store, await prepareOne(store, input, null, db), db, {
    actor,
    meta,
  });
  const columns = Object.keys(values);
  const [created] = await db
    .query<{ id: number }>(
      `INSERT INTO ${store.table} (${[...columns, 'created_by', 'updated_by'].map(quoteIdentifier).join(', ')})
       VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')}, $${columns.length + 1}, $${columns.length + 1})
       RETURNING id`,
      [...Object.values(values), actor.userId],
    )
    .catch(uniqueViolationAs(store.uniques));
  const item = await findItem(store, db, created!.id);
  await recordAudit(db, {
    ...auditActor(actor, meta),
    action: auditAction(store, 'created'),
    entityType: store.entity,
    entityId: created!.id,
    after: item,
  });
  return item;
}

/** Writes the given column values of one row and records what changed. */
export async function updateItem(
  store: ResourceStore,
  db: Queryable,
  actor: Principal,
  id: number,
  values: Record<string, unknown>,
  meta: RequestMeta,
  verb?: string,
) {
  const before = await findItem(store, db, id);
  const columns = Object.keys(values);
  if (columns.length > 0) {
    await db
      .query(
        `UPDATE ${store.table} SET ${columns.map((column, i) => `${quoteIdentifier(column)} = $${i + 2}`).join(', ')},
           updated_at = now(), updated_by = $${columns.length + 2}
         WHERE id = $1`,
        [id, ...Object.values(values), actor.userId],
      )
      .catch(uniqueViolationAs(store.uniques));
  }
  const after = await findItem(store, db, id);
  const activeChanged = 'active' in values && before.active !== after.active;
  await recordAudit(db, {
    ...auditActor(actor, meta),
    action: auditAction(
      store,
      verb ?? (activeChanged ? (after.active ? 'activated' : 'deactivated') : 'updated'),
    ),
    entityType: store.entity,
    entityId: id,
    before,
    after,
  });
  return after;
}

async function deleteItem(
  store: ResourceStore,
  db: Queryable,
  actor: Principal,
  id: number,
  meta: RequestMeta,
) {
  const before = await findItem(store, db, id);
  await db.query(`SELECT 1 FROM ${store.table} WHERE id = $1 FOR UPDATE`, [id]);
  const uses = await usesOf(store, db, id);
  if (uses.length > 0) {
    throw new ConflictError(
      `This ${store.contract.singular} is used by ${uses.join(' and ')}: deactivate it instead.`,
    );
  }
  await db.query(`DELETE FROM ${store.table} WHERE id = $1`, [id]);
  await recordAudit(db, {
    ...auditActor(actor, meta),
    action: auditAction(store, 'deleted'),
    entityType: store.entity,
    entityId: id,
    before,
  });
}

/** An item's value as an export cell: lists joined by `|`, booleans as yes/no. */
export const cellOf = (value: unknown): Cell => {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) return value.join('|');
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'number' || typeof value === 'string') return value;
  return JSON.stringify(value);
};

async function* exportChunks(store: ListStore, db: Queryable, query: ListQueryOf<ListDefinition>) {
  const keys = store.contract.exportColumns.map((column) => column.key);
  for await (const rows of allRows(db, store.list, query)) {
    yield rows.map((row) => keys.map((key) => cellOf(row[key])));
  }
}

const stamp = () => new Date().toISOString().slice(0, 10);

/** Registers the reading endpoints of a list (page, count, one row, export) and its export file. */
export function registerList<L extends ListDefinition>(
  context: ModuleContext,
  store: ListStore<L>,
): ListEndpoints {
  const { endpoint, db, downloads } = context;
  const general = store as unknown as ListStore;
  const { contract } = general;
  const endpoints = listEndpoints(contract) as unknown as ListEndpoints;

  const pages = createAnswerCache(context.dataVersions);
  const counts = createAnswerCache(context.dataVersions);
  const keepsAnswers = { keepsAnswers: true };
  endpoint(
    endpoints.list,
    async ({ query, principal }) => {
      const sql = listSqlText(general.list, query as never);
      return new JsonAnswer(
        await pages.answer(sql, query, principal.dataVersions, () =>
          listPage(db, general.list, query as never),
        ),
      );
    },
    keepsAnswers,
  );
  endpoint(
    endpoints.count,
    async ({ query, principal }) => {
      const counted = { ...(query as object), limit: 0 } as never;
      const sql = listSqlText(general.list, counted);
      return new JsonAnswer(
        await counts.answer(sql, counted, principal.dataVersions, () =>
          countRows(db, general.list, counted),
        ),
      );
    },
    keepsAnswers,
  );
  endpoint(endpoints.get, ({ params }) => findItem(general, db, params.id) as never);

  const exportProducer = `${contract.name}:export`;
  downloads.addProducer(exportProducer, async (request) => {
    // The filters as parsed when the link was issued (a boolean filter is `true` by then, which
    // would not parse again); links are written by this server only.
    const query = request.query as ListQueryOf<ListDefinition>;
    const format = request.format as 'csv' | 'xlsx';
    return {
      fileName: `${contract.name}-${stamp()}.${format}`,
      contentType: CONTENT_TYPES[format],
      stream: fileStream(
        format,
        contract.plural,
        contract.exportColumns,
        exportChunks(general, db, query),
      ),
    };
  });
  endpoint(endpoints.exportFile, ({ principal, body }) => {
    const { format, ...query } = body as { format: 'csv' | 'xlsx'; [filter: string]: unknown };
    return downloads.issue(principal, {
      producer: exportProducer,
      access: contract.view,
      format,
      query,
    });
  });
  return endpoints;
}

/** What the toolkit's create, update and delete need of a store. */
export type WriteStore = Pick<
  ResourceStore,
  'table' | 'entity' | 'uniques' | 'references' | 'prepare' | 'finish'
> &
  ItemSource & {
    readonly contract: Pick<
      ResourceDefinition,
      'name' | 'singular' | 'tag' | 'manage' | 'item' | 'create' | 'update'
    >;
  };

/** Registers the form writes of a table: create, update (a field left out is kept), delete. */
export function registerWrites(context: ModuleContext, store: WriteStore): WriteEndpoints {
  const { endpoint, db } = context;
  const general = store as unknown as ResourceStore;
  const { contract } = store;
  const writes = writeEndpoints(contract) as unknown as WriteEndpoints;

  endpoint(
    writes.create,
    ({ principal, body, meta }) =>
      db.transaction((tx) =>
        createItem(general, tx, principal, body as Record<string, unknown>, meta),
      ) as never,
  );
  endpoint(
    writes.update,
    ({ principal, params, body, meta }) =>
      db.transaction(async (tx) => {
        await findItem(general, tx, params.id);
        const prepared = await prepareOne(general, body as Record<string, unknown>, params.id, tx);
        const values = await finishOne(general, prepared, tx, { actor: principal, meta });
        return updateItem(general, tx, principal, params.id, values, meta);
      }) as never,
  );
  endpoint(writes.remove, async ({ principal, params, meta }) => {
    await db.transaction((tx) => deleteItem(general, tx, principal, params.id, meta));
    return new Answer(null, `The ${contract.singular} is deleted.`);
  });
  return writes;
}

/** Registers every endpoint of a resource: its list, its form writes and its import. */
export function registerResource<R extends ResourceDefinition>(
  context: ModuleContext,
  store: ResourceStore<R>,
): ResourceEndpoints {
  const general = store as unknown as ResourceStore;
  const { contract } = general;
  registerList(context, general);
  registerWrites(context, general);
  registerImports(context, {
    ...general,
    imports: { ...general.imports, rowSchema: general.imports.rowSchema ?? contract.create },
  });
  return resourceEndpoints(contract) as unknown as ResourceEndpoints;
}
