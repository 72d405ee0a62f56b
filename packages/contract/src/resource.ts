import * as z from 'zod/mini';
import type { Access } from './access.js';
import { defineEndpoint, type Schema } from './endpoint.js';
import { idNumber, idParamsSchema } from './list.js';

/**
 * The list, import and export toolkit's contract. A master-data area declares one resource (its
 * item, its inputs, its filters, sorts and file columns) and gets the same set of endpoints as
 * every other area: keyset-paged list, capped count, one row, create, update, delete, export to
 * CSV/XLSX and the import steps (upload, check, commit, history, error file).
 */

/** Lists count exactly up to this many rows and say "more than" beyond. */
export const COUNT_CAP = 10_000;

/** Cursor of the last page: the rows before the end, in the list's order. */
export const LAST_PAGE_CURSOR = 'last';

export const FILE_FORMATS = ['csv', 'xlsx'] as const;
export type FileFormat = (typeof FILE_FORMATS)[number];

/** The largest file an import accepts, in bytes. */
export const IMPORT_MAX_BYTES = 50 * 1024 * 1024;
/** The most data rows one import may hold. */
export const IMPORT_MAX_ROWS = 200_000;

/** A column of the import and export files: its header and, for imports, whether it is needed. */
export type FileColumn = {
  readonly key: string;
  readonly header: string;
  readonly required?: boolean;
  /** A sample value for the template. */
  readonly example: string;
  /** What to write, shown at the column-mapping step. */
  readonly hint?: string;
  /** How a cell is read: a list is separated by `|`; a boolean is yes/no. Text by default. */
  readonly kind?: 'text' | 'list' | 'integer' | 'number' | 'boolean';
};

/**
 * A toolkit list: a table that can be searched, filtered, sorted, paged, counted and exported.
 * Registers whose rows change only through named actions (devices, invoice IMEIs) are lists only.
 */
export type ListDefinition<
  Item extends Schema = Schema,
  Filters extends Record<string, Schema> = Record<string, Schema>,
  Sort extends string = string,
> = {
  /** Path segment of the API and the import/export resource name: `colors`, `tac-numbers`. */
  readonly name: string;
  readonly singular: string;
  readonly plural: string;
  /** OpenAPI tag. */
  readonly tag: string;
  readonly view: Access & { readonly permission: string };
  readonly item: Item;
  readonly filters: Filters;
  readonly sorts: readonly [Sort, ...Sort[]];
  readonly defaultSort: NoInfer<Sort>;
  /** The order a list opens in; ascending unless said (newest first lists say `desc`). */
  readonly defaultOrder?: 'asc' | 'desc';
  /** Columns of the export file, read from the item. */
  readonly exportColumns: readonly FileColumn[];
};

/** What a file import declares: who may import, and the columns of its template and files. */
export type ImportDefinition = {
  readonly name: string;
  readonly singular: string;
  readonly plural: string;
  readonly tag: string;
  readonly manage: Access & { readonly permission: string };
  /** Columns of the import template and file; the key names the row's field. */
  readonly importColumns: readonly FileColumn[];
  /** The most data rows one file may hold, when fewer than IMPORT_MAX_ROWS (a file per commit). */
  readonly maxRows?: number;
  /**
   * What the whole file shares, given with the dry run and kept on the batch for the commit (a
   * campaign's name and client carrier): the schema of the check's `options`.
   */
  readonly options?: Schema;
  /** What the dry run tells beside the errors (a campaign's demand per SKU): its schema. */
  readonly summary?: Schema;
};

/** A table edited with the toolkit's forms: a list with create, update, delete and import. */
export type ResourceDefinition<
  Item extends Schema = Schema,
  Create extends Schema = Schema,
  Update extends Schema = Schema,
  Filters extends Record<string, Schema> = Record<string, Schema>,
  Sort extends string = string,
> = ListDefinition<Item, Filters, Sort> &
  ImportDefinition & {
    readonly create: Create;
    readonly update: Update;
  };

