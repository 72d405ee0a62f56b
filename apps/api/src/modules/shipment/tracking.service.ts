import {
  nextStatus,
  packageLifecycle,
  TRACKED_PACKAGE_STATUSES,
  TRACKING_ACTIONS,
  TRACKING_PACKAGE_STATUS,
  type Carrier,
  type PackageStatus,
  type ParcelShipmentRow,
  type TrackedPackageStatus,
  type TrackingRefreshAnswer,
  type TrackingSource,
  type TrackingStatus,
} from '@inventory/contract';
import type { CarrierConfig } from '../../config.js';
import type { Db, Queryable, Transaction } from '../../db/db.js';
import { NotFoundError } from '../../http/errors.js';
import type { Acting, Actor, RequestMeta } from '../../http/principal.js';
import { runTransition, runTransitions } from '../../toolkit/lifecycle.js';
import { findItem } from '../../toolkit/resource.js';
import { deviceLifecycleStore } from '../devices/index.js';
import { orderStore } from '../order/index.js';
import type { CarrierEvent } from './carrier-adapter.js';
import { trackerEvents, type EasyPostTracker } from './easypost-carrier.js';
import { carrierAdapter } from './labels.service.js';
import { packageStore } from './packages.store.js';
import { shippingSettings } from './shipping-label.js';
import { normaliseTrackingEvent } from './tracking-status.js';
import { IN_FLIGHT_SQL, parcelShipmentListStore } from './tracking.store.js';

/**
 * Tracking (DOMAIN.md 3.3, 4.16): the carrier's events of parcels on their way, from a file, the
 * carrier adapter or its webhook, recorded once each and normalised to one status set. The newest
 * event by the time it happened moves the parcel through its lifecycle (`track_*`), and its order
 * follows: delivered, or returned to its sender. An event older than the one that set the
 * parcel's state is kept and moves nothing, so events arriving out of order never move a parcel
 * backwards; delivered, returning to sender and lost are left by no event.
 */

/** A carrier's event of a known parcel, its status normalised. */
export type NewTrackingEvent = {
  readonly packageId: number;
  readonly trackingNumber: string;
  readonly carrier: Carrier;
  /** The carrier's code or words, as given. */
  readonly carrierStatus: string;
  readonly description: string | null;
  readonly status: TrackingStatus;
  readonly occurredAt: Date;
  readonly location: string | null;
};

const comparable = (text: string | null) => (text ?? '').trim().toLowerCase().replace(/\s+/g, ' ');

/**
 * What makes two reports one event of a parcel: the moment, the normalised status, the carrier's
 * words and the place. A file imported again or a carrier asked again gives the same keys.
 */
export const dedupKeyOf = (
  event: Pick<NewTrackingEvent, 'occurredAt' | 'status' | 'carrierStatus' | 'location'>,
) =>
  [
    event.occurredAt.toISOString(),
    event.status,
    comparable(event.carrierStatus),
    comparable(event.location),
  ].join('|');

type LockedParcel = {
  id: number;
  order_id: number;
  status: PackageStatus;
  /** Milliseconds since the epoch, as float8. */
  status_event_ms: number | null;
  last_event_ms: number | null;
};

type Inserted = { id: number; package_id: number; status: TrackingStatus; at_ms: number };

/** Later in a parcel's journey, for events of the same moment. */
const stageOf = (status: TrackedPackageStatus) => TRACKED_PACKAGE_STATUSES.indexOf(status);

/** The event that decides a parcel's state among its new ones: the newest, the furthest on. */
function decidingEvent(events: readonly Inserted[]) {
  let best: { event: Inserted; target: TrackedPackageStatus } | null = null;
  for (const event of events) {
    const target = TRACKING_PACKAGE_STATUS[event.status];
    if (target === null) continue;
    if (
      !best ||
      event.at_ms > best.event.at_ms ||
      (event.at_ms === best.event.at_ms && stageOf(target) > stageOf(best.target))
    ) {
      best = { event, target };
    }
  }
  return best;
}

export type RecordedTracking = { recorded: number; moved: number };

/**
 * Records carrier events in the caller's transaction. The parcels are locked first (id order),
 * so two imports or refreshes of one parcel take turns and the second reads what the first
 * wrote: each event is stored once (a repeat is passed over by its dedup key) and the parcel's
 * state is decided once, by its newest event. Moved parcels' orders follow.
 */
