import {
  TRACKING_STATUSES,
  trackingImport,
  trackingOfScan,
  trackingRowSchema,
  type Carrier,
  type FieldErrors,
  type PackageStatus,
} from '@inventory/contract';
import type { Queryable, Transaction } from '../../db/db.js';
import type {
  ImportStore,
  Prepared,
  WriteFieldsOf,
  WriteInput,
  Writer,
} from '../../toolkit/resource.js';
import { normaliseTrackingEvent } from './tracking-status.js';
import { dedupKeyOf, recordTrackingEvents, type NewTrackingEvent } from './tracking.service.js';

/**
 * A tracking file (`/shipment-management/shipment`, DOMAIN.md 4.16): a carrier's export of
 * events, one row each (tracking number, the carrier's status, when, where, what it said),
 * through the toolkit's import: the dry run names every wrong row by its line (an unknown
 * tracking number, a parcel not scanned out, a status or time that cannot be read) and counts
 * the events new to us; the commit records them all in one transaction, or none.
 */

type Row = {
  tracking_number: string;
  status: string;
  occurred_at: string;
  location: string | null;
  description: string | null;
};

/** A checked row, as the writer records it. */
type TrackingRecord = {
  package_id: number;
  tracking_number: string;
  carrier: Carrier;
  carrier_status: string;
  description: string | null;
  status: NewTrackingEvent['status'];
  /** ISO, UTC. */
  occurred_at: string;
  location: string | null;
  dedup_key: string;
};

const STATUS_WORDS = `Write the carrier's status (Delivered, Out for delivery, Return to sender…) or one of ${TRACKING_STATUSES.join(', ')}.`;

const TIME_WORDS =
  'Write the date and time as 2026-11-20 14:05 (or 11/20/2026 2:05 PM), with a zone (Z, -06:00) or in the business time zone.';

/**
 * A date and time as written in a carrier's export, as the text PostgreSQL reads
 * (`YYYY-MM-DD HH:MM:SS[.ffffff][zone]`) and whether it names its zone; null when it cannot be
 * read or names no real day.
 */
export function readEventTime(text: string): { value: string; zoned: boolean } | null {
  const iso =
    /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(\.\d{1,6})?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i.exec(
      text.trim(),
    );
  const us =
    /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?:\s+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*(AM|PM)?)?$/i.exec(
      text.trim(),
    );
  let parts: { y: number; mo: number; d: number; h: number; mi: number; s: number };
  let fraction = '';
  let zone: string | null = null;
  if (iso) {
    parts = {
      y: Number(iso[1]),
      mo: Number(iso[2]),
      d: Number(iso[3]),
      h: Number(iso[4] ?? 0),
      mi: Number(iso[5] ?? 0),
      s: Number(iso[6] ?? 0),
    };
    fraction = iso[7] ?? '';
    zone = iso[8] ? iso[8].toUpperCase() : null;
  } else if (us) {
    let h = Number(us[4] ?? 0);
    const half = us[7]?.toUpperCase();
    if (half && (h < 1 || h > 12)) return null;
    if (half === 'PM' && h < 12) h += 12;
    if (half === 'AM' && h === 12) h = 0;
    parts = {
      y: Number(us[3]),
      mo: Number(us[1]),
      d: Number(us[2]),
      h,
      mi: Number(us[5] ?? 0),
      s: Number(us[6] ?? 0),
    };
  } else return null;
  const { y, mo, d, h, mi, s } = parts;
  const day = new Date(Date.UTC(y, mo - 1, d));
  if (
    y < 2000 ||
    day.getUTCFullYear() !== y ||
    day.getUTCMonth() !== mo - 1 ||
    day.getUTCDate() !== d ||
    h > 23 ||
    mi > 59 ||
    s > 59
  ) {
    return null;
  }
  const two = (n: number) => String(n).padStart(2, '0');
  return {
    value: `${y}-${two(mo)}-${two(d)} ${two(h)}:${two(mi)}:${two(s)}${fraction}${zone ?? ''}`,
    zoned: zone !== null,
  };
}

type Parcel = { id: number; tracking_number: string; carrier: Carrier; status: PackageStatus };

/** Why a parcel takes no events, or null when it does. */
function refusalOf(parcel: Parcel | undefined, tracking: string): string | null {
  if (!parcel) return `No parcel has the tracking number ${tracking}.`;
  if (parcel.status === 'voided') {
    return `The label ${tracking} is voided: its parcel never left.`;
  }
  if (parcel.status === 'label_created' || parcel.status === 'in_gaylord') {
    return `Parcel ${tracking} is not scanned out yet: scan it out at the dock first.`;
  }
  return null;
}

