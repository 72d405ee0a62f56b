import { colorEndpoints, colorResource, mergeColorEndpoint, type Color } from '@inventory/contract';
import { Space, Tag } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '../../../shell/http-client';
import type { PageProps } from '../../../shell/page-types';
import { MergeButton } from '../../../toolkit/merge-button';
import {
  ACTIVE_OPTIONS,
  resourcePage,
  type ResourcePageConfig,
} from '../../../toolkit/resource-page-config';
import { activeTag, ResourcePage } from '../../../toolkit/resource-page';

/** Colours to choose from, by name or alias. */
export const searchColors = async (search: string) =>
  (
    await callEndpoint(colorEndpoints.list, { query: { search, limit: 20, active: 'true' } })
  ).data.items.map((color) => ({ value: color.id, label: color.name }));

const swatch = (color: Color) => (
  <Space>
    <span
      aria-hidden
      style={{
        display: 'inline-block',
        width: 14,
        height: 14,
        borderRadius: 3,
        border: '1px solid #d9d9d9',
        background: color.hex ?? 'transparent',
      }}
    />
    {color.name}
  </Space>
);

function colorsConfig(refresh: () => void): ResourcePageConfig<Color> {
  return resourcePage({
    resource: colorResource,
    endpoints: colorEndpoints,
    titleOf: (color) => color.name,
    searchPlaceholder: 'Name, alias or hex',
    columns: [
      { key: 'name', title: 'Name', sortKey: 'name', render: swatch },
      { key: 'hex', title: 'Hex' },
      {
        key: 'aliases',
        title: 'Aliases',
        render: (color) => color.aliases.map((alias) => <Tag key={alias}>{alias}</Tag>),
      },
      { key: 'usage_count', title: 'TAC numbers', sortKey: 'usage_count' },
      { key: 'active', title: 'Status', render: (color) => activeTag(color.active) },
      {
        key: 'updated_at',
        title: 'Updated',
        sortKey: 'updated_at',
        hidden: true,
        render: (color) => new Date(color.updated_at).toLocaleString(),
      },
    ],
    filters: [{ key: 'active', label: 'Status', options: ACTIVE_OPTIONS }],
    form: {
      fields: [
        { name: 'name', label: 'Name', kind: 'text', required: true },
        { name: 'hex', label: 'Hex', kind: 'text', placeholder: '#1C1C1E' },
        {
          name: 'aliases',
          label: 'Aliases',
          kind: 'words',
          help: 'Vendor spellings that mean this colour.',
        },
        { name: 'active', label: 'Active', kind: 'switch' },
      ],
      defaults: { name: '', hex: '', aliases: [], active: true },
      toValues: (color) => ({ ...color, hex: color.hex ?? '' }),
    },
    rowActions: (color) => (
      <MergeButton
        endpoint={mergeColorEndpoint}
        id={color.id}
        title={color.name}
        load={searchColors}
        onMerged={refresh}
      />
    ),
  });
}

/** Colours with their vendor spellings; merge duplicates. */
export default function ColorsPage(props: PageProps) {
  const client = useQueryClient();
  const refresh = () => void client.invalidateQueries({ queryKey: [colorEndpoints.list.path] });
  return <ResourcePage {...props} config={colorsConfig(refresh)} />;
}