export async function recordTrackingEvents(
  tx: Transaction,
  acting: Acting,
  source: TrackingSource,
  events: readonly NewTrackingEvent[],
): Promise<RecordedTracking> {
  if (events.length === 0) return { recorded: 0, moved: 0 };
  const packageIds = [...new Set(events.map((event) => event.packageId))].sort((a, b) => a - b);
  const parcels = await tx.query<LockedParcel>(
    `SELECT id::int AS id, order_id::int AS order_id, status,
       (extract(epoch FROM status_event_at) * 1000)::float8 AS status_event_ms,
       (extract(epoch FROM last_event_at) * 1000)::float8 AS last_event_ms
     FROM packages WHERE id = ANY ($1::bigint[]) ORDER BY id FOR UPDATE`,
    [packageIds],
  );
  const unique = new Map(events.map((event) => [`${event.packageId}|${dedupKeyOf(event)}`, event]));
  const rows = [...unique.values()];
  const inserted = await tx.query<Inserted>(
    `INSERT INTO tracking_events (package_id, tracking_number, carrier, carrier_status, description,
       status, occurred_at, location, source, dedup_key, recorded_by)
     SELECT e.package_id, e.tracking_number, e.carrier, e.carrier_status, e.description, e.status,
       e.occurred_at, e.location, $10, e.dedup_key, $11
     FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[],
       $7::timestamptz[], $8::text[], $9::text[])
       AS e (package_id, tracking_number, carrier, carrier_status, description, status,
             occurred_at, location, dedup_key)
     ON CONFLICT (package_id, dedup_key) DO NOTHING
     RETURNING id::int AS id, package_id::int AS package_id, status,
       (extract(epoch FROM occurred_at) * 1000)::float8 AS at_ms`,
    [
      rows.map((event) => event.packageId),
      rows.map((event) => event.trackingNumber),
      rows.map((event) => event.carrier),
      rows.map((event) => event.carrierStatus),
      rows.map((event) => event.description),
      rows.map((event) => event.status),
      rows.map((event) => event.occurredAt.toISOString()),
      rows.map((event) => event.location),
      rows.map(dedupKeyOf),
      source,
      acting.actor.userId,
    ],
  );
  if (inserted.length === 0) return { recorded: 0, moved: 0 };

  const newOf = new Map<number, Inserted[]>();
  for (const event of inserted)
    newOf.set(event.package_id, [...(newOf.get(event.package_id) ?? []), event]);
  const moves = new Map<TrackedPackageStatus, { parcel: LockedParcel; event: Inserted }[]>();
  const newestOf = new Map<number, Inserted>();
  const decidedAt = new Map<number, number>();
  for (const parcel of parcels) {
    const fresh = newOf.get(parcel.id);
    if (!fresh) continue;
    const newest = fresh.reduce((a, b) =>
      b.at_ms > a.at_ms || (b.at_ms === a.at_ms && b.id > a.id) ? b : a,
    );
    if (parcel.last_event_ms === null || newest.at_ms >= parcel.last_event_ms) {
      newestOf.set(parcel.id, newest);
    }
    const deciding = decidingEvent(fresh);
    // An event older than the one that set the state moves nothing.
    if (
      !deciding ||
      (parcel.status_event_ms !== null && deciding.event.at_ms <= parcel.status_event_ms)
    ) {
      continue;
    }
    if (deciding.target === parcel.status) {
      decidedAt.set(parcel.id, deciding.event.at_ms);
      continue;
    }
    const step = nextStatus(packageLifecycle, parcel, TRACKING_ACTIONS[deciding.target]);
    if (!step.ok) continue;
    decidedAt.set(parcel.id, deciding.event.at_ms);
    moves.set(deciding.target, [
      ...(moves.get(deciding.target) ?? []),
      { parcel, event: deciding.event },
    ]);
  }

  const { actor, meta } = acting;
  for (const [target, moved] of moves) {
    await runTransitions(tx, packageStore, {
      ids: moved.map(({ parcel }) => parcel.id),
      action: TRACKING_ACTIONS[target],
      actor,
      meta,
      data: { source },
    });
  }
  const movedEvents = [...moves.values()].flat();
  await tx.query(
    `UPDATE tracking_events e SET moved_to = m.target
     FROM unnest($1::bigint[], $2::text[]) AS m (id, target) WHERE e.id = m.id`,
    [
      movedEvents.map(({ event }) => event.id),
      movedEvents.map(({ event }) => TRACKING_PACKAGE_STATUS[event.status]),
    ],
  );

  // What the list shows of each parcel: its newest event, when its state was decided, delivered.
  const touched = parcels.filter((parcel) => newestOf.has(parcel.id) || decidedAt.has(parcel.id));
  const delivered = new Map(
    (moves.get('delivered') ?? []).map(({ parcel, event }) => [parcel.id, event.at_ms]),
  );
  const isoOf = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString());
  await tx.query(
    `UPDATE packages p SET
       tracking_status = CASE WHEN u.newest_id IS NULL THEN p.tracking_status ELSE e.status END,
       last_event_at = CASE WHEN u.newest_id IS NULL THEN p.last_event_at ELSE e.occurred_at END,
       last_event_text = CASE WHEN u.newest_id IS NULL THEN p.last_event_text
         ELSE COALESCE(e.description, e.carrier_status) END,
       last_event_location = CASE WHEN u.newest_id IS NULL THEN p.last_event_location
         ELSE e.location END,
       status_event_at = COALESCE(u.decided_at, p.status_event_at),
       delivered_at = COALESCE(u.delivered_at, p.delivered_at)
     FROM unnest($1::bigint[], $2::bigint[], $3::timestamptz[], $4::timestamptz[])
       AS u (id, newest_id, decided_at, delivered_at)
     LEFT JOIN tracking_events e ON e.id = u.newest_id
     WHERE p.id = u.id`,
    [
      touched.map((parcel) => parcel.id),
      touched.map((parcel) => newestOf.get(parcel.id)?.id ?? null),
      touched.map((parcel) => isoOf(decidedAt.get(parcel.id))),
      touched.map((parcel) => isoOf(delivered.get(parcel.id))),
    ],
  );

  // The orders follow their parcels (DOMAIN.md 3.2).
  const ordersOf = (target: TrackedPackageStatus) =>
    [...new Set((moves.get(target) ?? []).map(({ parcel }) => parcel.order_id))].sort(
      (a, b) => a - b,
    );
  await runTransitions(tx, orderStore, {
    ids: ordersOf('delivered'),
    action: 'deliver',
    actor,
    meta,
    data: { source },
    skipRefused: true,
  });
  // The devices the delivered parcels carried are delivered with them (DOMAIN.md 3.1).
  const deliveredDevices = await tx.query<{ id: number }>(
    `SELECT DISTINCT u.device_id::int AS id FROM order_lines l
     JOIN order_line_units u ON u.order_line_id = l.id
     WHERE l.order_id = ANY ($1::bigint[]) AND u.status = 'shipped' AND u.device_id IS NOT NULL
     ORDER BY 1`,
    [ordersOf('delivered')],
  );
  await runTransitions(tx, deviceLifecycleStore, {
    ids: deliveredDevices.map((device) => device.id),
    action: 'deliver',
    actor,
    meta,
    data: { source },
    skipRefused: true,
  });
  await runTransitions(tx, orderStore, {
    ids: ordersOf('return_to_sender'),
    action: 'return_to_sender',
    actor,
    meta,
    data: { source },
    skipRefused: true,
  });
  return { recorded: inserted.length, moved: movedEvents.length };
}

