import {
  carrierOfTracking,
  normaliseScan,
  trackingOfScan,
  type ReturnedParcel,
  type UnpackDisposition,
  type UnpackInput,
} from '@inventory/contract';
import type { Tally } from '../../toolkit/station';

/**
 * What a code scanned at the unpack station means, given the parcel on it: another parcel (a
 * tracking barcode or an order number), the parcel itself again (record what was found), a
 * device's IMEI, a SIM's ICCID, or else an accessory's SKU. Without a parcel, every code is one.
 */
export type UnpackStep =
  | { readonly kind: 'lookup'; readonly code: string }
  | { readonly kind: 'record' }
  | { readonly kind: 'device'; readonly imei: string; readonly expected: boolean }
  | { readonly kind: 'sim'; readonly iccid: string; readonly expected: boolean }
  | { readonly kind: 'accessory'; readonly sku: string; readonly expected: boolean };

const IMEI = /^\d{15}$/;
const ICCID = /^89\d{17,18}$/;
const ORDER_NUMBER = /^SO-?(\d{7,})$/;

/** A parcel's code to look up: its tracking number, or its order's number as the order has it. */
const lookupOf = (code: string, tracking: string): UnpackStep => {
  const order = ORDER_NUMBER.exec(code);
  return { kind: 'lookup', code: order ? `SO-${order[1]}` : tracking };
};

export function unpackStep(raw: string, parcel: ReturnedParcel | null): UnpackStep {
  const code = normaliseScan(raw);
  const tracking = trackingOfScan(raw);
  if (parcel === null) return lookupOf(code, tracking);
  if (tracking === parcel.tracking_number) return { kind: 'record' };
  if (IMEI.test(code)) {
    return {
      kind: 'device',
      imei: code,
      expected: parcel.devices.some((device) => device.imei === code),
    };
  }
  if (ICCID.test(code)) {
    return { kind: 'sim', iccid: code, expected: parcel.sims.some((sim) => sim.iccid === code) };
  }
  if (carrierOfTracking(tracking) !== null || ORDER_NUMBER.test(code)) {
    return lookupOf(code, tracking);
  }
  const sku = raw.trim().toUpperCase();
  return {
    kind: 'accessory',
    sku,
    expected: parcel.accessories.some((accessory) => accessory.sku.toUpperCase() === sku),
  };
}

/** What the station has found in the parcel so far. */
export type Found = {
  readonly devices: ReadonlyMap<string, UnpackDisposition>;
  readonly iccids: readonly string[];
  readonly accessories: ReadonlyMap<string, number>;
};

export const NOTHING_FOUND: Found = { devices: new Map(), iccids: [], accessories: new Map() };

/** The found set after a scan of a device, SIM or accessory (a repeat of an IMEI or ICCID is none). */
export function withScan(found: Found, step: UnpackStep): Found {
  switch (step.kind) {
    case 'device':
      return found.devices.has(step.imei)
        ? found
        : { ...found, devices: new Map(found.devices).set(step.imei, 'reuse') };
    case 'sim':
      return found.iccids.includes(step.iccid)
        ? found
        : { ...found, iccids: [...found.iccids, step.iccid] };
    case 'accessory':
      return {
        ...found,
        accessories: new Map(found.accessories).set(
          step.sku,
          (found.accessories.get(step.sku) ?? 0) + 1,
        ),
      };
    default:
      return found;
  }
}

/** Found against expected, one tally each for devices, SIMs and accessories. */
export function unpackTallies(parcel: ReturnedParcel, found: Found): Tally[] {
  const accessoriesExpected = parcel.accessories.reduce((sum, row) => sum + row.qty, 0);
  const accessoriesFound = [...found.accessories.values()].reduce((sum, qty) => sum + qty, 0);
  return [
    {
      key: 'devices',
      label: 'Devices',
      found: found.devices.size,
      expected: parcel.devices.length,
      testId: 'found-devices',
    },
    {
      key: 'sims',
      label: 'SIMs',
      found: found.iccids.length,
      expected: parcel.sims.length,
      testId: 'found-sims',
    },
    {
      key: 'accessories',
      label: 'Accessories',
      found: accessoriesFound,
      expected: accessoriesExpected,
      testId: 'found-accessories',
    },
  ];
}

/** The request that records the parcel as found. */
export const unpackBody = (found: Found, station: string, notes: string): UnpackInput => ({
  ...(station.trim() && { station: station.trim() }),
  devices: [...found.devices].map(([imei, disposition]) => ({ imei, disposition })),
  iccids: [...found.iccids],
  accessories: [...found.accessories].map(([sku, qty]) => ({ sku, qty })),
  ...(notes.trim() && { notes: notes.trim() }),
});
