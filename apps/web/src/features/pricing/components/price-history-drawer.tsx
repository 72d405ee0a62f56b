import { GOV_PROGRAMME_LABELS, type PlanPrice } from '@inventory/contract';
import { Alert, Drawer, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useDialogFocus } from '../../../shell/dialog-focus';
import { dollars, when } from '../../../toolkit/format';
import { usePlanPriceVersions } from '../api/plan-prices.queries';
import { dataWords, priceStatusTag } from './price-words';

/** The terms compared between two versions, in the order a reader looks for them. */
const COMPARED: { label: string; of: (price: PlanPrice) => string }[] = [
  { label: 'Device price', of: (price) => dollars(price.device_price_cents) },
  { label: 'Plan', of: (price) => price.plan_name },
  { label: 'Data', of: dataWords },
  {
    label: 'Minutes',
    of: (price) => (price.minutes === null ? 'Unlimited' : String(price.minutes)),
  },
  { label: 'Effective from', of: (price) => price.effective_from },
  { label: 'Effective to', of: (price) => price.effective_to ?? 'Open' },
  { label: 'Status', of: (price) => price.status },
  { label: 'Note', of: (price) => price.note ?? '—' },
  {
    label: 'Added',
    of: (price) =>
      `${when(price.created_at)}${price.created_by_name ? ` by ${price.created_by_name}` : ''}`,
  },
];

/**
 * The versions of one price's key, oldest first, and two of them compared side by side (the two
 * newest unless others are ticked): what changed is marked.
 */
export function PriceHistoryDrawer({ id, onClose }: { id: number; onClose: () => void }) {
  const dialogFocus = useDialogFocus();
  const versions = usePlanPriceVersions(id);
  const [chosen, setChosen] = useState<number[] | null>(null);
  const rows = versions.data ?? [];
  const compared = (chosen ?? rows.slice(-2).map((price) => price.id))
    .map((versionId) => rows.find((price) => price.id === versionId))
    .filter((price): price is PlanPrice => price !== undefined)
    .sort((a, b) => a.version - b.version);
  const [older, newer] = compared;
  const key = rows[0];

  return (
    <Drawer
      {...dialogFocus}
      open
      size={760}
      title={
        key
          ? `History of ${GOV_PROGRAMME_LABELS[key.programme]} ${key.state ?? 'every state'}, ${key.model_name}${key.variant_sku ? ` ${key.variant_sku}` : ''}`
          : 'Price history'
      }
      onClose={onClose}
    >
      {versions.isError && (
        <Alert
          type="error"
          showIcon
          title="The history could not be loaded."
          description={versions.error.message}
        />
      )}
      <Typography.Paragraph type="secondary">
        {key ? `${key.carrier_name}. ` : ''}Every change is a new version; a version that has
        started is kept as it was. Tick two versions to compare them.
      </Typography.Paragraph>
      <Table<PlanPrice>
        rowKey="id"
        size="small"
        loading={versions.isLoading}
        dataSource={rows}
        pagination={false}
        rowSelection={{
          selectedRowKeys: compared.map((price) => price.id),
          onChange: (keys) => setChosen(keys.map(Number).slice(-2)),
          getCheckboxProps: (price) => ({ 'aria-label': `Compare version ${price.version}` }),
          hideSelectAll: true,
        }}
        columns={[
          { key: 'version', title: 'Version', render: (_, price) => `v${price.version}` },
          {
            key: 'price',
            title: 'Device price',
            render: (_, price) => dollars(price.device_price_cents),
          },
          { key: 'plan', title: 'Plan', dataIndex: 'plan_name' },
          { key: 'data', title: 'Data', render: (_, price) => dataWords(price) },
          { key: 'from', title: 'From', dataIndex: 'effective_from' },
          { key: 'to', title: 'To', render: (_, price) => price.effective_to ?? 'Open' },
          { key: 'status', title: 'Status', render: (_, price) => priceStatusTag(price) },
        ]}
      />
      {older && newer && (
        <>
          <Typography.Title level={2} style={{ fontSize: 16, marginTop: 24 }}>
            Version {older.version} and version {newer.version}
          </Typography.Title>
          <Table
            rowKey="label"
            size="small"
            pagination={false}
            aria-label={`Version ${older.version} compared with version ${newer.version}`}
            dataSource={COMPARED.map((term) => ({
              label: term.label,
              older: term.of(older),
              newer: term.of(newer),
            }))}
            columns={[
              { key: 'label', title: 'Term', dataIndex: 'label' },
              { key: 'older', title: `Version ${older.version}`, dataIndex: 'older' },
              {
                key: 'newer',
                title: `Version ${newer.version}`,
                render: (_, row) =>
                  row.older === row.newer ? (
                    row.newer
                  ) : (
                    <>
                      {row.newer} <Tag color="blue">Changed</Tag>
                    </>
                  ),
              },
            ]}
          />
        </>
      )}
    </Drawer>
  );
}
