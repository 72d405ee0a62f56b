import {
  AGENT_LEDGER_ENTRIES,
  orderLifecycle,
  simRequestLifecycle,
  type AgentLedgerEntry,
  type AgentOrder,
} from '@inventory/contract';
import { Alert, Button, Drawer, Empty, List, Select, Space, Spin, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useDialogFocus } from '../../../shell/dialog-focus';
import type { PageProps } from '../../../shell/page-types';
import { PAGE_TITLE_STYLE } from '../../../shell/page-styles';
import { dollars, when } from '../../../toolkit/format';
import { ListPager } from '../../../toolkit/list-pager';
import { useListUrlState } from '../../../toolkit/list-url-state';
import { useAgentOrder, useAgentOrders } from '../api/agent-orders.queries';
import { useAgentRequests } from '../api/agent-requests.queries';
import { useAgentHistory } from '../api/agent-portal.queries';

const FILTERS = ['entry'] as const;

/** The ledger's entries in the agent's words. */
const ENTRY_WORDS: Record<AgentLedgerEntry['entry'], string> = {
  received: 'Received',
  transfer_in: 'Transferred to you',
  transfer_out: 'Transferred away',
  assigned: 'Activation recorded',
  activated: 'Activated',
  returned: 'Returned',
  lost: 'Marked lost',
  defective: 'Marked defective',
};

function Requests() {
  const overview = useAgentRequests();
  if (overview.isError) {
    return <Alert type="error" showIcon title="Your requests could not be loaded." />;
  }
  if (!overview.data) return <Spin />;
  return (
    <List
      bordered
      size="small"
      dataSource={overview.data.requests}
      locale={{ emptyText: <Empty description="You have made no requests yet." /> }}
      renderItem={(request) => (
        <List.Item data-testid="history-request">
          <List.Item.Meta
            title={`${request.number} · ${request.client_carrier}`}
            description={`${when(request.created_at)} · asked ${request.qty_requested}${
              request.qty_approved === null ? '' : `, approved ${request.qty_approved}`
            }${request.qty_received === null ? '' : `, received ${request.qty_received}`}`}
          />
          <Tag>{simRequestLifecycle.stateText(request.status)}</Tag>
        </List.Item>
      )}
    />
  );
}

/** An order's state in the agent's words: a pending web order waits for staff's approval. */
const orderState = (status: AgentOrder['status']) =>
  status === 'pending' ? 'awaiting approval' : orderLifecycle.stateText(status);

/** The steps of an order's timeline in the agent's words; others by their own name. */
const STEP_WORDS: Record<string, string> = {
  received: 'Placed',
  awaiting_approval: 'Sent for approval',
  validated: 'Approved',
  rejected: 'Rejected',
  expired: 'Not approved in time: cancelled',
  cancelled: 'Cancelled',
};

const itemsText = (order: AgentOrder) =>
  order.lines.map((line) => `${line.qty} × ${line.description}`).join(', ');

/** One of the agent's orders: its lines at their prices and what happened to it. */
function OrderDetail({ id, onClose }: { id: number; onClose: () => void }) {
  const dialogFocus = useDialogFocus();
  const detail = useAgentOrder(id);
  const order = detail.data?.order;
  return (
    <Drawer
      {...dialogFocus}
      open
      placement="bottom"
      title={order ? `Order ${order.number}` : 'Order'}
      onClose={onClose}
    >
      {detail.isError ? (
        <Alert type="error" showIcon title={detail.error.message} />
      ) : !detail.data || !order ? (
        <Spin />
      ) : (
        <>
          <Typography.Paragraph>
            <Tag>{orderState(order.status)}</Tag> {order.customer} · {when(order.created_at)}
            {detail.data.held_until && ` · held until ${when(detail.data.held_until)}`}
          </Typography.Paragraph>
          <ul aria-label="Order lines" style={{ paddingLeft: 18 }}>
            {order.lines.map((line) => (
              <li key={line.sku}>
                {line.qty} × {line.description} ({line.sku}) at {dollars(line.unit_price_cents)}
              </li>
            ))}
          </ul>
          <Typography.Paragraph strong>Total {dollars(order.total_cents)}</Typography.Paragraph>
          <List
            size="small"
            header="What happened"
            dataSource={detail.data.steps}
            renderItem={(step) => (
              <List.Item data-testid="order-step">
                <List.Item.Meta
                  title={STEP_WORDS[step.type] ?? step.type.replace(/_/g, ' ')}
                  description={[when(step.at), step.reason].filter(Boolean).join(' · ')}
                />
              </List.Item>
            )}
          />
        </>
      )}
      {/* Within reach of a thumb, and a focusable stop in the drawer's scrolling body. */}
      <Button block style={{ marginTop: 16 }} onClick={onClose}>
        Close
      </Button>
    </Drawer>
  );
}

