import type {
  ImportBatch,
  ImportDefinition,
  ImportEndpoints,
  ListDefinition,
  ListEndpoints,
  ResourceDefinition,
  WriteEndpoints,
} from '@inventory/contract';
import type { ReactNode } from 'react';
import type * as z from 'zod/mini';

/** The sorts a list declares: the only ones its columns may sort by. */
export type SortOf<L extends ListDefinition> = L['sorts'][number];
/** The filters a list declares: the only ones its page may offer. */
export type FilterOf<L extends ListDefinition> = keyof L['filters'] & string;
/** The fields of a table's create and update inputs: the only ones its form may hold. */
export type FormFieldOf<W extends Pick<ResourceDefinition, 'create' | 'update'>> =
  (keyof z.input<W['create']> & string) | (keyof z.input<W['update']> & string);
/** The rows of a list, as the contract gives them. */
export type ItemOf<L extends ListDefinition> = z.output<L['item']>;

export type Option = { readonly value: string | number; readonly label: string };

/** A field of a resource's form; its validation comes from the contract's schema of that name. */
export type FormField<Name extends string = string> = {
  readonly name: Name;
  readonly label: string;
  readonly required?: boolean;
  readonly help?: string;
  readonly placeholder?: string;
  /** Chosen when the row is created and fixed afterwards (a return's vendor): read-only on edit. */
  readonly createOnly?: boolean;
} & (
  | { readonly kind: 'text' | 'textarea' | 'words' | 'switch' }
  | {
      readonly kind: 'number';
      readonly min?: number;
      readonly step?: number;
      readonly precision?: number;
      readonly suffix?: string;
    }
  | {
      readonly kind: 'select';
      readonly options: readonly Option[];
      readonly multiple?: boolean;
      readonly allowClear?: boolean;
    }
  | {
      readonly kind: 'remote';
      readonly load: (search: string) => Promise<Option[]>;
      readonly multiple?: boolean;
      /** The options of the row's current value, shown before any search. */
      readonly initial?: (item: never) => Option[];
    }
);

/**
 * A column of a toolkit list; `sortKey` names one of the resource's sorts. A column that shows
 * the item's value names its field; one that draws its cell (counts, tags) may name itself.
 */
export type ListColumn<T, Sort extends string = string> = {
  readonly title: string;
  readonly sortKey?: Sort;
  readonly width?: number;
  /** Hidden until chosen in the column chooser. */
  readonly hidden?: boolean;
} & (
  | { readonly key: keyof T & string; readonly render?: (item: T) => ReactNode }
  | { readonly key: string; readonly render: (item: T) => ReactNode }
);

/**
 * A filter above the list: fixed options, options searched on the server, or an id that only a
 * link sets (another page's "its devices"), shown as a tag that clears it.
 */
export type ListFilter<Key extends string = string> = {
  readonly key: Key;
  readonly label: string;
} & (
  | { readonly options: readonly Option[] }
  | {
      /** Options matching a search or, given an id, the option of that id. */
      readonly load: (search: string, id?: number) => Promise<Option[]>;
    }
  | { readonly fromAddress: true }
);

/** A form's values by field name. */
export type FormValues<Name extends string> = Partial<Record<Name, unknown>>;

/**
 * The form of a table edited with the toolkit's drawer: its fields, and how values map. Its
 * fields are the create and update inputs' (`Field`); a value that is no input field (a cost in
 * dollars sent as cents) is named by the type of `toBody`'s parameter (`Value`), never by a field.
 */
export type ResourceForm<T, Field extends string = string, Value extends string = never> = {
  readonly fields: readonly FormField<NoInfer<Field | Value>>[];
  readonly defaults: FormValues<NoInfer<Field | Value>>;
  readonly toValues: (item: T) => Record<string, unknown>;
  readonly toBody?: (values: FormValues<Field | Value>) => unknown;
  /** What follows a creation (a new box opens its scan station). */
  readonly onCreated?: (item: T) => void;
};

/**
 * How an import's steps speak of its rows, for a file whose rows are not created or updated by
 * their key (a carrier's events, recorded once each and moving their parcels).
 */
export type ImportWords = {
  /** What the file's rows do, said before the upload. */
  readonly rows: string;
  /** A right file's dry run: what a commit would write. */
  readonly planned: (willCreate: number, willUpdate: number) => string;
  /** What a commit wrote. */
  readonly done: (batch: ImportBatch) => string;
};

