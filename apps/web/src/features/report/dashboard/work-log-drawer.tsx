import {
  WORK_ACTION_TEXT,
  workLogList,
  workLogListEndpoints,
  type WorkLogRow,
} from '@inventory/contract';
import { Alert, Drawer, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useDialogFocus } from '../../../shell/dialog-focus';
import { callEndpoint } from '../../../shell/http-client';
import { when } from '../../../toolkit/format';
import { ListPager } from '../../../toolkit/list-pager';
import { useResourceCount, useResourceList } from '../../../toolkit/resource-queries';
import { ExportMenu } from '../../warehouse';
import { workLogFilters, type WorkDrill } from './work-report-filters';

/** Seconds of station time in words: "4 min 05 s". */
const durationText = (seconds: number | null) =>
  seconds === null
    ? '—'
    : seconds < 60
      ? `${seconds} s`
      : `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, '0')} s`;

/**
 * The work behind a figure of the report (the registered list `report/work-logs`, filtered as the
 * figure was counted): each unit of work with its worker, time and the unit in words, newest day
 * first, a page at a time, exportable as the list it is.
 */
export function WorkLogDrawer({
  drill,
  title,
  onClose,
}: {
  drill: WorkDrill;
  title: string;
  onClose: () => void;
}) {
  const dialogFocus = useDialogFocus();
  const [cursor, setCursor] = useState<string | undefined>();
  const [limit, setLimit] = useState(50);
  const filters = workLogFilters(drill);
  const query = { ...filters, sort: 'business_day', order: 'desc', limit, cursor };
  const rows = useResourceList<WorkLogRow>(workLogListEndpoints, query);
  const count = useResourceCount(workLogListEndpoints, query);
  return (
    <Drawer
      {...dialogFocus}
      open
      size={860}
      title={title}
      onClose={onClose}
      extra={
        <ExportMenu
          title={title}
          linkOf={async (format) =>
            (await callEndpoint(workLogListEndpoints.exportFile, { body: { ...filters, format } }))
              .data
          }
        />
      }
    >
      {rows.isError ? (
        <Alert
          type="error"
          showIcon
          title="The work could not be read."
          description={`${rows.error.message} Close this and open the figure again.`}
        />
      ) : (
        <section aria-label={title}>
          <Table<WorkLogRow>
            size="small"
            rowKey="id"
            data-testid="work-log-rows"
            loading={rows.isFetching}
            dataSource={rows.data?.items ?? []}
            pagination={false}
            scroll={{ x: 'max-content' }}
            locale={{
              emptyText: 'No work was counted here: the figure may have changed since it was read.',
            }}
            columns={[
              {
                key: 'entity',
                title: 'Unit',
                fixed: 'left',
                render: (_, row) => row.entity ?? `${row.entity_type} ${row.entity_id}`,
              },
              { key: 'action', title: 'Work', render: (_, row) => WORK_ACTION_TEXT[row.action] },
              { key: 'worker', title: 'Worker', dataIndex: 'user_name' },
              { key: 'at', title: 'At', render: (_, row) => when(row.at) },
              { key: 'day', title: 'Business day', dataIndex: 'business_day' },
              { key: 'qty', title: 'Qty', dataIndex: 'qty', align: 'right' },
              {
                key: 'duration',
                title: 'Station time',
                align: 'right',
                render: (_, row) => durationText(row.duration_s),
              },
              {
                key: 'rework',
                title: 'Rework',
                render: (_, row) => (row.rework ? <Tag color="orange">Rework</Tag> : null),
              },
            ]}
          />
          <ListPager
            noun={{ singular: workLogList.singular, plural: 'work log entries' }}
            count={count.data}
            page={rows.data}
            cursor={cursor}
            limit={limit}
            onChange={(changes) => {
              setCursor(changes.cursor);
              if (changes.limit) setLimit(changes.limit);
            }}
          />
        </section>
      )}
      <Space style={{ marginTop: 8 }}>
        <Typography.Text type="secondary">
          Business days {drill.from === drill.to ? drill.from : `${drill.from} to ${drill.to}`}.
        </Typography.Text>
      </Space>
    </Drawer>
  );
}
