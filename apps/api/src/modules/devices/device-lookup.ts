import {
  isLuhnValid,
  luhnCheckDigit,
  normaliseScan,
  parseDeviceId,
  type DeviceLookup,
} from '@inventory/contract';
import type { Queryable } from '../../db/db.js';
import { JsonAnswer } from '../../http/endpoint.js';
import { deviceCardJson } from './devices.store.js';

/**
 * A device by its IMEI, else by its second IMEI: two unique-index probes, the second run only
 * when the first finds nothing. Not `imei = $1 OR imei2 = $1`: PostgreSQL's estimate for the OR
 * with a parameter is poor, so it kept planning the whole card statement anew on every lookup
 * (custom plans), which cost more than running it. This form keeps its cached generic plan.
 */
const BY_IMEI = `d.id = COALESCE((SELECT id FROM devices WHERE imei = $1),
  (SELECT id FROM devices WHERE imei2 = $1))`;

/** Which identifier of the card's device equals the code ($1). */
const MATCHED_BY = `, CASE $1 WHEN card.imei THEN 'imei' WHEN card.imei2 THEN 'imei2'
  WHEN card.meid THEN 'meid' ELSE 'serial' END AS matched_by`;

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

const lookupAnswer = (lookup: Omit<DeviceLookup, 'card'>, cardJson: string | null) =>
  new JsonAnswer(
    `{"input":${JSON.stringify(lookup.input)},"matched_by":${JSON.stringify(lookup.matched_by)},` +
      `"card":${cardJson ?? 'null'},"problem":${JSON.stringify(lookup.problem)}}`,
  );

/**
 * Finds a device by any of its identifiers, with its card and timeline. The card is passed on as
 * the JSON text the database wrote: a lookup is the busiest read of a scan counter.
 */
export async function lookUpDevice(db: Queryable, raw: string): Promise<JsonAnswer> {
  const input = normaliseScan(raw);
  const search = searchOf(raw);
  if ('problem' in search) {
    return lookupAnswer({ input, matched_by: null, problem: search.problem }, null);
  }
  const found = await deviceCardJson<{ matched_by: DeviceLookup['matched_by'] }>(
    db,
    search.where,
    [search.code],
    MATCHED_BY,
  );
  if (!found) {
    const problem = `No device has the IMEI, MEID or serial number ${search.code}.`;
    return lookupAnswer({ input, matched_by: null, problem }, null);
  }
  return lookupAnswer({ input, matched_by: found.matched_by, problem: search.note }, found.card);
}
