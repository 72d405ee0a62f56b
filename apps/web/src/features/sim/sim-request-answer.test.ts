import type { SimAllocationAnswer, SimRequestDetail } from '@inventory/contract';
import { describe, expect, it } from 'vitest';
import { requestAfterScan } from './sim-request-answer';

const request = {
  id: 1,
  qty_allocated: 1,
  qty_approved: 3,
  sims: [{ id: 10, iccid: '8901260000000000018', pack_code: null, status: 'allocated' }],
} as SimRequestDetail;

const answer = (over: Partial<SimAllocationAnswer>): SimAllocationAnswer => ({
  code: 'SP-000001',
  result: 'allocated',
  message: '',
  added: [],
  qty_allocated: 1,
  qty_approved: 3,
  ...over,
});

describe('a request after an allocation scan', () => {
  it('takes the SIMs allocated, newest first, and the new count', () => {
    const added = [
      {
        id: 11,
        iccid: '8901260000000000026',
        pack_code: 'SP-000001',
        status: 'allocated' as const,
      },
      {
        id: 12,
        iccid: '8901260000000000034',
        pack_code: 'SP-000001',
        status: 'allocated' as const,
      },
    ];
    const after = requestAfterScan(request, answer({ added, qty_allocated: 3 }));
    expect(after?.qty_allocated).toBe(3);
    expect(after?.sims.map((sim) => sim.id)).toEqual([11, 12, 10]);
  });

  it('stays as it is after a refusal or a repeat', () => {
    expect(requestAfterScan(request, answer({ result: 'already_allocated' }))).toBe(request);
  });

  it('is read again when another station changed the count meanwhile', () => {
    expect(requestAfterScan(request, answer({ result: 'other_request', qty_allocated: 2 }))).toBe(
      null,
    );
  });
});
