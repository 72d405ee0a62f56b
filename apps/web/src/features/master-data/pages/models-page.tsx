import {
  DEVICE_OSES,
  DEVICE_TYPES,
  deviceModelEndpoints,
  deviceModelResource,
  mergeDeviceModelEndpoint,
  NETWORKS,
  type DeviceModel,
} from '@inventory/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Tag } from 'antd';
import type { PageProps } from '../../../shell/page-types';
import { MergeButton } from '../../../toolkit/merge-button';
import { RowLink } from '../../../toolkit/record-link';
import {
  ACTIVE_OPTIONS,
  resourcePage,
  type Option,
  type ResourcePageConfig,
} from '../../../toolkit/resource-page-config';
import { activeTag, ResourcePage } from '../../../toolkit/resource-page';
import { searchModels } from './master-data-options';

const options = (values: readonly string[]): Option[] =>
  values.map((value) => ({ value, label: value }));

const flags = (model: DeviceModel) =>
  [model.dual_sim && 'Dual SIM', model.esim && 'eSIM', model.hotspot && 'Hotspot']
    .filter(Boolean)
    .map((flag) => <Tag key={String(flag)}>{flag}</Tag>);

function modelsConfig(refresh: () => void): ResourcePageConfig<DeviceModel> {
  return resourcePage({
    resource: deviceModelResource,
    endpoints: deviceModelEndpoints,
    titleOf: (model) => model.display_name,
    searchPlaceholder: 'Brand, model or model number',
    keyColumn: 'name',
    columns: [
      { key: 'brand', title: 'Brand', sortKey: 'brand' },
      { key: 'name', title: 'Model', sortKey: 'name' },
      {
        key: 'model_numbers',
        title: 'Model numbers',
        render: (model) => model.model_numbers.map((number) => <Tag key={number}>{number}</Tag>),
      },
      { key: 'device_type', title: 'Type' },
      { key: 'os', title: 'OS' },
      {
        key: 'storage_gb',
        title: 'Storage',
        render: (model) => (model.storage_gb === null ? '—' : `${model.storage_gb} GB`),
      },
      { key: 'network', title: 'Network' },
      { key: 'flags', title: 'SIM and hotspot', render: flags },
      {
        key: 'weight_g',
        title: 'Shipping weight',
        hidden: true,
        render: (model) => (model.weight_g === null ? '—' : `${model.weight_g} g`),
      },
      {
        key: 'tac_count',
        title: 'TACs',
        sortKey: 'tac_count',
        render: (model) => (
          <RowLink
            to={`/master-data/tac-number?model_id=${model.id}`}
            where={`TAC numbers of ${model.display_name}`}
            named
          >
            {model.tac_count}
          </RowLink>
        ),
      },
      { key: 'active', title: 'Status', render: (model) => activeTag(model.active) },
      {
        key: 'updated_at',
        title: 'Updated',
        sortKey: 'updated_at',
        hidden: true,
        render: (model) => new Date(model.updated_at).toLocaleString(),
      },
    ],
    filters: [
      { key: 'device_type', label: 'Type', options: options(DEVICE_TYPES) },
      { key: 'os', label: 'OS', options: options(DEVICE_OSES) },
      { key: 'network', label: 'Network', options: options(NETWORKS) },
      { key: 'active', label: 'Status', options: ACTIVE_OPTIONS },
    ],
    form: {
      fields: [
        { name: 'brand', label: 'Brand', kind: 'text', required: true },
        { name: 'name', label: 'Model name', kind: 'text', required: true },
        {
          name: 'model_numbers',
          label: 'Model numbers',
          kind: 'words',
          help: 'The maker’s numbers, e.g. XT2271DL.',
        },
        {
          name: 'device_type',
          label: 'Type',
          kind: 'select',
          options: options(DEVICE_TYPES),
          required: true,
        },
        {
          name: 'os',
          label: 'OS',
          kind: 'select',
          options: options(DEVICE_OSES),
          required: true,
          help: 'The dashboard counts stock by OS.',
        },
        { name: 'storage_gb', label: 'Storage', kind: 'number', min: 0, suffix: 'GB' },
        { name: 'ram_gb', label: 'Memory', kind: 'number', min: 0, suffix: 'GB' },
        {
          name: 'network',
          label: 'Network',
          kind: 'select',
          options: options(NETWORKS),
          required: true,
        },
        { name: 'dual_sim', label: 'Dual SIM', kind: 'switch' },
        { name: 'esim', label: 'eSIM', kind: 'switch' },
        { name: 'hotspot', label: 'Hotspot', kind: 'switch' },
        { name: 'weight_g', label: 'Shipping weight', kind: 'number', min: 1, suffix: 'g' },
        { name: 'active', label: 'Active', kind: 'switch' },
      ],
      defaults: {
        brand: '',
        name: '',
        model_numbers: [],
        device_type: 'phone',
        network: '4G',
        dual_sim: false,
        esim: false,
        hotspot: false,
        active: true,
      },
      toValues: (model) => model,
      // The brand is sent by name: a new one is created with the model.
      toBody: ({ brand, ...values }) => ({ ...values, brand }),
    },
    rowActions: (model) => (
      <MergeButton
        endpoint={mergeDeviceModelEndpoint}
        id={model.id}
        title={model.display_name}
        load={searchModels}
        onMerged={refresh}
      />
    ),
  });
}

/** Device models: brand, model numbers, type, OS, storage, network and shipping weight. */
export default function ModelsPage(props: PageProps) {
  const client = useQueryClient();
  const refresh = () =>
    void client.invalidateQueries({ queryKey: [deviceModelEndpoints.list.path] });
  return <ResourcePage {...props} config={modelsConfig(refresh)} />;
}
