import { setLifelineMinimumSchema, type LifelineMinimum } from '@inventory/contract';
import { Table } from 'antd';
import { ActionDrawer } from '../../../toolkit/action-drawer';
import { when } from '../../../toolkit/format';
import type { FormField } from '../../../toolkit/resource-page-config';
import { useLifelineMinimums, usePlanPriceWrites } from '../api/plan-prices.queries';
import { todayUtc } from './price-drawers';

const FIELDS: FormField[] = [
  {
    name: 'data_gb',
    label: 'Minimum data (GB a month)',
    kind: 'number',
    min: 0.01,
    step: 0.5,
    precision: 2,
    required: true,
  },
  {
    name: 'effective_from',
    label: 'From',
    kind: 'text',
    placeholder: 'YYYY-MM-DD',
    required: true,
    help: 'The FCC sets the standard each year from a day (1 December); a value from the same day is replaced.',
  },
  { name: 'note', label: 'Note', kind: 'textarea' },
];

/**
 * The Lifeline minimum service standard for mobile data: every value with its first day, and a
 * new one. Prices below the standard in effect are marked, never refused.
 */
export function LifelineMinimumDrawer({ onClose }: { onClose: () => void }) {
  const writes = usePlanPriceWrites();
  const standards = useLifelineMinimums().data?.standards ?? [];
  return (
    <ActionDrawer
      title="Lifeline minimum service standard"
      intro={
        <Table<LifelineMinimum>
          rowKey="effective_from"
          size="small"
          pagination={false}
          aria-label="Values of the standard"
          dataSource={standards}
          columns={[
            { key: 'from', title: 'From', dataIndex: 'effective_from' },
            { key: 'gb', title: 'GB a month', dataIndex: 'data_gb' },
            { key: 'note', title: 'Note', render: (_, standard) => standard.note ?? '—' },
            {
              key: 'set',
              title: 'Set',
              render: (_, standard) =>
                `${when(standard.set_at)}${standard.set_by_name ? ` by ${standard.set_by_name}` : ''}`,
            },
          ]}
        />
      }
      fields={FIELDS}
      schema={setLifelineMinimumSchema}
      initialValues={{ effective_from: todayUtc() }}
      submitLabel="Set minimum"
      run={async (values) => {
        const answer = await writes.setMinimum.mutateAsync({
          data_gb: Number(values.data_gb),
          effective_from: String(values.effective_from ?? ''),
          note: typeof values.note === 'string' && values.note.trim() ? values.note.trim() : null,
        });
        return `The Lifeline minimum is ${answer.current?.data_gb ?? values.data_gb} GB a month.`;
      }}
      onClose={onClose}
    />
  );
}
