import { SHIPPING_SERVICE_INFO, type ShippingService } from '@inventory/contract';
import type { Queryable } from '../../db/db.js';
import type { Label } from '../../toolkit/documents/label.js';
import type { LabelAddress } from './carrier-adapter.js';

/**
 * A parcel's 4x6 label as the documents toolkit prints it (decision 0015): the service as the
 * title, the tracking number as its barcode, the addresses, weight and order, and the order
 * number as a second barcode for the packing bench.
 */

export type ShippingSettings = {
  packaging_weight_g: number;
  default_device_weight_g: number;
  ship_from: LabelAddress;
  usps_mailer_id: string;
  ups_shipper_number: string;
};

export async function shippingSettings(db: Queryable): Promise<ShippingSettings> {
  const [row] = await db.query<Omit<ShippingSettings, 'ship_from'> & Record<string, string>>(
    'SELECT * FROM shipping_settings',
  );
  return {
    packaging_weight_g: Number(row!.packaging_weight_g),
    default_device_weight_g: Number(row!.default_device_weight_g),
    usps_mailer_id: row!.usps_mailer_id,
    ups_shipper_number: row!.ups_shipper_number,
    ship_from: {
      name: row!.ship_from_name!,
      line1: row!.ship_from_line1!,
      city: row!.ship_from_city!,
      state: row!.ship_from_state!,
      zip: row!.ship_from_zip!,
    },
  };
}

/** What a label prints of its package. */
export type LabelledPackage = {
  readonly id: number;
  readonly order_number: string;
  readonly service: ShippingService;
  readonly tracking_number: string;
  readonly weight_g: number;
  readonly devices: number;
  readonly label_created_at: string;
  readonly ship_to: LabelAddress;
};

/** Pounds and ounces as a carrier prints them: "0 lb 13.1 oz". */
export function weightText(grams: number): string {
  const ounces = grams / 28.349523125;
  const pounds = Math.floor(ounces / 16);
  return `${pounds} lb ${(ounces - pounds * 16).toFixed(1)} oz`;
}

const cityLine = (address: LabelAddress) => `${address.city}, ${address.state} ${address.zip}`;

export function shippingLabel(parcel: LabelledPackage, shipFrom: LabelAddress): Label {
  const to = parcel.ship_to;
  return {
    title: SHIPPING_SERVICE_INFO[parcel.service].banner,
    barcode: parcel.tracking_number,
    lines: [
      SHIPPING_SERVICE_INFO[parcel.service].name,
      `SHIP TO: ${to.name}`,
      ...(to.company ? [to.company] : []),
      to.line2 ? `${to.line1}, ${to.line2}` : to.line1,
      cityLine(to),
      `FROM: ${shipFrom.name}, ${shipFrom.line1}, ${cityLine(shipFrom)}`,
      `${weightText(parcel.weight_g)} · ${parcel.devices} device(s) · ${parcel.label_created_at.slice(0, 10)}`,
      `Order ${parcel.order_number} · package ${parcel.id}`,
    ],
    secondBarcode: parcel.order_number,
  };
}

/** The packages to print with their ship-to, in id order; `where` over `packages p`. */
export async function labelledPackages(
  db: Queryable,
  where: string,
  params: unknown[],
): Promise<LabelledPackage[]> {
  return db.query<LabelledPackage>(
    `SELECT p.id::int AS id, o.number AS order_number, p.service, p.tracking_number, p.weight_g,
       to_char(p.label_created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS label_created_at,
       (SELECT count(*)::int FROM order_lines l
        JOIN order_line_units u ON u.order_line_id = l.id AND u.device_id IS NOT NULL
          AND u.status <> 'cancelled'
        WHERE l.order_id = p.order_id) AS devices,
       json_build_object('name', t.name, 'company', t.company, 'line1', t.line1, 'line2', t.line2,
         'city', t.city, 'state', t.state, 'zip', t.zip) AS ship_to
     FROM packages p
     JOIN orders o ON o.id = p.order_id
     JOIN order_ship_to t ON t.order_id = p.order_id
     WHERE ${where}
     ORDER BY p.id`,
    params,
  );
}
