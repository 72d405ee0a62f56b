import {
  GRADE_DEFINITIONS,
  PRODUCT_REQUEST_ACCESS,
  TEST_ITEMS,
  type Device,
  type DeviceProduction,
  type DeviceTestRecord,
} from '@inventory/contract';
import { Alert, Descriptions, Space, Spin, Table, Tag, Typography } from 'antd';
import { Link } from 'react-router';
import { useCan } from '../../../shell/use-can';
import { when } from '../../../toolkit/format';
import { useDeviceProduction } from '../api/devices.queries';
import { holdWords, wipeMethodWords } from '../device-words';

const RESULT_COLORS = { pass: 'green', fail: 'red', hold: 'gold' } as const;
const RESULT_WORDS = { pass: 'passed', fail: 'failed', hold: 'stopped: on hold' } as const;

/** Where an item stands in the checklist's order; an item it does not know comes last. */
const itemOrder = (item: string) => {
  const index = (TEST_ITEMS as readonly string[]).indexOf(item);
  return index < 0 ? TEST_ITEMS.length : index;
};

/** A test's checklist: each item with its result, the failed ones first, in the checklist's order. */
function Checklist({ items }: { items: DeviceTestRecord['items'] }) {
  const entries = Object.entries(items).sort(
    ([itemA, a], [itemB, b]) =>
      (a === 'fail' ? 0 : 1) - (b === 'fail' ? 0 : 1) || itemOrder(itemA) - itemOrder(itemB),
  );
  if (entries.length === 0) return <>—</>;
  return (
    <Space size={[2, 2]} wrap>
      {entries.map(([item, result]) => (
        <Tag key={item} color={result === 'fail' ? 'red' : 'green'}>
          {item} {result === 'fail' ? 'failed' : 'passed'}
        </Tag>
      ))}
    </Space>
  );
}

const codeTags = (codes: readonly string[]) =>
  codes.length === 0 ? (
    '—'
  ) : (
    <Space size={[2, 2]} wrap>
      {codes.map((code) => (
        <Tag key={code} color="volcano">
          {code}
        </Tag>
      ))}
    </Space>
  );

/** Whether FRP or activation lock was on at the last test, and the hold it put the device on. */
function lockText(device: Device, record: DeviceProduction) {
  if (record.lock_on === null) return 'Not checked yet';
  if (!record.lock_on) return 'Off';
  const held = device.hold_reason === 'frp' || device.hold_reason === 'activation_lock';
  return (
    <Space size={4} wrap>
      <Tag color="red">On</Tag>
      {held && device.hold_reason && `on hold: ${holdWords(device.hold_reason)}`}
    </Space>
  );
}

/**
 * What production recorded of a device (DOMAIN.md 3.1, 4.17): the request it was handed out
 * under and its worker, the grade with what it means, the wipe, the locks, the battery, why it
 * failed, and its tests with their checklists. Read apart from the lookup, by the card alone.
 */
export function DeviceProductionRecord({ device }: { device: Device }) {
  const production = useDeviceProduction(device.id);
  const canOpenRequests = useCan(PRODUCT_REQUEST_ACCESS);
  if (production.isError) {
    return (
      <Alert
        type="error"
        showIcon
        title="What production recorded could not be read."
        description={production.error.message}
      />
    );
  }
  if (!production.data) return <Spin aria-label="Reading what production recorded" />;
  const record = production.data;
  if (!record.request && record.tests.length === 0 && !record.wipe) {
    return (
      <Typography.Paragraph type="secondary" data-testid="device-production">
        Not through production yet.
      </Typography.Paragraph>
    );
  }
  const failed = record.tests.find((test) => test.result === 'fail');
  const request = record.request && (
    <Space size={4} wrap>
      {canOpenRequests ? (
        <Link to="/invoice/product-request">{record.request.number}</Link>
      ) : (
        record.request.number
      )}
      <Tag>{record.request.status.replace(/_/g, ' ')}</Tag>
    </Space>
  );
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <Descriptions
        data-testid="device-production"
        size="small"
        bordered
        column={{ xs: 1, md: 2, xl: 3 }}
      >
        <Descriptions.Item label="Grade">
          {device.grade ? (
            <Space orientation="vertical" size={0}>
              <Typography.Text strong>{device.grade}</Typography.Text>
              <Typography.Text type="secondary">{GRADE_DEFINITIONS[device.grade]}</Typography.Text>
            </Space>
          ) : (
            '—'
          )}
        </Descriptions.Item>
        <Descriptions.Item label="Graded">
          {record.graded_at
            ? `${when(record.graded_at)}${record.graded_by ? ` by ${record.graded_by}` : ''}`
            : '—'}
        </Descriptions.Item>
        <Descriptions.Item label="Product request">{request ?? '—'}</Descriptions.Item>
        <Descriptions.Item label="Worker">
          {record.worker
            ? `${record.worker}${record.assigned_at ? `, since ${when(record.assigned_at)}` : ''}`
            : '—'}
        </Descriptions.Item>
        <Descriptions.Item label="Wipe">
          {record.wipe ? (
            <Space orientation="vertical" size={0}>
              <span>{wipeMethodWords(record.wipe.method)}</span>
              <span>Certificate {record.wipe.certificate ?? '—'}</span>
              {record.wipe.wiped_at && (
                <Typography.Text type="secondary">{when(record.wipe.wiped_at)}</Typography.Text>
              )}
            </Space>
          ) : (
            'Not wiped yet'
          )}
        </Descriptions.Item>
        <Descriptions.Item label="FRP / activation lock">
          {lockText(device, record)}
        </Descriptions.Item>
        <Descriptions.Item label="Battery health">
          {record.battery_health === null ? '—' : `${record.battery_health}%`}
        </Descriptions.Item>
        <Descriptions.Item label="Failure issue codes">
          {failed ? codeTags(failed.issue_codes) : '—'}
        </Descriptions.Item>
      </Descriptions>
      <Table<DeviceTestRecord>
        aria-label={`Tests of ${device.identifier}`}
        data-testid="device-tests"
        size="small"
        rowKey="id"
        pagination={false}
        dataSource={record.tests}
        locale={{ emptyText: 'No test recorded.' }}
        columns={[
          { title: 'Tested', render: (_, test) => when(test.run_at) },
          {
            title: 'By',
            render: (_, test) =>
              `${test.tester ?? '—'}${test.tool === 'manual' ? '' : ` (${test.tool})`}`,
          },
          {
            title: 'Result',
            render: (_, test) => (
              <Tag color={RESULT_COLORS[test.result]}>{RESULT_WORDS[test.result]}</Tag>
            ),
          },
          { title: 'Grade', render: (_, test) => test.grade ?? '—' },
          {
            title: 'Battery',
            render: (_, test) => (test.battery_health === null ? '—' : `${test.battery_health}%`),
          },
          { title: 'Checklist', render: (_, test) => <Checklist items={test.items} /> },
          { title: 'Issue codes', render: (_, test) => codeTags(test.issue_codes) },
          { title: 'Notes', render: (_, test) => test.cosmetic_notes ?? '—' },
        ]}
      />
    </Space>
  );
}
