import {
  boxInvoiceOptionsEndpoint,
  boxModelOptionsEndpoint,
  boxShipmentOptionsEndpoint,
  boxVendorOptionsEndpoint,
  WAREHOUSE_BOX_SCAN_ACCESS,
  WAREHOUSE_BOX_STATUSES,
  warehouseBoxEndpoints,
  warehouseBoxForm,
  warehouseBoxList,
  type WarehouseBox,
} from '@inventory/contract';
import { Button, Tag, Typography } from 'antd';
import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { showApiError } from '../../../shell/api-errors';
import { PAGE_TITLE_STYLE } from '../../../shell/page-styles';
import type { PageProps } from '../../../shell/page-types';
import { when } from '../../../toolkit/format';
import { pickerLoader } from '../../../toolkit/picker-options';
import type {
  FormFieldOf,
  Option,
  ResourcePageConfig,
} from '../../../toolkit/resource-page-config';
import { ResourcePage } from '../../../toolkit/resource-page';
import { openBoxContentList, openBoxLabel } from '../api/warehouse-boxes.queries';
import { ScanStation } from '../components/scan-station';
import { countText } from '../../../toolkit/station';
import { BOX_STATUS_COLORS } from '../scan-feedback';

/** The box whose station is open, in the address: a reload stays at the station. */
const BOX_PARAM = 'box';

const optionOf = (id: number | null, label: string | null): Option[] =>
  id === null ? [] : [{ value: id, label: label ?? `#${id}` }];

/** Scanned against expected: red when more came than expected, amber while short. */
function Counts({ box }: { box: WarehouseBox }) {
  const { qty_scanned: scanned, qty_expected: expected } = box;
  const type =
    expected === null
      ? undefined
      : scanned > expected
        ? 'danger'
        : scanned < expected
          ? 'warning'
          : 'success';
  return <Typography.Text type={type}>{countText(scanned, expected)}</Typography.Text>;
}

/**
 * Warehouse boxes: the list of boxes with their counts, a new box for an invoice, its label, and
 * the scan station of one box (`?box=<id>`).
 */
export default function WarehouseBoxesPage(props: PageProps) {
  const [params, setParams] = useSearchParams();
  const openId = Number(params.get(BOX_PARAM)) || null;

  const config = useMemo<
    ResourcePageConfig<WarehouseBox, typeof warehouseBoxList, FormFieldOf<typeof warehouseBoxForm>>
  >(() => {
    const openStation = (id: number) =>
      setParams((current) => {
        const next = new URLSearchParams(current);
        next.set(BOX_PARAM, String(id));
        return next;
      });
    return {
      resource: { ...warehouseBoxList, manage: WAREHOUSE_BOX_SCAN_ACCESS },
      endpoints: warehouseBoxEndpoints,
      titleOf: (box) => box.code,
      searchPlaceholder: 'Box code, vendor label or invoice no',
      record: { param: BOX_PARAM, rowClick: true, replacesList: true },
      filters: [
        {
          key: 'status',
          label: 'Status',
          options: WAREHOUSE_BOX_STATUSES.map((status) => ({
            value: status,
            label: status.replace('_', ' '),
          })),
        },
        { key: 'invoice_id', label: 'Invoice', load: pickerLoader(boxInvoiceOptionsEndpoint) },
        { key: 'vendor_id', label: 'Vendor', load: pickerLoader(boxVendorOptionsEndpoint) },
      ],
      columns: [
        { key: 'code', title: 'Box', sortKey: 'code' },
        { key: 'invoice_no', title: 'Invoice' },
        { key: 'vendor', title: 'Vendor' },
        { key: 'vendor_label', title: 'Vendor label' },
        { key: 'expected_model', title: 'Expected model' },
        { key: 'counts', title: 'Scanned', render: (box) => <Counts box={box} /> },
        { key: 'discrepancies', title: 'Discrepancies' },
        {
          key: 'status',
          title: 'Status',
          render: (box) => (
            <Tag color={BOX_STATUS_COLORS[box.status]}>{box.status.replace('_', ' ')}</Tag>
          ),
        },
        { key: 'staging_location', title: 'Staging' },
        { key: 'closed_at', title: 'Closed', hidden: true, render: (box) => when(box.closed_at) },
        { key: 'closed_by_name', title: 'Closed by', hidden: true },
        { key: 'close_override_reason', title: 'Override reason', hidden: true },
        {
          key: 'created_at',
          title: 'Opened',
          sortKey: 'created_at',
          render: (box) => when(box.created_at),
        },
      ],
      rowActions: (box) => (
        <>
          <Button size="small" onClick={() => openStation(box.id)}>
            Scan
          </Button>
          <Button size="small" onClick={() => void openBoxLabel(box.id).catch(showApiError)}>
            Label
          </Button>
          <Button size="small" onClick={() => void openBoxContentList(box.id).catch(showApiError)}>
            Content list
          </Button>
        </>
      ),
      form: {
        fields: [
          {
            name: 'invoice_id',
            label: 'Invoice',
            kind: 'remote',
            required: true,
            load: pickerLoader(boxInvoiceOptionsEndpoint),
            initial: (box: WarehouseBox) =>
              optionOf(box.invoice_id, `${box.invoice_no} (${box.vendor})`),
            help: 'The invoice whose devices this carton holds.',
          },
          {
            name: 'inbound_shipment_id',
            label: 'Inbound shipment',
            kind: 'remote',
            load: pickerLoader(boxShipmentOptionsEndpoint),
            initial: (box: WarehouseBox) => optionOf(box.inbound_shipment_id, box.inbound_shipment),
            help: 'The shipment this carton came on: search its tracking number.',
          },
          {
            name: 'vendor_label',
            label: 'Vendor label',
            kind: 'text',
            placeholder: 'CARTON 7/12',
          },
          {
            name: 'expected_model_id',
            label: 'Expected model',
            kind: 'remote',
            load: pickerLoader(boxModelOptionsEndpoint),
            initial: (box: WarehouseBox) => optionOf(box.expected_model_id, box.expected_model),
          },
          {
            name: 'qty_expected',
            label: 'Expected quantity',
            kind: 'number',
            min: 1,
            precision: 0,
            help: 'When the count differs at closing, a manager closes the box with a reason.',
          },
        ],
        defaults: {},
        toValues: (box) => ({
          invoice_id: box.invoice_id,
          inbound_shipment_id: box.inbound_shipment_id,
          vendor_label: box.vendor_label,
          expected_model_id: box.expected_model_id,
          qty_expected: box.qty_expected,
        }),
        // A new box goes straight to its scan station.
        onCreated: (box) => openStation(box.id),
      },
    };
  }, [setParams]);

  if (openId !== null) {
    return (
      <div>
        <Typography.Title level={1} style={{ ...PAGE_TITLE_STYLE, marginBottom: 16 }}>
          {props.entry.label}
        </Typography.Title>
        <ScanStation
          key={openId}
          boxId={openId}
          onBack={() =>
            setParams((current) => {
              const next = new URLSearchParams(current);
              next.delete(BOX_PARAM);
              return next;
            })
          }
        />
      </div>
    );
  }
  return <ResourcePage {...props} config={config} />;
}
