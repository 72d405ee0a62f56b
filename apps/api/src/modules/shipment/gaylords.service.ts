import {
  CARRIER_NAMES,
  GAYLORD_BOARD_PICKED_UP_LIMIT,
  GAYLORD_STATUS_WORDS,
  packageLifecycle,
  SHIPPING_SERVICE_INFO,
  trackingOfScan,
  type Carrier,
  type GaylordBoard,
  type GaylordDetail,
  type GaylordRow,
  type GaylordScanAnswer,
  type GaylordScanInput,
  type GaylordScanResult,
  type GaylordStatus,
  type OrderStatus,
  type PackageRow,
  type PackageStatus,
  type ScanFormRow,
  type ShippingService,
} from '@inventory/contract';
import type { Queryable, Transaction } from '../../db/db.js';
import { ConflictError, fieldError, NotFoundError } from '../../http/errors.js';
import { isoTextSql } from '../../http/sql.js';
import { runTransition } from '../../toolkit/lifecycle.js';
import { auditActor, recordAudit } from '../audit/index.js';
import type { Desk } from './labels.service.js';
import {
  PACKAGE_ROW_COLUMNS,
  packageRow,
  packageStore,
  unitsOfPackages,
} from './packages.store.js';
import { lockParcels, shipParcels, shipRefusal } from './ship-scan.service.js';

/**
 * Outbound gaylords (DOMAIN.md 4.14 /fulfill/gaylord): a gaylord is opened for one carrier
 * service; labelled parcels of that service are scanned into it (the package's
 * `sort_into_gaylord`, refused for another carrier or service, a parcel in another gaylord, a
 * voided label or a cancellation), and taken out while it is open; it is closed with the count
 * of its parcels confirmed; the carrier's pickup ships its parcels as the dock does
 * (`shipParcels`). A scan holds the gaylord FOR SHARE and locks the parcel with its order, so of
 * two stations scanning one parcel into two gaylords one sorts it and the other hears where it
 * is; a close or a pickup locks the gaylord FOR UPDATE and so waits for the scans into it.
 */

/** "1 parcel", "3 parcels". */
export const parcelsText = (count: number) => `${count} parcel${count === 1 ? '' : 's'}`;

/** The service's full name: "USPS Ground Advantage". */
const serviceName = (service: ShippingService) => SHIPPING_SERVICE_INFO[service].name;

/** A gaylord's parcels: those in it whose label is not voided. */
const GAYLORD_FROM = `gaylords g CROSS JOIN LATERAL (
    SELECT count(*)::int AS parcels, COALESCE(sum(p.weight_g), 0)::int AS weight_g
    FROM packages p WHERE p.gaylord_id = g.id AND p.status <> 'voided'
  ) c`;

/** A gaylord's row as every answer gives it, over GAYLORD_FROM. */
const GAYLORD_ROW_COLUMNS = `g.id::int AS id, g.code, g.direction, g.carrier, g.service, g.status,
  c.parcels, c.weight_g,
  ${isoTextSql('g.opened_at')} AS opened_at,
  (SELECT x.name FROM users x WHERE x.id = g.opened_by) AS opened_by_name,
  ${isoTextSql('g.closed_at')} AS closed_at,
  (SELECT x.name FROM users x WHERE x.id = g.closed_by) AS closed_by_name,
  ${isoTextSql('g.picked_up_at')} AS picked_up_at,
  (SELECT x.name FROM users x WHERE x.id = g.picked_up_by) AS picked_up_by_name,
  g.scan_form_id::int AS scan_form_id,
  (SELECT f.number FROM scan_forms f WHERE f.id = g.scan_form_id) AS scan_form_number,
  (SELECT to_char(f.ship_date, 'YYYY-MM-DD') FROM scan_forms f WHERE f.id = g.scan_form_id)
    AS ship_date`;

