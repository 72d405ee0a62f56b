import {
  ACCESSORY_KINDS,
  accessoryEndpoints,
  accessoryResource,
  type Accessory,
} from '@inventory/contract';
import { Tag } from 'antd';
import type { PageProps } from '../../../shell/page-types';
import { ACTIVE_OPTIONS, resourcePage } from '../../../toolkit/resource-page-config';
import { activeTag, ResourcePage } from '../../../toolkit/resource-page';
import {
  compatibleModelsField,
  firstOf,
  optionsOf,
  searchModels,
  stampColumns,
} from './master-data-options';

const config = resourcePage({
  resource: accessoryResource,
  endpoints: accessoryEndpoints,
  titleOf: (accessory) => accessory.sku,
  searchPlaceholder: 'SKU, name or barcode',
  columns: [
    { key: 'sku', title: 'SKU', sortKey: 'sku' },
    { key: 'name', title: 'Name', sortKey: 'name' },
    {
      key: 'kind',
      title: 'Kind',
      sortKey: 'kind',
      render: (accessory) => <Tag>{accessory.kind}</Tag>,
    },
    { key: 'barcode', title: 'Barcode' },
    {
      key: 'compatible_models',
      title: 'Compatible models',
      render: (accessory) =>
        firstOf(accessory.compatible_models).map((model) => <Tag key={model}>{model}</Tag>),
    },
    { key: 'reorder_point', title: 'Reorder point', sortKey: 'reorder_point' },
    { key: 'active', title: 'Status', render: (accessory) => activeTag(accessory.active) },
    ...stampColumns<Accessory>(),
  ],
  filters: [
    { key: 'kind', label: 'Kind', options: optionsOf(ACCESSORY_KINDS) },
    { key: 'model_id', label: 'Model', load: searchModels },
    { key: 'active', label: 'Status', options: ACTIVE_OPTIONS },
  ],
  form: {
    fields: [
      { name: 'sku', label: 'SKU', kind: 'text', required: true },
      { name: 'name', label: 'Name', kind: 'text', required: true },
      {
        name: 'kind',
        label: 'Kind',
        kind: 'select',
        options: optionsOf(ACCESSORY_KINDS),
        required: true,
      },
      {
        name: 'barcode',
        label: 'Barcode',
        kind: 'text',
        help: 'Letters, digits and symbols, without spaces.',
      },
      compatibleModelsField,
      {
        name: 'reorder_point',
        label: 'Reorder point',
        kind: 'number',
        min: 0,
        precision: 0,
        suffix: 'units',
        help: 'Reorder when stock falls to this many.',
      },
      { name: 'active', label: 'Active', kind: 'switch' },
    ],
    defaults: { compatible_model_ids: [], reorder_point: 0, active: true },
    toValues: (accessory) => accessory,
  },
});

/** Accessory master: SKU, kind, barcode, compatible models and reorder point. */
export default function AccessoriesPage(props: PageProps) {
  return <ResourcePage {...props} config={config} />;
}
