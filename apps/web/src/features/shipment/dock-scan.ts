import { normaliseScan, trackingOfScan, type Parcel } from '@inventory/contract';

/**
 * What a code scanned at the dock means, given the parcel on the station: the parcel itself again
 * (confirm: ship it), a device of it (verify), or another parcel (look it up). A 15-digit code is
 * a device's IMEI; anything else is a tracking barcode.
 */
export type DockStep =
  | { readonly kind: 'lookup'; readonly code: string }
  | { readonly kind: 'confirm'; readonly code: string }
  | { readonly kind: 'verify'; readonly imei: string; readonly known: boolean };

const IMEI = /^\d{15}$/;

/** The IMEIs a parcel must hold. */
export const expectedImeis = (parcel: Parcel) =>
  parcel.units.flatMap((unit) => (unit.imei ? [unit.imei] : []));

export function dockStep(raw: string, current: Parcel | null): DockStep {
  const code = normaliseScan(raw);
  if (current && IMEI.test(code)) {
    return { kind: 'verify', imei: code, known: expectedImeis(current).includes(code) };
  }
  const tracking = trackingOfScan(raw);
  if (current && current.package.tracking_number === tracking) {
    return { kind: 'confirm', code: tracking };
  }
  return { kind: 'lookup', code: tracking };
}

/** Every device of the parcel scanned. */
export const allVerified = (parcel: Parcel, verified: ReadonlySet<string>) =>
  expectedImeis(parcel).every((imei) => verified.has(imei));