/** A SCAN form's row, over `scan_forms f`. */
export const SCAN_FORM_ROW_COLUMNS = `f.id::int AS id, f.number, f.carrier,
  to_char(f.ship_date, 'YYYY-MM-DD') AS ship_date, f.origin_zip, f.package_count,
  (SELECT count(*)::int FROM gaylords g WHERE g.scan_form_id = f.id) AS gaylords,
  ${isoTextSql('f.created_at')} AS created_at,
  (SELECT x.name FROM users x WHERE x.id = f.created_by) AS created_by_name,
  ${isoTextSql('f.picked_up_at')} AS picked_up_at`;

/** The moment the business day began (order_settings' time zone). */
const BUSINESS_DAY_START = `order_business_day(now())::timestamp
  AT TIME ZONE (SELECT time_zone FROM order_settings)`;

const gaylordsWhere = (db: Queryable, where: string, params: unknown[] = []) =>
  db.query<GaylordRow>(`SELECT ${GAYLORD_ROW_COLUMNS} FROM ${GAYLORD_FROM} WHERE ${where}`, params);

/** One gaylord's row; 404 when there is none. */
export async function gaylordRow(db: Queryable, id: number): Promise<GaylordRow> {
  const [row] = await gaylordsWhere(db, 'g.id = $1', [id]);
  if (!row) throw new NotFoundError(`There is no gaylord with id ${id}.`);
  return row;
}

/** What /fulfill/gaylord shows: open, awaiting pickup, picked up today, and the SCAN forms. */
export async function gaylordBoard(db: Queryable): Promise<GaylordBoard> {
  const [open, closed, pickedUp, forms] = await Promise.all([
    gaylordsWhere(db, "g.status = 'open' ORDER BY g.carrier, g.service, g.id"),
    gaylordsWhere(db, "g.status = 'closed' ORDER BY g.closed_at, g.id"),
    gaylordsWhere(
      db,
      `g.picked_up_at >= ${BUSINESS_DAY_START} ORDER BY g.picked_up_at DESC, g.id DESC LIMIT $1`,
      [GAYLORD_BOARD_PICKED_UP_LIMIT],
    ),
    db.query<ScanFormRow>(
      `SELECT ${SCAN_FORM_ROW_COLUMNS} FROM scan_forms f
       WHERE f.picked_up_at IS NULL OR f.ship_date >= order_business_day(now())
       ORDER BY f.ship_date DESC, f.id DESC`,
    ),
  ]);
  return { open, closed, picked_up: pickedUp, scan_forms: forms };
}

/** A gaylord with its parcels, the newest sorted in first. */
export async function gaylordDetail(db: Queryable, id: number): Promise<GaylordDetail> {
  const gaylord = await gaylordRow(db, id);
  const parcels = await db.query<PackageRow>(
    `SELECT ${PACKAGE_ROW_COLUMNS} FROM packages p WHERE p.gaylord_id = $1 ORDER BY p.id DESC`,
    [id],
  );
  return { gaylord, parcels };
}

export async function openGaylord(
  tx: Transaction,
  { principal, meta }: Desk,
  service: ShippingService,
): Promise<GaylordRow> {
  const { carrier } = SHIPPING_SERVICE_INFO[service];
  const [made] = await tx.query<{ id: number; code: string }>(
    `INSERT INTO gaylords (carrier, service, opened_by) VALUES ($1, $2, $3)
     RETURNING id::int AS id, code`,
    [carrier, service, principal.userId],
  );
  await recordAudit(tx, {
    ...auditActor(principal, meta),
    action: 'gaylord.opened',
    entityType: 'gaylord',
    entityId: made!.id,
    after: { code: made!.code, carrier, service },
  });
  return gaylordRow(tx, made!.id);
}

type LockedGaylord = {
  id: number;
  code: string;
  carrier: Carrier;
  service: ShippingService;
  status: GaylordStatus;
  scan_form_number: string | null;
};

/** Locks a gaylord (FOR SHARE while parcels go in or out, FOR UPDATE to change it); 404. */
async function lockGaylord(
  tx: Transaction,
  id: number,
  mode: 'SHARE' | 'UPDATE',
): Promise<LockedGaylord> {
  const [gaylord] = await tx.query<LockedGaylord>(
    `SELECT g.id::int AS id, g.code, g.carrier, g.service, g.status,
       (SELECT f.number FROM scan_forms f WHERE f.id = g.scan_form_id) AS scan_form_number
     FROM gaylords g WHERE g.id = $1 FOR ${mode} OF g`,
    [id],
  );
  if (!gaylord) throw new NotFoundError(`There is no gaylord with id ${id}.`);
  return gaylord;
}

