import {
  allowedActions,
  CARRIER_NAMES,
  RMA_REASON_TEXT,
  rmaAttachments,
  rmaLifecycle,
  RMA_SUPERVISE_ACCESS,
  SHIPPING_SERVICE_INFO,
  type RmaAction,
  type RmaDetail,
  type RmaLine,
} from '@inventory/contract';
import {
  Alert,
  Button,
  Descriptions,
  Drawer,
  Space,
  Spin,
  Table,
  Timeline,
  Typography,
} from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { showApiError } from '../../../shell/api-errors';
import { useDialogFocus } from '../../../shell/dialog-focus';
import { notify } from '../../../shell/notify';
import { useCan } from '../../../shell/use-can';
import { useProfile } from '../../../shell/use-profile';
import { AttachmentsPanel } from '../../../toolkit/attachments-panel';
import { when } from '../../../toolkit/format';
import { printReturnLabel, useRefreshRmas, useRmaActions, useRmaDetail } from '../api/rma.queries';
import {
  RmaReasonDrawer,
  RmaResolveDrawer,
  RmaSupervisorDrawer,
  type RmaSupervisorAct,
} from './rma-forms';
import { RmaStatusTag } from './rma-status-tag';

const EVENT_WORDS: Record<string, string> = {
  requested: 'Requested',
  authorized: 'Authorised with a return label',
  rejected: 'Rejected',
  in_transit: 'On its way back',
  received: 'Received',
  inspected: 'Inspected: every device routed',
  replacement_ordered: 'Replacement ordered',
  refunded: 'Refunded',
  repair_chosen: 'Resolved by a repair',
  closed: 'Closed',
  cancelled: 'Cancelled',
  mismatch_flagged: 'Mismatch flagged for a supervisor',
  mismatch_cleared: 'Mismatch cleared',
  closed_short: 'Closed short',
  checklist_recorded: 'Checklist recorded',
};

function eventText(event: RmaDetail['events'][number]): string {
  const words = EVENT_WORDS[event.type] ?? event.type.replace(/_/g, ' ');
  const data = event.data ?? {};
  const extra = [
    typeof data.reason === 'string' && `reason: ${data.reason}`,
    typeof data.note === 'string' && `found: ${data.note}`,
    Array.isArray(data.codes) && `scanned ${data.codes.join(', ')}`,
    Array.isArray(data.not_returned) && `not returned: ${data.not_returned.join(', ')}`,
    typeof data.tracking === 'string' && `tracking ${data.tracking}`,
    typeof data.code === 'string' && `scanned ${data.code}`,
    typeof data.replacement_order === 'string' && `order ${data.replacement_order}`,
    Array.isArray(data.accessories) && `came with: ${data.accessories.join(', ') || 'nothing'}`,
    typeof data.damage_note === 'string' && `damage: ${data.damage_note}`,
    typeof data.station === 'string' && `at ${data.station}`,
  ].filter(Boolean);
  return [words, ...extra].join(', ');
}

/** The buttons of the steps a person runs on /RMA (receiving's steps are the station's). */
const PAGE_ACTIONS: Partial<Record<RmaAction, string>> = {
  authorize: 'Authorise',
  mark_in_transit: 'Mark in transit',
  reject: 'Reject',
  cancel: 'Cancel RMA',
  send_replacement: 'Resolve',
  close: 'Close',
  close_short: 'Close short',
};

/** The scans of devices the RMA does not expect since its mismatch was last cleared. */
function openMismatches(detail: RmaDetail) {
  const cleared = detail.events.filter((event) => event.type === 'mismatch_cleared').at(-1);
  const since = cleared ? Date.parse(cleared.at) : -Infinity;
  return detail.scans.filter((scan) => scan.result === 'mismatch' && Date.parse(scan.at) > since);
}

