import {
  PACKAGE_IN_FLIGHT_STATUSES,
  parcelShipmentList,
  trackingOfScan,
  type ParcelTracking,
  type TrackingEvent,
} from '@inventory/contract';
import type { Queryable } from '../../db/db.js';
import { isoTextSql } from '../../http/sql.js';
import { findItem, type ListStore } from '../../toolkit/resource.js';

/**
 * Parcel shipments as /shipment-management/shipment lists them (DOMAIN.md 4.16): the packages
 * scanned out, with what their newest carrier event said (kept on the package when events are
 * recorded, migration 0056), by an index of each sort; the order and the place are looked up by
 * key for the rows shown. Written at every event and scan-out, so the list keeps no answers.
 */

/** On its way, as SQL over `packages p`: the predicate of migration 0056's partial indexes. */
export const IN_FLIGHT_SQL = `p.status IN (${PACKAGE_IN_FLIGHT_STATUSES.map((status) => `'${status}'`).join(', ')})`;

/** On its way and nothing heard for the settings' days since the last event or scan-out. */
const POSSIBLE_LOST_SQL = `(${IN_FLIGHT_SQL}
  AND GREATEST(p.last_event_at, p.scanned_out_at)
    < now() - make_interval(days => (SELECT possible_lost_days FROM shipping_settings)))`;

/** Whole days from `from` to `to`, never below 0. */
const wholeDays = (from: string, to: string) =>
  `GREATEST(floor(extract(epoch FROM ${to} - ${from}) / 86400), 0)::int`;

const PARCEL_SHIPMENT_COLUMNS = `p.id::int AS id, p.order_id::int AS order_id,
  (SELECT o.number FROM orders o WHERE o.id = p.order_id) AS order_number,
  (SELECT o.status FROM orders o WHERE o.id = p.order_id) AS order_status,
  p.carrier, p.service, p.tracking_number, p.status, p.tracking_status,
  ${isoTextSql('p.scanned_out_at')} AS shipped_at,
  ${isoTextSql('p.last_event_at')} AS last_event_at, p.last_event_text, p.last_event_location,
  CASE
    WHEN p.delivered_at IS NOT NULL THEN ${wholeDays('p.scanned_out_at', 'p.delivered_at')}
    WHEN p.scanned_out_at IS NOT NULL AND (${IN_FLIGHT_SQL} OR p.status = 'return_to_sender')
      THEN ${wholeDays('p.scanned_out_at', 'now()')}
  END AS days_in_transit,
  ${isoTextSql('p.delivered_at')} AS delivered_at,
  COALESCE(${POSSIBLE_LOST_SQL}, false) AS possible_lost,
  COALESCE((SELECT t.city || ', ' || t.state FROM order_ship_to t WHERE t.order_id = p.order_id), '')
    AS place`;

export const parcelShipmentListStore: ListStore<typeof parcelShipmentList> = {
  contract: parcelShipmentList,
  list: {
    from: 'packages p',
    id: 'p.id',
    columns: PARCEL_SHIPMENT_COLUMNS,
    sorts: {
      shipped_at: {
        sql: "COALESCE(p.scanned_out_at, '-infinity'::timestamptz)",
        type: 'timestamptz',
      },
      last_event_at: {
        sql: "COALESCE(p.last_event_at, '-infinity'::timestamptz)",
        type: 'timestamptz',
      },
    },
    // A tracking number as scanned or typed, or the order's number.
    search: (_pattern, term) => [
      `(p.tracking_number = ? OR p.order_id IN (SELECT o.id FROM orders o WHERE o.number = ?))`,
      trackingOfScan(term),
      term.trim().toUpperCase(),
    ],
    filters: (query) => [
      // Parcels that left the dock; the packages list has the others.
      ['p.scanned_out_at IS NOT NULL'],
      query.tracking_status !== undefined && ['p.tracking_status = ?', query.tracking_status],
      query.status !== undefined && ['p.status = ?', query.status],
      query.carrier !== undefined && ['p.carrier = ?', query.carrier],
      query.possible_lost !== undefined && [
        query.possible_lost ? POSSIBLE_LOST_SQL : `NOT ${POSSIBLE_LOST_SQL}`,
      ],
      query.order_id !== undefined && ['p.order_id = ?', query.order_id],
    ],
  },
};

/** A parcel with its carrier's events and its own timeline, newest first: the list's drawer. */
export async function parcelTracking(db: Queryable, id: number): Promise<ParcelTracking> {
  const shipment = await findItem(parcelShipmentListStore, db, id);
  const events = await db.query<TrackingEvent>(
    `SELECT e.id::int AS id, e.tracking_number, e.carrier, e.carrier_status, e.description,
       e.status, ${isoTextSql('e.occurred_at')} AS occurred_at, e.location, e.source,
       ${isoTextSql('e.recorded_at')} AS recorded_at,
       (SELECT u.name FROM users u WHERE u.id = e.recorded_by) AS recorded_by_name, e.moved_to
     FROM tracking_events e WHERE e.package_id = $1
     ORDER BY e.occurred_at DESC, e.id DESC`,
    [id],
  );
  const steps = await db.query<ParcelTracking['steps'][number]>(
    `SELECT id::int AS id, ${isoTextSql('at')} AS at, actor_name, type, from_status, to_status, data
     FROM package_events WHERE package_id = $1 ORDER BY id DESC`,
    [id],
  );
  const [settings] = await db.query<{ possible_lost_days: number }>(
    'SELECT possible_lost_days FROM shipping_settings',
  );
  return { shipment, events, steps, possible_lost_days: settings!.possible_lost_days };
}
