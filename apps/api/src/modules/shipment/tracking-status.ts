import { TRACKING_STATUSES, type Carrier, type TrackingStatus } from '@inventory/contract';

/**
 * A carrier's status as a tracking file or the carrier gives it (a code or words) in the one
 * normalised set (DOMAIN.md 3.3, as EasyPost normalises): the normalised names themselves, the
 * carriers' codes we know, then the words carriers write, the most telling first ("Out for
 * delivery" before "delivery", "Return to sender" before "delivered").
 */

const comparable = (text: string) =>
  text
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, ' ');

const NAMES = new Map(TRACKING_STATUSES.map((status) => [comparable(status), status]));

/**
 * Codes of the carriers' own feeds: USPS event codes (01 delivered, 02 notice left, 03 accepted,
 * 07 arrival at unit, 10 processed, OF out for delivery, GX label created, MA manifest
 * acknowledged) and UPS status types (M manifest, P pickup, I in transit, D delivered,
 * X exception, RS returned to shipper).
 */
const CODES: Record<Carrier, Readonly<Record<string, TrackingStatus>>> = {
  usps: {
    '01': 'delivered',
    '02': 'failed_attempt',
    '03': 'in_transit',
    '07': 'in_transit',
    '10': 'in_transit',
    of: 'out_for_delivery',
    gx: 'pre_transit',
    ma: 'pre_transit',
  },
  ups: {
    m: 'pre_transit',
    p: 'in_transit',
    i: 'in_transit',
    d: 'delivered',
    x: 'failure',
    rs: 'return_to_sender',
  },
};

/** Words carriers write, in the order they are tried. */
const WORDS: readonly (readonly [RegExp, TrackingStatus])[] = [
  [/\breturn(ed|ing)? to (the )?(sender|shipper)\b/, 'return_to_sender'],
  [/\bout for delivery\b/, 'out_for_delivery'],
  [
    /\b(available|ready) for pick ?up\b|\bheld at (the )?(post office|access point)/,
    'available_for_pickup',
  ],
  [
    /\bnotice left\b|\bdelivery attempt(ed)?\b|\battempted delivery\b|\bfailed attempt\b|\bno access to delivery location\b|\bno authorized recipient\b/,
    'failed_attempt',
  ],
  [/\bdelivered\b/, 'delivered'],
  [
    /\blabel (created|prepared)\b|\bpre ?shipment\b|\bshipping info(rmation)? received\b|\bawaiting item\b|\bmanifest\b/,
    'pre_transit',
  ],
  [
    /\bin transit\b|\baccepted\b|\bacceptance\b|\barrived\b|\barrival\b|\bdeparted\b|\bdeparture\b|\bprocessed\b|\borigin scan\b|\bpicked up\b|\bpickup scan\b|\bon its way\b|\bmoving through\b|\bin possession of item\b|\bsorting complete\b/,
    'in_transit',
  ],
  [
    /\bexception\b|\bdamaged\b|\bdelay(ed)?\b|\bundeliverable\b|\brefused\b|\binsufficient address\b|\bno such number\b|\bfailure\b|\bmissort/,
    'failure',
  ],
  [/\bcancel(l)?ed\b|\bvoided\b/, 'cancelled'],
];

/** The normalised status of a carrier's code or words; null when nothing in it is known. */
export function normaliseTrackingStatus(carrier: Carrier, given: string): TrackingStatus | null {
  const text = comparable(given);
  if (text === '') return null;
  const named = NAMES.get(text);
  if (named) return named;
  const coded = CODES[carrier][text];
  if (coded) return coded;
  return WORDS.find(([pattern]) => pattern.test(text))?.[1] ?? null;
}

/** What a description may tell beyond a catch-all "in transit" (UPS's I with "Out For Delivery"). */
const TELLING: ReadonlySet<TrackingStatus> = new Set([
  'out_for_delivery',
  'failed_attempt',
  'available_for_pickup',
  'delivered',
  'return_to_sender',
]);

/**
 * An event's normalised status from its status and description: the status decides, unless it
 * says nothing known (the description's then) or no more than "in transit" while the description
 * names a step of delivery. Null when neither is known.
 */
export function normaliseTrackingEvent(
  carrier: Carrier,
  status: string,
  description: string | null,
): TrackingStatus | null {
  const fromStatus = normaliseTrackingStatus(carrier, status);
  if (fromStatus !== null && fromStatus !== 'in_transit') return fromStatus;
  const fromDescription = description ? normaliseTrackingStatus(carrier, description) : null;
  return fromDescription && (fromStatus === null || TELLING.has(fromDescription))
    ? fromDescription
    : fromStatus;
}
