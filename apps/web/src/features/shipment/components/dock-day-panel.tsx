import {
  CARRIER_NAMES,
  DOCK_DAY_REOPEN_ACCESS,
  GAYLORD_MANAGE_ACCESS,
  reopenDockDaySchema,
  type DockDay,
} from '@inventory/contract';
import { Alert, Button, Card, Popconfirm, Space, Statistic, Table, Typography } from 'antd';
import { useState } from 'react';
import { showApiError } from '../../../shell/api-errors';
import { notify } from '../../../shell/notify';
import { useCan } from '../../../shell/use-can';
import { ActionDrawer } from '../../../toolkit/action-drawer';
import { when } from '../../../toolkit/format';
import { printDockDay, useDockDay, useDockDayActions } from '../api/dock-day.queries';

type LeftBehind = DockDay['figures']['left_behind'][number];

/**
 * Today's dock and its end-of-day close (DOMAIN.md 4.14 /fulfill/scan-to-ship): what left per
 * carrier, what is labelled and still here, the day's SCAN forms; the shipping lead closes the
 * day (nothing more scans out on it), a manager reopens it with a reason, and anyone at the dock
 * prints the report.
 */
export function DockDayPanel() {
  const day = useDockDay();
  const { close, reopen } = useDockDayActions();
  const mayClose = useCan(GAYLORD_MANAGE_ACCESS);
  const mayReopen = useCan(DOCK_DAY_REOPEN_ACCESS);
  const [reopening, setReopening] = useState(false);
  if (!day.data) return null;
  const { figures, business_day: businessDay } = day.data;
  const closed = day.data.status === 'closed';

  const closeDay = async () => {
    try {
      const done = await close.mutateAsync();
      notify.success(
        `The dock's day ${done.business_day} is closed: ${done.figures.shipped} shipped, ${done.figures.left_behind_count} left behind.`,
      );
    } catch (error) {
      showApiError(error);
    }
  };

  return (
    <section aria-label={`End of day ${businessDay}`}>
      <Card
        size="small"
        title={`End of day ${businessDay}`}
        extra={
          <Space wrap>
            <Button onClick={() => void printDockDay(businessDay).catch(showApiError)}>
              Print the day's report
            </Button>
            {!closed && mayClose && (
              <Popconfirm
                title="Close today's dock?"
                description="Nothing more scans out today until a manager reopens the day."
                okText="Close the day"
                onConfirm={closeDay}
              >
                <Button type="primary" loading={close.isPending}>
                  Close the day
                </Button>
              </Popconfirm>
            )}
            {closed && mayReopen && (
              <Button onClick={() => setReopening(true)}>Reopen the day</Button>
            )}
          </Space>
        }
      >
        <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
          {closed ? (
            <Alert
              type="warning"
              showIcon
              title={`Closed ${when(day.data.closed_at)} by ${day.data.closed_by_name}: parcels scanned now ship on the next day.`}
            />
          ) : (
            day.data.reopened_at && (
              <Alert
                type="info"
                showIcon
                title={`Reopened ${when(day.data.reopened_at)} by ${day.data.reopened_by_name}: ${day.data.reopen_reason}`}
              />
            )
          )}
          <Space wrap size="large">
            <Statistic title="Shipped" value={figures.shipped} />
            {figures.carriers.map((row) => (
              <Statistic
                key={row.carrier}
                title={`${CARRIER_NAMES[row.carrier]} parcels`}
                value={row.parcels}
              />
            ))}
            <Statistic title="Labelled, still here" value={figures.left_behind_count} />
            <Statistic
              title="SCAN forms"
              value={figures.scan_forms.map((form) => form.number).join(', ') || 'none'}
            />
          </Space>
          {figures.left_behind_count > 0 && (
            <Table<LeftBehind>
              size="small"
              rowKey="package_id"
              aria-label="Parcels labelled and still here"
              pagination={{ pageSize: 10, hideOnSinglePage: true }}
              dataSource={figures.left_behind}
              columns={[
                { key: 'tracking', title: 'Tracking', dataIndex: 'tracking_number' },
                { key: 'order', title: 'Order', dataIndex: 'order_number' },
                {
                  key: 'carrier',
                  title: 'Carrier',
                  render: (_, parcel) => CARRIER_NAMES[parcel.carrier],
                },
                {
                  key: 'where',
                  title: 'Where',
                  render: (_, parcel) =>
                    parcel.gaylord ? `Gaylord ${parcel.gaylord}` : 'Label printed',
                },
                {
                  key: 'labelled',
                  title: 'Labelled',
                  render: (_, parcel) => when(parcel.labelled_at),
                },
              ]}
            />
          )}
          {figures.left_behind_count > figures.left_behind.length && (
            <Typography.Text type="secondary">
              The oldest {figures.left_behind.length} of {figures.left_behind_count} are listed.
            </Typography.Text>
          )}
        </Space>
        {reopening && (
          <ActionDrawer
            title={`Reopen the dock's day ${businessDay}`}
            intro="Parcels scan out on today again; the close and this reopening stay in the audit log."
            fields={[{ name: 'reason', label: 'Reason', kind: 'textarea', required: true }]}
            schema={reopenDockDaySchema}
            initialValues={{}}
            submitLabel="Reopen the day"
            run={async (values) => {
              const done = await reopen.mutateAsync(String(values.reason ?? ''));
              return `The dock's day ${done.business_day} is open again.`;
            }}
            onClose={() => setReopening(false)}
          />
        )}
      </Card>
    </section>
  );
}