/** Why a gaylord that is not open takes no parcel in or out. */
const notOpenText = (gaylord: LockedGaylord) =>
  `Gaylord ${gaylord.code} is ${GAYLORD_STATUS_WORDS[gaylord.status]}: ` +
  `open another gaylord for ${serviceName(gaylord.service)}.`;

type ScannedParcel = {
  id: number;
  status: PackageStatus;
  carrier: Carrier;
  service: ShippingService;
  gaylord_id: number | null;
  gaylord_code: string | null;
  order_number: string;
  order_status: OrderStatus;
};

/** Why a parcel does not go into the gaylord, or null when it goes in. */
function sortRefusal(
  gaylord: LockedGaylord,
  parcel: ScannedParcel,
  tracking: string,
): { result: GaylordScanResult; message: string } | null {
  if (parcel.status === 'in_gaylord' && parcel.gaylord_id === gaylord.id) {
    return {
      result: 'already_in_gaylord',
      message: `Parcel ${tracking} is in this gaylord already: nothing changed.`,
    };
  }
  if (parcel.status === 'voided') {
    return {
      result: 'voided',
      message: `The label ${tracking} is voided: keep this parcel out and print its new label.`,
    };
  }
  if (parcel.status === 'in_gaylord') {
    return {
      result: 'other_gaylord',
      message:
        `Parcel ${tracking} is in gaylord ${parcel.gaylord_code} already: put it back there, ` +
        'or take it out of that gaylord first.',
    };
  }
  if (parcel.status !== 'label_created') {
    return {
      result: 'scanned_out',
      message: `Parcel ${tracking} is ${packageLifecycle.stateText(parcel.status)}: it goes into no gaylord.`,
    };
  }
  if (parcel.order_status === 'cancel_requested') {
    return {
      result: 'cancel_requested',
      message: `Order ${parcel.order_number} has a cancellation requested: keep the parcel back and void its label.`,
    };
  }
  if (parcel.carrier !== gaylord.carrier) {
    return {
      result: 'wrong_carrier',
      message:
        `Parcel ${tracking} goes by ${serviceName(parcel.service)}: it does not go into this ` +
        `${CARRIER_NAMES[gaylord.carrier]} gaylord. Put it with the ${CARRIER_NAMES[parcel.carrier]} parcels.`,
    };
  }
  if (parcel.service !== gaylord.service) {
    return {
      result: 'wrong_service',
      message:
        `Parcel ${tracking} goes by ${serviceName(parcel.service)}: this gaylord is for ` +
        `${serviceName(gaylord.service)}. Put it in a ${serviceName(parcel.service)} gaylord.`,
    };
  }
  return null;
}

/**
 * A parcel scanned into a gaylord: sorted in when it has an active label of the gaylord's carrier
 * and service and is in no gaylord; every other case is answered with its reason and writes
 * nothing. The answer carries the parcel and the gaylord's count after the scan.
 */
