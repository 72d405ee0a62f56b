import { deviceRmasEndpoint, RMA_REASON_TEXT, type Device } from '@inventory/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Table } from 'antd';
import { Link } from 'react-router';
import { callEndpoint } from '../../../shell/http-client';
import { when } from '../../../toolkit/format';
import { RmaStatusTag } from './rma-status-tag';

/** The device's RMAs (DOMAIN.md 4.10), newest first: the card's own read. */
export function DeviceRmas({ device }: { device: Device }) {
  const rmas = useQuery({
    queryKey: [deviceRmasEndpoint.path, device.id],
    queryFn: async () =>
      (await callEndpoint(deviceRmasEndpoint, { params: { id: device.id } })).data,
  });
  if (rmas.isError) return <Alert type="error" title={rmas.error.message} />;
  return (
    <Table
      rowKey="id"
      size="small"
      pagination={false}
      loading={rmas.isLoading}
      dataSource={rmas.data ?? []}
      locale={{ emptyText: 'Never returned under an RMA.' }}
      columns={[
        {
          title: 'RMA',
          render: (_, row) => <Link to={`/RMA?rma=${row.id}`}>{row.number}</Link>,
        },
        { title: 'Order', dataIndex: 'order_number' },
        { title: 'Reason', render: (_, row) => RMA_REASON_TEXT[row.reason] },
        { title: 'State', render: (_, row) => <RmaStatusTag status={row.status} /> },
        { title: 'Received', render: (_, row) => when(row.received_at) },
        { title: 'Routed to', render: (_, row) => row.route ?? '—' },
        { title: 'Resolution', render: (_, row) => row.resolution ?? '—' },
        { title: 'Opened', render: (_, row) => when(row.created_at) },
      ]}
    />
  );
}
