import type { DeviceInquiry } from '@inventory/contract';
import { Alert, Descriptions, Table, Typography, type InputRef } from 'antd';
import { useRef, useState } from 'react';
import { Link } from 'react-router';
import { PAGE_TITLE_STYLE } from '../../../shell/page-styles';
import type { PageProps } from '../../../shell/page-types';
import { when } from '../../../toolkit/format';
import { ScanInput, useWedgeScanner } from '../../../toolkit/station';
import { deviceLookupPath, DeviceStatusTag, HoldTag } from '../../devices';
import { inquireDevice } from '../api/inventory.queries';
import { boxKind } from '../consolidation-feedback';

/**
 * Inquire device (DOMAIN.md 4.17), read-only: scan an IMEI and see its stage, grade, the box it
 * is in (warehouse or inventory box) with its location, and its latest steps.
 */
export default function InquireDevicePage({ entry }: PageProps) {
  const [inquiry, setInquiry] = useState<DeviceInquiry | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const scanField = useRef<InputRef>(null);
  const scanner = useWedgeScanner(scanField, true);

  const inquire = async (code: string) => {
    try {
      setInquiry(await inquireDevice(code));
      setProblem(null);
    } catch (error) {
      setInquiry(null);
      setProblem(error instanceof Error ? error.message : String(error));
    }
  };

  const device = inquiry?.device;
  return (
    <section aria-label={entry.label}>
      <Typography.Title level={1} style={{ ...PAGE_TITLE_STYLE, marginBottom: 12 }}>
        {entry.label}
      </Typography.Title>
      <ScanInput
        ref={scanField}
        scanner={scanner}
        label="Scan an IMEI"
        placeholder="Scan or type an IMEI, then Enter"
        onScan={(code) => void inquire(code)}
        style={{ marginBottom: 12 }}
      />
      {problem && <Alert type="warning" showIcon title={problem} style={{ marginBottom: 12 }} />}
      {inquiry && device && (
        <>
          <Descriptions
            size="small"
            column={{ xs: 1, md: 2 }}
            style={{ marginBottom: 12 }}
            items={[
              {
                key: 'device',
                label: 'Device',
                children: <Link to={deviceLookupPath(device.identifier)}>{device.identifier}</Link>,
              },
              { key: 'model', label: 'Model', children: device.model },
              {
                key: 'stage',
                label: 'Stage',
                children: (
                  <span data-testid="inquiry-status">
                    <DeviceStatusTag status={device.status} />
                    {device.hold_reason && <HoldTag reason={device.hold_reason} />}
                  </span>
                ),
              },
              { key: 'grade', label: 'Grade', children: device.grade ?? '—' },
              {
                key: 'box',
                label: 'Box',
                children: inquiry.box
                  ? `${inquiry.box.code} (${inquiry.box.status}): ${boxKind(inquiry.box)}`
                  : (inquiry.warehouse_box ?? '—'),
              },
              { key: 'location', label: 'Location', children: inquiry.box?.location_code ?? '—' },
            ]}
          />
          <Typography.Title level={2} style={{ fontSize: 16 }}>
            Steps
          </Typography.Title>
          <Table<DeviceInquiry['events'][number]>
            size="small"
            rowKey={(row) => `${row.at}-${row.type}`}
            dataSource={inquiry.events}
            pagination={false}
            columns={[
              { title: 'When', render: (_, row) => when(row.at) },
              { title: 'Step', dataIndex: 'type' },
              {
                title: 'Status',
                render: (_, row) => `${row.from_status ?? '—'} → ${row.to_status ?? '—'}`,
              },
              { title: 'Box', render: (_, row) => row.container ?? '—' },
              { title: 'By', render: (_, row) => row.actor_name ?? '—' },
            ]}
          />
        </>
      )}
    </section>
  );
}
