import {
  transferInvoiceOptionsEndpoint,
  transferVendorOptionsEndpoint,
  VENDOR_TRANSFER_MANAGE_ACCESS,
  VENDOR_TRANSFER_REASONS,
  VENDOR_TRANSFER_STATUSES,
  vendorTransferEndpoints,
  vendorTransferForm,
  vendorTransferList,
  type VendorTransfer,
} from '@inventory/contract';
import { Tag, Typography } from 'antd';
import type { PageProps } from '../../../shell/page-types';
import { useUrlParam } from '../../../shell/use-url-state';
import { dollars, when } from '../../../toolkit/format';
import { pickerLoader } from '../../../toolkit/picker-options';
import type { FormFieldOf, ResourcePageConfig } from '../../../toolkit/resource-page-config';
import { ResourcePage } from '../../../toolkit/resource-page';
import { optionsOf } from '../pages/master-data-options';
import { TRANSFER_STATUS_COLORS, TransferDrawer } from './transfer-drawer';
import { VendorTabs } from './vendor-tabs';

const searchVendors = pickerLoader(transferVendorOptionsEndpoint);
const searchInvoices = pickerLoader(transferInvoiceOptionsEndpoint);

/** The address key of the return whose drawer is open. */
const TRANSFER_PARAM = 'transfer';

const config: ResourcePageConfig<
  VendorTransfer,
  typeof vendorTransferList,
  FormFieldOf<typeof vendorTransferForm>
> = {
  resource: { ...vendorTransferList, manage: VENDOR_TRANSFER_MANAGE_ACCESS },
  endpoints: vendorTransferEndpoints,
  titleOf: (transfer) => transfer.code,
  searchPlaceholder: 'Return code, tracking number or vendor',
  header: (
    <>
      <VendorTabs />
      <Typography.Paragraph type="secondary">
        Devices going back to their vendor: blacklisted, not on the manifest, the wrong model or
        defective. Open a return to scan its devices, pack it, ship it and record the credit.
      </Typography.Paragraph>
    </>
  ),
  record: { param: TRANSFER_PARAM, rowClick: true },
  columns: [
    { key: 'code', title: 'Return', sortKey: 'code' },
    { key: 'vendor', title: 'Vendor' },
    { key: 'invoice_no', title: 'Invoice' },
    { key: 'reason', title: 'Reason', render: (transfer) => transfer.reason.replace(/_/g, ' ') },
    {
      key: 'status',
      title: 'Status',
      render: (transfer) => (
        <Tag color={TRANSFER_STATUS_COLORS[transfer.status]}>{transfer.status}</Tag>
      ),
    },
    { key: 'device_count', title: 'Devices' },
    {
      key: 'devices_cost_cents',
      title: 'Devices cost',
      render: (transfer) => dollars(transfer.devices_cost_cents),
    },
    {
      key: 'credit_cents',
      title: 'Credit',
      render: (transfer) => dollars(transfer.credit_cents),
    },
    { key: 'carrier', title: 'Carrier', hidden: true },
    { key: 'tracking', title: 'Tracking' },
    {
      key: 'shipped_at',
      title: 'Shipped',
      hidden: true,
      render: (transfer) => when(transfer.shipped_at),
    },
    { key: 'notes', title: 'Notes', hidden: true },
    {
      key: 'created_at',
      title: 'Created',
      sortKey: 'created_at',
      render: (transfer) => when(transfer.created_at),
    },
  ],
  filters: [
    { key: 'status', label: 'Status', options: optionsOf(VENDOR_TRANSFER_STATUSES) },
    { key: 'vendor_id', label: 'Vendor', load: searchVendors },
    { key: 'reason', label: 'Reason', options: optionsOf(VENDOR_TRANSFER_REASONS) },
  ],
  form: {
    fields: [
      {
        name: 'vendor_id',
        label: 'Vendor',
        kind: 'remote',
        required: true,
        createOnly: true,
        load: searchVendors,
        initial: (transfer: VendorTransfer) => [
          { value: transfer.vendor_id, label: transfer.vendor },
        ],
      },
      {
        name: 'invoice_id',
        label: 'Invoice',
        kind: 'remote',
        createOnly: true,
        help: 'The invoice the devices came on, when they came on one.',
        load: searchInvoices,
        initial: (transfer: VendorTransfer) =>
          transfer.invoice_id === null
            ? []
            : [{ value: transfer.invoice_id, label: transfer.invoice_no ?? '' }],
      },
      {
        name: 'reason',
        label: 'Reason',
        kind: 'select',
        required: true,
        options: optionsOf(VENDOR_TRANSFER_REASONS),
      },
      { name: 'notes', label: 'Notes', kind: 'textarea' },
    ],
    defaults: {},
    toValues: (transfer) => transfer,
  },
};

/** Returns to vendor: the list, the form that starts one, and the drawer of one (`?transfer=`). */
export function VendorReturns(props: PageProps) {
  const [opened, setOpened] = useUrlParam(TRANSFER_PARAM);
  const openedId = Number(opened) || null;
  return (
    <>
      <ResourcePage {...props} config={config} />
      {openedId && <TransferDrawer id={openedId} onClose={() => setOpened(undefined)} />}
    </>
  );
}