export async function sortIntoGaylord(
  tx: Transaction,
  { principal, meta }: Desk,
  gaylordId: number,
  input: GaylordScanInput,
): Promise<GaylordScanAnswer> {
  const tracking = trackingOfScan(input.code);
  const station = input.station?.trim() || null;
  const gaylord = await lockGaylord(tx, gaylordId, 'SHARE');
  const [parcel] = await tx.query<ScannedParcel>(
    `SELECT p.id::int AS id, p.status, p.carrier, p.service, p.gaylord_id::int AS gaylord_id,
       (SELECT g.code FROM gaylords g WHERE g.id = p.gaylord_id) AS gaylord_code,
       o.number AS order_number, o.status AS order_status
     FROM packages p JOIN orders o ON o.id = p.order_id
     WHERE p.tracking_number = $1 ORDER BY p.id DESC LIMIT 1 FOR UPDATE OF p, o`,
    [tracking],
  );
  /** The answer; its message may say the gaylord's count after the scan. */
  const answer = async (
    result: GaylordScanResult,
    message: string | ((after: GaylordRow) => string),
  ): Promise<GaylordScanAnswer> => {
    const after = await gaylordRow(tx, gaylordId);
    return {
      result,
      message: typeof message === 'string' ? message : message(after),
      code: tracking,
      at: new Date().toISOString(),
      package: parcel ? await packageRow(tx, parcel.id) : null,
      gaylord: after,
    };
  };
  if (gaylord.status !== 'open') return answer('gaylord_closed', notOpenText(gaylord));
  if (!parcel) return answer('unknown', `No parcel has the tracking number ${tracking}.`);
  const refusal = sortRefusal(gaylord, parcel, tracking);
  if (refusal) return answer(refusal.result, refusal.message);
  await runTransition(tx, packageStore, {
    id: parcel.id,
    action: 'sort_into_gaylord',
    actor: principal,
    meta,
    data: { gaylord: gaylord.code, ...(station && { station }) },
    columns: { gaylord_id: gaylord.id },
  });
  return answer(
    'sorted',
    (after) => `Parcel ${tracking} is in ${gaylord.code}: ${parcelsText(after.parcels)} now.`,
  );
}

/** A parcel taken out of its gaylord while the gaylord is open: its label stays active. */
export async function takeOutOfGaylord(
  tx: Transaction,
  { principal, meta }: Desk,
  gaylordId: number,
  packageId: number,
): Promise<GaylordDetail> {
  const gaylord = await lockGaylord(tx, gaylordId, 'SHARE');
  if (gaylord.status !== 'open') {
    throw new ConflictError(
      `Gaylord ${gaylord.code} is ${GAYLORD_STATUS_WORDS[gaylord.status]}: a parcel is taken out only while its gaylord is open.`,
    );
  }
  const [parcel] = await tx.query<{ gaylord_id: number | null; tracking_number: string }>(
    'SELECT gaylord_id::int AS gaylord_id, tracking_number FROM packages WHERE id = $1 FOR UPDATE',
    [packageId],
  );
  if (!parcel) throw new NotFoundError(`There is no package with id ${packageId}.`);
  if (parcel.gaylord_id !== gaylord.id) {
    throw new ConflictError(`Parcel ${parcel.tracking_number} is not in gaylord ${gaylord.code}.`);
  }
  await runTransition(tx, packageStore, {
    id: packageId,
    action: 'take_out_of_gaylord',
    actor: principal,
    meta,
    data: { gaylord: gaylord.code },
  });
  return gaylordDetail(tx, gaylordId);
}

/**
 * Writes an event that is no step of the packages' lifecycle (their gaylord closed, put on a SCAN
 * form) on the timeline of the packages `where` chooses (over `packages p`).
 */
export async function writePackageEvents(
  tx: Transaction,
  { principal }: Desk,
  type: string,
  data: Record<string, unknown>,
  where: string,
  params: readonly unknown[],
): Promise<void> {
  const n = params.length;
  await tx.query(
    `INSERT INTO package_events (package_id, actor_id, actor_name, type, data)
     SELECT p.id, $${n + 1}, $${n + 2}, $${n + 3}, $${n + 4}::jsonb
     FROM packages p WHERE ${where} ORDER BY p.id`,
    [...params, principal.userId, principal.userName, type, JSON.stringify(data)],
  );
}

/**
 * Closes an open gaylord once the count the clerk gives is the count of its parcels (422 saying
 * the count otherwise); an empty gaylord stays open (409).
 */
