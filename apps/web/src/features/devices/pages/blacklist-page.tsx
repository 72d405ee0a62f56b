import {
  BLACKLIST_ACCESS,
  BLACKLIST_REASONS,
  BLACKLIST_SOURCES,
  blacklistEndpoints,
  blacklistImport,
  blacklistList,
  VENDOR_RETURNABLE_STATUSES,
  VENDOR_TRANSFER_MANAGE_ACCESS,
  VENDOR_TRANSFER_VIEW_ACCESS,
  type BlacklistEntry,
  type DeviceStatus,
} from '@inventory/contract';
import { Button, Space, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import type { PageProps } from '../../../shell/page-types';
import { useCan } from '../../../shell/use-can';
import { when } from '../../../toolkit/format';
import { RowLink } from '../../../toolkit/record-link';
import type { ResourcePageConfig } from '../../../toolkit/resource-page-config';
import { ResourcePage } from '../../../toolkit/resource-page';
import { BlacklistEntryDrawer, DeviceStatusTag, deviceLookupPath } from '..';
import { optionsOf } from '../../master-data';
import { AddToReturnModal } from '../components/add-to-return-modal';
import { ClearListingModal } from '../components/clear-listing-modal';

/** The list's reading endpoints: a listing is written by the page's own drawer and modals. */
const { create: _create, ...blacklistListEndpoints } = blacklistEndpoints;

type Returnable = BlacklistEntry & { device_id: number; vendor_id: number };

/** A listed device of ours that sits in stock and is on no return yet may go back to its vendor. */
const isReturnable = (entry: BlacklistEntry): entry is Returnable =>
  entry.open &&
  entry.device_id !== null &&
  entry.vendor_id !== null &&
  entry.transfer === null &&
  (VENDOR_RETURNABLE_STATUSES as readonly DeviceStatus[]).includes(entry.device_status!);

type Dialog =
  | { name: 'add' }
  | { name: 'clear'; entry: BlacklistEntry }
  | { name: 'return'; entry: Returnable }
  | null;

/** Blacklisted IMEIs and the devices they hold: add, import provider results, clear, return. */
export default function BlacklistPage(props: PageProps) {
  const [dialog, setDialog] = useState<Dialog>(null);
  // Returns are written on the vendor directory's page: both its view and `transfer.manage`.
  const canManageReturns = useCan(VENDOR_TRANSFER_MANAGE_ACCESS);
  const canSeeReturns = useCan(VENDOR_TRANSFER_VIEW_ACCESS);
  const canReturn = canManageReturns && canSeeReturns;

  const config = useMemo<ResourcePageConfig<BlacklistEntry, typeof blacklistList>>(
    () => ({
      resource: { ...blacklistList, manage: BLACKLIST_ACCESS },
      endpoints: blacklistListEndpoints,
      import: { resource: blacklistImport, endpoints: blacklistEndpoints },
      titleOf: (entry) => entry.imei,
      searchPlaceholder: 'IMEI start or reference',
      header: (
        <Typography.Paragraph type="secondary">
          IMEIs reported lost, stolen, unpaid or in dispute. A listed device of ours is held: clear
          the listing with evidence, or send the device back to its vendor.
        </Typography.Paragraph>
      ),
      actions: (
        <Button type="primary" onClick={() => setDialog({ name: 'add' })}>
          Add IMEI
        </Button>
      ),
      rowActions: (entry) => (
        <>
          {entry.open && (
            <Button size="small" onClick={() => setDialog({ name: 'clear', entry })}>
              Clear
            </Button>
          )}
          {canReturn && isReturnable(entry) && (
            <Button size="small" onClick={() => setDialog({ name: 'return', entry })}>
              Add to return
            </Button>
          )}
        </>
      ),
      // A listed IMEI of ours is a device: its key opens the device's card.
      record: {
        href: (entry) => (entry.device_id === null ? null : deviceLookupPath(entry.imei)),
        where: (entry) => `Device ${entry.imei} in the device lookup`,
      },
      columns: [
        { key: 'imei', title: 'IMEI', sortKey: 'imei' },
        { key: 'source', title: 'Source', render: (entry) => <Tag>{entry.source}</Tag> },
        {
          key: 'reason',
          title: 'Reason',
          render: (entry) => <Tag color="red">{entry.reason}</Tag>,
        },
        { key: 'reference', title: 'Reference' },
        {
          key: 'flagged_at',
          title: 'Flagged',
          sortKey: 'flagged_at',
          render: (entry) => when(entry.flagged_at),
        },
        {
          key: 'open',
          title: 'Listing',
          render: (entry) =>
            entry.open ? (
              <Tag color="red">listed</Tag>
            ) : (
              <Space orientation="vertical" size={0}>
                <Tag color="green">cleared</Tag>
                <Typography.Text type="secondary">
                  {when(entry.cleared_at)}
                  {entry.cleared_by_name ? ` by ${entry.cleared_by_name}` : ''}
                </Typography.Text>
              </Space>
            ),
        },
        { key: 'clear_evidence', title: 'Evidence', hidden: true },
        { key: 'note', title: 'Note', hidden: true },
        { key: 'model', title: 'Model' },
        {
          key: 'device_status',
          title: 'Device status',
          render: (entry) => <DeviceStatusTag status={entry.device_status} />,
        },
        { key: 'container', title: 'Box' },
        { key: 'vendor', title: 'Vendor' },
        { key: 'invoice_no', title: 'Invoice' },
        {
          key: 'transfer',
          title: 'Return to vendor',
          render: (entry) =>
            entry.transfer ? (
              <RowLink
                to={`/transfer/vendor?tab=returns&search=${encodeURIComponent(entry.transfer)}`}
                where={`Return ${entry.transfer} in returns to vendor`}
              >
                {entry.transfer}
              </RowLink>
            ) : (
              '—'
            ),
        },
      ],
      filters: [
        {
          key: 'open',
          label: 'Listing',
          options: [
            { value: 'true', label: 'Listed' },
            { value: 'false', label: 'Cleared' },
          ],
        },
        { key: 'source', label: 'Source', options: optionsOf(BLACKLIST_SOURCES) },
        { key: 'reason', label: 'Reason', options: optionsOf(BLACKLIST_REASONS) },
        {
          key: 'in_stock',
          label: 'In stock',
          options: [
            { value: 'true', label: 'A device of ours' },
            { value: 'false', label: 'Not a device of ours' },
          ],
        },
      ],
    }),
    [canReturn],
  );

  return (
    <>
      <ResourcePage {...props} config={config} />
      {dialog?.name === 'add' && <BlacklistEntryDrawer onClose={() => setDialog(null)} />}
      {dialog?.name === 'clear' && (
        <ClearListingModal entry={dialog.entry} onClose={() => setDialog(null)} />
      )}
      {dialog?.name === 'return' && (
        <AddToReturnModal entry={dialog.entry} onClose={() => setDialog(null)} />
      )}
    </>
  );
}
