import {
  DEVICE_OS_TEXT,
  DEVICE_OSES,
  DEVICE_STATUSES,
  deviceEndpoints,
  deviceList,
  HOLD_REASONS,
  tacNumberResource,
  transferInvoiceOptionsEndpoint,
  transferVendorOptionsEndpoint,
  VENDOR_TRANSFER_VIEW_ACCESS,
  type Device,
} from '@inventory/contract';
import { Alert, Drawer, Input, Space, Spin, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { PageProps } from '../../../shell/page-types';
import { useCan } from '../../../shell/use-can';
import { useUrlParam } from '../../../shell/use-url-state';
import { dollars, when } from '../../../toolkit/format';
import { pickerLoader } from '../../../toolkit/picker-options';
import type {
  FilterOf,
  ListFilter,
  ResourcePageConfig,
} from '../../../toolkit/resource-page-config';
import { ResourcePage } from '../../../toolkit/resource-page';
import { optionsOf, searchModels } from '../../master-data';
import { useDeviceCard, useDeviceLookup } from '../api/devices.queries';
import { DeviceCard } from '../components/device-card';
import { DeviceStatusTag, HoldTag } from '../components/device-tags';
import { holdWords } from '../device-words';
import { useDialogFocus } from '../../../shell/dialog-focus';

/** The matched identifier in words, for the line above the card. */
const MATCHED_BY = { imei: 'IMEI', imei2: 'second IMEI', meid: 'MEID', serial: 'serial number' };

/**
 * The lookup box: always focused for the next scan; Enter looks the code up. The code is kept in
 * the address (`?code=`), so other pages link a device here.
 */
function DeviceLookup() {
  const [params, setParams] = useSearchParams();
  const code = params.get('code');
  const [typed, setTyped] = useState('');
  const lookup = useDeviceLookup(code);
  const found = lookup.data;

  const lookUp = (value: string) => {
    const next = value.trim();
    if (!next) return;
    setTyped('');
    setParams(
      (current) => {
        const changed = new URLSearchParams(current);
        changed.set('code', next);
        return changed;
      },
      { replace: true },
    );
    // The same code again reads the device afresh.
    if (next === code) void lookup.refetch();
  };

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%', marginBottom: 24 }}>
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        Scan or type an IMEI, IMEI2, MEID or serial number to see the device&apos;s card and its
        whole timeline. Below is the device registry: every device received, to search, filter and
        export.
      </Typography.Paragraph>
      <Input.Search
        aria-label="Look up a device"
        placeholder="Scan or type an IMEI, IMEI2, MEID or serial"
        enterButton="Look up"
        autoFocus
        allowClear
        value={typed}
        onChange={(event) => setTyped(event.target.value)}
        onSearch={lookUp}
        loading={lookup.isFetching}
        style={{ maxWidth: 560 }}
      />
      {lookup.isError && (
        <Alert
          type="error"
          showIcon
          title="The lookup failed."
          description={lookup.error.message}
        />
      )}
      {found && (
        <Alert
          data-testid="lookup-result"
          type={found.card ? (found.problem ? 'warning' : 'success') : 'error'}
          showIcon
          title={
            found.card && found.matched_by
              ? `${found.input}: found by its ${MATCHED_BY[found.matched_by]}`
              : `${found.input}: not found`
          }
          description={found.problem ?? undefined}
        />
      )}
      {found?.card && <DeviceCard card={found.card} />}
      <Typography.Title level={2} style={{ margin: '16px 0 0', fontSize: 20 }}>
        Device registry
      </Typography.Title>
    </Space>
  );
}

/** The address key of the registry's device whose card is open in a drawer. */
const DEVICE_PARAM = 'device';

/** A device of the registry opened from its row (`?device=<id>`). */
function DeviceDrawer({ id, onClose }: { id: number; onClose: () => void }) {
  const dialogFocus = useDialogFocus();
  const card = useDeviceCard(id);
  const identifier = card.data?.device.identifier;
  return (
    <Drawer
      {...dialogFocus}
      open
      size={960}
      title={identifier ? `Device ${identifier}` : 'Device'}
      onClose={onClose}
    >
      {card.data ? (
        <DeviceCard card={card.data} />
      ) : card.isError ? (
        <Alert
          type="error"
          showIcon
          title="The device could not be loaded."
          description={card.error.message}
        />
      ) : (
        <Spin />
      )}
    </Drawer>
  );
}