/** A carrier's text as our columns hold it: trimmed, cut to the column's length. */
const cut = (text: string | null, max: number) => {
  const trimmed = text?.trim() ?? '';
  return trimmed === '' ? null : trimmed.slice(0, max);
};

/** A parcel on its way, as the carrier is asked about it. */
type InFlightParcel = {
  id: number;
  carrier: Carrier;
  tracking_number: string;
  shipped_ms: number;
};

/** The parcels on their way that `where` chooses (over `packages p`), in id order. */
const parcelsInFlight = (db: Queryable, where: string, params: unknown[]) =>
  db.query<InFlightParcel>(
    `SELECT p.id::int AS id, p.carrier, p.tracking_number,
       (extract(epoch FROM p.scanned_out_at) * 1000)::float8 AS shipped_ms
     FROM packages p WHERE ${where} AND ${IN_FLIGHT_SQL} ORDER BY p.id`,
    params,
  );

/**
 * The carrier's events of these parcels, normalised; events of other parcels, without a status
 * or a time are passed over, and words nobody knows are kept as `unknown`.
 */
function eventsOfParcels(
  parcels: readonly InFlightParcel[],
  answered: readonly CarrierEvent[],
): NewTrackingEvent[] {
  const byNumber = new Map(parcels.map((parcel) => [parcel.tracking_number, parcel]));
  return answered.flatMap((event): NewTrackingEvent[] => {
    const parcel = byNumber.get(event.trackingNumber);
    const carrierStatus = cut(event.status, 100) ?? cut(event.description, 100);
    if (!parcel || !carrierStatus || Number.isNaN(event.occurredAt.getTime())) return [];
    const description = cut(event.description, 500);
    return [
      {
        packageId: parcel.id,
        trackingNumber: parcel.tracking_number,
        carrier: parcel.carrier,
        carrierStatus,
        description,
        status: normaliseTrackingEvent(parcel.carrier, carrierStatus, description) ?? 'unknown',
        occurredAt: event.occurredAt,
        location: cut(event.location, 200),
      },
    ];
  });
}

