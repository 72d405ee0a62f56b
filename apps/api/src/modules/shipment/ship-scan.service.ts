import {
  nextStatus,
  normaliseScan,
  orderLifecycle,
  trackingOfScan,
  type OrderStatus,
  type PackageRow,
  type PackageStatus,
  type PackageUnit,
  type Parcel,
  type ShipScanAnswer,
  type ShipScanInput,
  type ShipScanResult,
} from '@inventory/contract';
import { beforeCommit, type Queryable, type Transaction } from '../../db/db.js';
import { ConflictError, NotFoundError } from '../../http/errors.js';
import { runTransitions, TRANSACTION_TIME } from '../../toolkit/lifecycle.js';
import { applyDeviceAction } from '../devices/index.js';
import { orderStore } from '../order/index.js';
import { sellReservedListing } from '../pts/index.js';
import { simStore } from '../sim/index.js';
import { campaignScope, outsideScope, type CampaignScope } from './campaign-scope.js';
import { DOCK_CLOSED_SQL, holdDockOpen } from './dock-days.js';
import { moveUnits, type Desk } from './labels.service.js';
import { PACKAGE_ROW_COLUMNS, packageStore, unitsOfPackage } from './packages.store.js';

/**
 * The dock (DOMAIN.md 4.14 /fulfill/scan-to-ship): a parcel's tracking barcode scanned out ships
 * it, in one transaction: the package is scanned out, the order shipped (shipped_at, decision
 * 0029), its devices and units shipped, its SIMs shipped with it, and the listing units its lines
 * held sold (decision 0026). The package and its order are locked first, so of two stations
 * scanning the same parcel one ships it and the other answers "already shipped". A gaylord's
 * pickup ships its parcels the same way (`lockParcels`, `shipRefusal`, `shipParcels`). A dock
 * scoped to a campaign (`/order/express-orders/scan`) ships that campaign's parcels only.
 */

/** Parcels scanned out since the business day began (order_settings' time zone). */
const TODAY_SQL = `(SELECT count(*)::int FROM packages
  WHERE COALESCE(scanned_out_at, '-infinity'::timestamptz)
    >= order_business_day(now())::timestamp AT TIME ZONE (SELECT time_zone FROM order_settings))`;

export async function shippedToday(db: Queryable): Promise<{ today: number }> {
  const [row] = await db.query<{ today: number }>(`SELECT ${TODAY_SQL} AS today`);
  return { today: row!.today };
}

/** The newest parcel of a tracking number, as scanned. */
const PARCEL_OF_CODE = `p.tracking_number = $1 ORDER BY p.id DESC LIMIT 1`;

/** Why a parcel of another order than the campaign's does not ship at the campaign's dock. */
const otherCampaignText = (scope: CampaignScope, tracking: string, orderNumber: string) =>
  `Order ${orderNumber} is not of campaign ${scope.name}: put parcel ${tracking} aside for its own scan-out.`;

/**
 * A scanned parcel with its order and the devices it must hold; 404 for an unknown barcode, 409
 * for a parcel of another campaign than the one the dock is scoped to.
 */
export async function parcelOf(db: Queryable, code: string, campaignId?: number): Promise<Parcel> {
  const tracking = trackingOfScan(code);
  const scope = await campaignScope(db, campaignId);
  const [found] = await db.query<PackageRow & { campaign_id: number | null }>(
    `SELECT ${PACKAGE_ROW_COLUMNS},
       (SELECT o.campaign_id::int FROM orders o WHERE o.id = p.order_id) AS campaign_id
     FROM packages p WHERE ${PARCEL_OF_CODE}`,
    [tracking],
  );
  if (!found) throw new NotFoundError(`No parcel has the tracking number ${tracking}.`);
  const { campaign_id, ...row } = found;
  if (outsideScope(scope, campaign_id)) {
    throw new ConflictError(otherCampaignText(scope!, row.tracking_number, row.order_number));
  }
  return { package: row, units: await unitsOfPackage(db, row.id) };
}

/** A parcel locked with its order, as shipping reads it. */
export type LockedParcel = {
  id: number;
  status: PackageStatus;
  tracking_number: string;
  order_id: number;
  order_number: string;
  order_status: OrderStatus;
  order_campaign_id: number | null;
  /** Today's dock is closed (end-of-day close): nothing scans out. */
  dock_closed: boolean;
};

/**
 * Locks the parcels `where` chooses (over `packages p`, with its own order) with their orders, in
 * the order it gives, so that nothing else ships, voids or cancels them meanwhile; and holds the
 * dock open until the transaction ends, reading whether today's dock is closed (`dock-days.ts`).
 */