const trimmedText = (max: number, tooLong: string) =>
  z.string().check(z.trim(), z.maxLength(max, tooLong));

type ListableResource<Filters extends Record<string, Schema>, Sort extends string> = Pick<
  ListDefinition<Schema, Filters, Sort>,
  'filters' | 'sorts' | 'defaultSort' | 'defaultOrder'
>;

/** What a list shows, without paging: search, sort and the resource's filters (count, export). */
export const filterQuerySchemaOf = <Filters extends Record<string, Schema>, Sort extends string>(
  resource: ListableResource<Filters, Sort>,
) =>
  z.extend(
    z.object({
      search: z.optional(trimmedText(200, 'The search is too long.')),
      sort: z._default(z.enum(resource.sorts), resource.defaultSort),
      order: z._default(z.enum(['asc', 'desc']), resource.defaultOrder ?? 'asc'),
    }),
    resource.filters,
  );

/** The query of every toolkit list: keyset paging, sort, search and the resource's filters. */
export const listQuerySchemaOf = <Filters extends Record<string, Schema>, Sort extends string>(
  resource: ListableResource<Filters, Sort>,
) =>
  z.extend(filterQuerySchemaOf(resource), {
    cursor: z.optional(z.string().check(z.maxLength(1000, 'The page link is damaged.'))),
    limit: z._default(
      z.coerce
        .number()
        .check(
          z.int('The page size must be a whole number.'),
          z.gte(1, 'The page size must be at least 1.'),
          z.lte(200, 'The page size must be at most 200.'),
        ),
      50,
    ),
  });

/** A page of a keyset list; the cursors are opaque links to the neighbouring pages. */
export const cursorPageSchema = <T extends Schema>(item: T) =>
  z.object({
    items: z.array(item),
    nextCursor: z.nullable(z.string()),
    prevCursor: z.nullable(z.string()),
  });

/** The number of matching rows, exact up to COUNT_CAP; `capped` when there are more. */
export const countSchema = z.object({ total: z.int(), capped: z.boolean() });

/** A link that downloads a file once, within a minute. */
export const downloadSchema = z.object({ url: z.string(), expiresAt: z.string() });
export type Download = z.infer<typeof downloadSchema>;

const formatSchema = z._default(z.enum(FILE_FORMATS), 'csv');

export const importBatchSchema = z.object({
  id: z.int(),
  resource: z.string(),
  file_name: z.string(),
  format: z.enum(FILE_FORMATS),
  status: z.enum(['uploaded', 'checked', 'committed', 'failed']),
  headers: z.array(z.string()),
  /** Import column key to the file header it is read from. */
  mapping: z.record(z.string(), z.nullable(z.string())),
  row_count: z.int(),
  error_count: z.int(),
  created_count: z.int(),
  updated_count: z.int(),
  created_at: z.string(),
  created_by_name: z.nullable(z.string()),
  committed_at: z.nullable(z.string()),
});
export type ImportBatch = z.infer<typeof importBatchSchema>;

export const importErrorSchema = z.object({
  row: z.int(),
  column: z.string(),
  value: z.string(),
  message: z.string(),
});
export type ImportError = z.infer<typeof importErrorSchema>;

/** A checked import: every row's errors (the first 500 here, all in the error file). */
export const importCheckSchema = z.object({
  batch: importBatchSchema,
  errors: z.array(importErrorSchema),
  /** Rows that would be created and updated by a commit. */
  willCreate: z.int(),
  willUpdate: z.int(),
});
export type ImportCheck = z.infer<typeof importCheckSchema>;

const mappingField = z.optional(
  z.record(z.string(), z.nullable(z.string().check(z.maxLength(200)))),
);

export const importMappingBodySchema = z.object({ mapping: mappingField });

/**
 * How a commit treats rows in error: `all_or_nothing` writes nothing unless every row is right;
 * `valid_rows` writes the right rows and keeps the others in the batch's error file.
 */
export const IMPORT_MODES = ['all_or_nothing', 'valid_rows'] as const;
export type ImportMode = (typeof IMPORT_MODES)[number];

