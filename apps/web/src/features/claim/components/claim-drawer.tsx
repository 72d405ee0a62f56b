import {
  allowedActions,
  CARRIER_NAMES,
  CLAIM_TYPE_WORDS,
  claimAttachments,
  claimLifecycle,
  denyClaimSchema,
  fileClaimSchema,
  payClaimSchema,
  type ClaimAction,
  type ClaimRow,
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
import { showApiError } from '../../../shell/api-errors';
import { useDialogFocus } from '../../../shell/dialog-focus';
import { notify } from '../../../shell/notify';
import { useProfile } from '../../../shell/use-profile';
import { ActionDrawer } from '../../../toolkit/action-drawer';
import { AttachmentsPanel } from '../../../toolkit/attachments-panel';
import { dollars, when } from '../../../toolkit/format';
import { useClaim, useClaimActions } from '../api/claim.queries';

/** The button of each step, in words. */
const ACTION_WORDS: Record<ClaimAction, string> = {
  file: 'File with the carrier',
  review: 'Carrier is reviewing',
  pay: 'Record payment',
  deny: 'Record denial',
  close: 'Close',
};

/** The day of an ISO moment: the carriers count whole days. */
const day = (iso: string | null) => (iso ? iso.slice(0, 10) : '—');

/** When a claim may be filed, and until when. */
export const filingWindowText = (claim: ClaimRow) =>
  claim.earliest_filing_at
    ? `${day(claim.earliest_filing_at)} to ${day(claim.deadline_at)}`
    : `by ${day(claim.deadline_at)}`;

type Form = 'file' | 'pay' | 'deny';

/**
 * A claim's record (`?claim=`): its parcel and values, the filing window, the devices the parcel
 * carried, its proof files, its timeline, and the steps the user may take now.
 */
export function ClaimDrawer({ id, onClose }: { id: number; onClose: () => void }) {
  const dialogFocus = useDialogFocus();
  const profile = useProfile();
  const detail = useClaim(id);
  const actions = useClaimActions();
  const [form, setForm] = useState<Form | null>(null);
  const claim = detail.data?.claim;

  const run = async (action: ClaimAction) => {
    if (action === 'file' || action === 'pay' || action === 'deny') {
      setForm(action);
      return;
    }
    try {
      const answer = await actions.step.mutateAsync({ id, step: action });
      notify.success(`${answer.claim.number} is ${claimLifecycle.stateText(answer.claim.status)}.`);
    } catch (error) {
      showApiError(error);
    }
  };

  return (
    <Drawer
      {...dialogFocus}
      open
      size={820}
      title={claim ? `Claim ${claim.number}` : 'Claim'}
      onClose={onClose}
    >
      {detail.error ? (
        <Alert type="error" showIcon title={detail.error.message} />
      ) : !detail.data || !claim ? (
        <Spin />
      ) : (
        <Space direction="vertical" size="large" style={{ width: '100%' }}>
          <Space wrap>
            {allowedActions(claimLifecycle, claim, profile.data).map((action) => (
              <Button
                key={action}
                type={action === 'close' ? 'default' : 'primary'}
                onClick={() => void run(action)}
              >
                {ACTION_WORDS[action]}
              </Button>
            ))}
          </Space>
          {claim.past_deadline && (
            <Alert
              type="warning"
              showIcon
              title={`The filing window closed on ${day(claim.deadline_at)}: this draft can only be closed.`}
            />
          )}
          <Descriptions
            size="small"
            bordered
            column={2}
            items={[
              { key: 'status', label: 'Status', children: claimLifecycle.stateText(claim.status) },
              { key: 'type', label: 'Type', children: CLAIM_TYPE_WORDS[claim.type] },
              {
                key: 'parcel',
                label: 'Parcel',
                children: `${CARRIER_NAMES[claim.carrier]} ${claim.tracking_number}`,
              },
              { key: 'order', label: 'Order', children: claim.order_number },
              { key: 'declared', label: 'Declared value', children: dollars(claim.declared_cents) },
              { key: 'claimed', label: 'Claimed', children: dollars(claim.claimed_cents) },
              { key: 'shipped', label: 'Shipped', children: day(claim.shipped_at) },
              { key: 'window', label: 'Filing window', children: filingWindowText(claim) },
              {
                key: 'carrier-number',
                label: "Carrier's claim no.",
                children: claim.carrier_claim_number ?? '—',
              },
              { key: 'paid', label: 'Paid', children: dollars(claim.paid_cents) },
              { key: 'note', label: 'Note', children: claim.note ?? '—', span: 2 },
            ]}
          />
          <section aria-labelledby="claim-devices">
            <Typography.Title level={5} id="claim-devices">
              Devices in the parcel
            </Typography.Title>
            <Table
              size="small"
              rowKey="device_id"
              pagination={false}
              dataSource={detail.data.devices}
              locale={{ emptyText: 'The parcel carried no device.' }}
              columns={[
                { key: 'imei', title: 'IMEI', dataIndex: 'imei' },
                { key: 'model', title: 'Model', dataIndex: 'model' },
                { key: 'status', title: 'Device status', dataIndex: 'status' },
                { key: 'cost', title: 'Cost', render: (_, d) => dollars(d.cost_cents) },
                { key: 'price', title: 'Sold at', render: (_, d) => dollars(d.price_cents) },
              ]}
            />
          </section>
          <section aria-labelledby="claim-proof">
            <Typography.Title level={5} id="claim-proof">
              Proof of value and photos
            </Typography.Title>
            <AttachmentsPanel definition={claimAttachments} recordId={claim.id} />
          </section>
          <section aria-labelledby="claim-events">
            <Typography.Title level={5} id="claim-events">
              Timeline
            </Typography.Title>
            <Timeline
              items={detail.data.events.map((event) => ({
                key: event.id,
                children: (
                  <>
                    {event.type.replaceAll('_', ' ')}
                    {typeof event.data?.reason === 'string' && `: ${event.data.reason}`}
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
      {claim && form === 'file' && (
        <ActionDrawer
          title={`File ${claim.number} with ${CARRIER_NAMES[claim.carrier]}`}
          intro={`Filing window: ${filingWindowText(claim)}.`}
          fields={[
            {
              name: 'carrier_claim_number',
              label: "Carrier's claim number",
              kind: 'text',
              required: true,
            },
          ]}
          schema={fileClaimSchema}
          initialValues={{}}
          submitLabel="File claim"
          run={async (values) => {
            await actions.file.mutateAsync({ id, number: String(values.carrier_claim_number) });
            return `${claim.number} is filed.`;
          }}
          onClose={() => setForm(null)}
        />
      )}
      {claim && form === 'pay' && (
        <ActionDrawer
          title={`Payment of ${claim.number}`}
          intro={
            claim.type === 'lost'
              ? "The parcel's devices are written off as lost with the payment."
              : undefined
          }
          fields={[
            {
              name: 'paid_cents',
              label: 'Amount paid (cents)',
              kind: 'number',
              min: 0,
              required: true,
            },
          ]}
          schema={payClaimSchema}
          initialValues={{ paid_cents: claim.claimed_cents }}
          submitLabel="Record payment"
          run={async (values) => {
            await actions.pay.mutateAsync({ id, paid: Number(values.paid_cents) });
            return `${claim.number} is paid.`;
          }}
          onClose={() => setForm(null)}
        />
      )}
      {claim && form === 'deny' && (
        <ActionDrawer
          title={`Denial of ${claim.number}`}
          fields={[
            { name: 'reason', label: "The carrier's reason", kind: 'textarea', required: true },
          ]}
          schema={denyClaimSchema}
          initialValues={{}}
          submitLabel="Record denial"
          run={async (values) => {
            await actions.deny.mutateAsync({ id, reason: String(values.reason) });
            return `${claim.number} is denied.`;
          }}
          onClose={() => setForm(null)}
        />
      )}
    </Drawer>
  );
}