/** A file import offered on the page: its own, or another resource's (a manifest on invoices). */
export type PageImport = {
  readonly resource: ImportDefinition;
  readonly endpoints: ImportEndpoints;
  readonly words?: ImportWords;
};

/**
 * Everything a list page declares; the toolkit's ResourcePage does the rest. A register that
 * changes only through named actions (devices) declares its list alone; a table edited with the
 * toolkit's form adds its writes (`endpoints` with create, update, remove), its `form` and its
 * import. Given its list's definition (`L`) and form fields, the compiler checks the sorts,
 * filters and form fields named against the contract.
 */
export type ResourcePageConfig<
  T,
  L extends ListDefinition = ListDefinition,
  Field extends string = string,
> = {
  readonly resource: L & Partial<Pick<ResourceDefinition, 'manage'>>;
  readonly endpoints: ListEndpoints & Partial<WriteEndpoints>;
  readonly titleOf: (item: T) => string;
  readonly searchPlaceholder: string;
  readonly columns: readonly ListColumn<T, SortOf<L>>[];
  readonly filters: readonly ListFilter<FilterOf<L>>[];
  readonly form?: ResourceForm<T, Field>;
  readonly import?: PageImport;
  /** Extra actions of a row (merge, lookup); shown to those who may manage the resource. */
  readonly rowActions?: (item: T) => ReactNode;
  /** Buttons beside the title, for a page whose creation is its own (an invoice with lines). */
  readonly actions?: ReactNode;
  /** Extra content above the list (a lookup box, tabs). */
  readonly header?: ReactNode;
  /**
   * Rows chosen with check boxes, for actions on many at once (activate, print labels): the
   * page keeps the chosen ids and shows its actions for them in `header`.
   */
  readonly selection?: {
    readonly ids: readonly number[];
    readonly onChange: (ids: number[]) => void;
  };
  /**
   * The column holding a row's key (an invoice number, an IMEI, a name): the link that opens the
   * row's record, always shown. The first column when left out.
   */
  readonly keyColumn?: string;
  /**
   * What a row's key opens. A table with the toolkit's form opens the row's form (`?id=`) for
   * those who may change it, unless the page names a record of its own; a page whose rows open
   * nothing shows its key as text.
   */
  readonly record?: RecordLink<T>;
};

/**
 * A row's record: a view of the page's own, named in the address by `param` (`?invoice=12`
 * opens the invoice's drawer), or a view on another page (`href`, null for a row that has none:
 * an IMEI never received has no device card).
 */
export type RecordLink<T> =
  | {
      readonly param: string;
      /** A click anywhere on the row opens the record too. */
      readonly rowClick?: boolean;
      /** The record is shown instead of the list (a box's station): Back returns to the list. */
      readonly replacesList?: boolean;
    }
  | {
      readonly href: (item: T) => string | null;
      /** Where the link leads, for its tooltip: "Device 35… in the device lookup". */
      readonly where: (item: T) => string;
    };

/**
 * A full toolkit resource's page: list, form writes and import of its own. Its rows, sorts,
 * filters and form fields are the resource's.
 */
export const resourcePage = <R extends ResourceDefinition, Value extends string = never>(
  config: Omit<ResourcePageConfig<ItemOf<R>, R>, 'import' | 'resource' | 'form'> & {
    readonly resource: R;
    readonly endpoints: ListEndpoints & WriteEndpoints & ImportEndpoints;
    readonly form: ResourceForm<ItemOf<R>, FormFieldOf<R>, Value>;
  },
): ResourcePageConfig<ItemOf<R>, R, FormFieldOf<R> | Value> => ({
  ...config,
  import: { resource: config.resource, endpoints: config.endpoints },
});

/** The options of an active filter. */
export const ACTIVE_OPTIONS: readonly Option[] = [
  { value: 'true', label: 'Active' },
  { value: 'false', label: 'Inactive' },
];

/** "colours", "TAC numbers": a plural in running text, acronyms kept. */
export const inText = (plural: string) =>
  /^[A-Z][a-z]/.test(plural) ? plural[0]!.toLowerCase() + plural.slice(1) : plural;