/** An RMA's devices, as the record and the receiving station show them. */
export function RmaLines({ lines }: { lines: readonly RmaLine[] }) {
  return (
    <Table<RmaLine>
      size="small"
      rowKey="device_id"
      pagination={false}
      dataSource={lines}
      columns={[
        {
          key: 'imei',
          title: 'IMEI',
          render: (_, line) => <Link to={`/devices/scan?code=${line.imei}`}>{line.imei}</Link>,
        },
        { key: 'model', title: 'Model', dataIndex: 'model' },
        {
          key: 'status',
          title: 'Device',
          render: (_, line) => line.device_status.replace(/_/g, ' '),
        },
        {
          key: 'received',
          title: 'Received',
          render: (_, line) =>
            line.received_at
              ? `${when(line.received_at)}${line.received_by_name ? ` by ${line.received_by_name}` : ''}`
              : line.not_returned
                ? 'not returned'
                : 'not yet',
        },
        { key: 'route', title: 'Routed to', render: (_, line) => line.route ?? '—' },
      ]}
    />
  );
}

/** What an RMA is: its order, reason, label, checklist and resolution. */
export function RmaFacts({ detail }: { detail: RmaDetail }) {
  const { rma, label } = detail;
  return (
    <Descriptions
      size="small"
      bordered
      column={{ xs: 1, md: 2 }}
      items={[
        { key: 'status', label: 'Status', children: <RmaStatusTag status={rma.status} /> },
        {
          key: 'order',
          label: 'Order',
          children: <Link to={`/order/list?order=${rma.order_id}`}>{rma.order_number}</Link>,
        },
        { key: 'customer', label: 'Customer', children: rma.customer || '—' },
        { key: 'reason', label: 'Reason', children: RMA_REASON_TEXT[rma.reason] },
        { key: 'warranty', label: 'Under warranty', children: rma.warranty_ok ? 'Yes' : 'No' },
        {
          key: 'label',
          label: 'Return label',
          children: label
            ? `${CARRIER_NAMES[label.carrier]} · ${SHIPPING_SERVICE_INFO[label.service].name} · ${label.tracking_number}`
            : '—',
        },
        {
          key: 'checklist',
          label: 'Came back with',
          children: detail.accessories.length > 0 ? detail.accessories.join(', ') : '—',
        },
        { key: 'damage', label: 'Damage', children: detail.damage_note ?? '—' },
        {
          key: 'resolution',
          label: 'Resolution',
          children: rma.resolution ? (
            <>
              {rma.resolution}
              {rma.replacement_order_id !== null && (
                <>
                  {': '}
                  <Link to={`/order/list?order=${rma.replacement_order_id}`}>
                    {rma.replacement_order_number}
                  </Link>
                </>
              )}
              {detail.refund_cents !== null && `: $${(detail.refund_cents / 100).toFixed(2)}`}
            </>
          ) : (
            '—'
          ),
        },
        { key: 'note', label: 'Note', children: detail.note ?? '—' },
      ]}
    />
  );
}

