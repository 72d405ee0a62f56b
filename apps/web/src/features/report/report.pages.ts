import { WORK_REPORT_ACCESS } from '@inventory/contract';
import type { PageEntry } from '../../shell/page-types';

/** The working report (DOMAIN.md 4.11): work per team and day, units per hour, rework. */
const dashboardPages: PageEntry[] = [
  {
    path: '/report/dashboard',
    group: 'Working Report',
    label: 'Working report',
    summary: 'Work done per team and day, units per hour and rework.',
    ...WORK_REPORT_ACCESS,
    load: () => import('./dashboard/work-report-page'),
  },
];

/** Work jobs (DOMAIN.md 4.11): my work, the team's jobs, creating jobs. */
const jobPages: PageEntry[] = [
  {
    path: '/report/work',
    group: 'Working Report',
    label: 'My work',
    summary: 'My jobs, today’s counts and targets.',
    permission: 'tasks.worker-list',
    load: () => import('./jobs/my-work-page'),
  },
  {
    path: '/report/admin',
    group: 'Working Report',
    label: 'Team jobs',
    summary: 'All jobs and per-worker summaries.',
    permission: 'tasks.manager-list',
    load: () => import('./jobs/team-jobs-page'),
  },
  {
    path: '/report/job',
    group: 'Working Report',
    label: 'Jobs',
    summary: 'Create and manage jobs.',
    permission: 'task-jobs.create',
    load: () => import('./jobs/jobs-page'),
  },
];

export const reportPages: PageEntry[] = [...dashboardPages, ...jobPages];
