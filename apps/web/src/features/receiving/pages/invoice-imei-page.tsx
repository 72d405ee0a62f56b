import {
  invoiceImeiEndpoints,
  invoiceImeiInvoiceOptionsEndpoint,
  invoiceImeiList,
  invoiceImeiVendorOptionsEndpoint,
  manifestImport,
  MATCH_STATUSES,
  type InvoiceImei,
} from '@inventory/contract';
import { Typography } from 'antd';
import type { PageProps } from '../../../shell/page-types';
import { dollars, when } from '../../../toolkit/format';
import { pickerLoader } from '../../../toolkit/picker-options';
import { RowLink } from '../../../toolkit/record-link';
import type { ResourcePageConfig } from '../../../toolkit/resource-page-config';
import { ResourcePage } from '../../../toolkit/resource-page';
import { DeviceStatusTag, deviceLookupPath } from '../../devices';
import { invoicePath } from '..';
import { optionsOf } from '../../master-data';
import { DecisionTag, MatchStatusTag, TacModel } from '../components/match-tags';

const YES_NO = [
  { value: 'true', label: 'Yes' },
  { value: 'false', label: 'No' },
];

const config: ResourcePageConfig<InvoiceImei, typeof invoiceImeiList> = {
  resource: invoiceImeiList,
  endpoints: invoiceImeiEndpoints,
  import: { resource: manifestImport, endpoints: invoiceImeiEndpoints },
  titleOf: (imei) => imei.identifier,
  searchPlaceholder: 'IMEI start, invoice number or vendor',
  header: (
    <Typography.Paragraph type="secondary">
      Every IMEI of the vendors&apos; manifests and every device received off-manifest: expected,
      received, missing, unexpected or duplicate. Export under &quot;Discrepancy&quot; for the
      vendor credit report; decisions are taken on the invoice.
    </Typography.Paragraph>
  ),
  // An IMEI received is a device: its key opens the device's card.
  record: {
    href: (imei) => (imei.device_id === null ? null : deviceLookupPath(imei.identifier)),
    where: (imei) => `Device ${imei.identifier} in the device lookup`,
  },
  columns: [
    { key: 'identifier', title: 'IMEI', sortKey: 'imei' },
    { key: 'imei2', title: 'IMEI2', hidden: true },
    { key: 'serial', title: 'Serial', hidden: true },
    {
      key: 'invoice_no',
      title: 'Invoice',
      render: (imei) => (
        <RowLink
          to={invoicePath(imei.invoice_id)}
          where={`Invoice ${imei.invoice_no} in purchase invoices`}
        >
          {imei.invoice_no}
        </RowLink>
      ),
    },
    { key: 'vendor', title: 'Vendor' },
    {
      key: 'match_status',
      title: 'Status',
      render: (imei) => <MatchStatusTag status={imei.match_status} />,
    },
    { key: 'model', title: 'Vendor model' },
    { key: 'tac_model', title: 'TAC model', render: (imei) => <TacModel imei={imei} /> },
    { key: 'color', title: 'Colour', hidden: true },
    { key: 'capacity_gb', title: 'Capacity GB', hidden: true },
    { key: 'grade', title: 'Grade', hidden: true },
    {
      key: 'unit_cost_cents',
      title: 'Unit cost',
      render: (imei) => dollars(imei.unit_cost_cents),
    },
    { key: 'box', title: 'Box' },
    {
      key: 'device_status',
      title: 'Device status',
      render: (imei) => <DeviceStatusTag status={imei.device_status} />,
    },
    { key: 'decision', title: 'Decision', render: (imei) => <DecisionTag imei={imei} /> },
    { key: 'decision_note', title: 'Decision note', hidden: true },
    {
      key: 'updated_at',
      title: 'Updated',
      sortKey: 'updated_at',
      hidden: true,
      render: (imei) => when(imei.updated_at),
    },
  ],
  filters: [
    { key: 'invoice_id', label: 'Invoice', load: pickerLoader(invoiceImeiInvoiceOptionsEndpoint) },
    { key: 'vendor_id', label: 'Vendor', load: pickerLoader(invoiceImeiVendorOptionsEndpoint) },
    { key: 'match_status', label: 'Status', options: optionsOf(MATCH_STATUSES) },
    { key: 'discrepancy', label: 'Discrepancy', options: YES_NO },
    { key: 'undecided', label: 'Needs a decision', options: YES_NO },
    { key: 'model_mismatch', label: 'Model mismatch', options: YES_NO },
  ],
};

/** The invoice IMEI register: a list with the manifest import; decisions live on the invoice. */
export default function InvoiceImeiPage(props: PageProps) {
  return <ResourcePage {...props} config={config} />;
}
