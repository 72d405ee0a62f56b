import {
  RMA_REASON_TEXT,
  RMA_REASONS,
  RMA_STATUSES,
  rmaLifecycle,
  rmaList,
  rmaListEndpoints,
  type RmaRow,
} from '@inventory/contract';
import { Button, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import type { PageProps } from '../../../shell/page-types';
import { useUrlParam } from '../../../shell/use-url-state';
import { when } from '../../../toolkit/format';
import { dayRangeFilters } from '../../../toolkit/picker-options';
import type { ResourcePageConfig } from '../../../toolkit/resource-page-config';
import { ResourcePage } from '../../../toolkit/resource-page';
import { RmaDrawer } from '../components/rma-drawer';
import { NewRmaDrawer } from '../components/rma-forms';
import { RmaStatusTag } from '../components/rma-status-tag';

/** The address key of the RMA whose drawer is open. */
const RMA_PARAM = 'rma';

const config = (onNew: () => void): ResourcePageConfig<RmaRow, typeof rmaList> => ({
  resource: rmaList,
  endpoints: rmaListEndpoints,
  titleOf: (rma) => rma.number,
  searchPlaceholder: 'RMA, order number or IMEI',
  header: (
    <Typography.Paragraph type="secondary">
      Return authorisations: open one from an order or a device, authorise it with a return label,
      and once receiving has inspected its devices resolve it by a replacement, a refund or a
      repair.
    </Typography.Paragraph>
  ),
  actions: (
    <Button type="primary" onClick={onNew}>
      New RMA
    </Button>
  ),
  record: { param: RMA_PARAM, rowClick: true },
  columns: [
    { key: 'number', title: 'RMA' },
    { key: 'order_number', title: 'Order' },
    { key: 'customer', title: 'Customer' },
    { key: 'imeis_text', title: 'IMEI' },
    { key: 'reason', title: 'Reason', render: (rma) => RMA_REASON_TEXT[rma.reason] },
    {
      key: 'warranty_ok',
      title: 'Warranty',
      render: (rma) => (rma.warranty_ok ? 'Yes' : <Tag color="orange">Expired</Tag>),
    },
    {
      key: 'status',
      title: 'Status',
      render: (rma) => (
        <>
          <RmaStatusTag status={rma.status} />
          {rma.mismatch_flagged && <Tag color="red">Mismatch</Tag>}
        </>
      ),
    },
    {
      key: 'resolution',
      title: 'Resolution',
      render: (rma) =>
        rma.resolution
          ? `${rma.resolution}${rma.replacement_order_number ? ` · ${rma.replacement_order_number}` : ''}`
          : '—',
    },
    {
      key: 'return_tracking',
      title: 'Return tracking',
      render: (rma) => rma.return_tracking ?? '—',
    },
    {
      key: 'created_at',
      title: 'Created',
      sortKey: 'created_at',
      render: (rma) => when(rma.created_at),
    },
  ],
  filters: [
    {
      key: 'status',
      label: 'Status',
      options: RMA_STATUSES.map((status) => ({
        value: status,
        label: rmaLifecycle.stateText(status),
      })),
    },
    {
      key: 'reason',
      label: 'Reason',
      options: RMA_REASONS.map((reason) => ({ value: reason, label: RMA_REASON_TEXT[reason] })),
    },
    {
      key: 'mismatch',
      label: 'Mismatch',
      options: [
        { value: 'true', label: 'Mismatch flagged' },
        { value: 'false', label: 'No mismatch' },
      ],
    },
    ...dayRangeFilters('Opened', 'created_from', 'created_to'),
    { key: 'order_id', label: 'Order', fromAddress: true },
  ],
});

/** RMAs (`/RMA`, DOMAIN.md 4.10): the list, a new RMA and an RMA's drawer. */
export default function RmaListPage(props: PageProps) {
  const [opened, setOpened] = useUrlParam(RMA_PARAM);
  const [creating, setCreating] = useState(false);
  const openedId = Number(opened) || null;
  // Made once: the toolkit page reads its config in its effects.
  const pageConfig = useMemo(() => config(() => setCreating(true)), []);
  return (
    <>
      <ResourcePage {...props} config={pageConfig} />
      {openedId && <RmaDrawer id={openedId} onClose={() => setOpened(undefined)} />}
      {creating && (
        <NewRmaDrawer
          onClose={() => setCreating(false)}
          onCreated={(created) => setOpened(String(created.rma.id))}
        />
      )}
    </>
  );
}
