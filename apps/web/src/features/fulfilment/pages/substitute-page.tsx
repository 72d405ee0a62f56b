import {
  ORDER_PROGRAMS,
  orderEndpoints,
  SUBSTITUTE_ACCESS,
  SUBSTITUTE_APPROVE_ACCESS,
  substitutionRuleEndpoints,
  substitutionRuleResource,
  type OrderProgram,
  type Substitution,
  type SubstitutionBacklogLine,
  type SubstitutionRule,
  type SubstitutionRun,
} from '@inventory/contract';
import { Alert, Button, Input, Modal, Select, Space, Table, Tabs, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { showApiError } from '../../../shell/api-errors';
import { notify } from '../../../shell/notify';
import { PAGE_TITLE_STYLE } from '../../../shell/page-styles';
import type { PageProps } from '../../../shell/page-types';
import { useCan } from '../../../shell/use-can';
import { counted, dollars, when } from '../../../toolkit/format';
import { pickerLoader } from '../../../toolkit/picker-options';
import { RemoteSelect } from '../../../toolkit/resource-form';
import {
  ACTIVE_OPTIONS,
  resourcePage,
  type FormField,
} from '../../../toolkit/resource-page-config';
import { activeTag, ResourcePage } from '../../../toolkit/resource-page';
import { optionsOf } from '../../master-data';
import {
  useSubstitutionActions,
  useSubstitutionBacklog,
  useSubstitutionList,
} from '../api/substitutions.queries';

/**
 * Substitutions (`/fulfill/substitute`, DOMAIN.md 4.14, 5.2 step 4a): orders on hold for want of
 * stock with the substitutes their client carrier's rule allows and the stock of each; a batch of
 * one ordered variant is proposed a substitute (a manager approves) or, by a manager, substituted
 * at once: the orders are ready with the new variant. Proposals awaiting a manager, substitutions
 * the client carrier wants to hear of, and the rules themselves have tabs of their own.
 */

type Tab = 'backlog' | 'proposals' | 'notices' | 'rules';
const TABS: { key: Tab; label: string }[] = [
  { key: 'backlog', label: 'Orders without stock' },
  { key: 'proposals', label: 'Awaiting approval' },
  { key: 'notices', label: 'Client notices' },
  { key: 'rules', label: 'Rules' },
];

function useTab(): [Tab, (tab: Tab) => void] {
  const [params, setParams] = useSearchParams();
  const tab = TABS.find((entry) => entry.key === params.get('tab'))?.key ?? 'backlog';
  return [tab, (next) => setParams(next === 'backlog' ? {} : { tab: next })];
}

function SubstituteTabs() {
  const [tab, setTab] = useTab();
  return <Tabs activeKey={tab} onChange={(next) => setTab(next as Tab)} items={TABS} />;
}

/** What a batch did, in words. */
const runText = (run: SubstitutionRun, what: string) =>
  [
    run.done.length > 0 && `${counted(run.done.length, 'order')} ${what}: ${numbers(run.done)}`,
    run.skipped.length > 0 &&
      `${counted(run.skipped.length, 'order')} passed over: ${run.skipped.map((s) => s.why).join(' ')}`,
  ]
    .filter(Boolean)
    .join('. ') || 'Nothing to do.';
const numbers = (orders: readonly { number: string }[]) => orders.map((o) => o.number).join(', ');

const CARRIER_FIELD: Extract<FormField, { kind: 'remote' }> = {
  name: 'client_carrier_id',
  label: 'Client carrier',
  kind: 'remote',
  placeholder: 'Client carrier',
  load: pickerLoader(orderEndpoints.carrierOptions),
};

const candidateText = (line: SubstitutionBacklogLine['candidates'][number]) =>
  `${line.sku} · ${line.available} in stock · ${dollars(line.price_cents)}`;

function NoStockOrders() {
  const [carrierId, setCarrierId] = useState<number | undefined>();
  const [program, setProgram] = useState<OrderProgram | undefined>();
  const backlog = useSubstitutionBacklog({ client_carrier_id: carrierId, program });
  const { propose, apply } = useSubstitutionActions();
  const canPropose = useCan(SUBSTITUTE_ACCESS);
  const canApply = useCan(SUBSTITUTE_APPROVE_ACCESS);
  const [chosen, setChosen] = useState<number[]>([]);
  const [substitute, setSubstitute] = useState<number | null>(null);
  const lines = backlog.data ?? [];
  const picked = lines.filter((line) => chosen.includes(line.line_id));
  const ordered = [...new Set(picked.map((line) => line.variant_id))];
  // The substitutes every chosen line allows, with the least stock and the dearest price of them.
  const common = (picked[0]?.candidates ?? []).filter((candidate) =>
    picked.every((line) => line.candidates.some((c) => c.variant_id === candidate.variant_id)),
  );
  const allowedForAll = (variantId: number) =>
    picked.every((line) => line.candidates.some((c) => c.variant_id === variantId && c.price_ok));

  const run = async (action: typeof propose | typeof apply, what: string) => {
    if (substitute === null || ordered.length !== 1) return;
    try {
      const result = await action.mutateAsync({
        from_variant_id: ordered[0]!,
        to_variant_id: substitute,
        order_ids: [...new Set(picked.map((line) => line.order_id))],
      });
      notify.success(runText(result, what));
      setChosen([]);
      setSubstitute(null);
    } catch (error) {
      showApiError(error);
    }
  };

  return (
    <>
      <Typography.Paragraph type="secondary">
        Orders on hold for want of stock, oldest first, with the variants their client
        carrier&apos;s rule allows instead and the stock of each. Choose orders of one ordered
        variant and a substitute: the customer&apos;s price never rises.
      </Typography.Paragraph>
      <Space wrap style={{ marginBottom: 16 }}>
        <div style={{ minWidth: 220 }}>
          <RemoteSelect
            aria-label="Client carrier"
            field={CARRIER_FIELD}
            initial={[]}
            value={carrierId ?? null}
            onChange={(value) => setCarrierId(typeof value === 'number' ? value : undefined)}
          />
        </div>
        <Select
          aria-label="Programme"
          placeholder="Programme"
          allowClear
          style={{ minWidth: 140 }}
          options={optionsOf(ORDER_PROGRAMS)}
          onChange={(value?: OrderProgram) => setProgram(value)}
        />
      </Space>
      {picked.length > 0 && (
        <Space wrap style={{ marginBottom: 16 }} aria-label="Batch">
          <Typography.Text>{counted(picked.length, 'line')} chosen</Typography.Text>
          {ordered.length > 1 ? (
            <Alert type="warning" showIcon title="Choose lines of one ordered variant." />
          ) : (
            <>
              <Select
                aria-label="Substitute"
                placeholder="Substitute"
                style={{ minWidth: 320 }}
                value={substitute ?? undefined}
                onChange={(value: number) => setSubstitute(value)}
                options={common.map((candidate) => ({
                  value: candidate.variant_id,
                  label: `${candidateText(candidate)}${allowedForAll(candidate.variant_id) ? '' : ' · price rises'}`,
                  disabled: !allowedForAll(candidate.variant_id),
                }))}
                notFoundContent="No substitute the rule allows has stock."
              />
              {canPropose && (
                <Button
                  disabled={substitute === null}
                  loading={propose.isPending}
                  onClick={() => void run(propose, 'wait for approval')}
                >
                  Propose
                </Button>
              )}
              {canApply && (
                <Button
                  type="primary"
                  disabled={substitute === null}
                  loading={apply.isPending}
                  onClick={() => void run(apply, 'substituted and ready')}
                >
                  Substitute now
                </Button>
              )}
            </>
          )}
        </Space>
      )}
      {backlog.isError && <Alert type="error" showIcon title="The backlog could not be loaded." />}
      <Table<SubstitutionBacklogLine>
        rowKey="line_id"
        size="small"
        loading={backlog.isLoading}
        dataSource={lines}
        pagination={false}
        rowSelection={{
          selectedRowKeys: chosen,
          onChange: (keys) => setChosen(keys as number[]),
          getCheckboxProps: (line) => ({ 'aria-label': `Choose ${line.number} ${line.sku}` }),
        }}
        locale={{ emptyText: 'No order waits for stock.' }}
        columns={[
          { key: 'number', title: 'Order', dataIndex: 'number' },
          {
            key: 'carrier',
            title: 'Client carrier',
            render: (_, line) => `${line.client_carrier ?? '—'} · ${line.program ?? '—'}`,
          },
          { key: 'place', title: 'City, state', dataIndex: 'place' },
          {
            key: 'ordered',
            title: 'Ordered',
            render: (_, line) => (
              <Space orientation="vertical" size={0}>
                <Typography.Text strong>{line.sku}</Typography.Text>
                <Typography.Text type="secondary">{line.description}</Typography.Text>
              </Space>
            ),
          },
          { key: 'qty', title: 'Qty', dataIndex: 'qty' },
          { key: 'price', title: 'Price', render: (_, line) => dollars(line.unit_price_cents) },
          { key: 'available', title: 'In stock', dataIndex: 'available' },
          {
            key: 'candidates',
            title: 'Substitutes',
            render: (_, line) =>
              line.rule_id === null ? (
                <Typography.Text type="secondary">No rule for this carrier</Typography.Text>
              ) : line.candidates.length === 0 ? (
                <Typography.Text type="secondary">None in stock</Typography.Text>
              ) : (
                line.candidates.map((candidate) => (
                  <Tag key={candidate.variant_id} color={candidate.price_ok ? 'green' : 'default'}>
                    {candidateText(candidate)}
                  </Tag>
                ))
              ),
          },
          { key: 'created', title: 'Created', render: (_, line) => when(line.created_at) },
        ]}
      />
    </>
  );
}

const SUBSTITUTION_COLUMNS = [
  { key: 'number', title: 'Order', dataIndex: 'number' },
  {
    key: 'carrier',
    title: 'Client carrier',
    render: (_: unknown, row: Substitution) =>
      `${row.client_carrier ?? '—'} · ${row.program ?? '—'}`,
  },
  {
    key: 'change',
    title: 'Substitution',
    render: (_: unknown, row: Substitution) => `${row.qty} × ${row.from_sku} → ${row.to_sku}`,
  },
  {
    key: 'price',
    title: 'Price',
    render: (_: unknown, row: Substitution) =>
      `${dollars(row.substitute_price_cents)} (ordered ${dollars(row.ordered_price_cents)})`,
  },
  {
    key: 'proposed',
    title: 'Proposed',
    render: (_: unknown, row: Substitution) =>
      `${when(row.proposed_at)} · ${row.proposed_by ?? '—'}`,
  },
  { key: 'note', title: 'Note', render: (_: unknown, row: Substitution) => row.note ?? '—' },
];

function Proposals() {
  const proposals = useSubstitutionList('proposals');
  const { approve, reject } = useSubstitutionActions();
  const canDecide = useCan(SUBSTITUTE_APPROVE_ACCESS);
  const [chosen, setChosen] = useState<number[]>([]);
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState('');

  const decide = async (action: () => Promise<SubstitutionRun>, what: string) => {
    try {
      notify.success(runText(await action(), what));
      setChosen([]);
      setRejecting(false);
      setReason('');
    } catch (error) {
      showApiError(error);
    }
  };

  return (
    <>
      {canDecide && (
        <Space style={{ marginBottom: 16 }}>
          <Button
            type="primary"
            disabled={chosen.length === 0}
            loading={approve.isPending}
            onClick={() => void decide(() => approve.mutateAsync(chosen), 'substituted and ready')}
          >
            Approve
          </Button>
          <Button danger disabled={chosen.length === 0} onClick={() => setRejecting(true)}>
            Reject
          </Button>
        </Space>
      )}
      <Modal
        open={rejecting}
        title={`Reject ${counted(chosen.length, 'substitution')}`}
        okText="Reject"
        okButtonProps={{ danger: true, disabled: reason.trim() === '' }}
        confirmLoading={reject.isPending}
        onCancel={() => setRejecting(false)}
        onOk={() =>
          void decide(
            () => reject.mutateAsync({ substitution_ids: chosen, reason }),
            'back in the backlog',
          )
        }
      >
        <Input.TextArea
          aria-label="Why"
          placeholder="Why (the orders go back to the backlog)"
          value={reason}
          onChange={(event) => setReason(event.target.value)}
        />
      </Modal>
      <Table<Substitution>
        rowKey="id"
        size="small"
        loading={proposals.isLoading}
        dataSource={proposals.data ?? []}
        pagination={false}
        rowSelection={
          canDecide
            ? {
                selectedRowKeys: chosen,
                onChange: (keys) => setChosen(keys as number[]),
                getCheckboxProps: (row) => ({ 'aria-label': `Choose ${row.number}` }),
              }
            : undefined
        }
        locale={{ emptyText: 'No substitution waits for approval.' }}
        columns={SUBSTITUTION_COLUMNS}
      />
    </>
  );
}

function Notices() {
  const notices = useSubstitutionList('toNotify');
  const { notified } = useSubstitutionActions();
  const [chosen, setChosen] = useState<number[]>([]);
  const markTold = async () => {
    try {
      notify.success(runText(await notified.mutateAsync(chosen), 'recorded as told'));
      setChosen([]);
    } catch (error) {
      showApiError(error);
    }
  };
  return (
    <>
      <Typography.Paragraph type="secondary">
        Substitutions applied for client carriers whose rule asks to hear of each one. Tell the
        carrier, then record it here.
      </Typography.Paragraph>
      <Button
        style={{ marginBottom: 16 }}
        disabled={chosen.length === 0}
        loading={notified.isPending}
        onClick={() => void markTold()}
      >
        Record the client as told
      </Button>
      <Table<Substitution>
        rowKey="id"
        size="small"
        loading={notices.isLoading}
        dataSource={notices.data ?? []}
        pagination={false}
        rowSelection={{
          selectedRowKeys: chosen,
          onChange: (keys) => setChosen(keys as number[]),
          getCheckboxProps: (row) => ({ 'aria-label': `Choose ${row.number}` }),
        }}
        locale={{ emptyText: 'No client waits to hear of a substitution.' }}
        columns={[
          ...SUBSTITUTION_COLUMNS.slice(0, 4),
          {
            key: 'decided',
            title: 'Applied',
            render: (_: unknown, row: Substitution) =>
              `${when(row.decided_at)} · ${row.decided_by ?? '—'}`,
          },
        ]}
      />
    </>
  );
}

const rulesConfig = resourcePage({
  resource: substitutionRuleResource,
  endpoints: substitutionRuleEndpoints,
  titleOf: (rule: SubstitutionRule) => `${rule.client_carrier} ${rule.program}`,
  searchPlaceholder: 'Client carrier or note',
  header: (
    <>
      <SubstituteTabs />
      <Typography.Paragraph type="secondary">
        What each client carrier allows in place of an ordered device, per programme. A manager
        edits them.
      </Typography.Paragraph>
    </>
  ),
  columns: [
    { key: 'client_carrier', title: 'Client carrier', sortKey: 'client_carrier' },
    { key: 'program', title: 'Programme' },
    {
      key: 'conditions',
      title: 'Conditions',
      render: (rule) =>
        [
          rule.same_os && 'same OS',
          rule.storage_at_least && 'storage at least',
          rule.grade_at_least && 'grade at least',
        ]
          .filter(Boolean)
          .join(', ') || 'any device',
    },
    {
      key: 'allowed_skus',
      title: 'Only',
      render: (rule) =>
        rule.allowed_skus.length === 0
          ? 'any variant'
          : rule.allowed_skus.map((sku) => <Tag key={sku}>{sku}</Tag>),
    },
    {
      key: 'notify_client',
      title: 'Notify client',
      render: (rule) => (rule.notify_client ? 'yes' : 'no'),
    },
    { key: 'active', title: 'Status', render: (rule) => activeTag(rule.active) },
    {
      key: 'updated_at',
      title: 'Updated',
      sortKey: 'updated_at',
      hidden: true,
      render: (rule) => when(rule.updated_at),
    },
  ],
  filters: [
    {
      key: 'client_carrier_id',
      label: 'Client carrier',
      load: pickerLoader(orderEndpoints.carrierOptions),
    },
    { key: 'program', label: 'Programme', options: optionsOf(ORDER_PROGRAMS) },
    { key: 'active', label: 'Status', options: ACTIVE_OPTIONS },
  ],
  form: {
    fields: [
      {
        name: 'client_carrier_id',
        label: 'Client carrier',
        kind: 'remote',
        load: pickerLoader(orderEndpoints.carrierOptions),
        initial: (rule: SubstitutionRule) => [
          { value: rule.client_carrier_id, label: rule.client_carrier },
        ],
        required: true,
        createOnly: true,
      },
      {
        name: 'program',
        label: 'Programme',
        kind: 'select',
        options: optionsOf(ORDER_PROGRAMS),
        required: true,
        createOnly: true,
      },
      { name: 'same_os', label: 'Same OS', kind: 'switch' },
      { name: 'storage_at_least', label: 'Storage at least the ordered', kind: 'switch' },
      { name: 'grade_at_least', label: 'Grade at least the ordered', kind: 'switch' },
      {
        name: 'allowed_skus',
        label: 'Only these variants',
        kind: 'words',
        help: 'SKUs; leave empty for any variant the conditions allow.',
      },
      { name: 'notify_client', label: 'Notify the client of each', kind: 'switch' },
      { name: 'note', label: 'Note', kind: 'textarea' },
      { name: 'active', label: 'Active', kind: 'switch' },
    ],
    defaults: {
      same_os: true,
      storage_at_least: true,
      grade_at_least: true,
      allowed_skus: [],
      notify_client: false,
      note: '',
      active: true,
    },
    toValues: (rule) => ({ ...rule, note: rule.note ?? '' }),
  },
});

export default function SubstitutePage(props: PageProps) {
  const [tab] = useTab();
  if (tab === 'rules') return <ResourcePage {...props} config={rulesConfig} />;
  return (
    <div>
      <Typography.Title level={1} style={PAGE_TITLE_STYLE}>
        {props.entry.label}
      </Typography.Title>
      <SubstituteTabs />
      {tab === 'backlog' && <NoStockOrders />}
      {tab === 'proposals' && <Proposals />}
      {tab === 'notices' && <Notices />}
    </div>
  );
}
