import {
  invoiceImeiEndpoints,
  invoicePageVendorOptionsEndpoint,
  INVOICE_MANAGE_ACCESS,
  manifestImport,
  PURCHASE_INVOICE_STATUSES,
  purchaseInvoiceEndpoints,
  purchaseInvoiceList,
  type PurchaseInvoice,
} from '@inventory/contract';
import { Button, Space, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import type { PageProps } from '../../../shell/page-types';
import { useCan } from '../../../shell/use-can';
import { useUrlParam } from '../../../shell/use-url-state';
import { dollars, when } from '../../../toolkit/format';
import { pickerLoader } from '../../../toolkit/picker-options';
import { RowLink } from '../../../toolkit/record-link';
import type { ResourcePageConfig } from '../../../toolkit/resource-page-config';
import { ResourcePage } from '../../../toolkit/resource-page';
import { invoiceImeisPath } from '..';
import { optionsOf } from '../../master-data';
import { InvoiceDrawer } from '../components/invoice-drawer';
import { InvoiceFormDrawer } from '../components/invoice-form-drawer';
import { InvoiceStatusTag } from '../components/invoice-status';

/** Missing, unexpected, duplicate and mismatched IMEIs, with how many still need a decision. */
function DiscrepancyCell({ invoice }: { invoice: PurchaseInvoice }) {
  const { missing, unexpected, duplicate, mismatched, undecided } = invoice.counts;
  const found = missing + unexpected + duplicate + mismatched;
  if (found === 0) return <>—</>;
  return (
    <Space size={4} wrap>
      {missing > 0 && <Tag color="red">{missing} missing</Tag>}
      {unexpected > 0 && <Tag color="orange">{unexpected} unexpected</Tag>}
      {duplicate > 0 && <Tag color="magenta">{duplicate} duplicate</Tag>}
      {mismatched > 0 && <Tag color="volcano">{mismatched} model mismatch</Tag>}
      {undecided > 0 && <Tag color="gold">{undecided} to decide</Tag>}
    </Space>
  );
}

/** The address key of the invoice whose drawer is open. */
const INVOICE_PARAM = 'invoice';

const config = (
  edit: (invoice: PurchaseInvoice | 'new') => void,
  canManage: boolean,
): ResourcePageConfig<PurchaseInvoice, typeof purchaseInvoiceList> => ({
  resource: { ...purchaseInvoiceList, manage: INVOICE_MANAGE_ACCESS },
  endpoints: purchaseInvoiceEndpoints,
  import: { resource: manifestImport, endpoints: invoiceImeiEndpoints },
  titleOf: (invoice) => invoice.invoice_no,
  searchPlaceholder: 'Invoice number or vendor',
  header: (
    <Typography.Paragraph type="secondary">
      Vendor invoices with their lines and IMEI manifests. Import a vendor&apos;s file (header,
      lines and IMEIs) or enter an invoice by hand; open one to reconcile what arrived, decide each
      discrepancy and close it.
    </Typography.Paragraph>
  ),
  actions: canManage && (
    <Button type="primary" onClick={() => edit('new')}>
      New purchase invoice
    </Button>
  ),
  record: { param: INVOICE_PARAM, rowClick: true },
  rowActions: (invoice) =>
    invoice.status !== 'closed' && (
      <Button size="small" onClick={() => edit(invoice)}>
        Edit
      </Button>
    ),
  columns: [
    { key: 'invoice_no', title: 'Invoice', sortKey: 'invoice_no' },
    { key: 'vendor', title: 'Vendor' },
    { key: 'invoice_date', title: 'Date' },
    {
      key: 'status',
      title: 'Status',
      render: (invoice) => <InvoiceStatusTag status={invoice.status} />,
    },
    { key: 'qty_ordered', title: 'Ordered' },
    {
      key: 'expected',
      title: 'Expected / received',
      render: (invoice) =>
        invoice.has_manifest ? (
          <RowLink
            to={invoiceImeisPath(invoice.id)}
            where={`IMEIs of invoice ${invoice.invoice_no} in the register`}
            named
          >
            {invoice.counts.manifest} / {invoice.counts.received}
          </RowLink>
        ) : (
          `— / ${invoice.counts.received}`
        ),
    },
    {
      key: 'discrepancies',
      title: 'Discrepancies',
      render: (invoice) => <DiscrepancyCell invoice={invoice} />,
    },
    {
      key: 'total_cents',
      title: 'Total',
      render: (invoice) => dollars(invoice.total_cents ?? invoice.lines_total_cents),
    },
    { key: 'currency', title: 'Currency', hidden: true },
    { key: 'notes', title: 'Notes', hidden: true },
    {
      key: 'created_at',
      title: 'Created',
      sortKey: 'created_at',
      render: (invoice) => when(invoice.created_at),
    },
  ],
  filters: [
    { key: 'status', label: 'Status', options: optionsOf(PURCHASE_INVOICE_STATUSES) },
    { key: 'vendor_id', label: 'Vendor', load: pickerLoader(invoicePageVendorOptionsEndpoint) },
  ],
});

/**
 * Purchase invoices: the list with the manifest import, the invoice form (header and lines) and
 * the drawer of one invoice (`?invoice=`, which its number in the list and a device card link to).
 */
export default function PurchaseInvoicesPage(props: PageProps) {
  const [opened, setOpened] = useUrlParam(INVOICE_PARAM);
  const [editing, setEditing] = useState<number | 'new' | null>(null);
  const canManage = useCan(INVOICE_MANAGE_ACCESS);
  const pageConfig = useMemo(
    () => config((invoice) => setEditing(invoice === 'new' ? 'new' : invoice.id), canManage),
    [canManage],
  );
  const openedId = Number(opened) || null;
  return (
    <>
      <ResourcePage {...props} config={pageConfig} />
      {openedId && (
        <InvoiceDrawer
          id={openedId}
          onEdit={() => setEditing(openedId)}
          onClose={() => setOpened(undefined)}
        />
      )}
      {editing !== null && (
        <InvoiceFormDrawer
          invoiceId={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
        />
      )}
    </>
  );
}
