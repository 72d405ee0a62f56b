import { luhnCheckDigit } from '@inventory/contract';
import type { Db } from '../../db/db.js';

/**
 * Fulfilled orders for the shipping tests, written straight into the database as the pick
 * station leaves them (the interface with fulfilment): the order `fulfilled`, each unit `picked`
 * with its device (and ICCID for a SIM line), each device `picked` and out of its box, each
 * SIM `allocated` to the order, the lines' listing units reserved. Stands in for the fulfilment
 * area's own helper until it exists.
 */

let next = 0;

const one = async (db: Db, sql: string, params: unknown[] = []) =>
  (await db.query<{ id: number }>(`${sql} RETURNING id::int AS id`, params))[0]!.id;

/** A 15-digit IMEI of TAC 35999990 with its Luhn digit. */
const imeiOf = (serial: number) => {
  const payload = `35999990${String(serial).padStart(6, '0')}`;
  return `${payload}${luhnCheckDigit(payload)}`;
};

/** A 19-digit AT&T ICCID with its Luhn digit. */
const iccidOf = (serial: number) => {
  const payload = `890141000000${String(serial).padStart(6, '0')}`;
  return `${payload}${luhnCheckDigit(payload)}`;
};

export type FulfilledOrder = {
  orderId: number;
  number: string;
  deviceIds: number[];
  imeis: string[];
  iccids: string[];
  listingId: number;
};

export type FulfilledOptions = {
  readonly count: number;
  /** Devices per order (one unit each). */
  readonly devices?: number;
  /** Ship each order's first unit with a SIM. */
  readonly withSim?: boolean;
  readonly shipMethod?: 'ground' | 'priority' | 'express' | 'overnight' | 'freight' | 'pickup';
  /** The model's recorded weight; null for none. */
  readonly modelWeightG?: number | null;
};

export async function seedFulfilledOrders(
  db: Db,
  options: FulfilledOptions,
): Promise<FulfilledOrder[]> {
  next += 1;
  const tag = `${next}${Math.floor(Math.random() * 1e6)}`;
  const perOrder = options.devices ?? 1;
  const carrier = await one(db, "INSERT INTO vendors (name, type) VALUES ($1, 'carrier-client')", [
    `Carrier ${tag}`,
  ]);
  const brand = await one(db, 'INSERT INTO brands (name) VALUES ($1)', [`Brand ${tag}`]);
  const model = await one(
    db,
    `INSERT INTO device_models (brand_id, name, model_numbers, device_type, os, network, weight_g)
     VALUES ($1, $2, '{}', 'phone', 'android', '5G', $3)`,
    [brand, `Model ${tag}`, options.modelWeightG === undefined ? 180 : options.modelWeightG],
  );
  const product = await one(
    db,
    "INSERT INTO products (name, kind, model_id) VALUES ($1, 'device', $2)",
    [`Phone ${tag}`, model],
  );
  const sku = `SHIP${tag}`;
  const variant = await one(
    db,
    "INSERT INTO product_variants (product_id, sku, grade) VALUES ($1, $2, 'A')",
    [product, sku],
  );
  const units = options.count * perOrder;
  const listingId = await one(
    db,
    `INSERT INTO pts_listings (variant_id, channel, qty_pushed, qty_reserved, price_cents, status)
     VALUES ($1, 'carrier', $2, $2, 0, 'live')`,
    [variant, units],
  );
  const simBox = options.withSim
    ? await one(
        db,
        `INSERT INTO sim_boxes (code, client_carrier_id, received_by_range, iccid_first,
           iccid_last, qty, qty_available)
         VALUES ($1, $2, false, $3, $3, $4, 0)`,
        [`SB-${tag.padStart(6, '0')}`, carrier, iccidOf(Number(tag) % 1e5), options.count],
      )
    : null;
  const orders: FulfilledOrder[] = [];
  for (let n = 0; n < options.count; n += 1) {
    const subscriber = await one(
      db,
      `INSERT INTO subscribers (client_carrier_id, program, first_name, last_name, service_line1,
         service_city, service_state, service_zip, service_address_key)
       VALUES ($1, 'lifeline', 'Jane', $2, '12 Elm St', 'Houston', 'TX', '77002', $3)`,
      [carrier, `Doe${n}`, `${tag}-${n}`],
    );
    const [order] = await db.query<{ id: number; number: string }>(
      `INSERT INTO orders (source, fulfilment_type, client_carrier_id, program, subscriber_id,
         ship_method, status, total_cents)
       VALUES ('carrier_api', 'new_lifeline', $1, 'lifeline', $2, $3, 'fulfilled', 0)
       RETURNING id::int AS id, number`,
      [carrier, subscriber, options.shipMethod ?? 'ground'],
    );
    await db.query(
      `INSERT INTO order_ship_to (order_id, name, line1, city, state, zip)
       VALUES ($1, $2, '12 Elm St', 'Houston', 'TX', '77002')`,
      [order!.id, `Jane Doe${n}`],
    );
    const line = await one(
      db,
      `INSERT INTO order_lines (order_id, position, variant_id, sku, description, listing_id, qty,
         qty_reserved, unit_price_cents, status)
       VALUES ($1, 1, $2, $3, 'Phone', $4, $5, $5, 0, 'picked')`,
      [order!.id, variant, sku, listingId, perOrder],
    );
    const deviceIds: number[] = [];
    const imeis: string[] = [];
    const iccids: string[] = [];
    for (let d = 0; d < perOrder; d += 1) {
      const imei = imeiOf((Number(tag) * 97 + n * 10 + d) % 1e6);
      const device = await one(
        db,
        `INSERT INTO devices (imei, model_id, grade, status) VALUES ($1, $2, 'A', 'picked')`,
        [imei, model],
      );
      const iccid = simBox !== null && d === 0 ? iccidOf((Number(tag) * 31 + n) % 1e6) : null;
      if (iccid) {
        await db.query(
          `INSERT INTO sim_cards (iccid, client_carrier_id, status, sim_box_id, order_id, device_id)
           VALUES ($1, $2, 'allocated', $3, $4, $5)`,
          [iccid, carrier, simBox, order!.id, device],
        );
        iccids.push(iccid);
      }
      await db.query(
        `INSERT INTO order_line_units (order_line_id, variant_id, device_id, iccid, status)
         VALUES ($1, $2, $3, $4, 'picked')`,
        [line, variant, device, iccid],
      );
      deviceIds.push(device);
      imeis.push(imei);
    }
    orders.push({
      orderId: order!.id,
      number: order!.number,
      deviceIds,
      imeis,
      iccids,
      listingId,
    });
  }
  return orders;
}
