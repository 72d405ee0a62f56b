import { teamJobList, teamJobListEndpoints, type WorkJobRow } from '@inventory/contract';
import {
  Button,
  Card,
  Drawer,
  Input,
  Popconfirm,
  Select,
  Space,
  Spin,
  Table,
  Typography,
} from 'antd';
import { useState } from 'react';
import { showApiError } from '../../../shell/api-errors';
import { notify } from '../../../shell/notify';
import type { PageProps } from '../../../shell/page-types';
import { useUrlParam } from '../../../shell/use-url-state';
import { startDownload } from '../../../toolkit/resource-queries';
import type { ResourcePageConfig } from '../../../toolkit/resource-page-config';
import { ResourcePage } from '../../../toolkit/resource-page';
import { jobColumns, jobFilters } from './job-columns';
import { JobRecord } from './job-parts';
import {
  exportSummaries,
  reassignJob,
  reopenJob,
  useAssignees,
  useJobDetail,
  useRefreshJobs,
  useWorkerSummaries,
  verifyJob,
} from './jobs.queries';

const JOB_PARAM = 'job';
const DAY_MS = 86_400_000;
const isoDay = (at: number) => new Date(at).toISOString().slice(0, 10);

const config: ResourcePageConfig<WorkJobRow, typeof teamJobList> = {
  resource: teamJobList,
  endpoints: teamJobListEndpoints,
  titleOf: (job) => `Job #${job.id}`,
  searchPlaceholder: 'Job number or title',
  header: (
    <Typography.Paragraph type="secondary">
      Every job of the team: verify what is done, give an open job to others, reopen one that needs
      more work. Below, units and hours per worker and day.
    </Typography.Paragraph>
  ),
  record: { param: JOB_PARAM, rowClick: true },
  columns: jobColumns,
  filters: jobFilters,
};

/** A job's record on /report/admin: verify, reopen, reassign. */
function TeamJobDrawer({ id, onClose }: { id: number; onClose: () => void }) {
  const detail = useJobDetail(id, 'team');
  const refresh = useRefreshJobs();
  const job = detail.data?.job;
  const assignees = useAssignees(job?.kind, 'team');
  const [chosen, setChosen] = useState<number[] | null>(null);
  const [reason, setReason] = useState('');
  const run = async (step: () => Promise<unknown>, done: string) => {
    try {
      await step();
      notify.success(done);
      await refresh();
    } catch (error) {
      showApiError(error);
    }
  };
  const open = job && (job.status === 'assigned' || job.status === 'in_progress');
  return (
    <Drawer open title={`Job #${id}${job ? ` · ${job.title}` : ''}`} size="large" onClose={onClose}>
      {!detail.data || !job ? (
        <Spin />
      ) : (
        <JobRecord
          detail={detail.data}
          actions={
            <>
              {job.status === 'done' && (
                <Button
                  type="primary"
                  onClick={() => run(() => verifyJob(id), `Job #${id} verified.`)}
                >
                  Verify
                </Button>
              )}
              {(job.status === 'done' || job.status === 'verified') && (
                <Space.Compact>
                  <Input
                    aria-label="Why reopen"
                    placeholder="Why reopen (optional)"
                    value={reason}
                    onChange={(event) => setReason(event.target.value)}
                  />
                  <Popconfirm
                    title="Reopen this job?"
                    description={
                      job.kind === 'count' ? 'Its boxes are locked for a new count.' : undefined
                    }
                    okText="Reopen"
                    onConfirm={() =>
                      run(() => reopenJob(id, reason || null), `Job #${id} reopened.`)
                    }
                  >
                    <Button>Reopen</Button>
                  </Popconfirm>
                </Space.Compact>
              )}
              {open && (
                <Space.Compact>
                  <Select
                    aria-label="Assignees"
                    mode="multiple"
                    style={{ minWidth: 280 }}
                    optionFilterProp="label"
                    value={chosen ?? job.assignees.map((person) => person.id)}
                    onChange={setChosen}
                    options={(assignees.data ?? []).map((person) => ({
                      value: person.id,
                      label: person.label,
                    }))}
                  />
                  <Button
                    disabled={chosen === null}
                    onClick={() =>
                      run(() => reassignJob(id, chosen ?? []), `Job #${id} reassigned.`).then(() =>
                        setChosen(null),
                      )
                    }
                  >
                    Reassign
                  </Button>
                </Space.Compact>
              )}
            </>
          }
        />
      )}
    </Drawer>
  );
}

/** Units and hours per worker and day over a range, with its export. */
function WorkerSummaries() {
  const [range, setRange] = useState(() => ({
    from: isoDay(Date.now() - 6 * DAY_MS),
    to: isoDay(Date.now()),
  }));
  const summaries = useWorkerSummaries(range);
  return (
    <Card
      title="Per-worker summaries"
      extra={
        <Space wrap>
          <Input
            type="date"
            aria-label="From"
            value={range.from}
            onChange={(event) => setRange((current) => ({ ...current, from: event.target.value }))}
          />
          <Input
            type="date"
            aria-label="To"
            value={range.to}
            onChange={(event) => setRange((current) => ({ ...current, to: event.target.value }))}
          />
          <Button
            onClick={async () => {
              try {
                startDownload(await exportSummaries(range));
              } catch (error) {
                showApiError(error);
              }
            }}
          >
            Export hours and units
          </Button>
        </Space>
      }
    >
      <Table
        size="small"
        aria-label="Per-worker summaries"
        loading={summaries.isLoading}
        rowKey={(row) => `${row.day}-${row.user_id}`}
        dataSource={summaries.data ?? []}
        pagination={{ pageSize: 50, hideOnSinglePage: true }}
        columns={[
          { title: 'Day', dataIndex: 'day' },
          { title: 'Worker', dataIndex: 'name' },
          { title: 'Units', dataIndex: 'units' },
          { title: 'Hours', dataIndex: 'hours' },
          { title: 'Rework', dataIndex: 'rework' },
          { title: 'Jobs done', dataIndex: 'jobs_done' },
        ]}
      />
    </Card>
  );
}

/** Team jobs (`/report/admin`, DOMAIN.md 4.11): every job, its record, per-worker summaries. */
export default function TeamJobsPage(props: PageProps) {
  const [opened, setOpened] = useUrlParam(JOB_PARAM);
  const openedId = Number(opened) || null;
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <ResourcePage {...props} config={config} />
      <WorkerSummaries />
      {openedId && <TeamJobDrawer id={openedId} onClose={() => setOpened(undefined)} />}
    </Space>
  );
}