export async function lockParcels(
  tx: Transaction,
  where: string,
  params: readonly unknown[],
): Promise<LockedParcel[]> {
  await holdDockOpen(tx);
  return tx.query<LockedParcel>(
    `SELECT p.id::int AS id, p.status, p.tracking_number, p.order_id::int AS order_id,
       o.number AS order_number, o.status AS order_status,
       o.campaign_id::int AS order_campaign_id, ${DOCK_CLOSED_SQL} AS dock_closed
     FROM packages p JOIN orders o ON o.id = p.order_id
     WHERE ${where} FOR UPDATE OF p, o`,
    [...params],
  );
}

type ShipRefusal = {
  readonly result: Exclude<
    ShipScanResult,
    'shipped' | 'device_mismatch' | 'other_campaign' | 'unknown'
  >;
  readonly message: string;
};

/** Why a locked parcel does not ship now, or null when it ships. */
export function shipRefusal(parcel: LockedParcel): ShipRefusal | null {
  const { tracking_number: tracking, order_number: number } = parcel;
  if (parcel.status === 'voided') {
    return {
      result: 'voided',
      message: `The label ${tracking} is voided: do not ship this parcel, print its new label.`,
    };
  }
  if (parcel.status !== 'label_created' && parcel.status !== 'in_gaylord') {
    return { result: 'already_shipped', message: `Parcel ${tracking} is scanned out already.` };
  }
  if (parcel.dock_closed) {
    return {
      result: 'day_closed',
      message: `Today's dock is closed: parcel ${tracking} ships on the next day, unless a manager reopens today.`,
    };
  }
  if (parcel.order_status === 'cancel_requested') {
    return {
      result: 'cancel_requested',
      message: `Order ${number} has a cancellation requested: keep the parcel back and void its label.`,
    };
  }
  const orderStep = nextStatus(orderLifecycle, { status: parcel.order_status }, 'ship');
  if (!orderStep.ok)
    return { result: 'not_ready', message: `Order ${number}: ${orderStep.message}` };
  return null;
}

/** How parcels ship: the station (none at a pickup), whether their devices were checked, facts. */
export type Shipping = {
  readonly station: string | null;
  readonly verified: boolean;
  /** Facts kept on the timelines of the packages, orders, devices and SIMs. */
  readonly data: Record<string, unknown>;
};

/**
 * Ships parcels locked with their orders (`lockParcels`) that `shipRefusal` lets ship, with
 * `units` their contents: the packages scan out, the orders ship, their devices, units and SIMs
 * ship, and the listing units their lines held are sold. The dock's scan ships one parcel, a
 * gaylord's pickup all of its parcels.
 */
export async function shipParcels(
  tx: Transaction,
  { principal, meta }: Desk,
  parcels: readonly LockedParcel[],
  units: readonly PackageUnit[],
  { station, verified, data }: Shipping,
): Promise<void> {
  await runTransitions(tx, packageStore, {
    ids: parcels.map((parcel) => parcel.id),
    action: 'scan_out',
    actor: principal,
    meta,
    data: { ...data, verified },
    columns: {
      scanned_out_at: TRANSACTION_TIME,
      scanned_out_by: principal.userId,
      scan_station: station,
    },
  });
  await shipOrders(
    tx,
    { principal, meta },
    parcels.map((parcel) => parcel.order_id),
    units,
    data,
  );
}

/**
 * Ships orders whose goods left the dock (a parcel scanned out, a gaylord or a wholesale shipment
 * picked up), with `units` their contents: the orders ship, their devices, units and SIMs ship,
 * and the listing units their lines held are sold. `data` goes on every timeline.
 */
export async function shipOrders(
  tx: Transaction,
  { principal, meta }: Desk,
  orderIds: readonly number[],
  units: readonly Pick<PackageUnit, 'device_id' | 'iccid'>[],
  data: Record<string, unknown>,
): Promise<void> {
  await runTransitions(tx, orderStore, {
    ids: orderIds,
    action: 'ship',
    actor: principal,
    meta,
    data,
  });
  const deviceIds = units.flatMap((unit) => (unit.device_id ? [unit.device_id] : []));
  await applyDeviceAction(tx, principal, meta, { deviceIds, action: 'ship', data });
  await moveUnits(tx, orderIds, 'packed', 'shipped');
  const iccids = units.flatMap((unit) => (unit.iccid ? [unit.iccid] : []));
  if (iccids.length > 0) {
    const sims = await tx.query<{ id: number }>(
      'SELECT id::int AS id FROM sim_cards WHERE iccid = ANY ($1::text[])',
      [iccids],
    );
    await runTransitions(tx, simStore, {
      ids: sims.map((sim) => sim.id),
      action: 'ship_with_order',
      actor: principal,
      meta,
      data,
    });
  }
  for (const orderId of orderIds) await sellLines(tx, { principal, meta }, orderId);
}