export const importCommitBodySchema = z.object({
  mode: z._default(
    z.enum(IMPORT_MODES, 'Choose all or nothing, or the valid rows only.'),
    'all_or_nothing',
  ),
});

/** An import without options or summary: neither is sent nor answered. */
const NOTHING = z.optional(z.null());
type OptionsOf<D> = D extends { readonly options: infer O extends Schema } ? O : typeof NOTHING;
type SummaryOf<D> = D extends { readonly summary: infer S extends Schema } ? S : typeof NOTHING;

const batchParamsSchema = z.object({
  id: z.coerce.number().check(z.int('The id must be a whole number.'), z.gte(1, 'Unknown id.')),
});

/** The upload's query: the file's name (its extension says CSV or XLSX). */
export const importUploadQuerySchema = z.object({
  fileName: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, 'The file needs a name.'),
      z.maxLength(255, 'The file name is too long.'),
    ),
});

/** The reading endpoints of a list: page, count, one row, export. */
export function listEndpoints<
  Item extends Schema,
  Filters extends Record<string, Schema>,
  Sort extends string,
>(resource: ListDefinition<Item, Filters, Sort>) {
  const base = `/${resource.name}`;
  const { tag, view, plural, singular } = resource;
  const listQuery = listQuerySchemaOf(resource);
  const filterQuery = filterQuerySchemaOf(resource);
  return {
    list: defineEndpoint({
      method: 'GET',
      path: base,
      summary: `${plural}: one page, searched, filtered and sorted`,
      tag,
      guard: view,
      query: listQuery,
      response: cursorPageSchema(resource.item),
    }),
    count: defineEndpoint({
      method: 'GET',
      path: `${base}/count`,
      summary: `How many ${plural.toLowerCase()} match, exact up to ${COUNT_CAP}`,
      tag,
      guard: view,
      query: filterQuery,
      response: countSchema,
    }),
    get: defineEndpoint({
      method: 'GET',
      path: `${base}/:id`,
      summary: `One ${singular}`,
      tag,
      guard: view,
      params: idParamsSchema,
      response: resource.item,
    }),
    exportFile: defineEndpoint({
      method: 'POST',
      path: `${base}/exports`,
      summary: `A download link for the ${plural.toLowerCase()} that match, as CSV or XLSX`,
      tag,
      guard: view,
      body: z.object({ ...filterQuery.shape, format: formatSchema }),
      response: downloadSchema,
      successStatus: 201,
    }),
  };
}

/** The form endpoints of a resource: create, update, delete. */
export function writeEndpoints<Item extends Schema, Create extends Schema, Update extends Schema>(
  resource: Pick<
    ResourceDefinition<Item, Create, Update>,
    'name' | 'singular' | 'tag' | 'manage' | 'item' | 'create' | 'update'
  >,
) {
  const base = `/${resource.name}`;
  const { tag, manage, singular } = resource;
  return {
    create: defineEndpoint({
      method: 'POST',
      path: base,
      summary: `Create a ${singular}`,
      tag,
      guard: manage,
      body: resource.create,
      response: resource.item,
      successStatus: 201,
    }),
    update: defineEndpoint({
      method: 'PUT',
      path: `${base}/:id`,
      summary: `Change a ${singular}; a field left out is kept; active=false deactivates`,
      tag,
      guard: manage,
      params: idParamsSchema,
      body: resource.update,
      response: resource.item,
    }),
    remove: defineEndpoint({
      method: 'DELETE',
      path: `${base}/:id`,
      summary: `Delete a ${singular} nothing refers to (409 says where it is used)`,
      tag,
      guard: manage,
      params: idParamsSchema,
      response: z.null(),
    }),
  };
}

