import {
  JOB_CANCELLABLE_STATES,
  JOB_RETRYABLE_STATES,
  JOB_STATES,
  type Job,
  type JobState,
} from '@inventory/contract';
import {
  Alert,
  Button,
  Popconfirm,
  Select,
  Space,
  Table,
  Tag,
  Typography,
  type TableColumnsType,
} from 'antd';
import { useSearchParams } from 'react-router';
import { showApiError } from '../../../shell/api-errors';
import { notify } from '../../../shell/notify';
import { PAGE_TITLE_STYLE } from '../../../shell/page-styles';
import type { PageProps } from '../../../shell/page-types';
import { useCan } from '../../../shell/use-can';
import { when } from '../../../toolkit/format';
import { useJobAction, useJobs } from '../api/jobs.queries';

const STATE_LABELS: Record<JobState, string> = {
  created: 'Waiting',
  retry: 'Waiting to retry',
  active: 'Running',
  completed: 'Completed',
  cancelled: 'Cancelled',
  failed: 'Failed',
};

const STATE_COLORS: Record<JobState, string> = {
  created: 'default',
  retry: 'warning',
  active: 'processing',
  completed: 'success',
  cancelled: 'default',
  failed: 'error',
};

const isState = (value: string | null): value is JobState =>
  JOB_STATES.some((state) => state === value);

/**
 * The background jobs, newest first, by state and name, read again every few seconds; a failed
 * job can be retried and a waiting one cancelled by whoever holds job.manage. The filters and the
 * page are in the address, so a reload keeps them.
 */
export default function JobsPage({ entry }: PageProps) {
  const [search, setSearch] = useSearchParams();
  const stateParam = search.get('state');
  const state = isState(stateParam) ? stateParam : undefined;
  const name = search.get('name') ?? undefined;
  const after = search.get('after') ?? undefined;
  const jobs = useJobs({ state, name, after });
  const act = useJobAction();
  const canManage = useCan({ permission: 'job.manage' });

  const setFilter = (key: 'state' | 'name', value: string | undefined) =>
    setSearch((current) => {
      const next = new URLSearchParams(current);
      if (value) next.set(key, value);
      else next.delete(key);
      next.delete('after');
      return next;
    });

  const run = (job: Job, action: 'retry' | 'cancel') =>
    act.mutate(
      { id: job.id, action },
      {
        onSuccess: (answer) => notify.success(answer.message),
        onError: (error) => showApiError(error),
      },
    );

  const counts = jobs.data?.counts;
  const columns: TableColumnsType<Job> = [
    { title: 'Job', dataIndex: 'name', key: 'name' },
    {
      title: 'State',
      key: 'state',
      render: (_, job) => <Tag color={STATE_COLORS[job.state]}>{STATE_LABELS[job.state]}</Tag>,
    },
    {
      title: 'Attempts',
      key: 'attempts',
      render: (_, job) => `${job.attempts} of ${job.max_attempts}`,
    },
    { title: 'Created', key: 'created', render: (_, job) => when(job.created_at) },
    {
      title: 'Next run',
      key: 'next',
      render: (_, job) =>
        job.state === 'created' || job.state === 'retry' ? when(job.start_after) : '—',
    },
    { title: 'Started', key: 'started', render: (_, job) => when(job.started_at) },
    { title: 'Finished', key: 'finished', render: (_, job) => when(job.finished_at) },
    {
      title: 'Last error',
      key: 'error',
      render: (_, job) =>
        job.last_error ? <Typography.Text type="danger">{job.last_error}</Typography.Text> : '—',
    },
    ...(canManage
      ? [
          {
            title: 'Actions',
            key: 'actions',
            render: (_: unknown, job: Job) => (
              <Space>
                {JOB_RETRYABLE_STATES.includes(job.state) && (
                  <Button size="small" onClick={() => run(job, 'retry')} loading={act.isPending}>
                    Retry
                  </Button>
                )}
                {JOB_CANCELLABLE_STATES.includes(job.state) && (
                  <Popconfirm
                    title="Cancel this job?"
                    description="It will not run."
                    okText="Cancel job"
                    cancelText="Keep it"
                    onConfirm={() => run(job, 'cancel')}
                  >
                    <Button size="small" danger>
                      Cancel
                    </Button>
                  </Popconfirm>
                )}
              </Space>
            ),
          },
        ]
      : []),
  ];

  return (
    <>
      <Typography.Title level={1} style={PAGE_TITLE_STYLE}>
        {entry.label}
      </Typography.Title>
      <Space wrap style={{ marginBottom: 16 }}>
        <Select
          aria-label="State"
          placeholder="Any state"
          allowClear
          style={{ minWidth: 200 }}
          value={state}
          onChange={(value?: JobState) => setFilter('state', value)}
          options={JOB_STATES.map((value) => ({
            value,
            label: `${STATE_LABELS[value]}${counts ? ` (${counts[value]})` : ''}`,
          }))}
        />
        <Select
          aria-label="Job"
          placeholder="Any job"
          allowClear
          style={{ minWidth: 240 }}
          value={name}
          onChange={(value?: string) => setFilter('name', value)}
          options={(jobs.data?.names ?? []).map((value) => ({ value, label: value }))}
        />
      </Space>
      {jobs.isError && (
        <Alert
          type="error"
          showIcon
          title="The jobs could not be read."
          style={{ marginBottom: 16 }}
        />
      )}
      <Table<Job>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={jobs.data?.items ?? []}
        loading={jobs.isLoading}
        pagination={false}
        scroll={{ x: 'max-content' }}
      />
      <Space style={{ marginTop: 16 }}>
        <Button disabled={!after} onClick={() => setFilter('state', state)}>
          Newest
        </Button>
        <Button
          disabled={!jobs.data?.next}
          onClick={() =>
            setSearch((current) => {
              const next = new URLSearchParams(current);
              next.set('after', jobs.data!.next!);
              return next;
            })
          }
        >
          Older
        </Button>
      </Space>
    </>
  );
}
