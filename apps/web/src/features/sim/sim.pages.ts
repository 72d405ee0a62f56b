import {
  SIM_ACCESS,
  SIM_DASHBOARD_ACCESS,
  SIM_DETECTION_ACCESS,
  SIM_INQUIRE_ACCESS,
  SIM_REQUEST_ACCESS,
  SIM_RETURN_ACCESS,
} from '@inventory/contract';
import type { PageEntry } from '../../shell/page-types';

export const simPages: PageEntry[] = [
  {
    path: '/sim/dashboard',
    group: 'SIM',
    label: 'SIM dashboard',
    summary: 'SIMs by status and carrier, SIMs held per agent, requests and activation rates.',
    ...SIM_DASHBOARD_ACCESS,
    load: () => import('./pages/sim-dashboard-page'),
  },
  {
    path: '/sim/box',
    group: 'SIM',
    label: 'SIM boxes',
    summary: 'Receive SIM boxes by ICCID range or list, split into packs and move.',
    ...SIM_ACCESS,
    load: () => import('./pages/sim-boxes-page'),
  },
  {
    path: '/sim',
    group: 'SIM',
    label: 'SIM list',
    summary: 'Every SIM by ICCID with its status, holder and last detection.',
    ...SIM_ACCESS,
    load: () => import('./pages/sim-list-page'),
  },
  {
    path: '/sim/request',
    group: 'SIM',
    label: 'SIM requests',
    summary: 'Agent requests for SIMs: approve, allocate, pack and ship.',
    ...SIM_REQUEST_ACCESS,
    load: () => import('./pages/sim-requests-page'),
  },
  {
    path: '/sim/return',
    group: 'SIM',
    label: 'SIM returns',
    summary: 'Returns of SIMs from agents and customers, received by scan.',
    ...SIM_RETURN_ACCESS,
    load: () => import('./pages/sim-returns-page'),
  },
  {
    path: '/sim/inquire',
    group: 'SIM',
    label: 'SIM lookup',
    summary: 'Scan an ICCID to see its whole history.',
    ...SIM_INQUIRE_ACCESS,
    load: () => import('./pages/sim-inquire-page'),
  },
  {
    path: '/sim/detection',
    group: 'SIM',
    label: 'SIM detection',
    summary: 'Carrier OSS runs that detect which SIMs are active.',
    ...SIM_DETECTION_ACCESS,
    load: () => import('./pages/sim-detection-page'),
  },
];
