import type {
  FieldErrors,
  ImportDefinition,
  ListDefinition,
  ResourceDefinition,
  Schema,
} from '@inventory/contract';
import type * as z from 'zod/mini';
import type { Queryable, Transaction } from '../db/db.js';
import type { Principal, RequestMeta } from '../http/principal.js';
import type { VersionedTable } from './answer-cache.js';
import type { Condition, ListSql } from './list.js';

/*
 * The server halves of toolkit tables, as types only. The toolkit's steps (resource.ts,
 * imports.ts) and the code they call (the audit log) read them from here, so none of them
 * imports another to know a store's shape.
 */

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

/** Every field of the objects of a union, each optional, typed as any of them types it. */
type FieldsOf<T> = {
  [K in T extends unknown ? keyof T : never]?: T extends unknown
    ? K extends keyof T
      ? T[K]
      : never
    : never;
};

/**
 * The fields a store's inputs may carry, from the schemas it writes by (a contract's create and
 * update inputs, an import's file row), each optional: an update and an import row carry only the
 * fields given. A wrong name does not compile. Of a store in general (any schema): any field.
 */
export type WriteFieldsOf<Schemas extends Schema> =
  unknown extends z.output<Schemas> ? Record<string, unknown> : FieldsOf<z.output<Schemas>>;

/** The fields of a resource's form inputs and, when its file rows differ, of its import's rows. */
export type ResourceFieldsOf<
  R extends Pick<ResourceDefinition, 'create' | 'update'>,
  Row extends Schema = R['create'],
> = WriteFieldsOf<R['create'] | R['update'] | Row>;

/** An input to prepare for writing: a create (id null) or an update of row `id`. */
export type WriteInput<Fields = Record<string, unknown>> = {
  readonly input: Fields;
  readonly id: number | null;
};

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
  /**
   * Every table the list's SQL reads (subqueries, filters and scope included): its answers are
   * kept in memory under their versions (decision 0010). Left out when the list reads a table
   * without a version: its answers are then read from the tables on every request.
   */
  readonly reads?: readonly VersionedTable[];
  /**
   * The rows the asker may see, as one condition of the list (an agent's own records, a leader's
   * team); null: every row. The condition is the key of the asker's kept answers, and a row
   * outside it is not found (404).
   */
  readonly scope?: (asker: Principal) => Condition;
};

/** Turns inputs into column values, many at once (an import resolves references in one query). */
export type PrepareRows<Fields = Record<string, unknown>> = (
  inputs: readonly WriteInput<Fields>[],
  db: Queryable,
) => Promise<Prepared[]>;

/**
 * A store's first step of writing, typed by the fields of its inputs. A method, so that a store of
 * any inputs is a store of the general kind as it is.
 */
export type Preparing<Fields> = {
  /** Each result has the same keys for inputs of the same fields. Default: as given. */
  prepare?(inputs: readonly WriteInput<Fields>[], db: Queryable): Promise<Prepared[]>;
};

/** Who writes, for the events and audit entries that a last step writes itself. */
export type Writer = { readonly actor: Principal; readonly meta: RequestMeta };

/**
 * Last step before rows are written, inside the writing transaction (never at a dry run): e.g.
 * creating the brands that imported models name. Gets and gives column values.
 */
export type FinishRows = (
  records: Record<string, unknown>[],
  tx: Transaction,
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
  countExisting(
    records: readonly Record<string, unknown>[],
    db: Queryable,
    options: unknown,
  ): Promise<number>;
  /** `options`: what the batch was checked with (the definition's `options`), as parsed. */
  write(
    records: readonly Record<string, unknown>[],
    tx: Transaction,
    writer: Writer,
    options: unknown,
    batch: { readonly id: number; readonly fileName: string },
  ): Promise<{ created: number; updated: number }>;
};

/**
 * An import whose definition declares `options` (what the whole file shares): its rows are
 * prepared knowing them, and the dry run answers its `summary` of the right rows.
 */
export type ImportOptionsStep = {
  prepare(
    inputs: readonly WriteInput<Record<string, unknown>>[],
    db: Queryable,
    options: unknown,
  ): Promise<Prepared[]>;
  summarize?(
    records: readonly Record<string, unknown>[],
    db: Queryable,
    options: unknown,
  ): Promise<unknown>;
};

/**
 * The server half of a file import (the toolkit's upload, check and commit): into one table by
 * its unique key, or through a writer of its own.
 */
export type ImportStore<Row extends Schema = Schema> = Preparing<WriteFieldsOf<Row>> & {
  readonly contract: ImportDefinition;
  readonly table: string;
  /** The audit log's entity type: `color`, `tac_number`. */
  readonly entity: string;
  readonly finish?: FinishRows;
  readonly imports: {
    /** The schema of one file row. */
    readonly rowSchema: Row;
    /** Rows prepared with the batch's options, and the dry run's summary (replaces `prepare`). */
    readonly withOptions?: ImportOptionsStep;
  } & ({ readonly key: ImportKey } | { readonly writer: ImportWriter });
};

/**
 * The server half of a toolkit resource: how its rows are read, written and imported. Everything
 * else (endpoints, paging, count, export, import steps, audit, 409 on use) comes from the toolkit.
 * `Row` is the schema of its import's file rows when they differ from the create input (a TAC
 * file names its model): `prepare` gets the fields of the create, update and file row inputs.
 */
export type ResourceStore<
  R extends ResourceDefinition = ResourceDefinition,
  Row extends Schema = R['create'],
> = ListStore<R> &
  Preparing<ResourceFieldsOf<R, Row>> & {
    readonly table: string;
    /** The audit log's entity type: `color`, `tac_number`. */
    readonly entity: string;
    /** Unique index name to the field and message of its 422. */
    readonly uniques: Readonly<Record<string, readonly [field: string, message: string]>>;
    readonly references: readonly Reference[];
    readonly finish?: FinishRows;
    readonly imports: {
      readonly key: ImportKey;
      /** The schema of one file row, when it differs from the create input. */
      readonly rowSchema?: Row;
    };
  };
