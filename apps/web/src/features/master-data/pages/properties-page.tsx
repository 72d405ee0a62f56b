import {
  PROPERTY_DATA_TYPES,
  PROPERTY_TARGETS,
  propertyEndpoints,
  propertyResource,
  type Property,
} from '@inventory/contract';
import { Tag } from 'antd';
import type { PageProps } from '../../../shell/page-types';
import { ACTIVE_OPTIONS, resourcePage } from '../../../toolkit/resource-page-config';
import { activeTag, ResourcePage } from '../../../toolkit/resource-page';
import { firstOf, optionsOf, stampColumns } from './master-data-options';

const config = resourcePage({
  resource: propertyResource,
  endpoints: propertyEndpoints,
  titleOf: (property) => property.name,
  searchPlaceholder: 'Name or unit',
  columns: [
    { key: 'name', title: 'Name', sortKey: 'name' },
    {
      key: 'data_type',
      title: 'Data type',
      sortKey: 'data_type',
      render: (property) => <Tag>{property.data_type}</Tag>,
    },
    { key: 'unit', title: 'Unit' },
    {
      key: 'enum_values',
      title: 'Enum values',
      render: (property) =>
        firstOf(property.enum_values).map((value) => <Tag key={value}>{value}</Tag>),
    },
    {
      key: 'applies_to',
      title: 'Applies to',
      render: (property) => property.applies_to.map((target) => <Tag key={target}>{target}</Tag>),
    },
    { key: 'usage_count', title: 'Used by', sortKey: 'usage_count' },
    { key: 'active', title: 'Status', render: (property) => activeTag(property.active) },
    ...stampColumns<Property>(),
  ],
  filters: [
    { key: 'data_type', label: 'Data type', options: optionsOf(PROPERTY_DATA_TYPES) },
    { key: 'applies_to', label: 'Applies to', options: optionsOf(PROPERTY_TARGETS) },
    { key: 'active', label: 'Status', options: ACTIVE_OPTIONS },
  ],
  form: {
    fields: [
      { name: 'name', label: 'Name', kind: 'text', required: true },
      {
        name: 'data_type',
        label: 'Data type',
        kind: 'select',
        options: optionsOf(PROPERTY_DATA_TYPES),
        required: true,
        help: 'It cannot change once products or variants have a value.',
      },
      { name: 'unit', label: 'Unit', kind: 'text', placeholder: 'mAh', help: 'For numbers.' },
      {
        name: 'enum_values',
        label: 'Enum values',
        kind: 'words',
        help: 'For the enum type only: the values to choose from.',
      },
      {
        name: 'applies_to',
        label: 'Applies to',
        kind: 'select',
        options: optionsOf(PROPERTY_TARGETS),
        multiple: true,
        required: true,
      },
      { name: 'active', label: 'Active', kind: 'switch' },
    ],
    defaults: {
      data_type: 'text',
      enum_values: [],
      applies_to: [...PROPERTY_TARGETS],
      active: true,
    },
    toValues: (property) => property,
  },
});

/** Typed product attributes such as battery health or screen size. */
export default function PropertiesPage(props: PageProps) {
  return <ResourcePage {...props} config={config} />;
}
