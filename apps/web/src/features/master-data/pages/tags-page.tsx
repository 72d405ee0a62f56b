import {
  mergeTagEndpoint,
  TAG_SCOPES,
  tagEndpoints,
  tagResource,
  type Tag as TagItem,
} from '@inventory/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Tag } from 'antd';
import { callEndpoint } from '../../../shell/http-client';
import type { PageProps } from '../../../shell/page-types';
import { MergeButton } from '../../../toolkit/merge-button';
import {
  ACTIVE_OPTIONS,
  resourcePage,
  type ResourcePageConfig,
} from '../../../toolkit/resource-page-config';
import { activeTag, ResourcePage } from '../../../toolkit/resource-page';
import { optionsOf, stampColumns } from './master-data-options';

/** Active tags to merge into, by name or colour. */
const searchTags = async (search: string) =>
  (
    await callEndpoint(tagEndpoints.list, { query: { search, limit: 20, active: 'true' } })
  ).data.items.map((tag) => ({ value: tag.id, label: tag.name }));

function tagsConfig(refresh: () => void): ResourcePageConfig<TagItem> {
  return resourcePage({
    resource: tagResource,
    endpoints: tagEndpoints,
    titleOf: (tag) => tag.name,
    searchPlaceholder: 'Name or colour',
    columns: [
      {
        key: 'name',
        title: 'Name',
        sortKey: 'name',
        render: (tag) => <Tag color={tag.color ?? undefined}>{tag.name}</Tag>,
      },
      { key: 'color', title: 'Colour' },
      {
        key: 'scope',
        title: 'Scope',
        render: (tag) => tag.scope.map((scope) => <Tag key={scope}>{scope}</Tag>),
      },
      { key: 'usage_count', title: 'Used by', sortKey: 'usage_count' },
      { key: 'active', title: 'Status', render: (tag) => activeTag(tag.active) },
      ...stampColumns<TagItem>(),
    ],
    filters: [
      { key: 'scope', label: 'Scope', options: optionsOf(TAG_SCOPES) },
      { key: 'active', label: 'Status', options: ACTIVE_OPTIONS },
    ],
    form: {
      fields: [
        { name: 'name', label: 'Name', kind: 'text', required: true },
        { name: 'color', label: 'Colour', kind: 'text', placeholder: '#FFB300' },
        {
          name: 'scope',
          label: 'Scope',
          kind: 'select',
          options: optionsOf(TAG_SCOPES),
          multiple: true,
          required: true,
          help: 'What the tag may be put on.',
        },
        { name: 'active', label: 'Active', kind: 'switch' },
      ],
      defaults: { scope: [...TAG_SCOPES], active: true },
      toValues: (tag) => tag,
      // An emptied colour field is no colour (the contract's hex field does not read '' as none).
      toBody: ({ color, ...values }) => ({ ...values, color: color || null }),
    },
    rowActions: (tag) => (
      <MergeButton
        endpoint={mergeTagEndpoint}
        id={tag.id}
        title={tag.name}
        load={searchTags}
        onMerged={refresh}
      />
    ),
  });
}

/** Labels for filtering products, bundles and combos; merge duplicates. */
export default function TagsPage(props: PageProps) {
  const client = useQueryClient();
  const refresh = () => void client.invalidateQueries({ queryKey: [tagEndpoints.list.path] });
  return <ResourcePage {...props} config={tagsConfig(refresh)} />;
}
