import {
  CARRIER_NAMES,
  SHIPPING_SERVICE_INFO,
  type PackageEvent,
  type PackageUnit,
} from '@inventory/contract';
import { Alert, Descriptions, Drawer, Space, Spin, Table, Timeline, Typography } from 'antd';
import { useDialogFocus } from '../../../shell/dialog-focus';
import { when } from '../../../toolkit/format';
import { usePackageDetail } from '../api/packages.queries';
import { LabelActions } from './label-actions';

const EVENT_WORDS: Record<string, string> = {
  label_created: 'Label created',
  label_printed: 'Label printed',
  label_reprinted: 'Label printed again',
  voided: 'Label voided',
  scanned_out: 'Scanned out',
  sorted_into_gaylord: 'Sorted into a gaylord',
  taken_out_of_gaylord: 'Taken out of its gaylord',
  gaylord_closed: 'Gaylord closed',
  manifested: 'On a SCAN form',
};

function eventText(event: PackageEvent): string {
  const words = EVENT_WORDS[event.type] ?? event.type.replace(/_/g, ' ');
  const data = event.data ?? {};
  const extra = [
    typeof data.reason === 'string' && `reason: ${data.reason}`,
    typeof data.gaylord === 'string' && data.gaylord,
    typeof data.scan_form === 'string' && `SCAN form ${data.scan_form}`,
    typeof data.station === 'string' && `at ${data.station}`,
    data.verified === true && 'devices checked',
  ].filter(Boolean);
  return [words, ...extra].join(', ');
}

/** A package's record (`?package=`): what it is, its contents, its label's actions and timeline. */
export function PackageDrawer({ id, onClose }: { id: number; onClose: () => void }) {
  const dialogFocus = useDialogFocus();
  const detail = usePackageDetail(id);
  const row = detail.data?.package;
  return (
    <Drawer
      {...dialogFocus}
      open
      size={820}
      title={row ? `Package ${row.tracking_number}` : 'Package'}
      onClose={onClose}
    >
      {detail.error ? (
        <Alert type="error" showIcon title={detail.error.message} />
      ) : !detail.data || !row ? (
        <Spin />
      ) : (
        <Space direction="vertical" size="large" style={{ width: '100%' }}>
          <LabelActions parcel={row} format={row.label_format} />
          <Descriptions
            size="small"
            bordered
            column={2}
            items={[
              {
                key: 'order',
                label: 'Order',
                children: `${row.order_number} (${row.order_status})`,
              },
              {
                key: 'carrier',
                label: 'Carrier',
                children: `${CARRIER_NAMES[row.carrier]} · ${SHIPPING_SERVICE_INFO[row.service].name}`,
              },
              { key: 'tracking', label: 'Tracking', children: row.tracking_number },
              { key: 'weight', label: 'Weight', children: `${row.weight_g} g` },
              { key: 'place', label: 'Ships to', children: row.place },
              { key: 'format', label: 'Label format', children: row.label_format.toUpperCase() },
              {
                key: 'created',
                label: 'Label created',
                children: `${when(row.label_created_at)}${row.label_created_by_name ? ` by ${row.label_created_by_name}` : ''}`,
              },
              {
                key: 'printed',
                label: 'Printed',
                children: `${when(row.first_printed_at)}; reprints ${row.reprint_count}`,
              },
              { key: 'gaylord', label: 'Gaylord', children: row.gaylord_code ?? '—' },
              {
                key: 'scanned',
                label: 'Scanned out',
                children: row.scanned_out_at
                  ? `${when(row.scanned_out_at)} by ${row.scanned_out_by_name ?? '—'}${row.scan_station ? ` at ${row.scan_station}` : ''}`
                  : '—',
              },
              ...(row.voided_at
                ? [
                    {
                      key: 'voided',
                      label: 'Voided',
                      children: `${when(row.voided_at)}${row.void_reason ? `: ${row.void_reason}` : ''}`,
                    },
                  ]
                : []),
            ]}
          />
          <section aria-labelledby="package-contents">
            <Typography.Title level={5} id="package-contents">
              Contents
            </Typography.Title>
            <Table<PackageUnit>
              size="small"
              rowKey="unit_id"
              pagination={false}
              dataSource={detail.data.units}
              columns={[
                {
                  key: 'sku',
                  title: 'Item',
                  render: (_, unit) => `${unit.sku} · ${unit.description}`,
                },
                { key: 'imei', title: 'IMEI', render: (_, unit) => unit.imei ?? '—' },
                { key: 'model', title: 'Model', render: (_, unit) => unit.model ?? '—' },
                { key: 'iccid', title: 'ICCID', render: (_, unit) => unit.iccid ?? '—' },
                { key: 'status', title: 'Unit', dataIndex: 'status' },
              ]}
            />
          </section>
          <section aria-labelledby="package-events">
            <Typography.Title level={5} id="package-events">
              Timeline
            </Typography.Title>
            <Timeline
              items={detail.data.events.map((event) => ({
                key: event.id,
                children: (
                  <>
                    {eventText(event)}
                    <Typography.Text type="secondary">
                      {' '}
                      · {when(event.at)}
                      {event.actor_name && ` · ${event.actor_name}`}
                    </Typography.Text>
                  </>
                ),
              }))}
            />
          </section>
        </Space>
      )}
    </Drawer>
  );
}
