import type { ReturnedParcel } from '@inventory/contract';
import { describe, expect, it } from 'vitest';
import { NOTHING_FOUND, unpackBody, unpackStep, unpackTallies, withScan } from './unpack-scan';

const parcel: ReturnedParcel = {
  package_id: 7,
  tracking_number: '9400111899223197428490',
  carrier: 'usps',
  status: 'return_to_sender',
  reason: 'undeliverable',
  order_id: 3,
  order_number: 'SO-0000003',
  order_status: 'returned',
  client_carrier: 'SafeLink',
  place: 'Houston, TX',
  devices: [{ device_id: 1, imei: '359999900000017', model: 'Moto G', status: 'shipped' }],
  sims: [{ sim_id: 2, iccid: '8901410000000000012', status: 'shipped', ever_active: false }],
  accessories: [{ sku: 'CHG-USB-C', description: 'Charger', qty: 1 }],
  unpack: null,
};

describe('a scan at the unpack station', () => {
  it('looks a parcel up when none is on the station', () => {
    expect(unpackStep(' 9400 1118 9922 3197 4284 90 ', null)).toEqual({
      kind: 'lookup',
      code: '9400111899223197428490',
    });
  });

  it('tells devices, SIMs, accessories, the parcel again and another parcel apart', () => {
    expect(unpackStep('359999900000017', parcel)).toEqual({
      kind: 'device',
      imei: '359999900000017',
      expected: true,
    });
    expect(unpackStep('8901410000000000012', parcel)).toMatchObject({
      kind: 'sim',
      expected: true,
    });
    expect(unpackStep('chg-usb-c', parcel)).toEqual({
      kind: 'accessory',
      sku: 'CHG-USB-C',
      expected: true,
    });
    expect(unpackStep('9400111899223197428490', parcel)).toEqual({ kind: 'record' });
    expect(unpackStep('SO-0000009', parcel)).toEqual({ kind: 'lookup', code: 'SO-0000009' });
  });

  it('counts what was found against the parcel and builds the request', () => {
    let found = NOTHING_FOUND;
    for (const code of ['359999900000017', '359999900000017', 'CHG-USB-C', 'CHG-USB-C']) {
      found = withScan(found, unpackStep(code, parcel));
    }
    expect(unpackTallies(parcel, found).map((tally) => [tally.found, tally.expected])).toEqual([
      [1, 1],
      [0, 1],
      [2, 1],
    ]);
    expect(unpackBody(found, ' Returns 1 ', '')).toEqual({
      station: 'Returns 1',
      devices: [{ imei: '359999900000017', disposition: 'reuse' }],
      iccids: [],
      accessories: [{ sku: 'CHG-USB-C', qty: 2 }],
    });
  });
});