/**
 * Resolves every row's parcel (the newest of its number) and reads its status and time in two
 * queries: times without a zone are the business time zone's (order settings); a time in the
 * future is refused.
 */
async function prepareTracking(
  inputs: readonly WriteInput<WriteFieldsOf<typeof trackingRowSchema>>[],
  db: Queryable,
): Promise<Prepared[]> {
  const rows = inputs.map(({ input }) => ({ location: null, description: null, ...input }) as Row);
  const numbers = rows.map((row) => trackingOfScan(row.tracking_number));
  const parcels = await db.query<Parcel>(
    `SELECT DISTINCT ON (tracking_number) id::int AS id, tracking_number, carrier, status
     FROM packages WHERE tracking_number = ANY ($1::text[])
     ORDER BY tracking_number, id DESC`,
    [[...new Set(numbers)]],
  );
  const parcelOf = new Map(parcels.map((parcel) => [parcel.tracking_number, parcel]));
  const times = rows.map((row) => readEventTime(row.occurred_at));
  const read = await db.query<{ at: string | null; future: boolean | null }>(
    `SELECT to_char(t.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at,
       t.at > now() + interval '1 hour' AS future
     FROM unnest($1::text[], $2::boolean[]) WITH ORDINALITY AS r (value, zoned, n)
     CROSS JOIN LATERAL (
       SELECT CASE
         WHEN r.value IS NULL THEN NULL
         WHEN r.zoned THEN r.value::timestamptz
         ELSE r.value::timestamp AT TIME ZONE (SELECT time_zone FROM order_settings)
       END AS at
     ) t
     ORDER BY r.n`,
    [times.map((time) => time?.value ?? null), times.map((time) => time?.zoned ?? false)],
  );

  return rows.map((row, index): Prepared => {
    const errors: FieldErrors = {};
    const tracking = numbers[index]!;
    const parcel = parcelOf.get(tracking);
    const refusal = refusalOf(parcel, tracking);
    if (refusal) errors.tracking_number = [refusal];
    const status = normaliseTrackingEvent(parcel?.carrier ?? 'usps', row.status, row.description);
    if (status === null) errors.status = [STATUS_WORDS];
    const at = read[index]!;
    if (at.at === null) errors.occurred_at = [TIME_WORDS];
    else if (at.future) errors.occurred_at = ['The time is in the future.'];
    if (Object.keys(errors).length > 0) return { errors };
    const occurredAt = new Date(at.at!);
    const record: TrackingRecord = {
      package_id: parcel!.id,
      tracking_number: tracking,
      carrier: parcel!.carrier,
      carrier_status: row.status,
      description: row.description,
      status: status!,
      occurred_at: occurredAt.toISOString(),
      location: row.location,
      dedup_key: dedupKeyOf({
        occurredAt,
        status: status!,
        carrierStatus: row.status,
        location: row.location,
      }),
    };
    return { values: record };
  });
}

/** How many checked events are recorded already (a file imported again): left as they are. */
async function countRecorded(records: readonly Record<string, unknown>[], db: Queryable) {
  const events = records as readonly TrackingRecord[];
  const [row] = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n
     FROM unnest($1::bigint[], $2::text[]) AS k (package_id, dedup_key)
     WHERE EXISTS (SELECT 1 FROM tracking_events e
                   WHERE e.package_id = k.package_id AND e.dedup_key = k.dedup_key)`,
    [events.map((event) => event.package_id), events.map((event) => event.dedup_key)],
  );
  return row!.n;
}

/** Records the file's events: created counts the events new to us, updated the parcels moved. */
async function writeTracking(
  records: readonly Record<string, unknown>[],
  tx: Transaction,
  writer: Writer,
) {
  const events = (records as readonly TrackingRecord[]).map((record): NewTrackingEvent => ({
    packageId: record.package_id,
    trackingNumber: record.tracking_number,
    carrier: record.carrier,
    carrierStatus: record.carrier_status,
    description: record.description,
    status: record.status,
    occurredAt: new Date(record.occurred_at),
    location: record.location,
  }));
  const { recorded, moved } = await recordTrackingEvents(tx, writer, 'file', events);
  return { created: recorded, updated: moved };
}

export const trackingImportStore: ImportStore<typeof trackingRowSchema> = {
  contract: trackingImport,
  table: 'tracking_events',
  entity: 'tracking_event',
  prepare: prepareTracking,
  imports: {
    rowSchema: trackingRowSchema,
    writer: {
      // The same event twice in one file is named by its time.
      fields: ['package_id', 'dedup_key', 'occurred_at'],
      countExisting: countRecorded,
      write: writeTracking,
    },
  },
};
