import { PART_CATEGORIES, partEndpoints, partResource, type Part } from '@inventory/contract';
import { Tag } from 'antd';
import type { PageProps } from '../../../shell/page-types';
import {
  ACTIVE_OPTIONS,
  resourcePage,
  type FormValues,
} from '../../../toolkit/resource-page-config';
import { activeTag, ResourcePage } from '../../../toolkit/resource-page';
import {
  compatibleModelsField,
  firstOf,
  optionsOf,
  searchModels,
  stampColumns,
} from './master-data-options';

const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

const config = resourcePage({
  resource: partResource,
  endpoints: partEndpoints,
  titleOf: (part) => part.part_number,
  searchPlaceholder: 'Part number, name or barcode',
  columns: [
    { key: 'part_number', title: 'Part number', sortKey: 'part_number' },
    { key: 'name', title: 'Name', sortKey: 'name' },
    {
      key: 'category',
      title: 'Category',
      sortKey: 'category',
      render: (part) => <Tag>{part.category}</Tag>,
    },
    {
      key: 'compatible_models',
      title: 'Compatible models',
      render: (part) =>
        firstOf(part.compatible_models).map((model) => <Tag key={model}>{model}</Tag>),
    },
    {
      key: 'cost_cents',
      title: 'Cost',
      sortKey: 'cost_cents',
      render: (part) => money.format(part.cost_cents / 100),
    },
    { key: 'reorder_point', title: 'Reorder point', sortKey: 'reorder_point' },
    { key: 'barcode', title: 'Barcode', hidden: true },
    { key: 'active', title: 'Status', render: (part) => activeTag(part.active) },
    ...stampColumns<Part>(),
  ],
  filters: [
    { key: 'category', label: 'Category', options: optionsOf(PART_CATEGORIES) },
    { key: 'model_id', label: 'Model', load: searchModels },
    { key: 'active', label: 'Status', options: ACTIVE_OPTIONS },
  ],
  form: {
    fields: [
      { name: 'part_number', label: 'Part number', kind: 'text', required: true },
      { name: 'name', label: 'Name', kind: 'text', required: true },
      {
        name: 'category',
        label: 'Category',
        kind: 'select',
        options: optionsOf(PART_CATEGORIES),
        required: true,
      },
      compatibleModelsField,
      // In dollars on the form; the API takes cents (see toValues and toBody).
      {
        name: 'cost',
        label: 'Cost',
        kind: 'number',
        min: 0,
        step: 0.01,
        precision: 2,
        suffix: 'USD',
      },
      {
        name: 'reorder_point',
        label: 'Reorder point',
        kind: 'number',
        min: 0,
        precision: 0,
        suffix: 'units',
        help: 'Reorder when stock falls to this many.',
      },
      {
        name: 'barcode',
        label: 'Barcode',
        kind: 'text',
        help: 'Letters, digits and symbols, without spaces.',
      },
      { name: 'active', label: 'Active', kind: 'switch' },
    ],
    defaults: { compatible_model_ids: [], cost: 0, reorder_point: 0, active: true },
    // Without cost_cents in the form's values, a server message on it is shown, not dropped.
    toValues: ({ cost_cents, ...part }) => ({ ...part, cost: cost_cents / 100 }),
    toBody: ({ cost, ...values }: FormValues<'cost'>) => ({
      ...values,
      cost_cents: Math.round(Number(cost ?? 0) * 100),
    }),
  },
});

/** Part master: part number, category, compatible models, cost and reorder point. */
export default function PartsPage(props: PageProps) {
  return <ResourcePage {...props} config={config} />;
}
