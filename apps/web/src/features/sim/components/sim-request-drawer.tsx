import {
  allowedActions,
  approveSimRequestSchema,
  canAccess,
  rejectSimRequestSchema,
  shipSimRequestSchema,
  SIM_REQUEST_LOW_RATE_ACCESS,
  simRequestLifecycle,
  type SimRequestDetail,
  type SimRequestEvent,
} from '@inventory/contract';
import {
  Alert,
  Button,
  Descriptions,
  Drawer,
  Empty,
  Popconfirm,
  Space,
  Spin,
  Table,
  Timeline,
  Typography,
} from 'antd';
import { useState } from 'react';
import { showApiError } from '../../../shell/api-errors';
import { useDialogFocus } from '../../../shell/dialog-focus';
import { notify } from '../../../shell/notify';
import { useProfile } from '../../../shell/use-profile';
import { ActionDrawer } from '../../../toolkit/action-drawer';
import { when } from '../../../toolkit/format';
import type { FormField } from '../../../toolkit/resource-page-config';
import {
  openPackingSlip,
  openShippingLabel,
  useSimRequest,
  useSimRequestActions,
} from '../api/sim-requests.queries';
import { AllocationStation } from './allocation-station';
import { SimRequestStatusTag } from './sim-request-status';

/** "35%", or a dash before the agent received any SIM. */
export const rateText = (rate: number | null) =>
  rate === null ? '—' : `${Math.round(rate * 1000) / 10}%`;

const APPROVE_FIELDS: FormField[] = [
  { name: 'qty_approved', label: 'Quantity to approve', kind: 'number', required: true },
];
const REJECT_FIELDS: FormField[] = [
  { name: 'reason', label: 'Reason', kind: 'textarea', required: true },
];
const SHIP_FIELDS: FormField[] = [
  { name: 'tracking_number', label: 'Tracking number (optional)', kind: 'text' },
];

function eventText(event: SimRequestEvent) {
  const data = event.data ?? {};
  const details = [
    typeof data.qty_approved === 'number' && `${data.qty_approved} approved`,
    data.rate_override === true && 'low activation rate approved by a manager',
    typeof data.reason === 'string' && `reason: ${data.reason}`,
    typeof data.tracking_number === 'string' && `tracking ${data.tracking_number}`,
    typeof data.qty_received === 'number' && `${data.qty_received} received`,
    event.type === 'missing_reported' &&
      Array.isArray(data.iccids) &&
      `missing: ${(data.iccids as string[]).join(', ')}`,
  ].filter(Boolean);
  return `${event.type.replace(/_/g, ' ')}${details.length ? ` — ${details.join('; ')}` : ''}`;
}

type Dialog = 'approve' | 'reject' | 'ship' | null;

