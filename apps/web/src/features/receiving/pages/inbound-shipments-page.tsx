import {
  completeShipmentEndpoint,
  INBOUND_SHIPMENT_MANAGE_ACCESS,
  INBOUND_SHIPMENT_STATUSES,
  inboundShipmentEndpoints,
  inboundShipmentForm,
  inboundShipmentList,
  shipmentInvoiceOptionsEndpoint,
  shipmentVendorOptionsEndpoint,
  type InboundShipment,
  type InboundShipmentStatus,
} from '@inventory/contract';
import { Button, Popconfirm, Tag, Tooltip, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { showApiError } from '../../../shell/api-errors';
import { callEndpoint } from '../../../shell/http-client';
import { notify } from '../../../shell/notify';
import type { PageProps } from '../../../shell/page-types';
import { when } from '../../../toolkit/format';
import { pickerLoader } from '../../../toolkit/picker-options';
import { RowLink } from '../../../toolkit/record-link';
import type { FormFieldOf, ResourcePageConfig } from '../../../toolkit/resource-page-config';
import { ResourcePage } from '../../../toolkit/resource-page';
import { invoicePath } from '../index';
import { optionsOf } from '../../master-data';
import { useRefreshInvoices } from '../api/invoices.queries';
import { CheckInModal } from '../components/check-in-modal';

const searchVendors = pickerLoader(shipmentVendorOptionsEndpoint);
const searchInvoices = pickerLoader(shipmentInvoiceOptionsEndpoint);

const STATUS_COLORS: Record<InboundShipmentStatus, string> = {
  expected: 'default',
  arrived: 'blue',
  received: 'green',
};

/** Expected and received counts side by side: "2 / 2". */
const againstExpected = (received: number | null, expected: number | null) =>
  `${received ?? '—'} / ${expected ?? '—'}`;

const config = (
  checkIn: (shipment: InboundShipment) => void,
  markReceived: (shipment: InboundShipment) => Promise<void>,
): ResourcePageConfig<
  InboundShipment,
  typeof inboundShipmentList,
  FormFieldOf<typeof inboundShipmentForm>
> => ({
  resource: { ...inboundShipmentList, manage: INBOUND_SHIPMENT_MANAGE_ACCESS },
  endpoints: inboundShipmentEndpoints,
  titleOf: (shipment) => shipment.tracking ?? `shipment ${shipment.id}`,
  // The tracking number opens the shipment's form; one not known yet reads "shipment 12".
  keyColumn: 'tracking',
  searchPlaceholder: 'Tracking number, carrier, vendor or invoice',
  header: (
    <Typography.Paragraph type="secondary">
      Trucks and parcels from vendors. Register a shipment when the vendor announces it, check it in
      at the dock with what arrived and any damage, and mark it received once its cartons are
      warehouse boxes. A shipment may arrive before its invoice, but is linked to it before it is
      received.
    </Typography.Paragraph>
  ),
  rowActions: (shipment) => (
    <>
      {shipment.status !== 'received' && (
        <Button size="small" onClick={() => checkIn(shipment)}>
          {shipment.status === 'expected' ? 'Check in' : 'Correct check-in'}
        </Button>
      )}
      {shipment.status === 'arrived' && (
        <Popconfirm
          title="Mark the shipment received?"
          description="Every carton is unloaded into warehouse boxes."
          okText="Received"
          onConfirm={() => markReceived(shipment)}
        >
          <Button size="small">Mark received</Button>
        </Popconfirm>
      )}
    </>
  ),
  columns: [
    { key: 'vendor', title: 'Vendor' },
    {
      key: 'invoice_no',
      title: 'Invoice',
      render: (shipment) =>
        shipment.invoice_id === null ? (
          <Tag>not linked</Tag>
        ) : (
          <RowLink
            to={invoicePath(shipment.invoice_id)}
            where={`Invoice ${shipment.invoice_no} in purchase invoices`}
          >
            {shipment.invoice_no}
          </RowLink>
        ),
    },
    { key: 'carrier', title: 'Carrier' },
    { key: 'tracking', title: 'Tracking' },
    { key: 'eta', title: 'ETA', sortKey: 'eta' },
    {
      key: 'status',
      title: 'Status',
      render: (shipment) => <Tag color={STATUS_COLORS[shipment.status]}>{shipment.status}</Tag>,
    },
    {
      key: 'pallets',
      title: 'Pallets received / expected',
      render: (shipment) => againstExpected(shipment.pallets_received, shipment.pallets_expected),
    },
    {
      key: 'boxes',
      title: 'Boxes received / expected',
      render: (shipment) => againstExpected(shipment.boxes_received, shipment.boxes_expected),
    },
    { key: 'warehouse_boxes', title: 'Warehouse boxes' },
    {
      key: 'damaged',
      title: 'Damage',
      render: (shipment) =>
        shipment.damaged ? (
          <Tooltip title={shipment.damage_notes}>
            <Tag color="red">damaged</Tag>
          </Tooltip>
        ) : (
          '—'
        ),
    },
    { key: 'damage_notes', title: 'Damage notes', hidden: true },
    {
      key: 'arrived_at',
      title: 'Arrived',
      render: (shipment) =>
        shipment.arrived_at
          ? `${when(shipment.arrived_at)}${shipment.checked_in_by_name ? ` by ${shipment.checked_in_by_name}` : ''}`
          : '—',
    },
    {
      key: 'received_at',
      title: 'Received',
      hidden: true,
      render: (shipment) => when(shipment.received_at),
    },
    { key: 'notes', title: 'Notes', hidden: true },
    {
      key: 'created_at',
      title: 'Registered',
      sortKey: 'created_at',
      hidden: true,
      render: (shipment) => when(shipment.created_at),
    },
  ],
  filters: [
    { key: 'status', label: 'Status', options: optionsOf(INBOUND_SHIPMENT_STATUSES) },
    { key: 'vendor_id', label: 'Vendor', load: searchVendors },
    { key: 'invoice_id', label: 'Invoice', load: searchInvoices },
  ],
  form: {
    fields: [
      {
        name: 'vendor_id',
        label: 'Vendor',
        kind: 'remote',
        required: true,
        load: searchVendors,
        initial: (shipment: InboundShipment) => [
          { value: shipment.vendor_id, label: shipment.vendor },
        ],
      },
      {
        name: 'invoice_id',
        label: 'Invoice',
        kind: 'remote',
        help: 'Link it now or when the invoice arrives; it must be linked before it is received.',
        load: searchInvoices,
        initial: (shipment: InboundShipment) =>
          shipment.invoice_id === null
            ? []
            : [{ value: shipment.invoice_id, label: shipment.invoice_no ?? '' }],
      },
      { name: 'carrier', label: 'Carrier', kind: 'text', placeholder: 'FedEx Freight' },
      { name: 'tracking', label: 'Tracking number', kind: 'text' },
      { name: 'pallets_expected', label: 'Pallets expected', kind: 'number', min: 0 },
      { name: 'boxes_expected', label: 'Boxes expected', kind: 'number', min: 0 },
      {
        name: 'eta',
        label: 'Expected arrival',
        kind: 'text',
        placeholder: 'YYYY-MM-DD',
      },
      { name: 'notes', label: 'Notes', kind: 'textarea' },
    ],
    defaults: {},
    toValues: (shipment) => shipment,
    // An emptied text is no value: the API takes null for "not known".
    toBody: (values) =>
      Object.fromEntries(
        Object.entries(values).map(([key, value]) => [key, value === '' ? null : value]),
      ),
  },
});

/** Inbound shipments: register, check in at the dock with damage, mark received. */
export default function InboundShipmentsPage(props: PageProps) {
  const [checkingIn, setCheckingIn] = useState<InboundShipment | null>(null);
  const refresh = useRefreshInvoices();
  const pageConfig = useMemo(
    () =>
      config(setCheckingIn, async (shipment) => {
        try {
          await callEndpoint(completeShipmentEndpoint, { params: { id: shipment.id } });
          await refresh();
          notify.success(`The shipment from ${shipment.vendor} is received.`);
        } catch (error) {
          showApiError(error);
        }
      }),
    [refresh],
  );
  return (
    <>
      <ResourcePage {...props} config={pageConfig} />
      {checkingIn && <CheckInModal shipment={checkingIn} onClose={() => setCheckingIn(null)} />}
    </>
  );
}
