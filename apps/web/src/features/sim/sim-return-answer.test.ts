import type { SimReturn, SimReturnDetail, SimReturnLine } from '@inventory/contract';
import { describe, expect, it } from 'vitest';
import { returnAfterScan } from './sim-return-answer';

const head: SimReturn = {
  id: 1,
  number: 'SRT-000001',
  source: 'agent',
  agent_id: 7,
  agent: 'Dana Ruiz',
  reason: 'unused',
  note: null,
  status: 'open',
  qty_expected: 2,
  qty_received: 0,
  qty_flagged: 0,
  qty_disposed: 0,
  created_at: '2026-11-27T10:00:00.000Z',
  created_by_name: 'Dana Ruiz',
  closed_at: null,
};

const line = (iccid: string, received: string | null, flag: SimReturnLine['flag'] = null) =>
  ({
    id: Number(iccid.slice(-3)),
    iccid,
    sim_id: flag === 'unknown' ? null : 1,
    expected: received === null,
    received_at: received,
    received_by_name: null,
    station: null,
    flag,
    sim_status: received && !flag ? 'returned' : 'with_agent',
    carrier: 'Carrier',
    ever_active: false,
    activated_at: null,
    disposition: null,
    disposed_at: null,
  }) satisfies SimReturnLine;

const detail: SimReturnDetail = {
  return: head,
  lines: [line('8901260000000000101', null), line('8901260000000000102', null)],
};

describe('a return after a scan', () => {
  it('takes the counts of the answer and puts the scanned line on top', () => {
    const scanned = line('8901260000000000102', '2026-11-27T10:05:00.000Z');
    const after = returnAfterScan(detail, {
      result: 'returned',
      message: '',
      code: scanned.iccid,
      line: scanned,
      return: { ...head, status: 'receiving', qty_received: 1 },
    });
    expect(after!.return.qty_received).toBe(1);
    expect(after!.lines.map((one) => one.iccid)).toEqual([
      '8901260000000000102',
      '8901260000000000101',
    ]);
  });

  it('adds a flagged line without counting it received', () => {
    const flagged = line('8901260000000000999', '2026-11-27T10:06:00.000Z', 'unknown');
    const after = returnAfterScan(detail, {
      result: 'unknown',
      message: '',
      code: flagged.iccid,
      line: flagged,
      return: { ...head, status: 'receiving', qty_flagged: 1 },
    });
    expect(after!.lines).toHaveLength(3);
    expect(after!.lines[0]).toBe(flagged);
  });

  it('changes nothing but the counts on a repeat, and reads again when another station scanned', () => {
    const repeat = returnAfterScan(detail, {
      result: 'already_received',
      message: '',
      code: '8901260000000000101',
      line: line('8901260000000000101', '2026-11-27T10:05:00.000Z'),
      return: head,
    });
    expect(repeat!.lines).toBe(detail.lines);
    const elsewhere = returnAfterScan(detail, {
      result: 'returned',
      message: '',
      code: '8901260000000000101',
      line: line('8901260000000000101', '2026-11-27T10:05:00.000Z'),
      return: { ...head, qty_received: 2 },
    });
    expect(elsewhere).toBeNull();
  });
});
