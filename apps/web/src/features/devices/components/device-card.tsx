import {
  BLACKLIST_ACCESS,
  INVOICE_VIEW_ACCESS,
  LOCATION_ACCESS,
  STATION_ACCESS,
  type DeviceCard as Card,
} from '@inventory/contract';
import { Button, Card as Panel, Descriptions, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { showApiError } from '../../../shell/api-errors';
import { useCan } from '../../../shell/use-can';
import { dollars, when } from '../../../toolkit/format';
import { printDeviceLabel } from '../api/devices.queries';
import { BlacklistEntryDrawer } from './blacklist-entry-drawer';
import { DeviceProductionRecord } from './device-production';
import { DeviceRepairTickets } from './device-repair';
import { DeviceRmas } from '../../rma';
import { DeviceStatusTag, HoldTag } from './device-tags';
import { DeviceTimeline } from './device-timeline';

const BLACKLIST_STATE_COLORS = { clean: 'green', blocked: 'red', unknown: 'default' } as const;

/** The box a device is in: its inventory box with status and fill, else its warehouse box. */
function BoxText({ card }: { card: Card }) {
  const { device, inventory_box: box } = card;
  const canOpenBoxes = useCan(STATION_ACCESS.consolidationBox);
  if (box) {
    return (
      <Space size={4} wrap>
        {canOpenBoxes ? <Link to="/consolidation/box">{box.code}</Link> : box.code}
        <Tag>{box.status.replace(/_/g, ' ')}</Tag>
        {`${box.qty} of ${box.max_qty}`}
      </Space>
    );
  }
  if (device.warehouse_box_id === null) return <>—</>;
  return (
    <Link to={`/devices/scan?warehouse_box_id=${device.warehouse_box_id}`}>{device.container}</Link>
  );
}

/** Where the device's inventory box is put away. */
function LocationText({ card }: { card: Card }) {
  const box = card.inventory_box;
  const canOpenLocations = useCan(LOCATION_ACCESS);
  if (!box?.location_id || !box.location_code) return <>{box ? 'Not put away yet' : '—'}</>;
  return canOpenLocations ? (
    <Link to={`/inventory-box/location/update-location?location=${box.location_id}`}>
      {box.location_code}
    </Link>
  ) : (
    <>{box.location_code}</>
  );
}

/**
 * A device: what it is, where it stands (its box and the box's location), where it came from and
 * what its vendor claimed, what production recorded, and its whole timeline; print its label, and
 * put it on the blacklist when one may.
 */
export function DeviceCard({ card }: { card: Card }) {
  const { device, claim, blacklist, events } = card;
  const canBlacklist = useCan(BLACKLIST_ACCESS);
  const canOpenInvoice = useCan(INVOICE_VIEW_ACCESS);
  const [listing, setListing] = useState(false);
  const [printing, setPrinting] = useState(false);

  const print = async () => {
    setPrinting(true);
    try {
      await printDeviceLabel(device.id);
    } catch (error) {
      showApiError(error);
    } finally {
      setPrinting(false);
    }
  };

  const invoice =
    device.invoice_id === null ? (
      '—'
    ) : canOpenInvoice ? (
      <Link to={`/shipment-management/invoice?invoice=${device.invoice_id}`}>
        {device.invoice_no}
      </Link>
    ) : (
      device.invoice_no
    );

  return (
    <Panel
      data-testid="device-card"
      title={
        <Space wrap>
          <span>{device.model}</span>
          <Typography.Text type="secondary">{device.identifier}</Typography.Text>
          <DeviceStatusTag status={device.status} />
        </Space>
      }
      extra={
        <Space wrap>
          <Button loading={printing} onClick={() => void print()}>
            Print label
          </Button>
          {canBlacklist && device.imei && !blacklist && (
            <Button danger onClick={() => setListing(true)}>
              Put on blacklist
            </Button>
          )}
        </Space>
      }
    >
      <Descriptions size="small" bordered column={{ xs: 1, md: 2, xl: 3 }}>
        <Descriptions.Item label="IMEI">{device.imei ?? '—'}</Descriptions.Item>
        <Descriptions.Item label="IMEI2">{device.imei2 ?? '—'}</Descriptions.Item>
        <Descriptions.Item label="MEID">{device.meid ?? '—'}</Descriptions.Item>
        <Descriptions.Item label="Serial">{device.serial ?? '—'}</Descriptions.Item>
        <Descriptions.Item label="Model">{device.model}</Descriptions.Item>
        <Descriptions.Item label="Colour">{device.color ?? '—'}</Descriptions.Item>
        <Descriptions.Item label="Capacity">
          {device.capacity_gb === null ? '—' : `${device.capacity_gb} GB`}
        </Descriptions.Item>
        <Descriptions.Item label="Grade">{device.grade ?? '—'}</Descriptions.Item>
        <Descriptions.Item label="Condition">{device.condition ?? '—'}</Descriptions.Item>
        <Descriptions.Item label="Status">
          <DeviceStatusTag status={device.status} />
        </Descriptions.Item>
        <Descriptions.Item label="Hold">
          <HoldTag reason={device.hold_reason} />
        </Descriptions.Item>
        <Descriptions.Item label="Blacklist">
          <Tag color={BLACKLIST_STATE_COLORS[device.blacklist_state]}>{device.blacklist_state}</Tag>
        </Descriptions.Item>
        <Descriptions.Item label="Box">
          <BoxText card={card} />
        </Descriptions.Item>
        <Descriptions.Item label="Location">
          <LocationText card={card} />
        </Descriptions.Item>
        <Descriptions.Item label="Invoice">{invoice}</Descriptions.Item>
        <Descriptions.Item label="Vendor">{device.vendor ?? '—'}</Descriptions.Item>
        <Descriptions.Item label="Unit cost">{dollars(device.unit_cost_cents)}</Descriptions.Item>
        <Descriptions.Item label="Received">{when(device.received_at)}</Descriptions.Item>
        <Descriptions.Item label="Manifest said">
          {claim ? (
            <Space size={4} wrap>
              {claim.claimed_model ?? 'no model'}
              <Tag color={claim.match_status === 'received' ? 'green' : 'gold'}>
                {claim.match_status.replace(/_/g, ' ')}
              </Tag>
              {claim.claimed_model && claim.claimed_model !== device.model && (
                <Tag color="volcano">not the model found</Tag>
              )}
              {claim.decision && <Tag>{claim.decision.replace(/_/g, ' ')}</Tag>}
            </Space>
          ) : (
            'Not on a manifest'
          )}
        </Descriptions.Item>
        <Descriptions.Item label="Blacklist entry">
          {blacklist ? (
            <Space size={4} wrap>
              <Tag color="red">{blacklist.reason}</Tag>
              {`from ${blacklist.source}, since ${when(blacklist.flagged_at)}`}
            </Space>
          ) : (
            'Not listed'
          )}
        </Descriptions.Item>
      </Descriptions>
      <section aria-labelledby={`production-${device.id}`} style={{ marginTop: 24 }}>
        <Typography.Title level={5} id={`production-${device.id}`}>
          Production
        </Typography.Title>
        <DeviceProductionRecord device={device} />
      </section>
      <section aria-labelledby={`repair-${device.id}`} style={{ marginTop: 24 }}>
        <Typography.Title level={5} id={`repair-${device.id}`}>
          Repair
        </Typography.Title>
        <DeviceRepairTickets device={device} />
      </section>
      <section aria-labelledby={`rmas-${device.id}`} style={{ marginTop: 24 }}>
        <Typography.Title level={5} id={`rmas-${device.id}`}>
          RMAs
        </Typography.Title>
        <DeviceRmas device={device} />
      </section>
      <section aria-labelledby={`timeline-${device.id}`} style={{ marginTop: 24 }}>
        <Typography.Title level={5} id={`timeline-${device.id}`}>
          Timeline
        </Typography.Title>
        <DeviceTimeline events={events} />
      </section>
      {listing && device.imei && (
        <BlacklistEntryDrawer imei={device.imei} onClose={() => setListing(false)} />
      )}
    </Panel>
  );
}
