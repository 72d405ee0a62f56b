import type { GaylordDetail, GaylordScanAnswer, PackageRow } from '@inventory/contract';
import { describe, expect, it } from 'vitest';
import { gaylordAfterScan } from './gaylord-scan-answer';

const gaylord = (parcels: number) =>
  ({ id: 7, code: 'GL-000007', parcels, weight_g: parcels * 350 }) as GaylordDetail['gaylord'];
const parcel = (id: number) => ({ id, tracking_number: `94001${id}` }) as PackageRow;

const detail: GaylordDetail = { gaylord: gaylord(1), parcels: [parcel(1)] };

const answer = (
  result: GaylordScanAnswer['result'],
  parcels: number,
  row: PackageRow | null,
): GaylordScanAnswer => ({
  result,
  message: '',
  code: row?.tracking_number ?? '1',
  at: '2026-11-28T10:00:00.000Z',
  package: row,
  gaylord: gaylord(parcels),
});

describe("a gaylord's read after a scan", () => {
  it('puts a parcel sorted in on top, with the count and weight of the answer', () => {
    expect(gaylordAfterScan(detail, answer('sorted', 2, parcel(2)))).toEqual({
      gaylord: gaylord(2),
      parcels: [parcel(2), parcel(1)],
    });
  });

  it('keeps the parcels for a refusal or a repeat', () => {
    expect(gaylordAfterScan(detail, answer('already_in_gaylord', 1, parcel(1)))).toEqual(detail);
    expect(gaylordAfterScan(detail, answer('wrong_carrier', 1, parcel(3)))).toEqual(detail);
    expect(gaylordAfterScan(detail, answer('unknown', 1, null))).toEqual(detail);
  });

  it('reads the gaylord again when another station changed it meanwhile', () => {
    expect(gaylordAfterScan(detail, answer('sorted', 3, parcel(2)))).toBeNull();
    expect(gaylordAfterScan(detail, answer('wrong_service', 2, parcel(3)))).toBeNull();
    expect(
      gaylordAfterScan(detail, {
        ...answer('sorted', 2, parcel(2)),
        gaylord: { ...gaylord(2), id: 8 },
      }),
    ).toBeNull();
  });
});
