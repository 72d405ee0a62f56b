import {
  allowedActions,
  CANCEL_REQUESTER_TEXT,
  CANCEL_REQUESTERS,
  CANCEL_STAGE_TEXT,
  cancelRequestLifecycle,
  createCancelRequestSchema,
  denyCancelRequestSchema,
  ORDER_CANCEL_ACCESS,
  type CancelRequest,
  type CancelRequestAction,
  type CancelRequester,
  type CancelRequestStatus,
} from '@inventory/contract';
import { Button, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { RequestBoard, type RequestView } from '../components/request-board';
import { Link } from 'react-router';
import { showApiError } from '../../../shell/api-errors';
import { notify } from '../../../shell/notify';
import { PAGE_TITLE_STYLE } from '../../../shell/page-styles';
import type { PageProps } from '../../../shell/page-types';
import { useCan } from '../../../shell/use-can';
import { useProfile } from '../../../shell/use-profile';
import { ActionDrawer } from '../../../toolkit/action-drawer';
import { when } from '../../../toolkit/format';
import { useCancelRequestActions, useCancelRequests } from '../api/reship.queries';

const STATUS_COLORS: Record<CancelRequestStatus, string> = {
  requested: 'blue',
  approved: 'cyan',
  label_voided: 'orange',
  intercept_requested: 'gold',
  return_required: 'volcano',
  cancelled: 'green',
  denied: 'red',
};

/** The buttons a person presses; the other steps run with the approval. */
const ANSWER_WORDS: Partial<Record<CancelRequestAction, string>> = {
  approve: 'Approve',
  deny: 'Deny',
  complete: 'Cancel on return',
};

/** "Cancel on return" only for a request waiting on its intercepted parcel. */
const shown = (request: CancelRequest, action: CancelRequestAction) =>
  action in ANSWER_WORDS && (action !== 'complete' || request.status === 'intercept_requested');

type Values = Record<string, unknown>;

/**
 * Cancellations (`/shipment-management/cancel`, DOMAIN.md 4.16): requests to cancel an order,
 * carried out by the stage the order is in when a manager approves: before the label the order
 * is cancelled and its reservations released; labelled, its label is voided and its units go back
 * to stock; shipped, the carrier is asked to intercept the parcel, or it must come back as a
 * return. A client carrier's request before the label is carried out at once.
 */
export default function CancelRequestsPage({ entry }: PageProps) {
  const [view, setView] = useState<RequestView>('open');
  const requests = useCancelRequests(view);
  const actions = useCancelRequestActions();
  const profile = useProfile();
  const canRequest = useCan(ORDER_CANCEL_ACCESS);
  const [entering, setEntering] = useState(false);
  const [denying, setDenying] = useState<CancelRequest | null>(null);

  const answer = (request: CancelRequest, action: CancelRequestAction) => {
    if (action === 'deny') {
      setDenying(request);
      return;
    }
    const mutation = action === 'approve' ? actions.approve : actions.complete;
    mutation.mutate(request.id, {
      onSuccess: (done) =>
        notify.success(
          `Order ${done.order_number}: the request is ${cancelRequestLifecycle.stateText(done.status)}` +
            (done.carrier_answer ? `. ${done.carrier_answer}` : '.') +
            (done.rma_number ? ` ${done.rma_number} expects the parcel back.` : ''),
        ),
      onError: (error) => showApiError(error),
    });
  };

  const columns = [
    {
      title: 'Order',
      key: 'order',
      render: (_: unknown, row: CancelRequest) => (
        <>
          <Link to={`/order/list?order=${row.order_id}`}>{row.order_number}</Link>
          <br />
          <Typography.Text type="secondary">{row.order_status.replace(/_/g, ' ')}</Typography.Text>
        </>
      ),
    },
    {
      title: 'Stage',
      key: 'stage',
      render: (_: unknown, row: CancelRequest) => CANCEL_STAGE_TEXT[row.stage],
    },
    { title: 'Reason', dataIndex: 'reason', key: 'reason' },
    {
      title: 'Requester',
      key: 'requester',
      render: (_: unknown, row: CancelRequest) => (
        <>
          {CANCEL_REQUESTER_TEXT[row.requester]}
          <br />
          <Typography.Text type="secondary">
            {row.requested_by}, {when(row.created_at)}
          </Typography.Text>
        </>
      ),
    },
    {
      title: 'Status',
      key: 'status',
      render: (_: unknown, row: CancelRequest) => (
        <Space direction="vertical" size={0}>
          <Tag color={STATUS_COLORS[row.status]}>
            {cancelRequestLifecycle.stateText(row.status)}
          </Tag>
          {row.tracking_number && (
            <Typography.Text type="secondary">Parcel {row.tracking_number}</Typography.Text>
          )}
          {row.carrier_answer && (
            <Typography.Text type="secondary">{row.carrier_answer}</Typography.Text>
          )}
          {row.rma_id !== null && (
            <Typography.Text type="secondary">
              Expected back on{' '}
              <Link to={`/RMA?rma=${row.rma_id}`} style={{ textDecoration: 'underline' }}>
                {row.rma_number}
              </Link>
            </Typography.Text>
          )}
          {row.deny_reason && <Typography.Text type="secondary">{row.deny_reason}</Typography.Text>}
          {row.decided_by && (
            <Typography.Text type="secondary">Decided by {row.decided_by}</Typography.Text>
          )}
        </Space>
      ),
    },
    {
      title: 'Actions',
      key: 'actions',
      render: (_: unknown, row: CancelRequest) => (
        <Space wrap>
          {allowedActions(cancelRequestLifecycle, row, profile.data)
            .filter((action) => shown(row, action))
            .map((action) => (
              <Button
                key={action}
                size="small"
                danger={action === 'deny'}
                type={action === 'deny' ? 'default' : 'primary'}
                aria-label={`${ANSWER_WORDS[action]} the cancellation of ${row.order_number}`}
                loading={
                  (action === 'approve' &&
                    actions.approve.isPending &&
                    actions.approve.variables === row.id) ||
                  (action === 'complete' &&
                    actions.complete.isPending &&
                    actions.complete.variables === row.id)
                }
                onClick={() => answer(row, action)}
              >
                {ANSWER_WORDS[action]}
              </Button>
            ))}
        </Space>
      ),
    },
  ];

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Space style={{ width: '100%', justifyContent: 'space-between' }}>
        <Typography.Title level={1} style={PAGE_TITLE_STYLE}>
          {entry.label}
        </Typography.Title>
        <Space>
          <Button onClick={() => void requests.refetch()} loading={requests.isFetching}>
            Refresh
          </Button>
          {canRequest && (
            <Button type="primary" onClick={() => setEntering(true)}>
              Request cancellation
            </Button>
          )}
        </Space>
      </Space>
      <Typography.Paragraph type="secondary">
        A manager approves each request, and it is carried out by the stage the order is in then:
        before the label the order is cancelled and its units released; labelled, the label is
        voided and the units go back to stock; shipped, the carrier is asked to intercept the
        parcel, or the parcel must come back as a return (open an RMA). A client carrier's request
        before the label is carried out at once.
      </Typography.Paragraph>
      <RequestBoard<CancelRequest>
        view={view}
        onViewChange={setView}
        error={requests.error}
        answer={requests.data && { rows: requests.data.requests, total: requests.data.total }}
        columns={columns}
      />
      {entering && (
        <ActionDrawer
          title="Request a cancellation"
          intro="The order's stage is read from the order: before the label, labelled or shipped."
          fields={[
            { name: 'order_number', label: 'Order number', kind: 'text', required: true },
            {
              name: 'requester',
              label: 'Who asks',
              kind: 'select',
              required: true,
              options: CANCEL_REQUESTERS.map((value) => ({
                value,
                label: CANCEL_REQUESTER_TEXT[value],
              })),
            },
            { name: 'reason', label: 'Reason', kind: 'textarea', required: true },
          ]}
          schema={createCancelRequestSchema}
          initialValues={{ order_number: '', requester: 'customer', reason: '' }}
          submitLabel="Request"
          run={async (values: Values) => {
            const created = await actions.create.mutateAsync({
              order_number: String(values.order_number ?? ''),
              requester: values.requester as CancelRequester,
              reason: String(values.reason ?? ''),
            });
            return `The cancellation of ${created.order_number} is ${cancelRequestLifecycle.stateText(created.status)}.`;
          }}
          onClose={() => setEntering(false)}
        />
      )}
      {denying && (
        <ActionDrawer
          key={denying.id}
          title={`Deny the cancellation of ${denying.order_number}`}
          intro="The order carries on as it is."
          fields={[
            { name: 'reason', label: 'Why is it denied?', kind: 'textarea', required: true },
          ]}
          schema={denyCancelRequestSchema}
          initialValues={{ reason: '' }}
          submitLabel="Deny"
          run={async (values: Values) => {
            const denied = await actions.deny.mutateAsync({
              id: denying.id,
              reason: String(values.reason ?? ''),
            });
            return `The cancellation of ${denied.order_number} is denied.`;
          }}
          onClose={() => setDenying(null)}
        />
      )}
    </Space>
  );
}
