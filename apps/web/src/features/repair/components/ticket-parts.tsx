import {
  repairTicketLifecycle,
  type RepairTicket,
  type RepairTicketDetail,
  type RepairTicketStatus,
} from '@inventory/contract';
import { Descriptions, Space, Table, Tag, Timeline, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { dollars, when } from '../../../toolkit/format';

/*
 * What every repair page shows of a ticket: its state, a row of a queue, and the whole ticket
 * with its parts, tests and timeline.
 */

const STATUS_COLORS: Partial<Record<RepairTicketStatus, string>> = {
  requested: 'default',
  sorted: 'blue',
  assigned: 'geekblue',
  in_repair: 'processing',
  waiting_parts: 'gold',
  repaired: 'cyan',
  testing: 'purple',
  passed: 'green',
  failed: 'red',
  released: 'green',
  beyond_repair: 'volcano',
  cancelled: 'default',
};

export const ticketStatusText = (status: RepairTicketStatus) =>
  repairTicketLifecycle.stateText(status);

export function TicketStatusTag({ status }: { status: RepairTicketStatus }) {
  return <Tag color={STATUS_COLORS[status]}>{ticketStatusText(status)}</Tag>;
}

export const codeTags = (codes: readonly string[]) =>
  codes.length === 0 ? (
    '—'
  ) : (
    <Space size={[2, 2]} wrap>
      {codes.map((code) => (
        <Tag key={code} color="volcano">
          {code}
        </Tag>
      ))}
    </Space>
  );

/** Days and hours since a moment: "2 d 3 h". */
export function ageText(iso: string, now = Date.now()): string {
  const hours = Math.max(0, Math.floor((now - Date.parse(iso)) / 3_600_000));
  return hours >= 24 ? `${Math.floor(hours / 24)} d ${hours % 24} h` : `${hours} h`;
}

export const hoursText = (seconds: number) =>
  seconds < 3600 ? `${Math.round(seconds / 60)} min` : `${(seconds / 3600).toFixed(1)} h`;

/** Where a ticket came from, and the record that sent it (an RMA, an unpack…). */
const sourceText = (ticket: RepairTicket) =>
  ticket.source.replace(/_/g, ' ') + (ticket.reference ? ` (${ticket.reference})` : '');

/** The columns every queue shows, before the station's own. */
export const ticketColumns: ColumnsType<RepairTicket> = [
  { title: 'Ticket', dataIndex: 'number' },
  { title: 'IMEI', dataIndex: 'identifier' },
  { title: 'Model', dataIndex: 'model' },
  { title: 'Source', render: (_, row) => sourceText(row) },
  { title: 'State', render: (_, row) => <TicketStatusTag status={row.status} /> },
  { title: 'Priority', dataIndex: 'priority' },
  { title: 'Issues', render: (_, row) => codeTags(row.issue_codes) },
  { title: 'Age', render: (_, row) => ageText(row.requested_at) },
];

/** A ticket in full: what it is, its parts, its tests and its timeline. */
export function TicketDetail({ ticket }: { ticket: RepairTicketDetail }) {
  return (
    <section aria-label={`Ticket ${ticket.number}`} data-testid="repair-ticket">
      <Descriptions size="small" bordered column={2} style={{ marginBottom: 12 }}>
        <Descriptions.Item label="Ticket">{ticket.number}</Descriptions.Item>
        <Descriptions.Item label="State">
          <TicketStatusTag status={ticket.status} />
        </Descriptions.Item>
        <Descriptions.Item label="IMEI">{ticket.identifier}</Descriptions.Item>
        <Descriptions.Item label="Model">{ticket.model}</Descriptions.Item>
        <Descriptions.Item label="Source">{sourceText(ticket)}</Descriptions.Item>
        <Descriptions.Item label="Priority">{ticket.priority}</Descriptions.Item>
        <Descriptions.Item label="Issues">{codeTags(ticket.issue_codes)}</Descriptions.Item>
        <Descriptions.Item label="Technician">{ticket.technician ?? '—'}</Descriptions.Item>
        <Descriptions.Item label="Estimated cost">
          {dollars(ticket.estimated_cost_cents)}
        </Descriptions.Item>
        <Descriptions.Item label="Resale value">
          {dollars(ticket.resale_value_cents)}
        </Descriptions.Item>
        <Descriptions.Item label="Labour">{hoursText(ticket.labour_seconds)}</Descriptions.Item>
        <Descriptions.Item label="Parts cost">{dollars(ticket.parts_cost_cents)}</Descriptions.Item>
        <Descriptions.Item label="Grade">{ticket.grade ?? '—'}</Descriptions.Item>
        <Descriptions.Item label="Failed items">{codeTags(ticket.failed_items)}</Descriptions.Item>
        {ticket.note && <Descriptions.Item label="Note">{ticket.note}</Descriptions.Item>}
      </Descriptions>
      <Table
        rowKey="id"
        size="small"
        pagination={false}
        title={() => 'Parts issued'}
        dataSource={ticket.parts}
        locale={{ emptyText: 'No parts issued.' }}
        columns={[
          { title: 'Part', render: (_, row) => `${row.part_number} ${row.name}` },
          { title: 'From', dataIndex: 'location' },
          { title: 'Qty', dataIndex: 'qty' },
          { title: 'Unit cost', render: (_, row) => dollars(row.unit_cost_cents) },
          { title: 'Issued', render: (_, row) => when(row.issued_at) },
          { title: 'Returned', render: (_, row) => (row.returned ? 'yes' : 'no') },
        ]}
        style={{ marginBottom: 12 }}
      />
      <Table
        rowKey="id"
        size="small"
        pagination={false}
        title={() => 'Tests'}
        dataSource={ticket.tests}
        locale={{ emptyText: 'Not tested yet.' }}
        columns={[
          { title: 'When', render: (_, row) => when(row.tested_at) },
          { title: 'By', render: (_, row) => row.tested_by ?? '—' },
          {
            title: 'Result',
            render: (_, row) =>
              row.passed ? (
                <Tag color="green">passed, grade {row.grade}</Tag>
              ) : (
                <Tag color="red">failed</Tag>
              ),
          },
          { title: 'Failed items', render: (_, row) => codeTags(row.failed_items) },
          { title: 'Note', render: (_, row) => row.note ?? '' },
        ]}
        style={{ marginBottom: 12 }}
      />
      <Typography.Title level={3} style={{ fontSize: 16 }}>
        Timeline of {ticket.number}
      </Typography.Title>
      <Timeline
        items={ticket.events.map((event) => ({
          key: event.id,
          title: when(event.at),
          content: (
            <span data-testid="repair-event">
              <Typography.Text strong>{event.type.replace(/_/g, ' ')}</Typography.Text> by{' '}
              {event.actor_name ?? 'the system'}
              {event.data && 'note' in event.data ? `: ${String(event.data.note)}` : ''}
            </span>
          ),
        }))}
      />
    </section>
  );
}
