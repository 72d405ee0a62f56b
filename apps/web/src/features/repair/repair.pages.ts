import { STATION_ACCESS } from '@inventory/contract';
import type { PageEntry } from '../../shell/page-types';

const S = STATION_ACCESS;

/** The Repair group's short routes live under /repair-process/ (DOMAIN.md decision 2). */
export const repairPages: PageEntry[] = [
  {
    path: '/repair-process/request',
    group: 'Repair',
    label: 'Repair requests',
    summary: 'Raise a repair ticket for a device with its issue codes.',
    permission: 'repair.request',
    load: () => import('./pages/request-page'),
  },
  {
    path: '/repair-process/sorting',
    group: 'Repair',
    label: 'Sorting',
    summary: 'Triage new tickets: confirm issues, priority and repair-versus-value.',
    ...S.repairSorting,
    load: () => import('./pages/sorting-page'),
  },
  {
    path: '/repair-process/leader',
    group: 'Repair',
    label: 'Repair leader',
    summary: 'Assign technicians, approve BER decisions and request parts.',
    ...S.repairLeader,
    load: () => import('./pages/leader-page'),
  },
  {
    path: '/repair-process/worker',
    group: 'Repair',
    label: 'Technician',
    summary: 'My tickets: start, issue parts, wait for parts, complete.',
    ...S.repairWorker,
    load: () => import('./pages/worker-page'),
  },
  {
    path: '/repair-process/testing',
    group: 'Repair',
    label: 'Testing',
    summary: 'Test repaired devices: pass to reuse or fail back to the technician.',
    ...S.repairTesting,
    load: () => import('./pages/testing-page'),
  },
  {
    path: '/repair-process/dashboard',
    group: 'Repair',
    label: 'Repair dashboard',
    summary: 'Open tickets, throughput, first-pass yield and parts cost.',
    ...S.repairStatistics,
    load: () => import('./pages/dashboard-page'),
  },
  {
    path: '/repair-process/worker-statistic/device',
    group: 'Repair',
    label: 'Technicians by device',
    summary: 'Per technician: devices repaired, time and pass rate.',
    ...S.repairStatistics,
    load: () => import('./pages/technicians-page'),
  },
  {
    path: '/repair-process/worker-statistic/issues',
    group: 'Repair',
    label: 'Technicians by issue',
    summary: 'Per issue code: count, time, parts and pass rate.',
    ...S.repairStatistics,
    load: () => import('./pages/issues-page'),
  },
  {
    path: '/repair-process/inquire-device',
    group: 'Repair',
    label: 'Repair history',
    summary: 'Scan an IMEI to see its repair tickets, parts and tests.',
    ...S.repairInquireDevice,
    load: () => import('./pages/history-page'),
  },
];
