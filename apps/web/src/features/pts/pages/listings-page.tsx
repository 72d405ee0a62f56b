import {
  allowedActions,
  canAccess,
  createPtsListingSchema,
  MANUAL_LISTING_ACTIONS,
  PTS_CHANNELS,
  PTS_LISTING_STATUSES,
  PTS_UPDATE_ACCESS,
  ptsListingEndpoints,
  ptsListingLifecycle,
  ptsListingList,
  ptsListingWriteEndpoints,
  SELLABLE_TYPES,
  updatePtsListingSchema,
  type ManualListingAction,
  type PtsListing,
  type PtsListingStatus,
} from '@inventory/contract';
import { Button, Space, Tag, Tooltip } from 'antd';
import { useMemo, useState } from 'react';
import { showApiError } from '../../../shell/api-errors';
import { notify } from '../../../shell/notify';
import type { PageProps } from '../../../shell/page-types';
import { useProfile } from '../../../shell/use-profile';
import { ActionDrawer } from '../../../toolkit/action-drawer';
import { centsOf, dollars, when } from '../../../toolkit/format';
import { pickerLoader } from '../../../toolkit/picker-options';
import { ResourcePage } from '../../../toolkit/resource-page';
import type { FormField, ResourcePageConfig } from '../../../toolkit/resource-page-config';
import { useListingWrites } from '../api/listings.queries';

const STATUS_COLORS: Record<PtsListingStatus, string> = {
  draft: 'default',
  live: 'green',
  paused: 'orange',
  sold_out: 'purple',
  ended: 'default',
};

const ACTION_WORDS: Record<ManualListingAction, string> = {
  publish: 'Publish',
  pause: 'Pause',
  resume: 'Resume',
  end: 'End',
};

const options = (values: readonly string[]) =>
  values.map((value) => ({ value, label: value.replace('_', ' ') }));

/** The terms both forms share; prices are typed in dollars and sent in cents. */
const TERM_FIELDS: FormField[] = [
  { name: 'qty_pushed', label: 'Quantity pushed', kind: 'number', min: 0, required: true },
  {
    name: 'price',
    label: 'Price ($)',
    kind: 'number',
    min: 0,
    step: 0.01,
    precision: 2,
    required: true,
  },
  {
    name: 'floor_price',
    label: 'Floor price ($)',
    kind: 'number',
    min: 0,
    step: 0.01,
    precision: 2,
  },
  {
    name: 'allow_backorder',
    label: 'Allow backorder',
    kind: 'switch',
    help: 'Push more than the matching stock: a manager’s call (pts.allow-backorder).',
  },
  { name: 'starts_on', label: 'First day on sale', kind: 'text', placeholder: 'YYYY-MM-DD' },
  { name: 'ends_on', label: 'Last day on sale', kind: 'text', placeholder: 'YYYY-MM-DD' },
  {
    name: 'visibility',
    label: 'Visible to groups',
    kind: 'words',
    help: 'Retailer tiers or groups; none: everyone on the channel.',
  },
];

const CREATE_FIELDS: FormField[] = [
  {
    name: 'sellable_type',
    label: 'Sells',
    kind: 'select',
    options: options(SELLABLE_TYPES),
    required: true,
  },
  { name: 'sku', label: 'SKU', kind: 'text', required: true },
  {
    name: 'channel',
    label: 'Channel',
    kind: 'select',
    options: options(PTS_CHANNELS),
    required: true,
  },
  ...TERM_FIELDS,
];

type Values = Record<string, unknown>;

/** The form's terms as the API takes them: dollars to cents, empty dates as none. */
const termsOf = (values: Values) => ({
  qty_pushed: values.qty_pushed as number,
  price_cents: centsOf(Number(values.price ?? 0)),
  floor_price_cents: centsOf(Number(values.floor_price ?? 0)),
  allow_backorder: Boolean(values.allow_backorder),
  starts_on: (values.starts_on as string | undefined) || null,
  ends_on: (values.ends_on as string | undefined) || null,
  visibility: (values.visibility as string[] | undefined) ?? [],
});

/** Stock and the warning when more is pushed than is in stock. */
const availableCell = (listing: PtsListing) => (
  <Space size={4}>
    {listing.available}
    {listing.over_available && (
      <Tooltip title={`${listing.qty_pushed} pushed, ${listing.available} in stock`}>
        <Tag color="red" data-testid="over-available">
          {listing.allow_backorder ? 'Backorder' : 'Over stock'}
        </Tag>
      </Tooltip>
    )}
  </Space>
);

/**
 * Push-to-sale listings (DOMAIN.md 4.5 `/pts-management/list`): per channel, what is pushed,
 * reserved, sold and remaining against the matching stock, with price, floor, dates and status;
 * create, edit, publish, pause, resume and end.
 */
