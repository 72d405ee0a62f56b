import {
  CARRIER_NAMES,
  CLAIM_TERMS_ACCESS,
  CLAIM_TYPE_WORDS,
  CLAIM_TYPES,
  claimLifecycle,
  createClaimSchema,
  updateCarrierTermsSchema,
  type CarrierTerms,
  type ClaimPackage,
  type ClaimRow,
} from '@inventory/contract';
import { Alert, Button, Descriptions, Form, Input, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { showApiError } from '../../../shell/api-errors';
import { PAGE_TITLE_STYLE } from '../../../shell/page-styles';
import type { PageProps } from '../../../shell/page-types';
import { useCan } from '../../../shell/use-can';
import { ActionDrawer } from '../../../toolkit/action-drawer';
import { dollars, when } from '../../../toolkit/format';
import { lookUpParcel, useClaimActions, useClaimBoard } from '../api/claim.queries';
import { ClaimDrawer, filingWindowText } from '../components/claim-drawer';

const claimColumns = (open: (id: number) => void) => [
  {
    key: 'number',
    title: 'Claim',
    render: (_: unknown, claim: ClaimRow) => (
      <Typography.Link onClick={() => open(claim.id)}>{claim.number}</Typography.Link>
    ),
  },
  {
    key: 'parcel',
    title: 'Tracking',
    render: (_: unknown, claim: ClaimRow) =>
      `${CARRIER_NAMES[claim.carrier]} ${claim.tracking_number}`,
  },
  { key: 'order', title: 'Order', dataIndex: 'order_number' },
  {
    key: 'type',
    title: 'Type',
    render: (_: unknown, claim: ClaimRow) => CLAIM_TYPE_WORDS[claim.type],
  },
  {
    key: 'declared',
    title: 'Declared',
    render: (_: unknown, claim: ClaimRow) => dollars(claim.declared_cents),
  },
  {
    key: 'claimed',
    title: 'Claimed',
    render: (_: unknown, claim: ClaimRow) => dollars(claim.claimed_cents),
  },
  {
    key: 'window',
    title: 'Filing window',
    render: (_: unknown, claim: ClaimRow) =>
      claim.past_deadline ? `closed (${filingWindowText(claim)})` : filingWindowText(claim),
  },
  { key: 'filed', title: 'Filed', render: (_: unknown, claim: ClaimRow) => when(claim.filed_at) },
  {
    key: 'status',
    title: 'Status',
    render: (_: unknown, claim: ClaimRow) => (
      <span data-testid="claim-status">{claimLifecycle.stateText(claim.status)}</span>
    ),
  },
  {
    key: 'paid',
    title: 'Paid',
    render: (_: unknown, claim: ClaimRow) => dollars(claim.paid_cents),
  },
];

/**
 * Carrier claims (`/shipment-management/claim`, DOMAIN.md 4.16): look a parcel up by its tracking
 * number and draft a claim with its values prefilled; open claims with their filing windows and
 * the latest closed; each claim's record (`?claim=`) files, decides and closes it with its proof
 * files. A manager sets each carrier's filing terms here.
 */
export default function ClaimsPage({ entry }: PageProps) {
  const board = useClaimBoard();
  const actions = useClaimActions();
  const canSetTerms = useCan(CLAIM_TERMS_ACCESS);
  const [search, setSearch] = useSearchParams();
  const [tracking, setTracking] = useState('');
  const [parcel, setParcel] = useState<ClaimPackage | null>(null);
  const [drafting, setDrafting] = useState(false);
  const [terms, setTerms] = useState<CarrierTerms | null>(null);
  const openId = Number(search.get('claim')) || null;
  const open = (id: number | null) =>
    setSearch((params) => {
      if (id === null) params.delete('claim');
      else params.set('claim', String(id));
      return params;
    });

  const lookUp = async () => {
    try {
      setParcel(await lookUpParcel(tracking.trim()));
    } catch (error) {
      setParcel(null);
      showApiError(error);
    }
  };

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Typography.Title level={1} style={PAGE_TITLE_STYLE}>
        {entry.label}
      </Typography.Title>
      <Typography.Title level={2}>Claim a parcel</Typography.Title>
      <Form layout="inline" onFinish={() => void lookUp()}>
        <Form.Item label="Tracking number" htmlFor="claim-tracking">
          <Input
            id="claim-tracking"
            value={tracking}
            onChange={(event) => setTracking(event.target.value)}
            style={{ width: 280 }}
          />
        </Form.Item>
        <Button htmlType="submit" disabled={!tracking.trim()}>
          Look up parcel
        </Button>
      </Form>
      {parcel && (
        <Space direction="vertical" style={{ width: '100%' }}>
          <Descriptions
            size="small"
            bordered
            column={3}
            items={[
              {
                key: 'parcel',
                label: 'Parcel',
                children: `${CARRIER_NAMES[parcel.carrier]} ${parcel.tracking_number}`,
              },
              { key: 'status', label: 'Status', children: parcel.status.replaceAll('_', ' ') },
              { key: 'order', label: 'Order', children: parcel.order_number },
              { key: 'shipped', label: 'Shipped', children: when(parcel.shipped_at) },
              { key: 'declared', label: 'Sold for', children: dollars(parcel.declared_cents) },
              { key: 'cost', label: 'Devices cost', children: dollars(parcel.claimed_cents) },
              {
                key: 'devices',
                label: 'Devices',
                span: 3,
                children: parcel.devices.map((d) => `${d.imei} (${d.model})`).join(', ') || '—',
              },
            ]}
          />
          {parcel.open_claim_number ? (
            <Alert
              type="info"
              showIcon
              title={`This parcel has an open claim: ${parcel.open_claim_number}.`}
            />
          ) : (
            <Button type="primary" onClick={() => setDrafting(true)}>
              Draft a claim for {parcel.tracking_number}
            </Button>
          )}
        </Space>
      )}
      <Typography.Title level={2}>Open claims</Typography.Title>
      <Table<ClaimRow>
        size="small"
        rowKey="id"
        loading={board.isLoading}
        pagination={false}
        dataSource={board.data?.open ?? []}
        locale={{ emptyText: 'No claim is open.' }}
        columns={claimColumns(open)}
      />
      <Typography.Title level={2}>Closed claims (latest)</Typography.Title>
      <Table<ClaimRow>
        size="small"
        rowKey="id"
        pagination={false}
        dataSource={board.data?.closed ?? []}
        locale={{ emptyText: 'No claim is closed yet.' }}
        columns={claimColumns(open)}
      />
      <Typography.Title level={2}>Filing terms per carrier</Typography.Title>
      <Table<CarrierTerms>
        size="small"
        rowKey="carrier"
        pagination={false}
        dataSource={board.data?.terms ?? []}
        columns={[
          { key: 'carrier', title: 'Carrier', render: (_, t) => CARRIER_NAMES[t.carrier] },
          {
            key: 'wait',
            title: 'Lost parcels: earliest filing',
            render: (_, t) => `${t.lost_wait_days} days after shipping`,
          },
          {
            key: 'window',
            title: 'Filing window',
            render: (_, t) => `${t.filing_window_days} days after shipping`,
          },
          { key: 'updated', title: 'Changed', render: (_, t) => when(t.updated_at) },
          ...(canSetTerms
            ? [
                {
                  key: 'actions',
                  title: 'Actions',
                  render: (_: unknown, t: CarrierTerms) => (
                    <Button size="small" onClick={() => setTerms(t)}>
                      Change {CARRIER_NAMES[t.carrier]} terms
                    </Button>
                  ),
                },
              ]
            : []),
        ]}
      />
      {parcel && drafting && (
        <ActionDrawer
          title={`Claim for ${parcel.tracking_number}`}
          intro="A lost parcel is claimed once it is flagged lost; a damaged one once delivered. Values are in cents, prefilled from the order's prices and the devices' cost."
          fields={[
            {
              name: 'type',
              label: 'Type',
              kind: 'select',
              required: true,
              options: CLAIM_TYPES.map((type) => ({ value: type, label: CLAIM_TYPE_WORDS[type] })),
            },
            { name: 'declared_cents', label: 'Declared value (cents)', kind: 'number', min: 0 },
            { name: 'claimed_cents', label: 'Claimed (cents)', kind: 'number', min: 1 },
            { name: 'note', label: 'Note', kind: 'textarea' },
          ]}
          schema={createClaimSchema}
          initialValues={{
            type: parcel.status === 'lost' ? 'lost' : 'damaged',
            declared_cents: parcel.declared_cents,
            claimed_cents: parcel.claimed_cents,
          }}
          submitLabel="Draft claim"
          run={async (values) => {
            const made = await actions.create.mutateAsync({
              package_id: parcel.package_id,
              type: values.type as (typeof CLAIM_TYPES)[number],
              declared_cents: Number(values.declared_cents),
              claimed_cents: Number(values.claimed_cents),
              note: typeof values.note === 'string' ? values.note : null,
            });
            setParcel(null);
            setTracking('');
            open(made.claim.id);
            return `${made.claim.number} is drafted: attach the proof, then file it.`;
          }}
          onClose={() => setDrafting(false)}
        />
      )}
      {terms && (
        <ActionDrawer
          title={`${CARRIER_NAMES[terms.carrier]} claim terms`}
          intro="Days are counted from the parcel's scan-out. Open drafts follow the new terms."
          fields={[
            {
              name: 'lost_wait_days',
              label: 'Lost parcels: days before filing',
              kind: 'number',
              min: 0,
              required: true,
            },
            {
              name: 'filing_window_days',
              label: 'Days to file',
              kind: 'number',
              min: 1,
              required: true,
            },
          ]}
          schema={updateCarrierTermsSchema}
          initialValues={{
            lost_wait_days: terms.lost_wait_days,
            filing_window_days: terms.filing_window_days,
          }}
          submitLabel="Save terms"
          run={async (values) => {
            await actions.updateTerms.mutateAsync({
              carrier: terms.carrier,
              body: {
                lost_wait_days: Number(values.lost_wait_days),
                filing_window_days: Number(values.filing_window_days),
              },
            });
            return `${CARRIER_NAMES[terms.carrier]}'s claim terms are saved.`;
          }}
          onClose={() => setTerms(null)}
        />
      )}
      {openId !== null && <ClaimDrawer id={openId} onClose={() => open(null)} />}
    </Space>
  );
}
