import {
  rmaLifecycle,
  rmaList,
  type DeviceRma,
  type RmaAction,
  type RmaDetail,
  type RmaStatus,
} from '@inventory/contract';
import type { Queryable } from '../../db/db.js';
import { NotFoundError } from '../../http/errors.js';
import { businessDaysCondition, isoTextSql } from '../../http/sql.js';
import {
  timelineWriter,
  type LifecycleStore,
  type TransitionEffect,
} from '../../toolkit/lifecycle.js';
import type { ListStore } from '../../toolkit/stores.js';
import { MODEL_DISPLAY_NAME } from '../master-data/index.js';
import { masked } from '../order/index.js';

/**
 * An RMA that ends (closed, rejected, cancelled) lets its devices go: they may be on a new RMA
 * (the partial unique index `rma_lines_open_device` counts open lines only). `lines` is what the
 * end sets on its lines, our own SQL.
 */
const ends = (lines: string): TransitionEffect<RmaStatus> => ({
  set: 'closed_at = now()',
  write: (tx, steps) =>
    tx.query(`UPDATE rma_lines SET ${lines} WHERE rma_id = ANY ($1::bigint[])`, [
      steps.map((step) => step.id),
    ]),
});
const ENDS = ends('open = false');
/** Closed short, the lines of the devices that never came back are not returned. */
const ENDS_SHORT = ends('open = false, not_returned = received_at IS NULL');

export const rmaStore: LifecycleStore<RmaStatus, RmaAction, never> = {
  lifecycle: rmaLifecycle,
  table: 'rmas',
  label: 'number',
  columns: ['resolution', 'refund_cents', 'replacement_order_id'],
  effects: {
    authorize: 'authorized_at = now()',
    receive: 'received_at = now()',
    reject: ENDS,
    cancel: ENDS,
    close: ENDS,
    close_short: ENDS_SHORT,
  },
  writeEvents: timelineWriter('rma_events', 'rma_id'),
};

/** An RMA's row as the list shows it, over `rmas r JOIN orders o`. */
const RMA_ROW_COLUMNS = `r.id::int AS id, r.number, r.order_id::int AS order_id,
  o.number AS order_number,
  COALESCE((SELECT ${masked("s.first_name || ' ' || s.last_name")} FROM subscribers s
            WHERE s.id = o.subscriber_id),
           (SELECT rt.name FROM retailers rt WHERE rt.id = o.retailer_id), '') AS customer,
  COALESCE((SELECT string_agg(d.identifier, ', ' ORDER BY d.identifier) FROM rma_lines l
            JOIN devices d ON d.id = l.device_id WHERE l.rma_id = r.id), '') AS imeis_text,
  (SELECT count(*)::int FROM rma_lines l WHERE l.rma_id = r.id) AS devices,
  r.reason, r.warranty_ok, r.status, r.resolution,
  r.replacement_order_id::int AS replacement_order_id,
  (SELECT ro.number FROM orders ro WHERE ro.id = r.replacement_order_id) AS replacement_order_number,
  (SELECT rl.tracking_number FROM rma_return_labels rl WHERE rl.rma_id = r.id) AS return_tracking,
  r.mismatch_flagged, ${isoTextSql('r.created_at')} AS created_at`;

const RMA_ROW_FROM = 'rmas r JOIN orders o ON o.id = r.order_id';

export const rmaListStore: ListStore<typeof rmaList> = {
  contract: rmaList,
  list: {
    from: RMA_ROW_FROM,
    id: 'r.id',
    columns: RMA_ROW_COLUMNS,
    sorts: { created_at: { sql: 'r.created_at', type: 'timestamptz' } },
    // An RMA number, an order number or an IMEI, exactly as typed or scanned.
    search: (_pattern, term) => [
      `(r.number = upper(?) OR o.number = upper(?) OR r.id IN (
         SELECT l.rma_id FROM rma_lines l JOIN devices d ON d.id = l.device_id
         WHERE d.imei = ? OR d.imei2 = ?))`,
      term,
      term,
      term,
      term,
    ],
    filters: (query) => [
      query.status !== undefined && ['r.status = ?', query.status],
      query.reason !== undefined && ['r.reason = ?', query.reason],
      query.mismatch === true && ['r.mismatch_flagged'],
      query.mismatch === false && ['NOT r.mismatch_flagged'],
      query.order_id !== undefined && ['r.order_id = ?', query.order_id],
      ...businessDaysCondition('r.created_at', query.created_from, query.created_to),
    ],
  },
};

/** An RMA with its devices, return label, scans and timeline. */
export async function rmaDetail(db: Queryable, id: number): Promise<RmaDetail> {
  const [row] = await db.query<RmaDetail>(
    `SELECT (SELECT row_to_json(x) FROM (SELECT ${RMA_ROW_COLUMNS} FROM ${RMA_ROW_FROM}
               WHERE r.id = $1) x) AS rma,
       r.note, r.refund_cents::int AS refund_cents, r.accessories,
       r.damage_note,
       COALESCE((SELECT json_agg(json_build_object('device_id', d.id::int,
                  'imei', d.identifier, 'model', ${MODEL_DISPLAY_NAME},
                  'device_status', d.status,
                  'received_at', ${isoTextSql('l.received_at')},
                  'received_by_name', (SELECT u.name FROM users u WHERE u.id = l.received_by),
                  'route', l.route, 'not_returned', l.not_returned) ORDER BY d.identifier)
                 FROM rma_lines l JOIN devices d ON d.id = l.device_id
                 JOIN device_models m ON m.id = d.model_id
                 JOIN brands b ON b.id = m.brand_id
                 WHERE l.rma_id = r.id), '[]') AS lines,
       (SELECT json_build_object('carrier', rl.carrier, 'service', rl.service,
                 'tracking_number', rl.tracking_number, 'created_at', ${isoTextSql('rl.created_at')})
        FROM rma_return_labels rl WHERE rl.rma_id = r.id) AS label,
       COALESCE((SELECT json_agg(json_build_object('id', sc.id::int,
                  'at', ${isoTextSql('sc.at')}, 'code', sc.code, 'result', sc.result,
                  'station', sc.station, 'actor_name', sc.actor_name) ORDER BY sc.id DESC)
                 FROM rma_scans sc WHERE sc.rma_id = r.id), '[]') AS scans,
       COALESCE((SELECT json_agg(json_build_object('id', e.id::int, 'at', ${isoTextSql('e.at')},
                  'actor_name', e.actor_name, 'type', e.type, 'from_status', e.from_status,
                  'to_status', e.to_status, 'data', e.data) ORDER BY e.id)
                 FROM rma_events e WHERE e.rma_id = r.id), '[]') AS events
     FROM rmas r WHERE r.id = $1`,
    [id],
  );
  if (!row) throw new NotFoundError(`There is no RMA with id ${id}.`);
  return row;
}

/** A device's RMAs, newest first (the device card). */
export const deviceRmas = (db: Queryable, deviceId: number) =>
  db.query<DeviceRma>(
    `SELECT r.id::int AS id, r.number, o.number AS order_number, r.reason, r.status, r.resolution,
       ${isoTextSql('l.received_at')} AS received_at, l.route, ${isoTextSql('r.created_at')} AS created_at
     FROM rma_lines l JOIN rmas r ON r.id = l.rma_id JOIN orders o ON o.id = r.order_id
     WHERE l.device_id = $1
     ORDER BY l.rma_id DESC`,
    [deviceId],
  );
