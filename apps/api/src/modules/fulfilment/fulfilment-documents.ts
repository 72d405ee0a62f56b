import type { Queryable } from '../../db/db.js';
import { NotFoundError } from '../../http/errors.js';
import type { SheetContent } from '../../toolkit/documents/print.js';
import { packingSlip, pickList } from '../../toolkit/documents/layouts.js';
import { pickOrder } from './pick.service.js';

/**
 * The pick's documents (decision 0015): the packing slip printed at the station, with each unit's
 * IMEI and ICCID, and an order's pick list in walking order (location, then box).
 */

/** The packing slip: where it goes (printed in the parcel, so the ship-to in full) and what. */
export async function orderPackingSlip(db: Queryable, id: number): Promise<SheetContent> {
  const order = await pickOrder(db, id);
  const [facts] = await db.query<{
    created: string;
    ref: string | null;
    name: string;
    company: string | null;
    line1: string;
    line2: string | null;
    city: string;
    state: string;
    zip: string;
  }>(
    `SELECT to_char(o.created_at, 'YYYY-MM-DD') AS created, o.external_ref AS ref, t.name,
       t.company, t.line1, t.line2, t.city, t.state, t.zip
     FROM orders o JOIN order_ship_to t ON t.order_id = o.id WHERE o.id = $1`,
    [id],
  );
  if (!facts) throw new NotFoundError(`There is no order with id ${id}.`);
  const lines = new Map<string, { sku: string; description: string; serials: string[] }>();
  for (const unit of order.units) {
    const line = lines.get(unit.sku) ?? {
      sku: unit.sku,
      description: unit.description,
      serials: [],
    };
    if (unit.imei) line.serials.push(unit.imei);
    if (unit.iccid) line.serials.push(`ICCID ${unit.iccid}`);
    lines.set(unit.sku, line);
  }
  const units = order.units.reduce<Record<string, number>>(
    (count, unit) => ({ ...count, [unit.sku]: (count[unit.sku] ?? 0) + 1 }),
    {},
  );
  return {
    fileName: `${order.number}-packing-slip`,
    sheet: packingSlip({
      orderNumber: order.number,
      orderDate: facts.created,
      shipFrom: { name: order.client_carrier ?? 'Fulfilment centre', lines: [] },
      shipTo: {
        name: facts.name,
        lines: [
          ...(facts.company ? [facts.company] : []),
          facts.line1,
          ...(facts.line2 ? [facts.line2] : []),
          `${facts.city}, ${facts.state} ${facts.zip}`,
        ],
      },
      ...(facts.ref ? { customerReference: facts.ref } : {}),
      lines: [
        ...[...lines.values()].map((line) => ({ ...line, quantity: units[line.sku] ?? 0 })),
        ...order.accessories.map((item) => ({
          sku: item.sku,
          description: item.description,
          quantity: item.qty,
          serials: [],
        })),
      ],
    }),
  };
}

/** The order's pick list: each unit's box and location, in walking order. */
export async function orderPickList(db: Queryable, id: number): Promise<SheetContent> {
  const order = await pickOrder(db, id);
  return {
    fileName: `${order.number}-pick-list`,
    sheet: pickList({
      number: order.number,
      createdAt: new Date().toISOString().slice(0, 16).replace('T', ' '),
      lines: order.units.map((unit) => ({
        location: unit.location_code ?? '',
        box: unit.box_code ?? '',
        sku: unit.sku,
        description: unit.imei ? `${unit.description} (${unit.imei})` : unit.description,
        order: order.number,
        quantity: 1,
      })),
    }),
  };
}
