import {
  canRun,
  CARRIER_NAMES,
  flagLostSchema,
  ORDER_SHIPPING_ACCESS,
  orderLifecycle,
  PACKAGE_IN_FLIGHT_STATUSES,
  packageLifecycle,
  SHIPPING_SERVICE_INFO,
  TRACKING_STATUS_TEXT,
  type Carrier,
  type ParcelShipmentRow,
  type TrackingEvent,
  type TrackingStatus,
} from '@inventory/contract';
import { Alert, Button, Descriptions, Drawer, Space, Spin, Tag, Timeline, Typography } from 'antd';
import { useState } from 'react';
import { showApiError } from '../../../shell/api-errors';
import { useDialogFocus } from '../../../shell/dialog-focus';
import { notify } from '../../../shell/notify';
import { useCan } from '../../../shell/use-can';
import { useProfile } from '../../../shell/use-profile';
import { ActionDrawer } from '../../../toolkit/action-drawer';
import { counted, when } from '../../../toolkit/format';
import { useFlagLost, useParcelTracking, useRefreshTracking } from '../api/shipments.queries';
import { PackageStatusTag } from './label-actions';

/** The carriers' own tracking pages, for "Open the carrier's page". */
const CARRIER_PAGES: Record<Carrier, (tracking: string) => string> = {
  usps: (tracking) =>
    `https://tools.usps.com/go/TrackConfirmAction?tLabels=${encodeURIComponent(tracking)}`,
  ups: (tracking) => `https://www.ups.com/track?tracknum=${encodeURIComponent(tracking)}`,
};

const TRACKING_COLORS: Partial<Record<TrackingStatus, string>> = {
  in_transit: 'green',
  out_for_delivery: 'green',
  failed_attempt: 'orange',
  available_for_pickup: 'orange',
  delivered: 'cyan',
  return_to_sender: 'orange',
  failure: 'red',
  cancelled: 'red',
};

/** A normalised tracking status as a tag; a dash before the first event. */
export function TrackingStatusTag({ status }: { status: TrackingStatus | null }) {
  return status ? (
    <Tag color={TRACKING_COLORS[status] ?? 'default'} data-testid="tracking-status">
      {TRACKING_STATUS_TEXT[status]}
    </Tag>
  ) : (
    '—'
  );
}

/** A parcel's package state, and "possible lost" when nothing was heard of it for days. */
export function ParcelStateTags({ parcel }: { parcel: ParcelShipmentRow }) {
  return (
    <Space size={4} wrap>
      <PackageStatusTag status={parcel.status} />
      {parcel.possible_lost && (
        <Tag color="red" data-testid="possible-lost">
          possible lost
        </Tag>
      )}
    </Space>
  );
}

const SOURCE_WORDS: Record<TrackingEvent['source'], string> = {
  file: 'tracking file',
  adapter: 'carrier',
  webhook: 'carrier call',
};

function eventLine(event: TrackingEvent) {
  const words = event.description ?? event.carrier_status;
  return (
    <div data-testid="tracking-event" data-status={event.status}>
      <Typography.Text strong>{TRACKING_STATUS_TEXT[event.status]}</Typography.Text>
      {words !== TRACKING_STATUS_TEXT[event.status] && ` · ${words}`}
      {event.location && ` · ${event.location}`}
      <Typography.Text type="secondary">
        {' '}
        · {when(event.occurred_at)} · from the {SOURCE_WORDS[event.source]}
        {event.recorded_by_name && ` (${event.recorded_by_name})`}
        {event.moved_to && ` · moved the parcel to ${packageLifecycle.stateText(event.moved_to)}`}
      </Typography.Text>
    </div>
  );
}

const isSource = (source: unknown): source is TrackingEvent['source'] =>
  typeof source === 'string' && Object.hasOwn(SOURCE_WORDS, source);

/** The words of a step on the package's own timeline. */
function stepText(step: { type: string; data: Record<string, unknown> | null }) {
  const words = step.type.replace(/_/g, ' ');
  const data = step.data ?? {};
  const extra = [
    typeof data.reason === 'string' && `reason: ${data.reason}`,
    typeof data.station === 'string' && `at ${data.station}`,
    isSource(data.source) && `from the ${SOURCE_WORDS[data.source]}`,
  ].filter(Boolean);
  return [words[0]!.toUpperCase() + words.slice(1), ...extra].join(', ');
}

/**
 * A parcel's record (`?parcel=`): its state, its order, the carrier's events in the order they
 * happened (newest first) and its own timeline; a refresh from the carrier and flagging it lost
 * for those who ship.
 */
