import {
  CARRIER_NAMES,
  CARRIERS,
  ORDER_SHIPPING_ACCESS,
  PACKAGE_STATUSES,
  packageLifecycle,
  parcelShipmentList,
  parcelShipmentListEndpoints,
  SHIPPING_SERVICE_INFO,
  TRACKING_STATUS_TEXT,
  TRACKING_STATUSES,
  trackingImport,
  trackingImportEndpoints,
  type ParcelShipmentRow,
  type TrackingRefreshAnswer,
} from '@inventory/contract';
import { Button, Typography } from 'antd';
import { useState } from 'react';
import { showApiError } from '../../../shell/api-errors';
import { notify } from '../../../shell/notify';
import type { PageProps } from '../../../shell/page-types';
import { useCan } from '../../../shell/use-can';
import { useUrlParam } from '../../../shell/use-url-state';
import { counted, when } from '../../../toolkit/format';
import type { ImportWords, ResourcePageConfig } from '../../../toolkit/resource-page-config';
import { ResourcePage } from '../../../toolkit/resource-page';
import { useRefreshTracking } from '../api/shipments.queries';
import { ParcelDrawer, ParcelStateTags, TrackingStatusTag } from '../components/parcel-drawer';

/** The address key of the parcel whose drawer is open. */
const PARCEL_PARAM = 'parcel';

/** The package states a parcel that left the dock may be in. */
const SHIPPED_STATUSES = PACKAGE_STATUSES.filter(
  (status) => status !== 'label_created' && status !== 'in_gaylord' && status !== 'voided',
);

/** A tracking file's rows are carrier events: recorded once each, never updated. */
const TRACKING_FILE_WORDS: ImportWords = {
  rows: 'Each row is an event of a parcel scanned out; an event recorded already is left as it is, and the newest event of each parcel moves it and its order. Nothing is written until every row is right.',
  planned: (willCreate, willUpdate) =>
    `${counted(willCreate, 'new event')} to record, ${counted(willUpdate, 'event')} recorded already`,
  done: (batch) =>
    `${counted(batch.created_count, 'new event')} recorded; ${counted(batch.updated_count, 'parcel')} moved.`,
};

const config: ResourcePageConfig<ParcelShipmentRow, typeof parcelShipmentList> = {
  resource: parcelShipmentList,
  endpoints: parcelShipmentListEndpoints,
  titleOf: (parcel) => parcel.tracking_number,
  searchPlaceholder: 'Tracking or order number',
  header: (
    <Typography.Paragraph type="secondary">
      Parcels that left the dock, with what their carrier last said. A tracking file or a refresh
      from the carrier records their events; the newest moves the parcel and its order. A parcel on
      its way with no news for days is marked possible lost.
    </Typography.Paragraph>
  ),
  record: { param: PARCEL_PARAM, rowClick: true },
  import: {
    resource: trackingImport,
    endpoints: trackingImportEndpoints,
    words: TRACKING_FILE_WORDS,
  },
  columns: [
    { key: 'tracking_number', title: 'Tracking' },
    { key: 'carrier', title: 'Carrier', render: (parcel) => CARRIER_NAMES[parcel.carrier] },
    {
      key: 'service',
      title: 'Service',
      render: (parcel) => SHIPPING_SERVICE_INFO[parcel.service].name,
    },
    { key: 'order_number', title: 'Order' },
    {
      key: 'shipped_at',
      title: 'Ship date',
      sortKey: 'shipped_at',
      render: (parcel) => when(parcel.shipped_at),
    },
    { key: 'status', title: 'Status', render: (parcel) => <ParcelStateTags parcel={parcel} /> },
    {
      key: 'tracking_status',
      title: 'Carrier status',
      render: (parcel) => <TrackingStatusTag status={parcel.tracking_status} />,
    },
    {
      key: 'last_event_at',
      title: 'Last event',
      sortKey: 'last_event_at',
      render: (parcel) =>
        parcel.last_event_at
          ? `${when(parcel.last_event_at)} · ${parcel.last_event_text ?? ''}`
          : '—',
    },
    {
      key: 'days_in_transit',
      title: 'Days in transit',
      render: (parcel) => parcel.days_in_transit ?? '—',
    },
    {
      key: 'delivered_at',
      title: 'Delivered',
      render: (parcel) => when(parcel.delivered_at),
    },
    { key: 'place', title: 'Ships to', hidden: true },
  ],
  filters: [
    {
      key: 'tracking_status',
      label: 'Carrier status',
      options: TRACKING_STATUSES.map((status) => ({
        value: status,
        label: TRACKING_STATUS_TEXT[status],
      })),
    },
    {
      key: 'status',
      label: 'Status',
      options: SHIPPED_STATUSES.map((status) => ({
        value: status,
        label: packageLifecycle.stateText(status),
      })),
    },
    {
      key: 'carrier',
      label: 'Carrier',
      options: CARRIERS.map((carrier) => ({ value: carrier, label: CARRIER_NAMES[carrier] })),
    },
    {
      key: 'possible_lost',
      label: 'Possible lost',
      options: [
        { value: 'true', label: 'Possible lost' },
        { value: 'false', label: 'Not possibly lost' },
      ],
    },
    // Set by links from an order.
    { key: 'order_id', label: 'Order', fromAddress: true },
  ],
};

const refreshWords = ({ asked, recorded, moved }: TrackingRefreshAnswer) =>
  asked === 0
    ? 'None of the chosen parcels is on its way: there is nothing to ask the carrier.'
    : `Asked the carrier about ${counted(asked, 'parcel')}: ${counted(recorded, 'new event')}, ${counted(moved, 'parcel')} moved.`;

/**
 * Parcel shipments (`/shipment-management/shipment`, DOMAIN.md 4.16): the parcels that left the
 * dock with their tracking, a parcel's drawer with its events, the tracking file's import, a
 * refresh from the carrier of the parcels chosen, and export.
 */
export default function ShipmentsPage(props: PageProps) {
  const [opened, setOpened] = useUrlParam(PARCEL_PARAM);
  const openedId = Number(opened) || null;
  const canShip = useCan(ORDER_SHIPPING_ACCESS);
  const [chosen, setChosen] = useState<number[]>([]);
  const refresh = useRefreshTracking();

  const refreshChosen = async () => {
    try {
      notify.success(refreshWords(await refresh.mutateAsync(chosen)));
      setChosen([]);
    } catch (error) {
      showApiError(error);
    }
  };

  return (
    <>
      <ResourcePage
        {...props}
        config={
          canShip
            ? {
                ...config,
                selection: { ids: chosen, onChange: setChosen },
                actions: (
                  <Button
                    disabled={chosen.length === 0}
                    loading={refresh.isPending}
                    onClick={() => void refreshChosen()}
                  >
                    {chosen.length === 0
                      ? 'Refresh tracking'
                      : `Refresh tracking of ${counted(chosen.length, 'parcel')}`}
                  </Button>
                ),
              }
            : config
        }
      />
      {openedId && <ParcelDrawer id={openedId} onClose={() => setOpened(undefined)} />}
    </>
  );
}
