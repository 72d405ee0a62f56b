import type { CartonOrderDetail, OrderBoxDetail, OrderBoxScanAnswer } from '@inventory/contract';
import { describe, expect, it } from 'vitest';
import { cartonOrderAfterScan, cartonsMissing } from './wholesale-answers';

const box = (id: number, devices: number): OrderBoxDetail => ({
  box: {
    id,
    code: `OB-00000${id}`,
    order_id: 7,
    order_number: 'SO-0000007',
    seq: id,
    status: 'open',
    weight_g: null,
    devices,
    accessories: 0,
    shipment_id: null,
    shipment_number: null,
    tracking_number: null,
    pallet_code: null,
    opened_at: '2026-01-05T10:00:00.000Z',
    closed_at: null,
    closed_by_name: null,
    reopened_count: 0,
    dock_scanned_at: null,
    dock_scanned_by_name: null,
    scanned_out_at: null,
  },
  units: [],
  items: [],
});

const order = (boxes: number, inBoxes: number): CartonOrderDetail['order'] => ({
  id: 7,
  number: 'SO-0000007',
  status: 'in_progress',
  retailer: 'Phone Shop',
  place: 'Dallas, TX',
  sla_due_at: null,
  lines: [],
  units: 3,
  units_in_boxes: inBoxes,
  units_packed: 0,
  boxes,
  open_boxes: boxes,
  shipment_id: null,
  shipment_number: null,
});

const answer = (detail: OrderBoxDetail, boxes: number): OrderBoxScanAnswer => ({
  result: 'packed',
  message: 'In.',
  code: '359100000000017',
  at: '2026-01-05T10:01:00.000Z',
  box: detail,
  order: order(boxes, 2),
});

describe('cartonOrderAfterScan', () => {
  const before: CartonOrderDetail = { order: order(2, 1), boxes: [box(1, 1), box(2, 0)] };

  it("puts the answer's carton and counts into the order", () => {
    const after = cartonOrderAfterScan(before, answer(box(2, 1), 2))!;
    expect(after.order.units_in_boxes).toBe(2);
    expect(after.boxes.map(({ box: b }) => b.devices)).toEqual([1, 1]);
  });

  it('reads the order again when another station opened a carton meanwhile', () => {
    expect(cartonOrderAfterScan(before, answer(box(2, 1), 3))).toBeNull();
    expect(cartonOrderAfterScan(before, answer(box(9, 1), 2))).toBeNull();
  });
});

describe('cartonsMissing', () => {
  it('names the cartons not yet scanned at the dock', () => {
    const scanned = box(1, 1);
    const detail = {
      shipment: {} as never,
      pallets: [],
      boxes: [{ ...scanned.box, dock_scanned_at: '2026-01-05T12:00:00.000Z' }, box(2, 1).box],
    };
    expect(cartonsMissing(detail)).toEqual(['OB-000002']);
  });
});
