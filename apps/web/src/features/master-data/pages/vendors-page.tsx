import { VENDOR_TYPES, vendorEndpoints, vendorResource, type Vendor } from '@inventory/contract';
import { Tag, Typography } from 'antd';
import type { PageProps } from '../../../shell/page-types';
import { ACTIVE_OPTIONS, resourcePage } from '../../../toolkit/resource-page-config';
import { activeTag, ResourcePage } from '../../../toolkit/resource-page';
import { VendorReturns } from '../components/vendor-returns';
import { useVendorTab, VendorTabs } from '../components/vendor-tabs';
import { optionsOf, stampColumns } from './master-data-options';

const config = resourcePage({
  resource: vendorResource,
  endpoints: vendorEndpoints,
  titleOf: (vendor) => vendor.name,
  searchPlaceholder: 'Name, contact, email or phone',
  header: (
    <>
      <VendorTabs />
      <Typography.Paragraph type="secondary">
        Who we buy from, sell to and return to: contacts, terms and the address returns are shipped
        to.
      </Typography.Paragraph>
    </>
  ),
  columns: [
    { key: 'name', title: 'Name', sortKey: 'name' },
    { key: 'type', title: 'Type', sortKey: 'type', render: (vendor) => <Tag>{vendor.type}</Tag> },
    { key: 'contact_name', title: 'Contact' },
    { key: 'email', title: 'Email' },
    { key: 'phone', title: 'Phone' },
    { key: 'terms', title: 'Terms' },
    { key: 'rtv_address', title: 'RTV address', hidden: true },
    { key: 'notes', title: 'Notes', hidden: true },
    { key: 'active', title: 'Status', render: (vendor) => activeTag(vendor.active) },
    ...stampColumns<Vendor>(),
  ],
  filters: [
    { key: 'type', label: 'Type', options: optionsOf(VENDOR_TYPES) },
    { key: 'active', label: 'Status', options: ACTIVE_OPTIONS },
  ],
  form: {
    fields: [
      { name: 'name', label: 'Name', kind: 'text', required: true },
      {
        name: 'type',
        label: 'Type',
        kind: 'select',
        options: optionsOf(VENDOR_TYPES),
        required: true,
      },
      { name: 'contact_name', label: 'Contact', kind: 'text' },
      { name: 'email', label: 'Email', kind: 'text', placeholder: 'orders@example.com' },
      { name: 'phone', label: 'Phone', kind: 'text', placeholder: '+1 555 010 2030' },
      { name: 'terms', label: 'Terms', kind: 'text', placeholder: 'Net 30' },
      {
        name: 'rtv_address',
        label: 'RTV address',
        kind: 'textarea',
        help: 'Where returns to this vendor are shipped.',
      },
      { name: 'notes', label: 'Notes', kind: 'textarea' },
      { name: 'active', label: 'Active', kind: 'switch' },
    ],
    defaults: { type: 'supplier', active: true },
    toValues: (vendor) => vendor,
  },
});

/** The vendor directory, and on its second tab the returns to vendor (`?tab=returns`). */
export default function VendorsPage(props: PageProps) {
  const tab = useVendorTab();
  return tab === 'returns' ? (
    <VendorReturns {...props} />
  ) : (
    <ResourcePage {...props} config={config} />
  );
}
