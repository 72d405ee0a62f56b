import {
  listEndpoints,
  resourceEndpoints,
  writeEndpoints,
  type FieldErrors,
  type ListDefinition,
  type ListEndpoints,
  type ResourceDefinition,
  type ResourceEndpoints,
  type Schema,
  type WriteEndpoints,
} from '@inventory/contract';
import * as z from 'zod/mini';
import type { Queryable, Row, Transaction } from '../db/db.js';
import { Answer, JsonAnswer } from '../http/endpoint.js';
import {
  ConflictError,
  NotFoundError,
  ValidationError,
  uniqueViolationAs,
} from '../http/errors.js';
import { auditActor, recordAudit } from '../modules/audit/audit.service.js';
import type { ModuleContext } from '../modules/module.js';
import type { Principal, RequestMeta } from '../http/principal.js';
import { quoteIdentifier, whereOf } from '../http/sql.js';
import { registerImports } from './imports.js';
import type {
  ListQueryOf,
  ListStore,
  Prepared,
  Preparing,
  ResourceFieldsOf,
  ResourceStore,
  WriteInput,
  Writer,
} from './stores.js';
import { CONTENT_TYPES, fileStream, type Cell } from './files.js';
import { createAnswerCache } from './answer-cache.js';
import { allRows, countRows, listPage, type Condition, type ListSql } from './list.js';
import { scopeOf, withinScope } from './scope.js';

export type {
  ListQueryOf,
  WriteFieldsOf,
  ResourceFieldsOf,
  WriteInput,
  Prepared,
  Reference,
  ListStore,
  PrepareRows,
  Writer,
  FinishRows,
  ImportKey,
  ImportWriter,
  ImportStore,
  ResourceStore,
} from './stores.js';

/** The fields of an input that are set, as values to write; or the errors, when there are any. */
export const preparedOf = (input: Record<string, unknown>, errors: FieldErrors = {}): Prepared =>
  Object.keys(errors).length > 0
    ? { errors }
    : {
        values: Object.fromEntries(
          Object.entries(input).filter(([, value]) => value !== undefined),
        ),
      };

const defaultPrepare = async <Fields extends Record<string, unknown>>(
  inputs: readonly WriteInput<Fields>[],
): Promise<Prepared[]> => inputs.map(({ input }) => preparedOf(input));

/** The column values of one input, by the store's `prepare`; its field messages are a 422. */
export async function prepareOne<Fields extends Record<string, unknown>>(
  store: Preparing<Fields>,
  input: NoInfer<Fields>,
  id: number | null,
  db: Queryable,
): Promise<Record<string, unknown>> {
  const [prepared] = await (store.prepare ?? defaultPrepare)([{ input, id }], db);
  if (prepared?.errors) throw new ValidationError(prepared.errors);
  return prepared!.values;
}

/** Column values after the store's last step before writing. */
export async function finishOne(
  store: WriteStore,
  values: Record<string, unknown>,
  tx: Transaction,
  writer: Writer,
): Promise<Record<string, unknown>> {
  return store.finish ? (await store.finish([values], tx, writer))[0]! : values;
}

/** What reading one row by id needs of a store. */
type ItemSource = {
  readonly contract: { readonly singular: string };
  readonly list: Pick<ListSql<never>, 'from' | 'id' | 'columns'>;
  readonly scope?: ListStore['scope'];
};

/** A row as a store reads it: in its contract's item shape, or of any shape for a store in general. */
export type StoreItem<S extends ItemSource> = S['contract'] extends {
  readonly item: infer Item extends Schema;
}
  ? unknown extends z.output<Item>
    ? Row
    : z.output<Item> & Row
  : Row;

/** One row by id; with the asker, a row outside the store's scope is not found either (404). */
export async function findItem<S extends ItemSource>(
  store: S,
  db: Queryable,
  id: number,
  asker?: Principal,
): Promise<StoreItem<S>> {
  const where = whereOf([[`${store.list.id} = ?`, id], asker ? scopeOf(store, asker) : null]);
  const [item] = await db.query<StoreItem<S>>(
    `SELECT ${store.list.columns} FROM ${store.list.from} ${where.sql}`,
    where.params,
  );
  if (!item) throw new NotFoundError(`There is no ${store.contract.singular} with id ${id}.`);
  return item;
}

/** How many rows refer to a row, per reference that has any: "12 TAC numbers". */
export async function usesOf(store: WriteStore, db: Queryable, id: number): Promise<string[]> {
  const uses: string[] = [];
  for (const reference of store.references) {
    const [row] = await db.query<{ n: number }>(`SELECT (${reference.countSql})::int AS n`, [id]);
    if (row && row.n > 0) uses.push(`${row.n} ${reference.label}`);
  }
  return uses;
}

const auditAction = (store: WriteStore, verb: string) => `${store.entity}.${verb}`;

async function createItem(
  store: WriteStore,
  db: Transaction,
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
  store: WriteStore,
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
  store: WriteStore,
  db: Transaction,
  actor: Principal,
  id: number,
  meta: RequestMeta,
) {
  const before = await findItem(store, db, id, actor);
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
  store: ListStore,
  db: Queryable,
  query: ListQueryOf<ListDefinition>,
  scope: Condition,
) {
  const keys = store.contract.exportColumns.map((column) => column.key);
  for await (const rows of allRows(db, withinScope(store.list, scope), query)) {
    yield rows.map((row) => keys.map((key) => cellOf(row[key])));
  }
}