/**
 * Asks the carrier for the events of the chosen parcels on their way, outside any transaction
 * (a carrier's answer may take seconds), then records them in one.
 */
export async function refreshTracking(
  db: Db,
  acting: Acting,
  packageIds: readonly number[],
  carrier: CarrierConfig,
): Promise<TrackingRefreshAnswer> {
  const parcels = await parcelsInFlight(db, 'p.id = ANY ($1::bigint[])', [packageIds]);
  if (parcels.length === 0) return { asked: 0, recorded: 0, moved: 0 };
  const adapter = carrierAdapter(await shippingSettings(db), carrier);
  const answered = await adapter.track(
    parcels.map((parcel) => ({
      carrier: parcel.carrier,
      trackingNumber: parcel.tracking_number,
      shippedAt: new Date(parcel.shipped_ms),
    })),
  );
  const events = eventsOfParcels(parcels, answered);
  return db.transaction(async (tx) => {
    const recorded = await recordTrackingEvents(tx, acting, 'adapter', events);
    await tx.query('UPDATE packages SET tracked_at = now() WHERE id = ANY ($1::bigint[])', [
      parcels.map((parcel) => parcel.id),
    ]);
    return { asked: parcels.length, ...recorded };
  });
}

/** The server itself, as the actor of EasyPost's webhook. */
const EASYPOST_WEBHOOK: Actor = {
  userId: null,
  userName: 'system: EasyPost webhook',
  roles: [],
  permissions: [],
  roleKeys: [],
};

/**
 * Records the events of a tracker EasyPost sent by its webhook (its signature checked), for the
 * parcel on its way with its number; a tracker of no such parcel records nothing.
 */
export async function recordEasyPostTracker(
  db: Db,
  meta: RequestMeta,
  tracker: EasyPostTracker,
): Promise<TrackingRefreshAnswer> {
  const parcels = await parcelsInFlight(db, 'p.tracking_number = $1', [tracker.tracking_code]);
  if (parcels.length === 0) return { asked: 0, recorded: 0, moved: 0 };
  const events = eventsOfParcels(parcels, trackerEvents(tracker));
  const recorded = await db.transaction((tx) =>
    recordTrackingEvents(tx, { actor: EASYPOST_WEBHOOK, meta }, 'webhook', events),
  );
  return { asked: parcels.length, ...recorded };
}

/** The server itself, as the actor of the polling job: it runs only the unguarded steps. */
const TRACKING_POLL: Actor = {
  userId: null,
  userName: 'system: carrier tracking',
  roles: [],
  permissions: [],
  roleKeys: [],
};
const POLL_META: RequestMeta = { ip: '', userAgent: null, requestId: 'tracking-poll' };

/** Parcels one polling run asks the carrier about; the next run takes the rest. */
const POLL_BATCH = 200;

/**
 * The polling job's run: the parcels on their way not asked about for an hour, the least
 * recently asked first, refreshed as the server. Safe to run twice: a repeated event is kept once.
 */
export async function pollTracking(db: Db, carrier: CarrierConfig): Promise<TrackingRefreshAnswer> {
  const due = await db.query<{ id: number }>(
    `SELECT p.id::int AS id FROM packages p
     WHERE ${IN_FLIGHT_SQL}
       AND COALESCE(p.tracked_at, '-infinity'::timestamptz) < now() - interval '1 hour'
     ORDER BY COALESCE(p.tracked_at, '-infinity'::timestamptz), p.id
     LIMIT ${POLL_BATCH}`,
  );
  return refreshTracking(
    db,
    { actor: TRACKING_POLL, meta: POLL_META },
    due.map((row) => row.id),
    carrier,
  );
}

/**
 * Writes off a parcel on its way as lost, with why: the package is lost (409 once delivered,
 * returning or lost), and its order with it.
 */
export async function flagLost(
  tx: Transaction,
  { actor, meta }: Acting,
  id: number,
  reason: string,
): Promise<ParcelShipmentRow> {
  const [parcel] = await tx.query<{ order_id: number; tracking_number: string }>(
    'SELECT order_id::int AS order_id, tracking_number FROM packages WHERE id = $1',
    [id],
  );
  if (!parcel) throw new NotFoundError(`There is no parcel with id ${id}.`);
  await runTransition(tx, packageStore, { id, action: 'flag_lost', actor, meta, reason });
  await runTransitions(tx, orderStore, {
    ids: [parcel.order_id],
    action: 'lose',
    actor,
    meta,
    data: { package_id: id, tracking: parcel.tracking_number, reason },
    skipRefused: true,
  });
  return findItem(parcelShipmentListStore, tx, id);
}
