import {
  isLuhnValid,
  luhnCheckDigit,
  normaliseScan,
  parseDeviceId,
  type DeviceLookup,
} from '@inventory/contract';
import type { Queryable } from '../../db/db.js';
import { deviceCards } from './devices.store.js';

/**
 * A device by its IMEI or second IMEI, the first by id when both match. Written as one id from two
 * unique-index lookups rather than `imei = $1 OR imei2 = $1`: PostgreSQL's estimate for the OR
 * with a parameter is poor, so it kept planning the whole card statement anew on every lookup
 * (custom plans), which cost more than running it. This form keeps its cached generic plan.
 */
const BY_IMEI = `d.id = (SELECT min(found.id) FROM (SELECT id FROM devices WHERE imei = $1
  UNION ALL SELECT id FROM devices WHERE imei2 = $1) found)`;

/** Where a scanned code is looked for, and what to say about how it was read. */
type Search = { where: string; code: string; note: string | null } | { problem: string };

/**
 * How a code is searched: 15 digits as an IMEI or IMEI2 (a bad check digit is refused), an IMEISV
 * by the IMEI it contains, 14 hex characters as a MEID, anything else as a serial number.
 */
function searchOf(raw: string): Search {
  const input = normaliseScan(raw);
  if (/^\d{16}$/.test(input)) {
    const body = input.slice(0, 14);
    const imei = `${body}${luhnCheckDigit(body)}`;
    return {
      where: BY_IMEI,
      code: imei,
      note: `This is an IMEISV: the device of its IMEI ${imei} is shown.`,
    };
  }
  if (/^\d{15}$/.test(input)) {
    return isLuhnValid(input)
      ? { where: BY_IMEI, code: input, note: null }
      : { problem: "The IMEI's check digit is wrong: rescan it." };
  }
  const parsed = parseDeviceId(input);
  if (parsed.ok && parsed.value.kind === 'meid') {
    return { where: 'd.meid = $1', code: parsed.value.value, note: null };
  }
  return { where: 'd.serial = $1', code: raw.trim(), note: null };
}

/** Finds a device by any of its identifiers, with its card and timeline. */
export async function lookUpDevice(db: Queryable, raw: string): Promise<DeviceLookup> {
  const input = normaliseScan(raw);
  const search = searchOf(raw);
  if ('problem' in search) return { input, matched_by: null, card: null, problem: search.problem };
  const [card] = await deviceCards(db, search.where, [search.code]);
  if (!card) {
    return {
      input,
      matched_by: null,
      card: null,
      problem: `No device has the IMEI, MEID or serial number ${search.code}.`,
    };
  }
  const { device } = card;
  const matchedBy =
    device.imei === search.code
      ? 'imei'
      : device.imei2 === search.code
        ? 'imei2'
        : device.meid === search.code
          ? 'meid'
          : 'serial';
  return { input, matched_by: matchedBy, card, problem: search.note };
}
