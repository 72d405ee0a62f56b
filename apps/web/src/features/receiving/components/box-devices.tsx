import { SCAN_TONES, type BoxDevice, type ReceivedDevice } from '@inventory/contract';
import { Table, Tag, type TableColumnsType } from 'antd';
import { Link } from 'react-router';
import { when } from '../../../toolkit/format';
import { TONE_COLORS } from '../../../toolkit/station';
import { DeviceStatusTag, deviceLookupPath, HoldTag } from '../../devices';
import { RESULT_WORDS } from '../scan-feedback';

/** What both lists of a box show of a device, its code linked to its card. */
function deviceColumns<T extends ReceivedDevice>(): TableColumnsType<T> {
  return [
    {
      key: 'imei',
      title: 'IMEI',
      render: (_, device) => {
        const code = device.imei ?? device.meid ?? '';
        return <Link to={deviceLookupPath(code)}>{code}</Link>;
      },
    },
    { key: 'model', dataIndex: 'model', title: 'Model' },
    { key: 'color', title: 'Colour', render: (_, device) => device.color ?? '—' },
    {
      key: 'capacity',
      title: 'Capacity',
      render: (_, device) => (device.capacity_gb ? `${device.capacity_gb} GB` : '—'),
    },
  ];
}

/** The box's devices, newest first. */
export function BoxDevices({ devices }: { devices: readonly BoxDevice[] }) {
  return (
    <Table<BoxDevice>
      aria-label="Devices in the box"
      size="small"
      rowKey="id"
      dataSource={devices}
      pagination={{ pageSize: 50, hideOnSinglePage: true }}
      scroll={{ x: 'max-content' }}
      locale={{ emptyText: 'No device in this box yet.' }}
      columns={[
        ...deviceColumns<BoxDevice>(),
        {
          key: 'result',
          title: 'Scan',
          render: (_, device) => (
            <Tag color={TONE_COLORS[SCAN_TONES[device.result]]}>{RESULT_WORDS[device.result]}</Tag>
          ),
        },
        {
          key: 'status',
          title: 'Status',
          render: (_, device) => <DeviceStatusTag status={device.status} />,
        },
        { key: 'received_at', title: 'Received', render: (_, device) => when(device.received_at) },
      ]}
    />
  );
}

/**
 * Devices scanned at the box that went to the quarantine tote: apart from the box's list and
 * count, which are what is physically in it, so that a short count reads right.
 */
export function QuarantinedDevices({ devices }: { devices: readonly ReceivedDevice[] }) {
  return (
    <Table<ReceivedDevice>
      aria-label="Sent to quarantine"
      size="small"
      rowKey="id"
      dataSource={devices}
      pagination={false}
      scroll={{ x: 'max-content' }}
      columns={[
        ...deviceColumns<ReceivedDevice>(),
        {
          key: 'hold',
          title: 'Hold',
          render: (_, device) => <HoldTag reason={device.hold_reason} />,
        },
        { key: 'received_at', title: 'Scanned', render: (_, device) => when(device.received_at) },
      ]}
    />
  );
}
