import {
  allowedActions,
  COST_OWNER_TEXT,
  COST_OWNERS,
  createReshipSchema,
  denyReshipSchema,
  RESHIP_REASON_TEXT,
  RESHIP_REASONS,
  reshipLifecycle,
  type CostOwner,
  type Reship,
  type ReshipAction,
  type ReshipReason,
  type ReshipStatus,
} from '@inventory/contract';
import { Button, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { RequestBoard, type RequestView } from '../components/request-board';
import { Link } from 'react-router';
import { showApiError } from '../../../shell/api-errors';
import { notify } from '../../../shell/notify';
import { PAGE_TITLE_STYLE } from '../../../shell/page-styles';
import type { PageProps } from '../../../shell/page-types';
import { useProfile } from '../../../shell/use-profile';
import { ActionDrawer } from '../../../toolkit/action-drawer';
import { when } from '../../../toolkit/format';
import type { FormField } from '../../../toolkit/resource-page-config';
import { useReshipActions, useReships } from '../api/reship.queries';
import { ReshipCandidateNotice } from '../components/reship-candidate-notice';

const STATUS_COLORS: Record<ReshipStatus, string> = {
  requested: 'blue',
  approved: 'cyan',
  denied: 'red',
  order_created: 'green',
};

const ANSWER_WORDS: Partial<Record<ReshipAction, string>> = { approve: 'Approve', deny: 'Deny' };

/** The corrected address's fields, sent as `ship_to` when its first line is entered. */
const ADDRESS_FIELDS = ['name', 'line1', 'line2', 'city', 'state', 'zip', 'phone'] as const;
const ADDRESS_LABELS: Record<(typeof ADDRESS_FIELDS)[number], string> = {
  name: 'Ship to (name)',
  line1: 'Address line 1',
  line2: 'Address line 2',
  city: 'City',
  state: 'State (2 letters)',
  zip: 'ZIP',
  phone: 'Phone',
};
/** Named as the server names their 422 messages (`ship_to.zip`), so they land on them. */
const addressKey = (field: (typeof ADDRESS_FIELDS)[number]) => `ship_to.${field}`;

const NEW_RESHIP_FIELDS: FormField[] = [
  { name: 'order_number', label: 'Order number', kind: 'text', required: true },
  {
    name: 'reason',
    label: 'Reason',
    kind: 'select',
    required: true,
    options: RESHIP_REASONS.map((value) => ({ value, label: RESHIP_REASON_TEXT[value] })),
  },
  {
    name: 'cost_owner',
    label: 'Who bears the cost',
    kind: 'select',
    required: true,
    options: COST_OWNERS.map((value) => ({ value, label: COST_OWNER_TEXT[value] })),
  },
  {
    name: 'same_unit_imei',
    label: 'Ship the same unit (IMEI)',
    kind: 'text',
    help: 'A unit of this order that came back reusable; leave empty for a new unit from stock.',
  },
  ...ADDRESS_FIELDS.map((field): FormField => ({
    name: addressKey(field),
    label: ADDRESS_LABELS[field],
    kind: 'text',
    ...(field === 'name' && { help: 'Enter the corrected address; leave empty to keep it.' }),
  })),
  { name: 'note', label: 'Note', kind: 'textarea' },
];

type Values = Record<string, unknown>;

const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : null);

/**
 * Reship requests (`/shipment-management/reship`, DOMAIN.md 4.16): a returned, lost or damaged
 * order ships again. The request names the reason and who bears the cost, the returned unit when
 * it is reusable, and the corrected address, which an undeliverable parcel requires. An order
 * reshipped before needs a manager. The approval creates the child order (reship orders page).
 */
