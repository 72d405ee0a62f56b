import {
  allowedActions,
  CARRIER_NAMES,
  createTradeInSchema,
  declineTradeInSchema,
  DEVICE_GRADES,
  inspectTradeInSchema,
  receiveTradeInSchema,
  revalueTradeInSchema,
  TRADE_IN_CHECK_WORDS,
  TRADE_IN_CHECKS,
  TRADE_IN_SETTINGS_ACCESS,
  tradeInLifecycle,
  updateTradeInSettingsSchema,
  type TradeInAction,
  type TradeInRow,
} from '@inventory/contract';
import { Button, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { showApiError } from '../../../shell/api-errors';
import { notify } from '../../../shell/notify';
import { PAGE_TITLE_STYLE } from '../../../shell/page-styles';
import type { PageProps } from '../../../shell/page-types';
import { useCan } from '../../../shell/use-can';
import { useProfile } from '../../../shell/use-profile';
import { ActionDrawer } from '../../../toolkit/action-drawer';
import { dollars, when } from '../../../toolkit/format';
import { useStationName } from '../../../toolkit/station';
import { useTradeInActions, useTradeInBoard } from '../api/trade-in.queries';

/** The button of each step, in words. */
const ACTION_WORDS: Record<TradeInAction, string> = {
  receive: 'Receive',
  reject: 'Reject',
  inspect: 'Inspect',
  accept: 'Accept',
  revalue: 'Revalue',
  decline: 'Offer declined',
  send_back: 'Send back',
};

/** Steps that take input open a form; rejecting is the receipt's and inspection's own outcome. */
type Form = 'receive' | 'inspect' | 'revalue' | 'decline';
const FORM_STEPS: readonly TradeInAction[] = ['receive', 'inspect', 'revalue', 'decline'];

const checklistText = (row: TradeInRow) =>
  row.inspected_at
    ? TRADE_IN_CHECKS.filter((check) => row[check] === false)
        .map((check) => `not: ${TRADE_IN_CHECK_WORDS[check].toLowerCase()}`)
        .join(', ') || 'all passed'
    : '—';

const offerText = (row: TradeInRow) =>
  row.offer_cents === null
    ? '—'
    : `${dollars(row.offer_cents)}${row.offer_expired ? ' (expired)' : ` until ${when(row.offer_expires_at)}`}`;

/**
 * Trade-ins (`/shipment-management/trade-in`, DOMAIN.md 4.16): expect a customer's phone at a
 * quote; receive it by IMEI scan, inspect and grade it; accept at the quote or revalue with an
 * offer that expires; a declined offer is sent back with a return label, an accepted one credits
 * the customer and puts the phone in our stock as returned (re-inspected on /RMA/reuse).
 */
export default function TradeInsPage({ entry }: PageProps) {
  const board = useTradeInBoard();
  const actions = useTradeInActions();
  const profile = useProfile();
  const canSetOffer = useCan(TRADE_IN_SETTINGS_ACCESS);
  const [station] = useStationName();
  const [creating, setCreating] = useState(false);
  const [changing, setChanging] = useState(false);
  const [form, setForm] = useState<{ kind: Form; row: TradeInRow } | null>(null);

  const run = async (row: TradeInRow, action: TradeInAction) => {
    if ((FORM_STEPS as readonly string[]).includes(action)) {
      setForm({ kind: action as Form, row });
      return;
    }
    try {
      const answer = await actions.step.mutateAsync({
        id: row.id,
        step: action === 'send_back' ? 'sendBack' : 'accept',
      });
      const done = answer.trade_in;
      notify.success(
        done.status === 'accepted'
          ? `${done.number} is accepted: ${dollars(done.credit_cents)} credited; the phone is in stock as returned.`
          : `${done.number} goes back by ${CARRIER_NAMES[done.return_carrier ?? 'usps']} ${done.return_tracking_number}.`,
      );
    } catch (error) {
      showApiError(error);
    }
  };

  const columns = (withActions: boolean) => [
    { key: 'number', title: 'Trade-in', dataIndex: 'number' },
    {
      key: 'customer',
      title: 'Customer',
      render: (_: unknown, row: TradeInRow) => `${row.customer_name}, ${row.city} ${row.state}`,
    },
    { key: 'declared', title: 'Declared model', dataIndex: 'declared_model' },
    {
      key: 'phone',
      title: 'Received',
      render: (_: unknown, row: TradeInRow) =>
        row.imei ? `${row.imei}${row.model ? ` · ${row.model}` : ''}` : '—',
    },
    {
      key: 'inspection',
      title: 'Inspection',
      render: (_: unknown, row: TradeInRow) =>
        row.grade ? `Grade ${row.grade}; ${checklistText(row)}` : checklistText(row),
    },
    {
      key: 'quoted',
      title: 'Quoted',
      render: (_: unknown, row: TradeInRow) => dollars(row.quoted_cents),
    },
    {
      key: 'offer',
      title: 'Revised offer',
      render: (_: unknown, row: TradeInRow) => offerText(row),
    },
    {
      key: 'status',
      title: 'Status',
      render: (_: unknown, row: TradeInRow) => (
        <Space size={4} wrap>
          <span data-testid="trade-in-status">{tradeInLifecycle.stateText(row.status)}</span>
          {row.reason && <Tag>{row.reason.replaceAll('_', ' ')}</Tag>}
          {row.credit_cents !== null && <Tag color="green">credit {dollars(row.credit_cents)}</Tag>}
          {row.return_tracking_number && <Tag>{row.return_tracking_number}</Tag>}
        </Space>
      ),
    },
    ...(withActions
      ? [
          {
            key: 'actions',
            title: 'Actions',
            render: (_: unknown, row: TradeInRow) => (
              <Space size={4} wrap>
                {allowedActions(tradeInLifecycle, row, profile.data)
                  .filter((action) => action !== 'reject')
                  .filter((action) => !(action === 'accept' && row.offer_expired))
                  .map((action) => (
                    <Button key={action} size="small" onClick={() => void run(row, action)}>
                      {ACTION_WORDS[action]} {row.number}
                    </Button>
                  ))}
              </Space>
            ),
          },
        ]
      : []),
  ];

  const settings = board.data?.settings;
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Typography.Title level={1} style={PAGE_TITLE_STYLE}>
        {entry.label}
      </Typography.Title>
      <Space wrap>
        <Button type="primary" onClick={() => setCreating(true)}>
          Expect a trade-in
        </Button>
        {settings && (
          <Typography.Text>
            A revised offer stays open {settings.offer_valid_days} days.
          </Typography.Text>
        )}
        {settings && canSetOffer && (
          <Button size="small" onClick={() => setChanging(true)}>
            Change offer window
          </Button>
        )}
      </Space>
      <Typography.Title level={2}>In progress</Typography.Title>
      <Table<TradeInRow>
        size="small"
        rowKey="id"
        loading={board.isLoading}
        pagination={false}
        dataSource={board.data?.open ?? []}
        locale={{ emptyText: 'No trade-in is in progress.' }}
        columns={columns(true)}
      />
      <Typography.Title level={2}>Finished (latest)</Typography.Title>
      <Table<TradeInRow>
        size="small"
        rowKey="id"
        pagination={false}
        dataSource={board.data?.finished ?? []}
        locale={{ emptyText: 'No trade-in is finished yet.' }}
        columns={columns(false)}
      />
      {creating && (
        <ActionDrawer
          title="Expect a trade-in"
          intro="The customer's address is where a declined phone goes back. Values are in cents."
          fields={[
            { name: 'customer_name', label: "Customer's name", kind: 'text', required: true },
            { name: 'line1', label: 'Street address', kind: 'text', required: true },
            { name: 'line2', label: 'Address line 2', kind: 'text' },
            { name: 'city', label: 'City', kind: 'text', required: true },
            { name: 'state', label: 'State', kind: 'text', required: true },
            { name: 'zip', label: 'ZIP code', kind: 'text', required: true },
            { name: 'declared_model', label: 'Declared model', kind: 'text', required: true },
            {
              name: 'quoted_cents',
              label: 'Quoted value (cents)',
              kind: 'number',
              min: 0,
              required: true,
            },
          ]}
          schema={createTradeInSchema}
          initialValues={{}}
          submitLabel="Expect trade-in"
          run={async (values) => {
            const made = await actions.create.mutateAsync({
              customer_name: String(values.customer_name),
              line1: String(values.line1),
              line2: typeof values.line2 === 'string' ? values.line2 : null,
              city: String(values.city),
              state: String(values.state),
              zip: String(values.zip),
              declared_model: String(values.declared_model),
              quoted_cents: Number(values.quoted_cents),
            });
            return `${made.trade_in.number} is expected.`;
          }}
          onClose={() => setCreating(false)}
        />
      )}
      {form?.kind === 'receive' && (
        <ActionDrawer
          title={`Receive ${form.row.number}`}
          intro={`Scan the phone's IMEI. Declared: ${form.row.declared_model}. A blacklisted IMEI rejects the trade-in.`}
          fields={[{ name: 'imei', label: 'IMEI', kind: 'text', required: true }]}
          schema={receiveTradeInSchema}
          initialValues={{}}
          submitLabel="Receive"
          run={async (values) => {
            const answer = await actions.receive.mutateAsync({
              id: form.row.id,
              imei: String(values.imei),
              station,
            });
            return answer.trade_in.status === 'rejected'
              ? `${form.row.number} is rejected: the IMEI is blacklisted.`
              : `${form.row.number} is received.`;
          }}
          onClose={() => setForm(null)}
        />
      )}
      {form?.kind === 'inspect' && (
        <ActionDrawer
          title={`Inspect ${form.row.number}`}
          intro="Switch on each item that passed. A phone still activation-locked is rejected."
          fields={[
            ...TRADE_IN_CHECKS.map((check) => ({
              name: check,
              label: TRADE_IN_CHECK_WORDS[check],
              kind: 'switch' as const,
            })),
            {
              name: 'grade',
              label: 'Grade',
              kind: 'select',
              required: true,
              options: DEVICE_GRADES.map((grade) => ({ value: grade, label: grade })),
            },
          ]}
          schema={inspectTradeInSchema}
          initialValues={Object.fromEntries(TRADE_IN_CHECKS.map((check) => [check, false]))}
          submitLabel="Record inspection"
          run={async (values) => {
            const checks = Object.fromEntries(
              TRADE_IN_CHECKS.map((check) => [check, values[check] === true]),
            ) as Record<(typeof TRADE_IN_CHECKS)[number], boolean>;
            const answer = await actions.inspect.mutateAsync({
              id: form.row.id,
              body: { ...checks, grade: values.grade as (typeof DEVICE_GRADES)[number] },
            });
            return answer.trade_in.status === 'rejected'
              ? `${form.row.number} is rejected: activation-locked.`
              : `${form.row.number} is inspected.`;
          }}
          onClose={() => setForm(null)}
        />
      )}
      {form?.kind === 'revalue' && (
        <ActionDrawer
          title={`Revalue ${form.row.number}`}
          intro={`Quoted ${dollars(form.row.quoted_cents)}. The offer stays open ${settings?.offer_valid_days ?? ''} days.`}
          fields={[
            {
              name: 'offer_cents',
              label: 'Revised offer (cents)',
              kind: 'number',
              min: 0,
              required: true,
            },
          ]}
          schema={revalueTradeInSchema}
          initialValues={{}}
          submitLabel="Make offer"
          run={async (values) => {
            const answer = await actions.revalue.mutateAsync({
              id: form.row.id,
              offer: Number(values.offer_cents),
            });
            return `${form.row.number}: ${dollars(answer.trade_in.offer_cents)} offered until ${when(answer.trade_in.offer_expires_at)}.`;
          }}
          onClose={() => setForm(null)}
        />
      )}
      {form?.kind === 'decline' && (
        <ActionDrawer
          title={`${form.row.number}: offer declined`}
          fields={[{ name: 'reason', label: 'Reason', kind: 'textarea' }]}
          schema={declineTradeInSchema}
          initialValues={{}}
          submitLabel="Record decline"
          run={async (values) => {
            await actions.decline.mutateAsync({
              id: form.row.id,
              reason: typeof values.reason === 'string' ? values.reason : null,
            });
            return `${form.row.number} is declined: send it back.`;
          }}
          onClose={() => setForm(null)}
        />
      )}
      {changing && settings && (
        <ActionDrawer
          title="Offer window"
          fields={[
            {
              name: 'offer_valid_days',
              label: 'Days a revised offer stays open',
              kind: 'number',
              min: 1,
              required: true,
            },
          ]}
          schema={updateTradeInSettingsSchema}
          initialValues={{ offer_valid_days: settings.offer_valid_days }}
          submitLabel="Save"
          run={async (values) => {
            const saved = await actions.updateSettings.mutateAsync(Number(values.offer_valid_days));
            return `A revised offer now stays open ${saved.offer_valid_days} days.`;
          }}
          onClose={() => setChanging(false)}
        />
      )}
    </Space>
  );
}