export function ParcelDrawer({ id, onClose }: { id: number; onClose: () => void }) {
  const dialogFocus = useDialogFocus();
  const profile = useProfile();
  const canShip = useCan(ORDER_SHIPPING_ACCESS);
  const tracking = useParcelTracking(id);
  const refresh = useRefreshTracking();
  const flagLost = useFlagLost();
  const [flagging, setFlagging] = useState(false);
  const data = tracking.data;
  const row = data?.shipment;
  const onItsWay =
    row !== undefined && (PACKAGE_IN_FLIGHT_STATUSES as readonly string[]).includes(row.status);

  const refreshOne = async () => {
    try {
      const answer = await refresh.mutateAsync([id]);
      notify.success(
        answer.recorded === 0
          ? 'The carrier has no new event of this parcel.'
          : `${counted(answer.recorded, 'new event')} from the carrier.`,
      );
    } catch (error) {
      showApiError(error);
    }
  };

  return (
    <Drawer
      {...dialogFocus}
      open
      size={820}
      title={row ? `Parcel ${row.tracking_number}` : 'Parcel'}
      onClose={onClose}
    >
      {tracking.error ? (
        <Alert type="error" showIcon title={tracking.error.message} />
      ) : !data || !row ? (
        <Spin />
      ) : (
        <Space direction="vertical" size="large" style={{ width: '100%' }}>
          <Space size="small" wrap>
            <ParcelStateTags parcel={row} />
            <TrackingStatusTag status={row.tracking_status} />
            {canShip && onItsWay && (
              <Button size="small" loading={refresh.isPending} onClick={() => void refreshOne()}>
                Refresh tracking
              </Button>
            )}
            {canRun(packageLifecycle, row, 'flag_lost', profile.data) && (
              <Button size="small" danger onClick={() => setFlagging(true)}>
                Flag lost
              </Button>
            )}
            <Typography.Link
              href={CARRIER_PAGES[row.carrier](row.tracking_number)}
              target="_blank"
              rel="noopener noreferrer"
            >
              Open the {CARRIER_NAMES[row.carrier]} page
            </Typography.Link>
          </Space>
          {row.possible_lost && (
            <Alert
              type="warning"
              showIcon
              title={`Nothing heard of this parcel for ${counted(data.possible_lost_days, 'day')} or more.`}
              description="Refresh its tracking; if the carrier has no news either, flag it lost and file a claim."
            />
          )}
          <Descriptions
            size="small"
            bordered
            column={2}
            items={[
              {
                key: 'order',
                label: 'Order',
                children: (
                  <span data-testid="parcel-order">
                    {row.order_number} ({orderLifecycle.stateText(row.order_status)})
                  </span>
                ),
              },
              {
                key: 'carrier',
                label: 'Carrier',
                children: `${CARRIER_NAMES[row.carrier]} · ${SHIPPING_SERVICE_INFO[row.service].name}`,
              },
              { key: 'shipped', label: 'Ship date', children: when(row.shipped_at) },
              { key: 'delivered', label: 'Delivered', children: when(row.delivered_at) },
              {
                key: 'days',
                label: 'Days in transit',
                children: row.days_in_transit ?? '—',
              },
              { key: 'place', label: 'Ships to', children: row.place || '—' },
              {
                key: 'last',
                label: 'Last event',
                span: 2,
                children: row.last_event_at
                  ? `${when(row.last_event_at)} · ${row.last_event_text ?? ''}${row.last_event_location ? ` · ${row.last_event_location}` : ''}`
                  : 'No event yet',
              },
            ]}
          />
          <section aria-labelledby="parcel-events">
            <Typography.Title level={5} id="parcel-events">
              Carrier events
            </Typography.Title>
            {data.events.length === 0 ? (
              <Typography.Text type="secondary">
                No event yet: import a tracking file or refresh from the carrier.
              </Typography.Text>
            ) : (
              <Timeline
                items={data.events.map((event) => ({ key: event.id, children: eventLine(event) }))}
              />
            )}
          </section>
          <section aria-labelledby="parcel-steps">
            <Typography.Title level={5} id="parcel-steps">
              Package timeline
            </Typography.Title>
            <Timeline
              items={data.steps.map((step) => ({
                key: step.id,
                children: (
                  <>
                    {stepText(step)}
                    <Typography.Text type="secondary">
                      {' '}
                      · {when(step.at)}
                      {step.actor_name && ` · ${step.actor_name}`}
                    </Typography.Text>
                  </>
                ),
              }))}
            />
          </section>
        </Space>
      )}
      {flagging && row && (
        <ActionDrawer
          title={`Flag parcel ${row.tracking_number} lost`}
          intro={`Order ${row.order_number} is lost with it; a claim and a reship follow.`}
          fields={[{ name: 'reason', label: 'Reason', kind: 'textarea', required: true }]}
          schema={flagLostSchema}
          initialValues={{}}
          submitLabel="Flag lost"
          run={async (values) => {
            const lost = await flagLost.mutateAsync({ id, reason: String(values.reason ?? '') });
            return `Parcel ${lost.tracking_number} is flagged lost.`;
          }}
          onClose={() => setFlagging(false)}
        />
      )}
    </Drawer>
  );
}
