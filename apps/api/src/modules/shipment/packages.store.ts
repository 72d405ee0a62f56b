import {
  packageLifecycle,
  packageList,
  trackingOfScan,
  type PackageAction,
  type PackageDetail,
  type PackageStatus,
  type PackageUnit,
} from '@inventory/contract';
import type { Queryable } from '../../db/db.js';
import { NotFoundError } from '../../http/errors.js';
import { businessDaysCondition, isoTextSql } from '../../http/sql.js';
import { timelineWriter, type LifecycleStore } from '../../toolkit/lifecycle.js';
import type { ListStore } from '../../toolkit/resource.js';

/**
 * Packages on their lifecycle (DOMAIN.md 3.3, decision 0014) and as the packages list reads them
 * (DOMAIN.md 4.16 /shipment-management/package): `packages` by an index of each sort and filter
 * (migration 0051); the order, the place (city and state only) and the IMEIs are looked up by key
 * for the rows shown. Written at every scan-out, so the list keeps no answers.
 */

export const packageStore: LifecycleStore<PackageStatus, PackageAction, never> = {
  lifecycle: packageLifecycle,
  table: 'packages',
  label: 'tracking_number',
  columns: [
    'voided_by',
    'void_reason',
    'scanned_out_at',
    'scanned_out_by',
    'scan_station',
    'gaylord_id',
  ],
  effects: { void: 'voided_at = now()', take_out_of_gaylord: 'gaylord_id = NULL' },
  writeEvents: timelineWriter('package_events', 'package_id'),
};

/** A package's row as every answer gives it, over `packages p`. */
export const PACKAGE_ROW_COLUMNS = `p.id::int AS id, p.order_id::int AS order_id,
  (SELECT o.number FROM orders o WHERE o.id = p.order_id) AS order_number,
  (SELECT o.status FROM orders o WHERE o.id = p.order_id) AS order_status,
  p.label_batch_id::int AS label_batch_id, p.carrier, p.service, p.tracking_number, p.weight_g,
  p.label_format, p.status, p.gaylord_id::int AS gaylord_id,
  (SELECT g.code FROM gaylords g WHERE g.id = p.gaylord_id) AS gaylord_code,
  COALESCE((SELECT t.city || ', ' || t.state FROM order_ship_to t WHERE t.order_id = p.order_id), '')
    AS place,
  COALESCE((SELECT string_agg(COALESCE(d.identifier, u.iccid, l.sku), ', ' ORDER BY u.id)
            FROM order_lines l
            JOIN order_line_units u ON u.order_line_id = l.id AND u.status <> 'cancelled'
            LEFT JOIN devices d ON d.id = u.device_id
            WHERE l.order_id = p.order_id), '') AS contents_text,
  ${isoTextSql('p.label_created_at')} AS label_created_at,
  (SELECT x.name FROM users x WHERE x.id = p.label_created_by) AS label_created_by_name,
  ${isoTextSql('p.first_printed_at')} AS first_printed_at, p.reprint_count,
  ${isoTextSql('p.voided_at')} AS voided_at, p.void_reason,
  ${isoTextSql('p.scanned_out_at')} AS scanned_out_at,
  (SELECT x.name FROM users x WHERE x.id = p.scanned_out_by) AS scanned_out_by_name,
  p.scan_station`;

export const packageListStore: ListStore<typeof packageList> = {
  contract: packageList,
  list: {
    from: 'packages p',
    id: 'p.id',
    columns: PACKAGE_ROW_COLUMNS,
    sorts: {
      label_created_at: { sql: 'p.label_created_at', type: 'timestamptz' },
      scanned_out_at: {
        sql: "COALESCE(p.scanned_out_at, '-infinity'::timestamptz)",
        type: 'timestamptz',
      },
    },
    // A tracking number as scanned or typed.
    search: (_pattern, term) => ['p.tracking_number = ?', trackingOfScan(term)],
    filters: (query) => [
      query.status !== undefined && ['p.status = ?', query.status],
      query.carrier !== undefined && ['p.carrier = ?', query.carrier],
      query.order_id !== undefined && ['p.order_id = ?', query.order_id],
      query.label_batch_id !== undefined && ['p.label_batch_id = ?', query.label_batch_id],
      ...businessDaysCondition('p.label_created_at', query.created_from, query.created_to),
      ...businessDaysCondition('p.scanned_out_at', query.shipped_from, query.shipped_to),
    ],
  },
};

/** The units of packages: their devices (IMEI, model, status) and SIMs, package by package. */
export async function unitsOfPackages(
  db: Queryable,
  packageIds: readonly number[],
): Promise<PackageUnit[]> {
  return db.query<PackageUnit>(
    `SELECT u.id::int AS unit_id, l.sku, l.description, u.device_id::int AS device_id,
       d.identifier AS imei, m.name AS model, d.status AS device_status, u.iccid, u.status
     FROM packages p
     JOIN order_lines l ON l.order_id = p.order_id
     JOIN order_line_units u ON u.order_line_id = l.id AND u.status <> 'cancelled'
     LEFT JOIN devices d ON d.id = u.device_id
     LEFT JOIN device_models m ON m.id = d.model_id
     WHERE p.id = ANY ($1::bigint[])
     ORDER BY p.id, l.position, u.id`,
    [packageIds],
  );
}

/** The units of one package. */
export const unitsOfPackage = (db: Queryable, packageId: number): Promise<PackageUnit[]> =>
  unitsOfPackages(db, [packageId]);

/** One package's row; 404 when there is none. */
export async function packageRow(db: Queryable, id: number) {
  const [row] = await db.query<PackageDetail['package']>(
    `SELECT ${PACKAGE_ROW_COLUMNS} FROM packages p WHERE p.id = $1`,
    [id],
  );
  if (!row) throw new NotFoundError(`There is no package with id ${id}.`);
  return row;
}

/** A package with its contents and timeline (the list's drawer). */
export async function packageDetail(db: Queryable, id: number): Promise<PackageDetail> {
  const row = await packageRow(db, id);
  const units = await unitsOfPackage(db, id);
  const events = await db.query<PackageDetail['events'][number]>(
    `SELECT id::int AS id, ${isoTextSql('at')} AS at, actor_name, type, from_status, to_status, data
     FROM package_events WHERE package_id = $1 ORDER BY id DESC`,
    [id],
  );
  return { package: row, units, events };
}
