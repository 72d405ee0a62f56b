import { STATION_ACCESS } from '@inventory/contract';
import { pendingPages } from '../../shell/page-types';

const S = STATION_ACCESS;

/** The Repair group's short routes live under /repair-process/ (DOMAIN.md decision 2). */
export const repairPages = pendingPages('Repair', [
  [
    '/repair-process/request',
    'Repair requests',
    { permission: 'repair.request' },
    'Raise a repair ticket for a device with its issue codes.',
  ],
  [
    '/repair-process/sorting',
    'Sorting',
    S.repairSorting,
    'Triage new tickets: confirm issues, priority and repair-versus-value.',
  ],
  [
    '/repair-process/leader',
    'Repair leader',
    S.repairLeader,
    'Assign technicians, approve BER decisions and request parts.',
  ],
  [
    '/repair-process/worker',
    'Technician',
    S.repairWorker,
    'My tickets: start, issue parts, wait for parts, complete.',
  ],
  [
    '/repair-process/testing',
    'Testing',
    S.repairTesting,
    'Test repaired devices: pass to reuse or fail back to the technician.',
  ],
  [
    '/repair-process/dashboard',
    'Repair dashboard',
    S.repairStatistics,
    'Open tickets, throughput, first-pass yield and parts cost.',
  ],
  [
    '/repair-process/worker-statistic/device',
    'Technicians by device',
    S.repairStatistics,
    'Per technician: devices repaired, time and pass rate.',
  ],
  [
    '/repair-process/worker-statistic/issues',
    'Technicians by issue',
    S.repairStatistics,
    'Per issue code: count, time, parts and pass rate.',
  ],
  [
    '/repair-process/inquire-device',
    'Repair history',
    S.repairInquireDevice,
    'Scan an IMEI to see its repair tickets, parts and tests.',
  ],
]);