export default function ReshipsPage({ entry }: PageProps) {
  const [view, setView] = useState<RequestView>('open');
  const reships = useReships(view);
  const actions = useReshipActions();
  const profile = useProfile();
  const [entering, setEntering] = useState(false);
  const [denying, setDenying] = useState<Reship | null>(null);

  const answer = (row: Reship, action: ReshipAction) => {
    if (action === 'deny') {
      setDenying(row);
      return;
    }
    actions.approve.mutate(row.id, {
      onSuccess: (done) =>
        notify.success(`${done.original_order_number} ships again as ${done.new_order_number}.`),
      onError: (error) => showApiError(error),
    });
  };

  const columns = [
    {
      title: 'Original order',
      key: 'order',
      render: (_: unknown, row: Reship) => (
        <>
          <Link to={`/order/list?order=${row.original_order_id}`}>{row.original_order_number}</Link>
          <br />
          <Typography.Text type="secondary">
            {row.original_order_status.replace(/_/g, ' ')}
            {row.tracking_status && `; parcel ${row.tracking_status.replace(/_/g, ' ')}`}
          </Typography.Text>
        </>
      ),
    },
    {
      title: 'Reason',
      key: 'reason',
      render: (_: unknown, row: Reship) => (
        <>
          {RESHIP_REASON_TEXT[row.reason]}
          <br />
          <Typography.Text type="secondary">
            Cost: {COST_OWNER_TEXT[row.cost_owner]}
          </Typography.Text>
          {row.earlier_reships > 0 && (
            <Tag color="orange" style={{ marginLeft: 4 }}>
              Reshipped {row.earlier_reships}× before
            </Tag>
          )}
        </>
      ),
    },
    {
      title: 'Ships',
      key: 'ships',
      render: (_: unknown, row: Reship) => (
        <>
          {row.imei ? `Same unit ${row.imei}` : 'A new unit'}
          <br />
          <Typography.Text type="secondary">
            {row.new_place ? `New address: ${row.new_place}` : 'Same address'}
          </Typography.Text>
        </>
      ),
    },
    {
      title: 'Requested',
      key: 'requested',
      render: (_: unknown, row: Reship) => `${row.requested_by}, ${when(row.created_at)}`,
    },
    {
      title: 'Status',
      key: 'status',
      render: (_: unknown, row: Reship) => (
        <Space direction="vertical" size={0}>
          <Tag color={STATUS_COLORS[row.status]}>{reshipLifecycle.stateText(row.status)}</Tag>
          {row.new_order_id !== null && (
            <Link to={`/order/list?order=${row.new_order_id}`}>{row.new_order_number}</Link>
          )}
          {row.deny_reason && <Typography.Text type="secondary">{row.deny_reason}</Typography.Text>}
        </Space>
      ),
    },
    {
      title: 'Actions',
      key: 'actions',
      render: (_: unknown, row: Reship) => (
        <Space wrap>
          {allowedActions(reshipLifecycle, row, profile.data)
            .filter((action) => action in ANSWER_WORDS)
            .map((action) => (
              <Button
                key={action}
                size="small"
                danger={action === 'deny'}
                type={action === 'approve' ? 'primary' : 'default'}
                aria-label={`${ANSWER_WORDS[action]} the reship of ${row.original_order_number}`}
                loading={
                  action === 'approve' &&
                  actions.approve.isPending &&
                  actions.approve.variables === row.id
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
          <Button onClick={() => void reships.refetch()} loading={reships.isFetching}>
            Refresh
          </Button>
          <Button type="primary" onClick={() => setEntering(true)}>
            Request reship
          </Button>
        </Space>
      </Space>
      <Typography.Paragraph type="secondary">
        A returned, lost or damaged order ships again as a child order, fulfilled through the normal
        queues. A parcel that came back undeliverable needs a corrected address; an order reshipped
        before needs a manager's approval.
      </Typography.Paragraph>
      <RequestBoard<Reship>
        view={view}
        onViewChange={setView}
        error={reships.error}
        answer={reships.data && { rows: reships.data.reships, total: reships.data.total }}
        columns={columns}
      />
      {entering && (
        <ActionDrawer
          title="Request a reship"
          fields={NEW_RESHIP_FIELDS}
          schema={createReshipSchema}
          initialValues={{
            order_number: '',
            reason: 'return_to_sender',
            cost_owner: 'company',
            ...Object.fromEntries(ADDRESS_FIELDS.map((field) => [addressKey(field), ''])),
          }}
          notice={(values) => <ReshipCandidateNotice orderNumber={text(values.order_number)} />}
          submitLabel="Request"
          run={async (values: Values) => {
            const address = (field: (typeof ADDRESS_FIELDS)[number]) =>
              text(values[addressKey(field)]);
            const created = await actions.create.mutateAsync({
              order_number: String(values.order_number ?? ''),
              reason: values.reason as ReshipReason,
              cost_owner: values.cost_owner as CostOwner,
              same_unit_imei: text(values.same_unit_imei),
              note: text(values.note),
              ship_to: address('line1')
                ? {
                    name: address('name') ?? '',
                    line1: address('line1') ?? '',
                    line2: address('line2'),
                    city: address('city') ?? '',
                    state: address('state') ?? '',
                    zip: address('zip') ?? '',
                    phone: address('phone'),
                  }
                : null,
            });
            return `The reship of ${created.original_order_number} is requested.`;
          }}
          onClose={() => setEntering(false)}
        />
      )}
      {denying && (
        <ActionDrawer
          key={denying.id}
          title={`Deny the reship of ${denying.original_order_number}`}
          fields={[
            { name: 'reason', label: 'Why is it denied?', kind: 'textarea', required: true },
          ]}
          schema={denyReshipSchema}
          initialValues={{ reason: '' }}
          submitLabel="Deny"
          run={async (values: Values) => {
            const denied = await actions.deny.mutateAsync({
              id: denying.id,
              reason: String(values.reason ?? ''),
            });
            return `The reship of ${denied.original_order_number} is denied.`;
          }}
          onClose={() => setDenying(null)}
        />
      )}
    </Space>
  );
}
