import type { Db } from '../../db/db.js';
import type { Acting } from '../../http/principal.js';
import { assignOrders } from './assignment.service.js';
import { pickOrder, pickScan } from './pick.service.js';

/**
 * A fulfilled order made through the real assignment and pick, for what starts from one (the
 * shipping area's tests, a data generator): each unit's device reserved, picked, and its SIM
 * paired where the order ships one. The order's units are then `picked` with their `device_id`
 * (and `iccid`), each device `picked`, the order `fulfilled`. Not a test-support file: the build
 * leaves those out, and other areas reach this one through the area's index.
 */

export type FulfilledOrderOptions = {
  /** A ready order whose devices are in stock in located boxes. */
  readonly orderId: number;
  /** An active user who works the fulfilment queues (holds order.fulfill-processing). */
  readonly picker: { readonly id: number; readonly name: string };
  /** In-stock SIMs of the order's carrier, one per unit, for an order that ships SIM kits. */
  readonly iccids?: readonly string[];
};

export type FulfilledOrder = {
  readonly orderId: number;
  readonly number: string;
  readonly units: readonly { id: number; deviceId: number; imei: string; iccid: string | null }[];
};

const META = { ip: '127.0.0.1', userAgent: 'makeFulfilledOrder', requestId: 'fulfilled-order' };

export async function makeFulfilledOrder(
  db: Db,
  { orderId, picker, iccids = [] }: FulfilledOrderOptions,
): Promise<FulfilledOrder> {
  const acting: Acting = {
    actor: {
      userId: picker.id,
      userName: picker.name,
      roles: [],
      roleKeys: [],
      permissions: ['order.assignment', 'order.fulfill-processing', 'order.OTA-processing'],
    },
    meta: META,
  };
  const assigned = await db.transaction((tx) => assignOrders(tx, acting, picker.id, [orderId]));
  if (assigned.assigned.length !== 1) {
    throw new Error(
      `Order ${orderId} was not assigned: ${JSON.stringify({ held: assigned.held, skipped: assigned.skipped })}`,
    );
  }
  const order = await pickOrder(db, orderId);
  const codes = [...order.units.map((unit) => unit.imei!), ...iccids];
  for (const code of codes) {
    const answer = await db.transaction((tx) => pickScan(tx, acting, orderId, code, null));
    if (!['picked', 'sim_paired'].includes(answer.result)) {
      throw new Error(`Scanning ${code} for ${order.number}: ${answer.message}`);
    }
  }
  const done = await pickOrder(db, orderId);
  if (done.status !== 'fulfilled') {
    throw new Error(`${done.number} is ${done.status} after its scans, not fulfilled.`);
  }
  return {
    orderId,
    number: done.number,
    units: done.units.map((unit) => ({
      id: unit.id,
      deviceId: unit.device_id!,
      imei: unit.imei!,
      iccid: unit.iccid,
    })),
  };
}