/** The import endpoints: template, upload, history, dry run, commit, error file. */
export function importEndpoints<const D extends ImportDefinition>(resource: D) {
  const base = `/${resource.name}`;
  const { tag, manage, plural } = resource;
  // The definition's own schemas where it declares them (a boundary: D's keys are not narrowed).
  const options = (resource.options ?? NOTHING) as OptionsOf<D>;
  const summary = (resource.summary ?? NOTHING) as SummaryOf<D>;
  return {
    template: defineEndpoint({
      method: 'POST',
      path: `${base}/import-template`,
      summary: `A download link for the import template of ${plural.toLowerCase()}`,
      tag,
      guard: manage,
      body: z.object({ format: formatSchema }),
      response: downloadSchema,
      successStatus: 201,
    }),
    upload: defineEndpoint({
      method: 'POST',
      path: `${base}/imports`,
      summary: `Upload a CSV or XLSX file of ${plural.toLowerCase()} (the body is the file)`,
      tag,
      guard: manage,
      query: importUploadQuerySchema,
      response: importBatchSchema,
      successStatus: 201,
    }),
    imports: defineEndpoint({
      method: 'GET',
      path: `${base}/imports`,
      summary: `Import history of ${plural.toLowerCase()}, newest first`,
      tag,
      guard: manage,
      response: z.array(importBatchSchema),
    }),
    check: defineEndpoint({
      method: 'POST',
      path: `${base}/imports/:id/check`,
      summary: 'Dry run: map the columns and check every row; nothing is written',
      tag,
      guard: manage,
      params: batchParamsSchema,
      body: z.object({ mapping: mappingField, options }),
      response: z.extend(importCheckSchema, { summary }),
    }),
    commit: defineEndpoint({
      method: 'POST',
      path: `${base}/imports/:id/commit`,
      summary:
        'Write a checked import in one transaction: every row or none, or only the valid rows',
      tag,
      guard: manage,
      params: batchParamsSchema,
      body: importCommitBodySchema,
      response: importBatchSchema,
    }),
    errorFile: defineEndpoint({
      method: 'POST',
      path: `${base}/imports/:id/error-file`,
      summary: "A download link for the last check's errors, one row per error",
      tag,
      guard: manage,
      params: batchParamsSchema,
      response: downloadSchema,
      successStatus: 201,
    }),
  };
}

/** Every endpoint of a resource, from its definition. */
export function resourceEndpoints<
  Item extends Schema,
  Create extends Schema,
  Update extends Schema,
  Filters extends Record<string, Schema>,
  Sort extends string,
>(resource: ResourceDefinition<Item, Create, Update, Filters, Sort>) {
  return {
    ...listEndpoints(resource),
    ...writeEndpoints(resource),
    ...importEndpoints(resource),
  };
}

export type ListEndpoints = ReturnType<typeof listEndpoints>;
export type WriteEndpoints = ReturnType<typeof writeEndpoints>;
export type ImportEndpoints = ReturnType<typeof importEndpoints>;
export type ResourceEndpoints = ReturnType<typeof resourceEndpoints>;

/** The one-use download every download link points at. */
export const downloadEndpoint = defineEndpoint({
  method: 'GET',
  path: '/downloads/:token',
  summary: 'Download a prepared file once (the link is the credential, for one minute)',
  tag: 'Files',
  guard: 'public',
  params: z.object({ token: z.string().check(z.maxLength(100)) }),
  response: z.unknown(),
});

/** A boolean filter as a query string carries it. */
export const booleanFilter = z.optional(
  z.pipe(
    z.enum(['true', 'false']),
    z.transform((value) => value === 'true'),
  ),
);

/** An id filter as a query string carries it. */
export const idFilter = z.optional(idNumber);

/** A filter that is one of a set of words. */
export const enumFilter = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.optional(z.enum(values));

export const defineList = <
  Item extends Schema,
  Filters extends Record<string, Schema>,
  Sort extends string,
>(
  list: ListDefinition<Item, Filters, Sort>,
) => list;

export const defineResource = <
  Item extends Schema,
  Create extends Schema,
  Update extends Schema,
  Filters extends Record<string, Schema>,
  Sort extends string,
>(
  resource: ResourceDefinition<Item, Create, Update, Filters, Sort>,
) => resource;
