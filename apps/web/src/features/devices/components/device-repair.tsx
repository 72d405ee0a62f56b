import { deviceRepairEndpoint, repairTicketLifecycle, type Device } from '@inventory/contract';
import { Alert, Space, Table, Tag } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { callEndpoint } from '../../../shell/http-client';
import { when } from '../../../toolkit/format';

/** The device's repair tickets (DOMAIN.md 4.19), newest first: the card's own read. */
export function DeviceRepairTickets({ device }: { device: Device }) {
  const tickets = useQuery({
    queryKey: [deviceRepairEndpoint.path, device.id],
    queryFn: async () =>
      (await callEndpoint(deviceRepairEndpoint, { params: { id: device.id } })).data,
  });
  if (tickets.isError) return <Alert type="error" title={tickets.error.message} />;
  return (
    <Table
      rowKey="id"
      size="small"
      pagination={false}
      loading={tickets.isLoading}
      dataSource={tickets.data ?? []}
      locale={{ emptyText: 'Never in repair.' }}
      columns={[
        { title: 'Ticket', dataIndex: 'number' },
        {
          title: 'State',
          render: (_, row) => <Tag>{repairTicketLifecycle.stateText(row.status)}</Tag>,
        },
        { title: 'Source', render: (_, row) => row.source.replace(/_/g, ' ') },
        {
          title: 'Issues',
          render: (_, row) => (
            <Space size={[2, 2]} wrap>
              {row.issue_codes.map((code) => (
                <Tag key={code}>{code}</Tag>
              ))}
            </Space>
          ),
        },
        { title: 'Technician', render: (_, row) => row.technician ?? '—' },
        { title: 'Grade', render: (_, row) => row.grade ?? '—' },
        { title: 'Raised', render: (_, row) => when(row.requested_at) },
        { title: 'Closed', render: (_, row) => when(row.closed_at) },
      ]}
    />
  );
}