export async function closeGaylord(
  tx: Transaction,
  desk: Desk,
  id: number,
  count: number,
): Promise<GaylordRow> {
  const gaylord = await lockGaylord(tx, id, 'UPDATE');
  if (gaylord.status !== 'open') {
    throw new ConflictError(
      `Gaylord ${gaylord.code} is ${GAYLORD_STATUS_WORDS[gaylord.status]} already.`,
    );
  }
  const { parcels } = await gaylordRow(tx, id);
  if (parcels === 0) {
    throw new ConflictError(
      `Gaylord ${gaylord.code} is empty: scan parcels into it before closing it.`,
    );
  }
  if (count !== parcels) {
    throw fieldError(
      'count',
      `Gaylord ${gaylord.code} holds ${parcelsText(parcels)}, not ${count}: count them again, ` +
        'and scan in any parcel not yet scanned.',
    );
  }
  await tx.query(
    `UPDATE gaylords SET status = 'closed', closed_at = now(), closed_by = $2, updated_at = now()
     WHERE id = $1`,
    [id, desk.principal.userId],
  );
  await writePackageEvents(
    tx,
    desk,
    'gaylord_closed',
    { gaylord: gaylord.code, parcels },
    "p.gaylord_id = $1 AND p.status = 'in_gaylord'",
    [id],
  );
  await recordAudit(tx, {
    ...auditActor(desk.principal, desk.meta),
    action: 'gaylord.closed',
    entityType: 'gaylord',
    entityId: id,
    before: { status: 'open' },
    after: { status: 'closed', parcels },
  });
  return gaylordRow(tx, id);
}

/** At most this many refused parcels are named in a pickup's 409. */
const NAMED_PARCELS = 3;

/**
 * A closed gaylord handed to its carrier: its parcels not yet scanned out ship, as at the dock
 * (`shipParcels`: packages scanned out, orders shipped, devices, units and SIMs shipped, listing
 * units sold); the gaylord is picked up and its SCAN form complete. A parcel that cannot ship (a
 * cancellation requested) stops the pickup with a 409 naming it.
 */
export async function pickUpGaylord(tx: Transaction, desk: Desk, id: number): Promise<GaylordRow> {
  const gaylord = await lockGaylord(tx, id, 'UPDATE');
  if (gaylord.status === 'open') {
    throw new ConflictError(
      `Gaylord ${gaylord.code} is open: close it with its count before the pickup.`,
    );
  }
  if (gaylord.status === 'picked_up') {
    throw new ConflictError(`Gaylord ${gaylord.code} is picked up already.`);
  }
  const parcels = await lockParcels(
    tx,
    "p.gaylord_id = $1 AND p.status = 'in_gaylord' ORDER BY p.id",
    [id],
  );
  const refused = parcels.flatMap((parcel) => {
    const refusal = shipRefusal(parcel);
    return refusal ? [`${parcel.tracking_number}: ${refusal.message}`] : [];
  });
  if (refused.length > 0) {
    const more =
      refused.length > NAMED_PARCELS ? ` (and ${refused.length - NAMED_PARCELS} more)` : '';
    throw new ConflictError(
      `Gaylord ${gaylord.code} cannot go: ${refused.slice(0, NAMED_PARCELS).join(' ')}${more}`,
    );
  }
  if (parcels.length > 0) {
    const units = await unitsOfPackages(
      tx,
      parcels.map((parcel) => parcel.id),
    );
    await shipParcels(tx, desk, parcels, units, {
      station: null,
      verified: false,
      data: {
        gaylord: gaylord.code,
        ...(gaylord.scan_form_number && { scan_form: gaylord.scan_form_number }),
      },
    });
  }
  await tx.query(
    `WITH picked AS (
       UPDATE gaylords SET status = 'picked_up', picked_up_at = now(), picked_up_by = $2,
         updated_at = now()
       WHERE id = $1 RETURNING scan_form_id
     )
     UPDATE scan_forms f SET picked_up_at = now(), updated_at = now()
     FROM picked WHERE f.id = picked.scan_form_id AND f.picked_up_at IS NULL`,
    [id, desk.principal.userId],
  );
  await recordAudit(tx, {
    ...auditActor(desk.principal, desk.meta),
    action: 'gaylord.picked_up',
    entityType: 'gaylord',
    entityId: id,
    before: { status: 'closed' },
    after: { status: 'picked_up', shipped: parcels.length, scan_form: gaylord.scan_form_number },
  });
  return gaylordRow(tx, id);
}
