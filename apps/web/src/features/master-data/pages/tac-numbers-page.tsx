import {
  TAC_SOURCES,
  tacLookupEndpoint,
  tacNumberEndpoints,
  tacNumberResource,
  type TacLookup,
  type TacNumber,
} from '@inventory/contract';
import { Alert, Descriptions, Input, Space, Tag } from 'antd';
import { useState } from 'react';
import { showApiError } from '../../../shell/api-errors';
import { callEndpoint } from '../../../shell/http-client';
import type { PageProps } from '../../../shell/page-types';
import { ACTIVE_OPTIONS, resourcePage } from '../../../toolkit/resource-page-config';
import { activeTag, ResourcePage } from '../../../toolkit/resource-page';
import { UnknownTacs } from '../components/unknown-tacs';
import { searchColors } from './colors-page';
import { searchModels } from './master-data-options';

/** Scan or type an IMEI, MEID or TAC and see the model its TAC resolves to. */
function ImeiLookup() {
  const [result, setResult] = useState<TacLookup | null>(null);
  const [busy, setBusy] = useState(false);
  const lookUp = async (code: string) => {
    if (!code.trim()) return;
    setBusy(true);
    try {
      setResult((await callEndpoint(tacLookupEndpoint, { query: { code } })).data);
    } catch (error) {
      showApiError(error);
    } finally {
      setBusy(false);
    }
  };
  const found = result?.tacNumber;
  return (
    <Space orientation="vertical" style={{ width: '100%', marginBottom: 16 }}>
      <Input.Search
        aria-label="Look up an IMEI"
        placeholder="Scan or type an IMEI, MEID or TAC"
        enterButton="Look up"
        loading={busy}
        onSearch={(code) => void lookUp(code)}
        style={{ maxWidth: 480 }}
      />
      {result && (
        <Alert
          data-testid="lookup-result"
          type={result.problem ? 'warning' : 'success'}
          showIcon
          title={
            found
              ? `${result.input} is a ${found.model}`
              : (result.problem ?? `${result.input}: no model`)
          }
          description={
            <Descriptions size="small" column={4}>
              <Descriptions.Item label="Read as">{result.kind.toUpperCase()}</Descriptions.Item>
              <Descriptions.Item label="TAC">{result.tac ?? '—'}</Descriptions.Item>
              <Descriptions.Item label="Capacity">
                {found?.capacity_gb ? `${found.capacity_gb} GB` : '—'}
              </Descriptions.Item>
              <Descriptions.Item label="Colour">{found?.color ?? '—'}</Descriptions.Item>
              {found && result.problem && (
                <Descriptions.Item label="Note">{result.problem}</Descriptions.Item>
              )}
            </Descriptions>
          }
        />
      )}
      <UnknownTacs />
    </Space>
  );
}

const config = resourcePage({
  resource: tacNumberResource,
  endpoints: tacNumberEndpoints,
  titleOf: (tac) => tac.tac,
  searchPlaceholder: 'TAC digits, brand or model',
  header: <ImeiLookup />,
  columns: [
    { key: 'tac', title: 'TAC', sortKey: 'tac' },
    { key: 'model', title: 'Model', sortKey: 'model' },
    {
      key: 'capacity_gb',
      title: 'Capacity',
      render: (tac) => (tac.capacity_gb === null ? '—' : `${tac.capacity_gb} GB`),
    },
    { key: 'color', title: 'Colour' },
    { key: 'source', title: 'Source', render: (tac) => <Tag>{tac.source}</Tag> },
    { key: 'active', title: 'Status', render: (tac) => activeTag(tac.active) },
    {
      key: 'updated_at',
      title: 'Updated',
      sortKey: 'updated_at',
      hidden: true,
      render: (tac) => new Date(tac.updated_at).toLocaleString(),
    },
  ],
  filters: [
    { key: 'model_id', label: 'Model', load: searchModels },
    { key: 'color_id', label: 'Colour', load: searchColors },
    {
      key: 'source',
      label: 'Source',
      options: TAC_SOURCES.map((source) => ({ value: source, label: source })),
    },
    { key: 'active', label: 'Status', options: ACTIVE_OPTIONS },
  ],
  form: {
    fields: [
      {
        name: 'tac',
        label: 'TAC',
        kind: 'text',
        required: true,
        help: 'The first 8 digits of the IMEI.',
      },
      {
        name: 'model_id',
        label: 'Model',
        kind: 'remote',
        required: true,
        load: searchModels,
        initial: (tac: TacNumber) => [{ value: tac.model_id, label: tac.model }],
      },
      { name: 'capacity_gb', label: 'Capacity', kind: 'number', min: 1, suffix: 'GB' },
      {
        name: 'color_id',
        label: 'Colour',
        kind: 'remote',
        load: searchColors,
        initial: (tac: TacNumber) =>
          tac.color_id === null ? [] : [{ value: tac.color_id, label: tac.color ?? '' }],
      },
      { name: 'active', label: 'Active', kind: 'switch' },
    ],
    defaults: { tac: '', active: true },
    toValues: (tac) => tac,
  },
});

/** TACs that resolve an IMEI to its model, with an IMEI lookup. */
export default function TacNumbersPage(props: PageProps) {
  return <ResourcePage {...props} config={config} />;
}
