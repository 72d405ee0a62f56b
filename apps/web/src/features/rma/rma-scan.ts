import { parseDeviceId } from '@inventory/contract';

/**
 * What a scan at RMA receiving is: an IMEI (or MEID) into the RMA on the station, or a return
 * label's tracking number or an RMA number that finds the RMA to receive.
 */
export type RmaScanStep =
  | { readonly kind: 'device'; readonly code: string }
  | { readonly kind: 'lookup'; readonly code: string };

export function rmaScanStep(raw: string, rmaOpen: boolean): RmaScanStep {
  const code = raw.trim();
  const device = parseDeviceId(code);
  return rmaOpen && device.ok
    ? { kind: 'device', code: device.value.value }
    : { kind: 'lookup', code };
}