/** An RMA's record (`?rma=`): what it is, its steps, devices, photos and timeline. */
export function RmaDrawer({ id, onClose }: { id: number; onClose: () => void }) {
  const dialogFocus = useDialogFocus();
  const detail = useRmaDetail(id);
  const profile = useProfile();
  const actions = useRmaActions();
  const refresh = useRefreshRmas();
  const canSeePhotos = useCan(rmaAttachments.view);
  const canSupervise = useCan(RMA_SUPERVISE_ACCESS);
  const [asking, setAsking] = useState<'reject' | 'cancel' | 'resolve' | RmaSupervisorAct | null>(
    null,
  );
  const rma = detail.data?.rma;
  // Closing short is for a parcel that came without some of the devices.
  const someNotReceived = detail.data?.lines.some((line) => line.received_at === null) ?? false;

  const run = (action: RmaAction) => {
    if (!rma) return;
    if (action === 'reject' || action === 'cancel' || action === 'close_short') {
      return setAsking(action);
    }
    if (action === 'send_replacement') return setAsking('resolve');
    const done = (words: string) => () => notify.success(words);
    if (action === 'authorize') {
      actions.authorize.mutate(rma.id, {
        onSuccess: done(`${rma.number} is authorised: print its return label.`),
        onError: (error) => showApiError(error),
      });
    } else if (action === 'mark_in_transit' || action === 'close') {
      actions.transition.mutate(
        { id: rma.id, action },
        {
          onSuccess: done(`${rma.number} ${action === 'close' ? 'is closed' : 'is on its way'}.`),
          onError: (error) => showApiError(error),
        },
      );
    }
  };

  return (
    <Drawer
      {...dialogFocus}
      open
      size={860}
      title={rma ? `RMA ${rma.number}` : 'RMA'}
      onClose={onClose}
    >
      {detail.error ? (
        <Alert type="error" showIcon title={detail.error.message} />
      ) : !detail.data || !rma ? (
        <Spin />
      ) : (
        <Space orientation="vertical" size="large" style={{ width: '100%' }}>
          <Space wrap>
            {allowedActions(rmaLifecycle, rma, profile.data)
              .filter(
                (action) => action in PAGE_ACTIONS && (action !== 'close_short' || someNotReceived),
              )
              .map((action) => (
                <Button
                  key={action}
                  type={
                    action === 'authorize' || action === 'send_replacement' ? 'primary' : 'default'
                  }
                  danger={action === 'reject' || action === 'cancel'}
                  loading={action === 'authorize' && actions.authorize.isPending}
                  onClick={() => run(action)}
                >
                  {PAGE_ACTIONS[action]}
                </Button>
              ))}
            {detail.data.label && (
              <Button onClick={() => void printReturnLabel(rma.id).catch(showApiError)}>
                Print return label
              </Button>
            )}
          </Space>
          {rma.mismatch_flagged && (
            <Alert
              type="warning"
              showIcon
              title="Receiving scanned a device this RMA does not expect: a supervisor should look at it."
              description={
                <ul style={{ margin: 0, paddingInlineStart: 20 }} aria-label="Mismatched scans">
                  {openMismatches(detail.data).map((scan) => (
                    <li key={scan.id}>
                      {scan.code} · {when(scan.at)} · {scan.actor_name}
                      {scan.station && ` at ${scan.station}`}
                    </li>
                  ))}
                </ul>
              }
              action={
                canSupervise && (
                  <Button size="small" onClick={() => setAsking('clear_mismatch')}>
                    Clear mismatch
                  </Button>
                )
              }
            />
          )}
          <RmaFacts detail={detail.data} />
          <section aria-labelledby="rma-devices">
            <Typography.Title level={2} style={{ fontSize: 16 }} id="rma-devices">
              Devices
            </Typography.Title>
            <RmaLines lines={detail.data.lines} />
          </section>
          {canSeePhotos && (
            <section aria-labelledby="rma-photos">
              <Typography.Title level={2} style={{ fontSize: 16 }} id="rma-photos">
                Damage photos
              </Typography.Title>
              <AttachmentsPanel definition={rmaAttachments} recordId={rma.id} />
            </section>
          )}
          <section aria-labelledby="rma-events">
            <Typography.Title level={2} style={{ fontSize: 16 }} id="rma-events">
              Timeline
            </Typography.Title>
            <Timeline
              items={detail.data.events.map((event) => ({
                key: event.id,
                children: (
                  <>
                    {eventText(event)}
                    <Typography.Text type="secondary">
                      {' '}
                      · {when(event.at)}
                      {event.actor_name && ` · ${event.actor_name}`}
                    </Typography.Text>
                  </>
                ),
              }))}
            />
          </section>
        </Space>
      )}
      {rma && (asking === 'reject' || asking === 'cancel') && (
        <RmaReasonDrawer
          rma={rma}
          action={asking}
          onClose={() => setAsking(null)}
          onDone={() => void refresh()}
        />
      )}
      {rma && (asking === 'clear_mismatch' || asking === 'close_short') && (
        <RmaSupervisorDrawer
          rma={rma}
          act={asking}
          onClose={() => setAsking(null)}
          onDone={() => void refresh()}
        />
      )}
      {rma && asking === 'resolve' && (
        <RmaResolveDrawer rma={rma} onClose={() => setAsking(null)} onDone={() => void refresh()} />
      )}
    </Drawer>
  );
}
