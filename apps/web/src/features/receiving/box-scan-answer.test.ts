import type { BoxContent, ReceiveScan } from '@inventory/contract';
import { describe, expect, it } from 'vitest';
import { contentAfterScan, contentAfterUndo, logAfterScan } from './box-scan-answer';

const device = (id: number) => ({
  id,
  imei: `35000001000000${id}`,
  imei2: null,
  meid: null,
  model: 'Samsung Galaxy A15',
  color: 'Black',
  capacity_gb: 128,
  status: 'received' as const,
  hold_reason: null,
  received_at: `2026-11-25T10:00:0${id}+00:00`,
});

const content: BoxContent = {
  box: {
    id: 1,
    code: 'WB-000001',
    invoice_id: 1,
    invoice_no: 'INV-1',
    vendor_id: 1,
    vendor: 'Acme',
    inbound_shipment_id: null,
    inbound_shipment: null,
    vendor_label: null,
    expected_model_id: null,
    expected_model: null,
    qty_expected: 5,
    qty_scanned: 1,
    discrepancies: 0,
    status: 'receiving',
    staging_location: null,
    closed_at: null,
    closed_by_name: null,
    close_override_reason: null,
    created_at: '2026-11-25T09:00:00+00:00',
    updated_at: '2026-11-25T09:00:00+00:00',
  },
  devices: [{ ...device(1), result: 'added', undoable: true }],
  quarantined: [],
};

const answer = (overrides: Partial<ReceiveScan>): ReceiveScan => ({
  result: 'added',
  message: 'Added: Samsung Galaxy A15, Black, 128 GB.',
  code: device(2).imei,
  device: { ...device(2), undoable: true },
  box: {
    id: 1,
    code: 'WB-000001',
    status: 'receiving',
    qty_scanned: 2,
    qty_expected: 5,
    discrepancies: 0,
  },
  tac: null,
  log_id: 7,
  at: '2026-11-25T10:00:02+00:00',
  station: 'dock-1',
  user_name: 'sorter',
  ...overrides,
});

describe("a scan's answer on the station's page", () => {
  it('puts a received device on top of the box and moves its counts', () => {
    const after = contentAfterScan(
      content,
      answer({ result: 'unexpected', box: { ...answer({}).box, discrepancies: 1 } }),
    )!;
    expect(after.box).toMatchObject({ qty_scanned: 2, discrepancies: 1, invoice_no: 'INV-1' });
    expect(after.devices.map((row) => [row.id, row.result])).toEqual([
      [2, 'unexpected'],
      [1, 'added'],
    ]);
  });

  it('lists a blacklisted device apart, uncounted; a refusal changes no list', () => {
    const held = { ...device(3), status: 'hold' as const, hold_reason: 'blacklist' as const };
    const quarantined = contentAfterScan(
      content,
      answer({ result: 'blacklisted', device: { ...held, undoable: false }, box: content.box }),
    )!;
    expect(quarantined.devices).toEqual(content.devices);
    expect(quarantined.quarantined.map((row) => row.id)).toEqual([3]);

    const refused = contentAfterScan(
      content,
      answer({ result: 'bad_check_digit', device: null, box: content.box }),
    )!;
    expect(refused.devices).toBe(content.devices);
    expect(refused.box.qty_scanned).toBe(1);
  });

  it('moves a device released from quarantine into the box', () => {
    const released = { ...content, quarantined: [device(4)] };
    const after = contentAfterScan(
      released,
      answer({ device: { ...device(4), undoable: false } }),
    )!;
    expect(after.devices.map((row) => [row.id, row.undoable])).toEqual([
      [4, false],
      [1, true],
    ]);
    expect(after.quarantined).toEqual([]);
  });

  it('reads the box again when another station changed it meanwhile', () => {
    const elsewhere = { ...answer({}).box, qty_scanned: 3 };
    expect(contentAfterScan(content, answer({ box: elsewhere }))).toBeNull();
    expect(
      contentAfterScan(content, answer({ result: 'already_in_box', box: elsewhere })),
    ).toBeNull();
  });

  it('puts the scan on top of the log, once', () => {
    const log = logAfterScan({ entries: [], next_before: null }, answer({}));
    expect(log.entries).toEqual([
      {
        id: 7,
        at: '2026-11-25T10:00:02+00:00',
        station: 'dock-1',
        user_name: 'sorter',
        code: device(2).imei,
        result: 'added',
        message: 'Added: Samsung Galaxy A15, Black, 128 GB.',
        tac: null,
      },
    ]);
    expect(logAfterScan(log, answer({})).entries).toHaveLength(1);
  });
});

describe("an undo's answer on the station's page", () => {
  it('takes the device out and moves the counts, or reads the box again', () => {
    const counts = {
      id: 1,
      code: 'WB-000001',
      status: 'receiving' as const,
      qty_scanned: 0,
      qty_expected: 5,
      discrepancies: 0,
    };
    expect(contentAfterUndo(content, 1, counts)).toMatchObject({
      box: { qty_scanned: 0 },
      devices: [],
    });
    expect(contentAfterUndo(content, 1, { ...counts, qty_scanned: 1 })).toBeNull();
  });
});
