import { pendingPages } from '../../shell/page-types';

export const reportPages = pendingPages('Working Report', [
  [
    '/report/dashboard',
    'Working report',
    { permission: 'tasks.manager-report' },
    'Work done per team and day, units per hour and rework.',
  ],
  [
    '/report/work',
    'My work',
    { permission: 'tasks.worker-list' },
    'My jobs, today’s counts and targets.',
  ],
  [
    '/report/admin',
    'Team jobs',
    { permission: 'tasks.manager-list' },
    'All jobs and per-worker summaries.',
  ],
  ['/report/job', 'Jobs', { permission: 'task-jobs.create' }, 'Create and manage jobs.'],
]);
