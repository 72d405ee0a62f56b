import type { ResourceDefinition, ResourceEndpoints } from '@inventory/contract';
import type { ReactNode } from 'react';

export type Option = { readonly value: string | number; readonly label: string };

/** A field of a resource's form; its validation comes from the contract's schema of that name. */
export type FormField = {
  readonly name: string;
  readonly label: string;
  readonly required?: boolean;
  readonly help?: string;
  readonly placeholder?: string;
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

/** A column of a toolkit list; `sortKey` names one of the resource's sorts. */
export type ListColumn<T> = {
  readonly key: string;
  readonly title: string;
  readonly sortKey?: string;
  readonly render?: (item: T) => ReactNode;
  readonly width?: number;
  /** Hidden until chosen in the column chooser. */
  readonly hidden?: boolean;
};

/** A filter above the list: fixed options, or options searched on the server. */
export type ListFilter = { readonly key: string; readonly label: string } & (
  { readonly options: readonly Option[] } | { readonly load: (search: string) => Promise<Option[]> }
);

/** Everything a master-data page declares; the toolkit's ResourcePage does the rest. */
export type ResourcePageConfig<T> = {
  readonly resource: ResourceDefinition;
  readonly endpoints: ResourceEndpoints;
  readonly titleOf: (item: T) => string;
  readonly searchPlaceholder: string;
  readonly columns: readonly ListColumn<T>[];
  readonly filters: readonly ListFilter[];
  readonly form: {
    readonly fields: readonly FormField[];
    readonly defaults: Record<string, unknown>;
    readonly toValues: (item: T) => Record<string, unknown>;
    readonly toBody?: (values: Record<string, unknown>) => unknown;
  };
  /** Extra actions of a row (merge, lookup); shown to those who may manage the resource. */
  readonly rowActions?: (item: T) => ReactNode;
  /** Extra content above the list (a lookup box, tabs). */
  readonly header?: ReactNode;
};

/** The options of an active filter. */
export const ACTIVE_OPTIONS: readonly Option[] = [
  { value: 'true', label: 'Active' },
  { value: 'false', label: 'Inactive' },
];

/** "colours", "TAC numbers": a plural in running text, acronyms kept. */
export const inText = (plural: string) =>
  /^[A-Z][a-z]/.test(plural) ? plural[0]!.toLowerCase() + plural.slice(1) : plural;
