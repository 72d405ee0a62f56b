import { pendingPages } from '../../shell/page-types';

export const simPages = pendingPages('SIM', [
  [
    '/sim/dashboard',
    'SIM dashboard',
    { permission: 'sim.dashboard' },
    'SIMs by status and carrier, SIMs held per agent, requests and activation rates.',
  ],
  [
    '/sim/box',
    'SIM boxes',
    { permission: 'sim.index' },
    'Receive SIM boxes by ICCID range or list, split into packs and move.',
  ],
  [
    '/sim',
    'SIM list',
    { permission: 'sim.index' },
    'Every SIM by ICCID with its status, holder and last detection.',
  ],
  [
    '/sim/request',
    'SIM requests',
    { permission: 'sim-requests.index' },
    'Agent requests for SIMs: approve, allocate, pack and ship.',
  ],
  [
    '/sim/return',
    'SIM returns',
    { permission: 'sim-returns.index' },
    'Returns of SIMs from agents and customers, received by scan.',
  ],
  [
    '/sim/inquire',
    'SIM lookup',
    { permission: 'sim.inquire' },
    'Scan an ICCID to see its whole history.',
  ],
  [
    '/sim/detection',
    'SIM detection',
    { permission: 'sim.detection_oss' },
    'Carrier OSS runs that detect which SIMs are active.',
  ],
]);