/** A request's record: the agent's figures, its actions, the allocation station, SIMs, timeline. */
function SimRequestRecord({ request }: { request: SimRequestDetail }) {
  const profile = useProfile();
  const actions = useSimRequestActions(request.id);
  const [dialog, setDialog] = useState<Dialog>(null);
  const allowed = allowedActions(simRequestLifecycle, request, profile.data);
  const canApproveLowRate = canAccess(profile.data, SIM_REQUEST_LOW_RATE_ACCESS);
  const room = Math.max(
    (request.agent_sim_cap ?? 0) - request.agent_on_hand - request.agent_committed,
    0,
  );

  const run = async (work: () => Promise<unknown>, success: string) => {
    try {
      await work();
      notify.success(success);
    } catch (error) {
      showApiError(error);
    }
  };

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Space wrap>
        <SimRequestStatusTag status={request.status} />
        {allowed.includes('approve') && (
          <Button type="primary" onClick={() => setDialog('approve')}>
            Approve
          </Button>
        )}
        {allowed.includes('reject') && (
          <Button danger onClick={() => setDialog('reject')}>
            Reject
          </Button>
        )}
        {allowed.includes('unpack') && (
          <Button
            onClick={() =>
              void run(
                () => actions.unpack.mutateAsync(),
                `${request.number} is open again: change its SIMs.`,
              )
            }
          >
            Unpack
          </Button>
        )}
        {(request.status === 'packed' || request.status === 'shipped') && (
          <>
            <Button onClick={() => void openPackingSlip(request.id).catch(showApiError)}>
              Print packing slip
            </Button>
            <Button onClick={() => void openShippingLabel(request.id).catch(showApiError)}>
              Print label
            </Button>
          </>
        )}
        {allowed.includes('ship') &&
          (request.delivery === 'ship' ? (
            <Button type="primary" onClick={() => setDialog('ship')}>
              Ship
            </Button>
          ) : (
            <Popconfirm
              title={`Hand ${request.number} over to ${request.agent_name}?`}
              description="Its SIMs go in transit until the agent confirms receipt."
              okText="Hand over"
              onConfirm={() =>
                run(() => actions.ship.mutateAsync(null), `${request.number} is handed over.`)
              }
            >
              <Button type="primary">Hand over</Button>
            </Popconfirm>
          ))}
      </Space>

      {request.low_rate && request.status === 'submitted' && (
        <Alert
          type="warning"
          showIcon
          title={`Low activation rate: ${rateText(request.agent_activation_rate)} (under ${rateText(request.low_activation_rate)})`}
          description={
            canApproveLowRate
              ? 'Approving records that a manager allowed it.'
              : 'A manager (sim-requests.approve-low-rate) approves this request.'
          }
        />
      )}
      {request.missing_iccids.length > 0 && (
        <Alert
          type="error"
          showIcon
          data-testid="missing-reported"
          title={`${request.agent_name} reported ${request.missing_iccids.length} SIM${request.missing_iccids.length === 1 ? '' : 's'} missing`}
          description={request.missing_iccids.join(', ')}
        />
      )}

      <Descriptions size="small" column={{ xs: 1, md: 2 }} bordered>
        <Descriptions.Item label="Agent">{request.agent_name}</Descriptions.Item>
        <Descriptions.Item label="Client carrier">{request.client_carrier}</Descriptions.Item>
        <Descriptions.Item label="Requested">{request.qty_requested}</Descriptions.Item>
        <Descriptions.Item label="Approved">
          {request.qty_approved ?? '—'}
          {request.rate_override ? ' (low rate, manager)' : ''}
        </Descriptions.Item>
        <Descriptions.Item label="Agent on hand">{request.agent_on_hand}</Descriptions.Item>
        <Descriptions.Item label="In other requests">{request.agent_committed}</Descriptions.Item>
        <Descriptions.Item label="Agent cap">
          {request.agent_sim_cap ?? 'Not set'}
        </Descriptions.Item>
        <Descriptions.Item label="Activation rate">
          {rateText(request.agent_activation_rate)} ({request.agent_activated} of{' '}
          {request.agent_received} received)
        </Descriptions.Item>
        <Descriptions.Item label="Delivery">
          {request.delivery === 'pickup' ? 'Pickup' : 'Ship'}
        </Descriptions.Item>
        <Descriptions.Item label="Ship to">{request.ship_to ?? '—'}</Descriptions.Item>
        <Descriptions.Item label="Note">{request.note ?? '—'}</Descriptions.Item>
        <Descriptions.Item label="Tracking">{request.tracking_number ?? '—'}</Descriptions.Item>
        <Descriptions.Item label="Requested at">{when(request.created_at)}</Descriptions.Item>
        <Descriptions.Item label="Approved at">
          {when(request.approved_at)}
          {request.approved_by_name ? ` by ${request.approved_by_name}` : ''}
        </Descriptions.Item>
        {request.reason && <Descriptions.Item label="Reason">{request.reason}</Descriptions.Item>}
        {request.received_at && (
          <Descriptions.Item label="Received">
            {request.qty_received} received, {request.qty_missing} missing,{' '}
            {when(request.received_at)}
          </Descriptions.Item>
        )}
      </Descriptions>

      {request.status === 'approved' && allowed.includes('pack') && (
        <section aria-labelledby="sim-request-allocate">
          <Typography.Title level={5} id="sim-request-allocate">
            Allocate
          </Typography.Title>
          <AllocationStation request={request} />
        </section>
      )}

      {request.status !== 'approved' && request.sims.length > 0 && (
        <section aria-labelledby="sim-request-sims">
          <Typography.Title level={5} id="sim-request-sims">
            SIMs ({request.sims.length})
          </Typography.Title>
          <Table
            size="small"
            rowKey="id"
            pagination={{ pageSize: 20, hideOnSinglePage: true }}
            dataSource={request.sims}
            columns={[
              { key: 'iccid', dataIndex: 'iccid', title: 'ICCID' },
              { key: 'pack', title: 'Pack', render: (_: unknown, sim) => sim.pack_code ?? '—' },
              {
                key: 'status',
                title: 'Status',
                render: (_: unknown, sim) => sim.status.replaceAll('_', ' '),
              },
            ]}
          />
        </section>
      )}

      <section aria-labelledby="sim-request-events">
        <Typography.Title level={5} id="sim-request-events">
          Timeline
        </Typography.Title>
        {request.events.length === 0 ? (
          <Empty />
        ) : (
          <Timeline
            items={request.events.map((event) => ({
              key: event.id,
              content: (
                <>
                  <Typography.Text>{eventText(event)}</Typography.Text>
                  <br />
                  <Typography.Text type="secondary">
                    {when(event.at)} · {event.actor_name}
                  </Typography.Text>
                </>
              ),
            }))}
          />
        )}
      </section>

      {dialog === 'approve' && (
        <ActionDrawer
          title={`Approve ${request.number}`}
          intro={`${request.agent_name} asks for ${request.qty_requested}; with ${request.agent_on_hand} on hand and ${request.agent_committed} in other requests, the cap of ${request.agent_sim_cap ?? 'none'} leaves room for ${room}.`}
          fields={APPROVE_FIELDS}
          schema={approveSimRequestSchema}
          initialValues={{ qty_approved: Math.min(request.qty_requested, room) || undefined }}
          submitLabel="Approve"
          run={async (values) => {
            const after = await actions.approve.mutateAsync(Number(values.qty_approved));
            return `${request.number} is approved for ${after.qty_approved} SIMs.`;
          }}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog === 'reject' && (
        <ActionDrawer
          title={`Reject ${request.number}`}
          intro="The agent sees the reason. SIMs allocated to it go back to stock."
          fields={REJECT_FIELDS}
          schema={rejectSimRequestSchema}
          initialValues={{}}
          submitLabel="Reject"
          run={async (values) => {
            await actions.reject.mutateAsync(String(values.reason));
            return `${request.number} is rejected.`;
          }}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog === 'ship' && (
        <ActionDrawer
          title={`Ship ${request.number}`}
          intro="Its SIMs go in transit until the agent confirms receipt."
          fields={SHIP_FIELDS}
          schema={shipSimRequestSchema}
          initialValues={{}}
          submitLabel="Ship"
          run={async (values) => {
            await actions.ship.mutateAsync((values.tracking_number as string | undefined) || null);
            return `${request.number} is shipped.`;
          }}
          onClose={() => setDialog(null)}
        />
      )}
    </Space>
  );
}

/** The drawer of one request (`?request=`). */
export function SimRequestDrawer({ id, onClose }: { id: number; onClose: () => void }) {
  const dialogFocus = useDialogFocus();
  const detail = useSimRequest(id);
  return (
    <Drawer
      {...dialogFocus}
      open
      size={900}
      title={detail.data ? `SIM request ${detail.data.number}` : 'SIM request'}
      onClose={onClose}
    >
      {detail.data ? (
        <SimRequestRecord request={detail.data} />
      ) : detail.error ? (
        <Alert type="error" title={detail.error.message} />
      ) : (
        <Spin />
      )}
    </Drawer>
  );
}
