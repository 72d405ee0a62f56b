import {
  CARRIER_NAMES,
  CARRIERS,
  PACKAGE_STATUSES,
  packageLifecycle,
  packageList,
  packageListEndpoints,
  SHIPPING_SERVICE_INFO,
  type PackageRow,
} from '@inventory/contract';
import { Typography } from 'antd';
import type { PageProps } from '../../../shell/page-types';
import { useUrlParam } from '../../../shell/use-url-state';
import { when } from '../../../toolkit/format';
import { dayRangeFilters } from '../../../toolkit/picker-options';
import type { ResourcePageConfig } from '../../../toolkit/resource-page-config';
import { ResourcePage } from '../../../toolkit/resource-page';
import { PackageDrawer } from '../components/package-drawer';
import { PackageStatusTag } from '../components/label-actions';

/** The address key of the package whose drawer is open. */
const PACKAGE_PARAM = 'package';

const config: ResourcePageConfig<PackageRow, typeof packageList> = {
  resource: packageList,
  endpoints: packageListEndpoints,
  titleOf: (parcel) => parcel.tracking_number,
  searchPlaceholder: 'Tracking number',
  header: (
    <Typography.Paragraph type="secondary">
      Every package with its label, contents and state. Open one to read what it holds and its
      timeline; a label is printed again or voided there until the parcel is scanned out.
    </Typography.Paragraph>
  ),
  record: { param: PACKAGE_PARAM, rowClick: true },
  columns: [
    { key: 'tracking_number', title: 'Tracking' },
    {
      key: 'carrier',
      title: 'Carrier',
      render: (parcel) =>
        `${CARRIER_NAMES[parcel.carrier]} · ${SHIPPING_SERVICE_INFO[parcel.service].name}`,
    },
    { key: 'order_number', title: 'Order' },
    {
      key: 'status',
      title: 'Status',
      render: (parcel) => <PackageStatusTag status={parcel.status} />,
    },
    { key: 'contents_text', title: 'Contents' },
    { key: 'weight_g', title: 'Weight (g)' },
    { key: 'place', title: 'Ships to' },
    {
      key: 'label_created_at',
      title: 'Label created',
      sortKey: 'label_created_at',
      render: (parcel) => when(parcel.label_created_at),
    },
    { key: 'reprint_count', title: 'Reprints' },
    {
      key: 'scanned_out_at',
      title: 'Scanned out',
      sortKey: 'scanned_out_at',
      render: (parcel) => when(parcel.scanned_out_at),
    },
    {
      key: 'gaylord_code',
      title: 'Gaylord',
      hidden: true,
      render: (parcel) => parcel.gaylord_code ?? '—',
    },
  ],
  filters: [
    {
      key: 'status',
      label: 'Status',
      options: PACKAGE_STATUSES.map((status) => ({
        value: status,
        label: packageLifecycle.stateText(status),
      })),
    },
    {
      key: 'carrier',
      label: 'Carrier',
      options: CARRIERS.map((carrier) => ({ value: carrier, label: CARRIER_NAMES[carrier] })),
    },
    ...dayRangeFilters('Label created', 'created_from', 'created_to'),
    ...dayRangeFilters('Shipped', 'shipped_from', 'shipped_to'),
    // Set by links from an order or a label batch.
    { key: 'order_id', label: 'Order', fromAddress: true },
    { key: 'label_batch_id', label: 'Label batch', fromAddress: true },
  ],
};

/** Packages (`/shipment-management/package`, DOMAIN.md 4.16): the list and a package's drawer. */
export default function PackagesPage(props: PageProps) {
  const [opened, setOpened] = useUrlParam(PACKAGE_PARAM);
  const openedId = Number(opened) || null;
  return (
    <>
      <ResourcePage {...props} config={config} />
      {openedId && <PackageDrawer id={openedId} onClose={() => setOpened(undefined)} />}
    </>
  );
}
