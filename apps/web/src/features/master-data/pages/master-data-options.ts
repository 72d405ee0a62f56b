import { tacModelOptionsEndpoint } from '@inventory/contract';
import { pickerLoader } from '../../../toolkit/picker-options';
import type { FormField, ListColumn, Option } from '../../../toolkit/resource-page-config';

/** Helpers shared by the master-data and PTS declaration pages. */

/** The options of an enum; each value is its own label, as the import files write it. */
export const optionsOf = (values: readonly string[]): Option[] =>
  values.map((value) => ({ value, label: value }));

/** Active models for a picker or a filter, by brand, name or model number. */
export const searchModels = pickerLoader(tacModelOptionsEndpoint);

/** An item's compatible models as picker options, shown before any search. */
export const compatibleModelOptions = (item: {
  compatible_model_ids: number[];
  compatible_models: string[];
}): Option[] =>
  item.compatible_model_ids.map((id, index) => ({
    value: id,
    label: item.compatible_models[index] ?? `#${id}`,
  }));

/** The form's picker of an item's compatible models (accessories, parts). */
export const compatibleModelsField: FormField<'compatible_model_ids'> = {
  name: 'compatible_model_ids',
  label: 'Compatible models',
  kind: 'remote',
  multiple: true,
  load: searchModels,
  initial: compatibleModelOptions,
};

/** The first few entries of a long list, then how many more there are. */
export const firstOf = (values: readonly string[], shown = 3): string[] =>
  values.length <= shown + 1
    ? [...values]
    : [...values.slice(0, shown), `+${values.length - shown} more`];

const when = (iso: string) => new Date(iso).toLocaleString();

/** Created and updated, hidden until chosen; every master-data resource sorts by updated_at. */
export const stampColumns = <T extends { created_at: string; updated_at: string }>(): ListColumn<
  T,
  'updated_at'
>[] => [
  { key: 'created_at', title: 'Created', hidden: true, render: (item) => when(item.created_at) },
  {
    key: 'updated_at',
    title: 'Updated',
    sortKey: 'updated_at',
    hidden: true,
    render: (item) => when(item.updated_at),
  },
];
