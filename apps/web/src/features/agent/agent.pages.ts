import type { PageEntry } from '../../shell/page-types';

/** Pages of the agent layout; they are not in the back office's side menu. */
export const agentPages: PageEntry[] = [
  {
    path: '/agent',
    group: null,
    label: 'Agent home',
    summary:
      'Your SIMs on hand, pending requests, shipments on their way and activations, with quick ' +
      'buttons to request, receive, record an activation and return. This comes with the SIM work.',
    permission: 'agent.portal',
    load: () => import('./pages/agent-home-page'),
  },
];