export default function ListingsPage(props: PageProps) {
  const profile = useProfile();
  const writes = useListingWrites();
  const [editing, setEditing] = useState<PtsListing | 'new' | null>(null);
  const mayChange = canAccess(profile.data, PTS_UPDATE_ACCESS);

  const config = useMemo<ResourcePageConfig<PtsListing, typeof ptsListingList>>(() => {
    const act = async (listing: PtsListing, action: ManualListingAction) => {
      try {
        const after = await writes.act.mutateAsync({ id: listing.id, action });
        notify.success(
          `${listing.sku} on ${listing.channel} is ${ptsListingLifecycle.stateText(after.status)}.`,
        );
      } catch (error) {
        showApiError(error);
      }
    };
    return {
      resource: { ...ptsListingList, manage: PTS_UPDATE_ACCESS },
      endpoints: ptsListingEndpoints,
      titleOf: (listing) => `${listing.sku} on ${listing.channel}`,
      searchPlaceholder: 'SKU, name or listing ID',
      keyColumn: 'sku',
      actions: mayChange && (
        <Button type="primary" onClick={() => setEditing('new')}>
          New listing
        </Button>
      ),
      filters: [
        { key: 'channel', label: 'Channel', options: options(PTS_CHANNELS) },
        { key: 'status', label: 'Status', options: options(PTS_LISTING_STATUSES) },
        { key: 'sellable_type', label: 'Type', options: options(SELLABLE_TYPES) },
        {
          key: 'model_id',
          label: 'Model',
          load: pickerLoader(ptsListingWriteEndpoints.modelOptions),
        },
      ],
      columns: [
        { key: 'sku', title: 'SKU' },
        { key: 'name', title: 'Name' },
        { key: 'sellable_type', title: 'Type' },
        { key: 'channel', title: 'Channel' },
        { key: 'qty_pushed', title: 'Pushed' },
        { key: 'qty_reserved', title: 'Reserved' },
        { key: 'qty_sold', title: 'Sold' },
        { key: 'qty_remaining', title: 'Remaining' },
        { key: 'available', title: 'Available', render: availableCell },
        {
          key: 'price_cents',
          title: 'Price',
          sortKey: 'price_cents',
          render: (listing) => dollars(listing.price_cents),
        },
        {
          key: 'floor_price_cents',
          title: 'Floor',
          render: (listing) => dollars(listing.floor_price_cents),
        },
        {
          key: 'dates',
          title: 'Dates',
          render: (listing) =>
            listing.starts_on || listing.ends_on
              ? `${listing.starts_on ?? '…'} – ${listing.ends_on ?? '…'}`
              : 'Open',
        },
        {
          key: 'status',
          title: 'Status',
          render: (listing) => (
            <Tag color={STATUS_COLORS[listing.status]} data-testid="listing-status">
              {ptsListingLifecycle.stateText(listing.status)}
            </Tag>
          ),
        },
        {
          key: 'updated_at',
          title: 'Changed',
          sortKey: 'updated_at',
          hidden: true,
          render: (listing) => when(listing.updated_at),
        },
      ],
      rowActions: (listing) => (
        <Space wrap>
          {listing.status !== 'ended' && (
            <Button size="small" onClick={() => setEditing(listing)}>
              Edit
            </Button>
          )}
          {allowedActions(ptsListingLifecycle, listing, profile.data)
            .filter((action): action is ManualListingAction =>
              (MANUAL_LISTING_ACTIONS as readonly string[]).includes(action),
            )
            .map((action) => (
              <Button key={action} size="small" onClick={() => void act(listing, action)}>
                {ACTION_WORDS[action]}
              </Button>
            ))}
        </Space>
      ),
    };
  }, [mayChange, profile.data, writes.act]);

  return (
    <>
      <ResourcePage {...props} config={config} />
      {editing === 'new' && (
        <ActionDrawer
          title="New listing"
          intro="A listing starts as a draft: publish it to put it on sale."
          fields={CREATE_FIELDS}
          schema={createPtsListingSchema}
          initialValues={{ sellable_type: 'variant', channel: 'web', allow_backorder: false }}
          submitLabel="Create"
          run={async (values) => {
            const created = await writes.create.mutateAsync({
              sellable_type: values.sellable_type as PtsListing['sellable_type'],
              sku: String(values.sku ?? ''),
              channel: values.channel as PtsListing['channel'],
              ...termsOf(values),
            });
            return `Listing ${created.sku} on ${created.channel} created as a draft.`;
          }}
          onClose={() => setEditing(null)}
        />
      )}
      {editing !== null && editing !== 'new' && (
        <ActionDrawer
          key={editing.id}
          title={`Edit ${editing.sku} on ${editing.channel}`}
          intro={`${editing.qty_reserved + editing.qty_sold} reserved or sold; ${editing.available} in stock.`}
          fields={TERM_FIELDS}
          schema={updatePtsListingSchema}
          initialValues={{
            qty_pushed: editing.qty_pushed,
            price: editing.price_cents / 100,
            floor_price: editing.floor_price_cents / 100,
            allow_backorder: editing.allow_backorder,
            starts_on: editing.starts_on ?? '',
            ends_on: editing.ends_on ?? '',
            visibility: editing.visibility,
          }}
          submitLabel="Save"
          run={async (values) => {
            await writes.update.mutateAsync({ id: editing.id, body: termsOf(values) });
            return `${editing.sku} on ${editing.channel} saved.`;
          }}
          onClose={() => setEditing(null)}
        />
      )}
    </>
  );
}