/** Why the devices scanned are not the parcel's, or null when they are exactly its devices. */
function deviceMismatch(units: readonly PackageUnit[], scanned: readonly string[]): string | null {
  const expected = new Set(units.flatMap((unit) => (unit.imei ? [unit.imei] : [])));
  const seen = new Set(scanned.map(normaliseScan));
  const strangers = [...seen].filter((imei) => !expected.has(imei));
  if (strangers.length > 0) {
    return `${strangers.join(', ')} ${strangers.length === 1 ? 'is' : 'are'} not in this parcel: it holds ${[...expected].join(', ')}.`;
  }
  const missing = [...expected].filter((imei) => !seen.has(imei));
  if (missing.length > 0) return `Scan every device of the parcel: ${missing.join(', ')} not yet.`;
  return null;
}

export async function shipScan(
  tx: Transaction,
  desk: Desk,
  input: ShipScanInput,
): Promise<ShipScanAnswer> {
  const tracking = trackingOfScan(input.code);
  const station = input.station?.trim() || null;
  const scope = await campaignScope(tx, input.campaign_id);
  const [parcel] = await lockParcels(tx, PARCEL_OF_CODE, [tracking]);
  const answer = async (
    result: ShipScanResult,
    message: string,
    units?: PackageUnit[],
  ): Promise<ShipScanAnswer> => {
    const [row] = parcel
      ? await tx.query<PackageRow & { today: number }>(
          `SELECT ${PACKAGE_ROW_COLUMNS}, ${TODAY_SQL} AS today FROM packages p WHERE p.id = $1`,
          [parcel.id],
        )
      : await tx.query<{ today: number }>(`SELECT ${TODAY_SQL} AS today`);
    const { today, ...rest } = row!;
    return {
      result,
      message,
      code: tracking,
      at: new Date().toISOString(),
      parcel: parcel ? { package: rest as PackageRow, units: units ?? [] } : null,
      today,
    };
  };
  if (!parcel) return answer('unknown', `No parcel has the tracking number ${tracking}.`);
  const units = await unitsOfPackage(tx, parcel.id);
  if (outsideScope(scope, parcel.order_campaign_id)) {
    return answer(
      'other_campaign',
      otherCampaignText(scope!, parcel.tracking_number, parcel.order_number),
      units,
    );
  }
  const refusal = shipRefusal(parcel);
  if (refusal) return answer(refusal.result, refusal.message, units);
  if (input.imeis !== undefined) {
    const mismatch = deviceMismatch(units, input.imeis);
    if (mismatch) return answer('device_mismatch', mismatch, units);
  }
  const number = parcel.order_number;
  await shipParcels(tx, desk, [parcel], units, {
    station,
    verified: input.imeis !== undefined,
    data: { tracking, order: number, package_id: parcel.id, ...(station && { station }) },
  });
  return answer(
    'shipped',
    `Order ${number} shipped.`,
    units.map((unit) => ({
      ...unit,
      status: 'shipped',
      device_status: unit.device_id ? 'shipped' : unit.device_status,
    })),
  );
}

/**
 * The listing units the order's lines held become sold. The lines are cleared now; the listings
 * are counted at the end of the transaction, every order's together in listing id order: a
 * listing sells to many parcels at once, and its row locked for a whole scan made the dock's
 * stations wait in turn (the scan-to-ship bench gate, decision 0043).
 */
async function sellLines(tx: Transaction, { principal, meta }: Desk, orderId: number) {
  const held = await tx.query<{ listing_id: number; qty: number }>(
    `WITH lines AS (
       SELECT id, listing_id, qty_reserved FROM order_lines
       WHERE order_id = $1 AND listing_id IS NOT NULL AND qty_reserved > 0 FOR UPDATE
     ), cleared AS (
       UPDATE order_lines l SET qty_reserved = 0 FROM lines WHERE l.id = lines.id
     )
     SELECT listing_id::int AS listing_id, sum(qty_reserved)::int AS qty FROM lines
     GROUP BY listing_id`,
    [orderId],
  );
  if (held.length === 0) return;
  const sales = beforeCommit(tx, 'listings sold', () => {
    const sold: { listing_id: number; qty: number; orderId: number }[] = [];
    return {
      state: sold,
      run: async () => {
        sold.sort((a, b) => a.listing_id - b.listing_id || a.orderId - b.orderId);
        for (const { listing_id, qty, orderId: id } of sold) {
          await sellReservedListing(tx, { actor: principal, meta }, listing_id, qty, {
            type: 'order',
            id,
          });
        }
      },
    };
  });
  sales.push(...held.map((line) => ({ ...line, orderId })));
}