/** The orders the agent checked out from the shop, newest first, ten at a time. */
function Orders() {
  const [cursor, setCursor] = useState<string | undefined>();
  const [open, setOpen] = useState<number | null>(null);
  const { page, count } = useAgentOrders({ cursor, limit: '10' });
  if (page.isError) {
    return (
      <Alert
        type="error"
        showIcon
        title="Your orders could not be loaded."
        description={page.error.message}
        action={<Button onClick={() => void page.refetch()}>Try again</Button>}
      />
    );
  }
  return (
    <>
      <List
        bordered
        size="small"
        loading={page.isPending}
        dataSource={page.data?.items ?? []}
        locale={{ emptyText: <Empty description="You have ordered nothing from the shop yet." /> }}
        renderItem={(order) => (
          <List.Item
            data-testid="history-order"
            actions={[
              <Button
                key="open"
                type="link"
                size="small"
                aria-label={`Details of ${order.number}`}
                onClick={() => setOpen(order.id)}
              >
                Details
              </Button>,
            ]}
          >
            <List.Item.Meta
              title={
                <Space wrap size={4}>
                  <span>{order.number}</span>
                  <Tag>{orderState(order.status)}</Tag>
                </Space>
              }
              description={
                <>
                  {when(order.created_at)} · {dollars(order.total_cents)}
                  <br />
                  {itemsText(order)}
                </>
              }
            />
          </List.Item>
        )}
      />
      {(page.data?.prevCursor || page.data?.nextCursor) && (
        <Space style={{ marginTop: 8 }} wrap>
          <Button disabled={!page.data.prevCursor} onClick={() => setCursor(page.data.prevCursor!)}>
            Newer orders
          </Button>
          <Button disabled={!page.data.nextCursor} onClick={() => setCursor(page.data.nextCursor!)}>
            Older orders
          </Button>
          {count.data && (
            <Typography.Text type="secondary">
              {count.data.total === 1 ? '1 order' : `${count.data.total} orders`}
            </Typography.Text>
          )}
        </Space>
      )}
      {open !== null && <OrderDetail id={open} onClose={() => setOpen(null)} />}
    </>
  );
}

/**
 * The agent's history (DOMAIN.md 7), read-only: requests with their state, the orders placed from
 * the shop, and every SIM the agent received, recorded, returned or saw activated, from the
 * agent's ledger.
 */
export default function AgentHistoryPage({ entry }: PageProps) {
  const [state, update] = useListUrlState(FILTERS);
  const limit = Number(state.limit ?? 20);
  const { page, count } = useAgentHistory({ ...state, limit: String(limit) });
  return (
    <>
      <Typography.Title level={1} style={{ ...PAGE_TITLE_STYLE, marginBottom: 12 }}>
        {entry.label}
      </Typography.Title>
      <Typography.Title level={2} style={{ fontSize: 18 }}>
        Requests
      </Typography.Title>
      <Requests />
      <Typography.Title level={2} style={{ fontSize: 18, marginTop: 20 }}>
        Orders
      </Typography.Title>
      <Orders />
      <Space style={{ width: '100%', justifyContent: 'space-between', margin: '20px 0 8px' }} wrap>
        <Typography.Title level={2} style={{ fontSize: 18, margin: 0 }}>
          SIMs
        </Typography.Title>
        <Select
          aria-label="What happened"
          placeholder="Everything"
          allowClear
          style={{ minWidth: 180 }}
          value={state.entry}
          options={AGENT_LEDGER_ENTRIES.map((value) => ({ value, label: ENTRY_WORDS[value] }))}
          onChange={(value?: string) => update({ entry: value })}
        />
      </Space>
      {page.isError ? (
        <Alert
          type="error"
          showIcon
          title="Your history could not be loaded."
          description={page.error.message}
          action={<Button onClick={() => void page.refetch()}>Try again</Button>}
        />
      ) : (
        <List
          bordered
          size="small"
          loading={page.isPending}
          dataSource={page.data?.items ?? []}
          locale={{
            emptyText: (
              <Empty
                description={
                  state.entry
                    ? 'Nothing of this kind yet.'
                    : 'Nothing has happened to your SIMs yet.'
                }
              />
            ),
          }}
          renderItem={(line) => (
            <List.Item data-testid="history-entry" data-entry={line.entry}>
              <List.Item.Meta
                title={
                  <Space wrap size={4}>
                    <Tag>{ENTRY_WORDS[line.entry]}</Tag>
                    <span style={{ fontFamily: 'monospace' }}>{line.iccid}</span>
                  </Space>
                }
                description={[
                  when(line.at),
                  line.client_carrier,
                  line.request_number,
                  line.return_number,
                  line.counterpart_name,
                ]
                  .filter(Boolean)
                  .join(' · ')}
              />
            </List.Item>
          )}
        />
      )}
      <ListPager
        noun={{ singular: 'entry', plural: 'entries' }}
        count={count.data}
        page={page.data}
        cursor={state.cursor}
        limit={limit}
        onChange={update}
      />
    </>
  );
}