/**
 * The registry's filters. A picker of another page's list is offered to those who may read that
 * list; to anyone else the filter is set by a link only (a box's "its devices").
 */
function useDeviceFilters(): ListFilter<FilterOf<typeof deviceList>>[] {
  const canPickModels = useCan(tacNumberResource.view);
  const canPickVendors = useCan(VENDOR_TRANSFER_VIEW_ACCESS);
  return useMemo(
    () => [
      { key: 'status', label: 'Status', options: optionsOf(DEVICE_STATUSES) },
      {
        key: 'hold_reason',
        label: 'Hold',
        options: HOLD_REASONS.map((reason) => ({ value: reason, label: holdWords(reason) })),
      },
      canPickModels
        ? { key: 'model_id', label: 'Model', load: searchModels }
        : { key: 'model_id', label: 'Model', fromAddress: true },
      canPickVendors
        ? { key: 'vendor_id', label: 'Vendor', load: pickerLoader(transferVendorOptionsEndpoint) }
        : { key: 'vendor_id', label: 'Vendor', fromAddress: true },
      canPickVendors
        ? {
            key: 'invoice_id',
            label: 'Invoice',
            load: pickerLoader(transferInvoiceOptionsEndpoint),
          }
        : { key: 'invoice_id', label: 'Invoice', fromAddress: true },
      { key: 'warehouse_box_id', label: 'Box', fromAddress: true },
      {
        key: 'os',
        label: 'OS',
        options: DEVICE_OSES.map((os) => ({ value: os, label: DEVICE_OS_TEXT[os] })),
      },
    ],
    [canPickModels, canPickVendors],
  );
}

/** Device lookup by any identifier, with the card and timeline, over the device registry. */
export default function DeviceScanPage(props: PageProps) {
  const filters = useDeviceFilters();
  const [opened, setOpened] = useUrlParam(DEVICE_PARAM);
  const openedId = Number(opened) || null;
  const config = useMemo<ResourcePageConfig<Device, typeof deviceList>>(
    () => ({
      resource: deviceList,
      endpoints: deviceEndpoints,
      titleOf: (device) => device.identifier,
      searchPlaceholder: 'IMEI or MEID start, serial, or model',
      header: <DeviceLookup />,
      record: { param: DEVICE_PARAM, rowClick: true },
      filters,
      columns: [
        { key: 'identifier', title: 'IMEI', sortKey: 'imei' },
        { key: 'imei2', title: 'IMEI2', hidden: true },
        { key: 'serial', title: 'Serial', hidden: true },
        { key: 'model', title: 'Model' },
        { key: 'color', title: 'Colour' },
        {
          key: 'capacity_gb',
          title: 'Capacity',
          render: (device) => (device.capacity_gb === null ? '—' : `${device.capacity_gb} GB`),
        },
        { key: 'grade', title: 'Grade' },
        { key: 'condition', title: 'Condition', hidden: true },
        {
          key: 'status',
          title: 'Status',
          render: (device) => <DeviceStatusTag status={device.status} />,
        },
        {
          key: 'hold_reason',
          title: 'Hold',
          render: (device) => <HoldTag reason={device.hold_reason} />,
        },
        { key: 'container', title: 'Box' },
        { key: 'invoice_no', title: 'Invoice' },
        { key: 'vendor', title: 'Vendor' },
        {
          key: 'unit_cost_cents',
          title: 'Unit cost',
          hidden: true,
          render: (device) => dollars(device.unit_cost_cents),
        },
        {
          key: 'received_at',
          title: 'Received',
          sortKey: 'received_at',
          render: (device) => when(device.received_at),
        },
      ],
    }),
    [filters],
  );
  return (
    <>
      <ResourcePage {...props} config={config} />
      {openedId && <DeviceDrawer id={openedId} onClose={() => setOpened(undefined)} />}
    </>
  );
}
