import type { BoxScanAnswer, InventoryBox, StationBox, StationDevice } from '@inventory/contract';
import { describe, expect, it } from 'vitest';
import { BOX_SCAN_FEEDBACK, stationBoxAfter } from './box-scan-answer';

const box = (id: number, qty: number): InventoryBox => ({
  id,
  code: `IB-00000${id}`,
  model_id: 1,
  model: 'Samsung Galaxy A15',
  color_id: 1,
  color: 'Black',
  capacity_gb: 128,
  grade: 'A',
  carrier_lock: null,
  max_qty: 20,
  qty,
  status: 'located',
  location_id: 4,
  location_code: 'A-01',
  sealed_at: '2026-11-01T08:00:00.000Z',
  sealed_by_name: null,
  created_at: '2026-11-01T07:00:00.000Z',
});

const device = (id: number, boxCode: string | null): StationDevice => ({
  id,
  identifier: `35000001000000${id}`,
  model: 'Samsung Galaxy A15',
  color: 'Black',
  capacity_gb: 128,
  grade: 'A',
  carrier_lock: null,
  status: 'in_stock',
  hold_reason: null,
  box_code: boxCode,
});

const held = (id: number, devices: StationDevice[]): StationBox => ({
  box: box(id, devices.length),
  devices,
  count: null,
});

const answer = (over: Partial<BoxScanAnswer>): BoxScanAnswer => ({
  result: 'added',
  message: '',
  code: '',
  device: null,
  box: box(1, 1),
  from_box: null,
  count: null,
  ...over,
});

describe('the box station putting an answer on the page', () => {
  it('puts an added device into its box, in IMEI order', () => {
    const current = held(1, [device(3, 'IB-000001')]);
    const next = stationBoxAfter(
      current,
      answer({ device: device(2, 'IB-000001'), box: box(1, 2) }),
    );
    expect(next?.devices.map((each) => each.id)).toEqual([2, 3]);
    expect(next?.box.qty).toBe(2);
  });

  it('takes a moved device out of the box it left, and leaves other boxes alone', () => {
    const from = held(2, [device(5, 'IB-000002'), device(6, 'IB-000002')]);
    const moved = answer({
      result: 'moved',
      device: device(5, 'IB-000001'),
      box: box(1, 2),
      from_box: box(2, 1),
    });
    expect(stationBoxAfter(from, moved)?.devices.map((each) => each.id)).toEqual([6]);
    const elsewhere = held(9, [device(7, 'IB-000009')]);
    expect(stationBoxAfter(elsewhere, moved)).toBe(elsewhere);
  });

  it('reads the box again when its devices do not add up to what the answer says', () => {
    const current = held(1, [device(3, 'IB-000001')]);
    expect(
      stationBoxAfter(current, answer({ device: device(2, 'IB-000001'), box: box(1, 3) })),
    ).toBeNull();
  });

  it('keeps a refusal from changing the box, and takes the count a verify scan carries', () => {
    const current = held(1, [device(3, 'IB-000001')]);
    const refused = answer({ result: 'mismatch', device: device(8, null), box: box(1, 1) });
    expect(stationBoxAfter(current, refused)?.devices).toEqual(current.devices);
    const count = {
      id: 4,
      box_id: 1,
      box_code: 'IB-000001',
      expected: 1,
      started_at: '2026-11-02T08:00:00.000Z',
      started_by_name: 'Manager',
      finished_at: null,
      finished_by_name: null,
      counted: [device(3, 'IB-000001').identifier],
      missing: [],
      extra: [],
    };
    const counted = answer({
      result: 'counted',
      device: device(3, 'IB-000001'),
      box: box(1, 1),
      count,
    });
    expect(stationBoxAfter(current, counted)?.count).toEqual(count);
  });

  it('has words and a tone for every answer', () => {
    for (const [result, tone] of Object.entries(BOX_SCAN_FEEDBACK.tones)) {
      expect(tone).toBeTruthy();
      expect(BOX_SCAN_FEEDBACK.words[result as keyof typeof BOX_SCAN_FEEDBACK.words]).toBeTruthy();
    }
  });
});
