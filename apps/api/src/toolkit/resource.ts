import {
  listQuerySchemaOf,
  resourceEndpoints,
  type FieldErrors,
  type ResourceDefinition,
  type ResourceEndpoints,
} from '@inventory/contract';
import * as z from 'zod/mini';
import type { Queryable, Row } from '../db/db.js';
import { Answer } from '../http/endpoint.js';
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
import { allRows, countRows, listPage, type ListSql } from './list.js';

/** A resource's parsed list query: its filters' values and the toolkit's paging and sort. */
export type ListQueryOf<R extends ResourceDefinition> =
  R extends ResourceDefinition<infer _I, infer _C, infer _U, infer Filters, infer Sort>
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

/**
 * The server half of a toolkit resource: how its rows are read, written and imported. Everything
 * else (endpoints, paging, count, export, import steps, audit, 409 on use) comes from the toolkit.
 */
export type ResourceStore<R extends ResourceDefinition = ResourceDefinition> = {
  readonly contract: R;
  readonly table: string;
  /** The audit log's entity type: `color`, `tac_number`. */
  readonly entity: string;
  readonly list: ListSql<ListQueryOf<R>>;
  /** Unique index name to the field and message of its 422. */
  readonly uniques: Readonly<Record<string, readonly [field: string, message: string]>>;
  readonly references: readonly Reference[];
  /**
   * Turns inputs into column values, many at once so that an import resolves its references in
   * one query. Each result has the same keys for inputs of the same fields. Default: as given.
   */
  readonly prepare?: (inputs: readonly WriteInput[], db: Queryable) => Promise<Prepared[]>;
  /**
   * Last step before rows are written, inside the writing transaction (never at a dry run):
   * e.g. creating the brands that imported models name. Gets and gives column values.
   */
  readonly finish?: (
    records: Record<string, unknown>[],
    db: Queryable,
  ) => Promise<Record<string, unknown>[]>;
  readonly imports: {
    /**
     * How an import matches existing rows: the fields of the unique key (the last one is named in
     * errors), the ON CONFLICT target of its unique index, and a SQL expression giving the key as
     * the fields' values lower-cased and joined by `|`.
     */
    readonly key: {
      readonly fields: readonly string[];
      readonly conflict: string;
      readonly match: string;
    };
    /** The schema of one file row, when it differs from the create input. */
    readonly rowSchema?: z.ZodMiniType;
  };
};

export const quoteIdentifier = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Values for writing, the fields that are set only. */
const defaultPrepare = async (inputs: readonly WriteInput[]): Promise<Prepared[]> =>
  inputs.map(({ input }) => ({
    values: Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined)),
  }));

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
): Promise<Record<string, unknown>> {
  return store.finish ? (await store.finish([values], db))[0]! : values;
}

export async function findItem(store: ResourceStore, db: Queryable, id: number): Promise<Row> {
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
  const values = await finishOne(store, await prepareOne(store, input, null, db), db);
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

async function* exportChunks(
  store: ResourceStore,
  db: Queryable,
  query: ListQueryOf<ResourceDefinition>,
) {
  const keys = store.contract.exportColumns.map((column) => column.key);
  for await (const rows of allRows(db, store.list, query)) {
    yield rows.map((row) => keys.map((key) => cellOf(row[key])));
  }
}

const stamp = () => new Date().toISOString().slice(0, 10);

/** Registers every endpoint of a resource and its file producers. */
export function registerResource<R extends ResourceDefinition>(
  context: ModuleContext,
  store: ResourceStore<R>,
): ResourceEndpoints {
  const { endpoint, db, downloads } = context;
  const general = store as unknown as ResourceStore;
  const { contract } = store;
  const endpoints = resourceEndpoints(contract) as unknown as ResourceEndpoints;
  const listQuerySchema = listQuerySchemaOf(contract);

  endpoint(endpoints.list, ({ query }) => listPage(db, general.list, query as never) as never);
  endpoint(endpoints.count, ({ query }) =>
    countRows(db, general.list, { ...(query as object), limit: 0 } as never),
  );
  endpoint(endpoints.get, ({ params }) => findItem(general, db, params.id) as never);
  endpoint(
    endpoints.create,
    ({ principal, body, meta }) =>
      db.transaction((tx) =>
        createItem(general, tx, principal, body as Record<string, unknown>, meta),
      ) as never,
  );
  endpoint(
    endpoints.update,
    ({ principal, params, body, meta }) =>
      db.transaction(async (tx) => {
        await findItem(general, tx, params.id);
        const prepared = await prepareOne(general, body as Record<string, unknown>, params.id, tx);
        const values = await finishOne(general, prepared, tx);
        return updateItem(general, tx, principal, params.id, values, meta);
      }) as never,
  );
  endpoint(endpoints.remove, async ({ principal, params, meta }) => {
    await db.transaction((tx) => deleteItem(general, tx, principal, params.id, meta));
    return new Answer(null, `The ${contract.singular} is deleted.`);
  });

  const exportProducer = `${contract.name}:export`;
  downloads.addProducer(exportProducer, async (request) => {
    const query = z.parse(listQuerySchema, request.query) as never;
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
    const { format, ...query } = body as { format: 'csv' | 'xlsx' } & Record<string, unknown>;
    return downloads.issue(principal, {
      producer: exportProducer,
      access: contract.view,
      format,
      query,
    });
  });

  registerImports(context, general, endpoints);
  return endpoints;
}
