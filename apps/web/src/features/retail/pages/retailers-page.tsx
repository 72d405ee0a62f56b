import {
  CERTIFICATE_STATUSES,
  RETAILER_ACCESS,
  RETAILER_PRICE_TIERS,
  RETAILER_STATUSES,
  RETAILER_TYPES,
  retailerEndpoints,
  retailerList,
  US_STATES,
  type Retailer,
} from '@inventory/contract';
import { Button, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import type { PageProps } from '../../../shell/page-types';
import { useCan } from '../../../shell/use-can';
import { useUrlParam } from '../../../shell/use-url-state';
import { dollars, when } from '../../../toolkit/format';
import type { ResourcePageConfig } from '../../../toolkit/resource-page-config';
import { ResourcePage } from '../../../toolkit/resource-page';
import { optionsOf } from '../../master-data';
import { CertificateTag } from '../components/certificate-tag';
import { RetailerDrawer } from '../components/retailer-drawer';
import { RetailerFormDrawer } from '../components/retailer-form-drawer';

/** The address key of the retailer whose drawer is open. */
const RETAILER_PARAM = 'retailer';

const config = (
  edit: (retailer: Retailer | 'new') => void,
  canManage: boolean,
): ResourcePageConfig<Retailer, typeof retailerList> => ({
  resource: { ...retailerList, manage: RETAILER_ACCESS },
  endpoints: retailerEndpoints,
  titleOf: (retailer) => retailer.name,
  searchPlaceholder: 'Name, tax ID, certificate or contact',
  header: (
    <Typography.Paragraph type="secondary">
      Stores, dealers and distributors we sell to: their terms, addresses and contacts, resale
      certificates and the people who sign in to their portal. Open one to record its certificate or
      create portal users.
    </Typography.Paragraph>
  ),
  actions: canManage && (
    <Button type="primary" onClick={() => edit('new')}>
      New retailer
    </Button>
  ),
  record: { param: RETAILER_PARAM, rowClick: true },
  rowActions: (retailer) => (
    <Button size="small" onClick={() => edit(retailer)}>
      Edit
    </Button>
  ),
  columns: [
    { key: 'name', title: 'Name', sortKey: 'name' },
    { key: 'type', title: 'Type' },
    { key: 'main_contact', title: 'Main contact', render: (r) => r.main_contact ?? '—' },
    { key: 'state', title: 'State', render: (r) => r.state ?? '—' },
    { key: 'price_tier', title: 'Price tier' },
    {
      key: 'credit',
      title: 'Credit',
      render: (r) =>
        r.credit_terms === 'prepaid'
          ? 'prepaid'
          : `${r.credit_terms}, ${dollars(r.credit_limit_cents)}`,
    },
    {
      key: 'tax_exempt_now',
      title: 'Tax-exempt',
      render: (r) => (r.tax_exempt_now ? 'Yes' : 'No'),
    },
    {
      key: 'certificate',
      title: 'Resale certificate',
      sortKey: 'certificate_expires_on',
      render: (r) => <CertificateTag retailer={r} />,
    },
    { key: 'open_orders', title: 'Open orders' },
    {
      key: 'revenue_12m_cents',
      title: '12-month revenue',
      render: (r) => dollars(r.revenue_12m_cents),
    },
    { key: 'portal_users', title: 'Portal users', hidden: true },
    { key: 'account_rep', title: 'Account rep', hidden: true, render: (r) => r.account_rep ?? '—' },
    {
      key: 'status',
      title: 'Status',
      render: (r) => <Tag color={r.status === 'active' ? 'green' : 'default'}>{r.status}</Tag>,
    },
    {
      key: 'updated_at',
      title: 'Updated',
      sortKey: 'updated_at',
      hidden: true,
      render: (r) => when(r.updated_at),
    },
  ],
  filters: [
    { key: 'type', label: 'Type', options: optionsOf(RETAILER_TYPES) },
    { key: 'state', label: 'State', options: optionsOf(US_STATES) },
    { key: 'status', label: 'Status', options: optionsOf(RETAILER_STATUSES) },
    { key: 'price_tier', label: 'Price tier', options: optionsOf(RETAILER_PRICE_TIERS) },
    { key: 'certificate', label: 'Certificate', options: optionsOf(CERTIFICATE_STATUSES) },
  ],
});

/**
 * Retailers (DOMAIN.md 4.8): the list, the form with addresses and contacts, and the drawer of one
 * retailer (`?retailer=`) with its certificate and portal users.
 */
export default function RetailersPage(props: PageProps) {
  const [opened, setOpened] = useUrlParam(RETAILER_PARAM);
  const [editing, setEditing] = useState<number | 'new' | null>(null);
  const canManage = useCan(RETAILER_ACCESS);
  const pageConfig = useMemo(
    () => config((retailer) => setEditing(retailer === 'new' ? 'new' : retailer.id), canManage),
    [canManage],
  );
  const openedId = Number(opened) || null;
  return (
    <>
      <ResourcePage {...props} config={pageConfig} />
      {openedId && (
        <RetailerDrawer
          id={openedId}
          onEdit={() => setEditing(openedId)}
          onClose={() => setOpened(undefined)}
        />
      )}
      {editing !== null && (
        <RetailerFormDrawer
          retailerId={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
        />
      )}
    </>
  );
}
