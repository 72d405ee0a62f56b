import {
  WORK_JOB_KIND_TEXT,
  WORK_JOB_KINDS,
  WORK_JOB_STATUSES,
  workJobLifecycle,
  type workJobList,
  type WorkJobRow,
} from '@inventory/contract';
import { when } from '../../../toolkit/format';
import type { ResourcePageConfig } from '../../../toolkit/resource-page-config';
import { JobStatusTag, targetText } from './job-parts';

/** The jobs' list columns and filters, shared by /report/job and /report/admin. */
export const jobColumns: ResourcePageConfig<WorkJobRow, typeof workJobList>['columns'] = [
  { key: 'id', title: 'Job', render: (job) => `#${job.id}` },
  { key: 'title', title: 'Title' },
  { key: 'kind', title: 'Kind', render: (job) => WORK_JOB_KIND_TEXT[job.kind] },
  { key: 'assignees_text', title: 'Assignees' },
  { key: 'done_qty', title: 'Done / target', render: targetText },
  { key: 'due_at', title: 'Due', sortKey: 'due_at', render: (job) => when(job.due_at) || '—' },
  { key: 'status', title: 'Status', render: (job) => <JobStatusTag job={job} /> },
  {
    key: 'created_at',
    title: 'Created',
    sortKey: 'created_at',
    render: (job) => when(job.created_at),
  },
];

export const jobFilters: ResourcePageConfig<WorkJobRow, typeof workJobList>['filters'] = [
  {
    key: 'status',
    label: 'Status',
    options: WORK_JOB_STATUSES.map((status) => ({
      value: status,
      label: workJobLifecycle.stateText(status),
    })),
  },
  {
    key: 'kind',
    label: 'Kind',
    options: WORK_JOB_KINDS.map((kind) => ({ value: kind, label: WORK_JOB_KIND_TEXT[kind] })),
  },
  {
    key: 'overdue',
    label: 'Overdue',
    options: [
      { value: 'true', label: 'Overdue' },
      { value: 'false', label: 'Not overdue' },
    ],
  },
  { key: 'assignee_id', label: 'Assignee', fromAddress: true },
];
