import {
  WORK_JOB_KIND_TEXT,
  workJobLifecycle,
  type WorkJobBox,
  type WorkJobDetail,
  type WorkJobRow,
  type WorkJobStatus,
} from '@inventory/contract';
import { Descriptions, List, Space, Table, Tag, Typography } from 'antd';
import type { ReactNode } from 'react';
import { when } from '../../../toolkit/format';

/** What the jobs' pages share: a job's status, its facts, its boxes' counts and its timeline. */

const STATUS_COLORS: Record<WorkJobStatus, string> = {
  assigned: 'blue',
  in_progress: 'gold',
  done: 'green',
  verified: 'cyan',
  cancelled: 'default',
};

export function JobStatusTag({ job }: { job: Pick<WorkJobRow, 'status' | 'overdue'> }) {
  return (
    <Space size={4}>
      <Tag color={STATUS_COLORS[job.status]}>{workJobLifecycle.stateText(job.status)}</Tag>
      {job.overdue && <Tag color="red">Overdue</Tag>}
    </Space>
  );
}

export const targetText = (job: Pick<WorkJobRow, 'target_qty' | 'done_qty'>) =>
  job.target_qty === null ? `${job.done_qty}` : `${job.done_qty} of ${job.target_qty}`;

export function JobFacts({ job }: { job: WorkJobRow }) {
  const items: { key: string; label: string; children: ReactNode }[] = [
    { key: 'kind', label: 'Kind', children: WORK_JOB_KIND_TEXT[job.kind] },
    { key: 'status', label: 'Status', children: <JobStatusTag job={job} /> },
    { key: 'assignees', label: 'Assignees', children: job.assignees_text || '—' },
    { key: 'done', label: 'Done', children: targetText(job) },
    { key: 'due', label: 'Due', children: when(job.due_at) || '—' },
    { key: 'boxes', label: 'Boxes', children: job.boxes_text || '—' },
    { key: 'locations', label: 'Locations', children: job.locations_text || '—' },
    {
      key: 'request',
      label: 'Product request',
      children: job.product_request_number ?? '—',
    },
    {
      key: 'created',
      label: 'Created',
      children: `${when(job.created_at)} by ${job.created_by_name ?? '—'}`,
    },
  ];
  if (job.instructions) {
    items.push({ key: 'instructions', label: 'Instructions', children: job.instructions });
  }
  return <Descriptions size="small" column={1} bordered items={items} />;
}

/** Each box of a count job with what its count found, missed and did not expect. */
export function BoxCounts({ boxes }: { boxes: readonly WorkJobBox[] }) {
  return (
    <Table<WorkJobBox>
      size="small"
      rowKey="box_id"
      pagination={false}
      dataSource={[...boxes]}
      aria-label="Boxes of the job"
      columns={[
        { title: 'Box', dataIndex: 'code' },
        {
          title: 'Status',
          render: (_, box) =>
            box.status === 'locked' ? (
              <Tag color="gold">Locked by the count</Tag>
            ) : (
              box.status.replace(/_/g, ' ')
            ),
        },
        {
          title: 'Found',
          render: (_, box) =>
            box.count ? `${box.count.counted.length} of ${box.count.expected}` : '—',
        },
        {
          title: 'Missing',
          render: (_, box) => (box.count ? box.count.missing.join(', ') || 'None' : '—'),
        },
        {
          title: 'Unexpected',
          render: (_, box) =>
            box.count
              ? box.count.extra
                  .map((unit) => `${unit.identifier}${unit.box_code ? ` (${unit.box_code})` : ''}`)
                  .join(', ') || 'None'
              : '—',
        },
      ]}
    />
  );
}

const EVENT_WORDS: Record<string, string> = {
  created: 'Created',
  started: 'Started',
  finished: 'Finished',
  verified: 'Verified',
  reopened: 'Reopened',
  cancelled: 'Cancelled',
  reassigned: 'Reassigned',
  note: 'Note',
};

export function JobTimeline({ events }: { events: WorkJobDetail['events'] }) {
  return (
    <List
      size="small"
      aria-label="Timeline"
      dataSource={[...events].reverse()}
      renderItem={(event) => {
        const data = event.data ?? {};
        const said =
          typeof data.note === 'string'
            ? data.note
            : typeof data.reason === 'string'
              ? data.reason
              : Array.isArray(data.assignees)
                ? data.assignees.join(', ')
                : '';
        return (
          <List.Item>
            <Typography.Text>
              <strong>{EVENT_WORDS[event.type] ?? event.type}</strong> · {when(event.at)} ·{' '}
              {event.actor_name ?? '—'}
              {said ? ` · ${said}` : ''}
            </Typography.Text>
          </List.Item>
        );
      }}
    />
  );
}

/** A job's record in a drawer: facts, boxes, timeline, and the page's actions on top. */
export function JobRecord({ detail, actions }: { detail: WorkJobDetail; actions?: ReactNode }) {
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      {actions && <Space wrap>{actions}</Space>}
      <JobFacts job={detail.job} />
      {detail.boxes.length > 0 && <BoxCounts boxes={detail.boxes} />}
      <Typography.Title level={5}>Timeline</Typography.Title>
      <JobTimeline events={detail.events} />
    </Space>
  );
}
