import type { PageEntry } from '../../shell/page-types';

export const jobsPages: PageEntry[] = [
  {
    // Not in the spec's menu: an administrator's page beside the users' (like their API keys),
    // reached from the users page.
    path: '/users/jobs',
    group: null,
    label: 'Background jobs',
    summary: 'Label batches, carrier calls, tracking polls and sweeps: state, attempts, errors.',
    permission: 'job.view-list',
    load: () => import('./pages/jobs-page'),
  },
];