const stamp = () => new Date().toISOString().slice(0, 10);

/**
 * A list's query as its endpoint parsed it, by the list's own schema (`listQuerySchemaOf`): zod's
 * types of a list in general (any filters) keep none of its keys, so they are named here.
 */
const listQueryOf = (parsed: Record<string, unknown>) => parsed as ListQueryOf<ListDefinition>;

const listsByApp = new WeakMap<object, ListStore[]>();

/** Every list an app registered, in order: the index test explains each one's sorts. */
export const registeredLists = (app: object): readonly ListStore[] => listsByApp.get(app) ?? [];

/** Registers the reading endpoints of a list (page, count, one row, export) and its export file. */
export function registerList(context: ModuleContext, store: ListStore): ListEndpoints {
  const { endpoint, db, replica, downloads } = context;
  const { contract } = store;
  const endpoints = listEndpoints(contract);
  listsByApp.set(context.app, [...registeredLists(context.app), store]);

  // Answers are kept per scope: the asker's condition is part of an answer's key.
  const pages = createAnswerCache(context.dataVersions, store.reads ?? []);
  const counts = createAnswerCache(context.dataVersions, store.reads ?? []);
  const keepsAnswers = { keepsAnswers: store.reads !== undefined };
  endpoint(
    endpoints.list,
    async ({ query: parsed, principal }) => {
      const query = listQueryOf(parsed);
      const scope = scopeOf(store, principal);
      return new JsonAnswer(
        await pages.answer([scope, query], principal.dataVersions, () =>
          listPage(db, withinScope(store.list, scope), query),
        ),
      );
    },
    keepsAnswers,
  );
  endpoint(
    endpoints.count,
    async ({ query, principal }) => {
      const counted = { ...listQueryOf(query), limit: 0 };
      const scope = scopeOf(store, principal);
      return new JsonAnswer(
        await counts.answer([scope, counted], principal.dataVersions, async () =>
          JSON.stringify(await countRows(db, withinScope(store.list, scope), counted)),
        ),
      );
    },
    keepsAnswers,
  );
  endpoint(endpoints.get, ({ params, principal }) => findItem(store, db, params.id, principal));

  const exportProducer = `${contract.name}:export`;
  downloads.addProducer(exportProducer, async (request) => {
    // The filters as parsed when the link was issued (a boolean filter is `true` by then, which
    // would not parse again); links are written by this server only.
    const query = request.query as ListQueryOf<ListDefinition>;
    const scope = request.scope as Condition;
    const format = request.format as 'csv' | 'xlsx';
    return {
      fileName: `${contract.name}-${stamp()}.${format}`,
      contentType: CONTENT_TYPES[format],
      stream: fileStream(
        format,
        contract.plural,
        contract.exportColumns,
        // A file of the whole list: the replica's work, where there is one.
        exportChunks(store, replica, query, scope),
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
      // The asker's scope as the link was issued: the file has the rows the list showed them.
      scope: scopeOf(store, principal),
    });
  });
  return endpoints;
}

/** What the toolkit's create, update and delete need of a contract. */
type WriteDefinition = Pick<
  ResourceDefinition,
  'name' | 'singular' | 'tag' | 'manage' | 'item' | 'create' | 'update'
>;

/** What the toolkit's create, update and delete need of a store; `prepare` reads C's inputs. */
export type WriteStore<C extends WriteDefinition = WriteDefinition> = Pick<
  ResourceStore,
  'table' | 'entity' | 'uniques' | 'references' | 'finish'
> &
  Preparing<ResourceFieldsOf<C>> &
  ItemSource & { readonly contract: C };

/** Registers the form writes of a table: create, update (a field left out is kept), delete. */
export function registerWrites(context: ModuleContext, store: WriteStore): WriteEndpoints {
  const { endpoint, db } = context;
  const { contract } = store;
  const writes = writeEndpoints(contract);

  endpoint(writes.create, ({ principal, body, meta }) =>
    db.transaction((tx) => createItem(store, tx, principal, body as Record<string, unknown>, meta)),
  );
  endpoint(writes.update, ({ principal, params, body, meta }) =>
    db.transaction(async (tx) => {
      await findItem(store, tx, params.id, principal);
      const prepared = await prepareOne(store, body as Record<string, unknown>, params.id, tx);
      const values = await finishOne(store, prepared, tx, { actor: principal, meta });
      return updateItem(store, tx, principal, params.id, values, meta);
    }),
  );
  endpoint(writes.remove, async ({ principal, params, meta }) => {
    await db.transaction((tx) => deleteItem(store, tx, principal, params.id, meta));
    return new Answer(null, `The ${contract.singular} is deleted.`);
  });
  return writes;
}

/** Registers every endpoint of a resource: its list, its form writes and its import. */
export function registerResource(context: ModuleContext, store: ResourceStore): ResourceEndpoints {
  const { contract } = store;
  registerList(context, store);
  registerWrites(context, store);
  registerImports(context, {
    ...store,
    imports: { ...store.imports, rowSchema: store.imports.rowSchema ?? contract.create },
  });
  return resourceEndpoints(contract);
}
