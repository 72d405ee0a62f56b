import { SHIPPING_SERVICE_INFO } from '@inventory/contract';
import type { Queryable } from '../../db/db.js';
import { NotFoundError } from '../../http/errors.js';
import type { LabelContent, SheetContent } from '../../toolkit/documents/print.js';
import { billOfLading, packingSlip } from '../../toolkit/documents/layouts.js';
import { shippingLabel, shippingSettings, weightText } from '../shipment/index.js';
import { cartonOrderDetail, orderBoxRow } from './order-boxes.service.js';
import { shipmentDetail } from './shipments.service.js';

/**
 * The wholesale documents (decision 0015): a carton's 4x6 OB label, an order's packing list with
 * every IMEI by carton (the packing slip's layout), a freight shipment's bill of lading, a parcel
 * shipment's carton labels (the label desk's 4x6 layout) and the dock's manifest.
 */

type ShipTo = {
  name: string;
  company: string | null;
  line1: string;
  line2: string | null;
  city: string;
  state: string;
  zip: string;
};

async function shipToOf(db: Queryable, orderId: number) {
  const [row] = await db.query<ShipTo & { created: string; ref: string | null }>(
    `SELECT t.name, t.company, t.line1, t.line2, t.city, t.state, t.zip,
       to_char(o.created_at, 'YYYY-MM-DD') AS created, o.external_ref AS ref
     FROM orders o JOIN order_ship_to t ON t.order_id = o.id WHERE o.id = $1`,
    [orderId],
  );
  if (!row) throw new NotFoundError(`Order ${orderId} has no ship-to address.`);
  return row;
}

const addressLines = (to: ShipTo) => [
  ...(to.company ? [to.company] : []),
  to.line2 ? `${to.line1}, ${to.line2}` : to.line1,
  `${to.city}, ${to.state} ${to.zip}`,
];

/** A pound figure for a BOL: whole pounds, at least one. */
const pounds = (grams: number) => Math.max(1, Math.round(grams / 453.59237));

export async function orderBoxLabel(db: Queryable, id: number): Promise<LabelContent> {
  const box = await orderBoxRow(db, id);
  const to = await shipToOf(db, box.order_id);
  return {
    fileName: box.code,
    labels: [
      {
        barcode: box.code,
        title: 'WHOLESALE CARTON',
        lines: [
          `Carton ${box.seq} of order ${box.order_number}`,
          `SHIP TO: ${to.name}`,
          ...addressLines(to),
          `Opened ${box.opened_at.slice(0, 10)}`,
        ],
        secondBarcode: box.order_number,
      },
    ],
  };
}

/** The order's packing list: each carton's devices by IMEI and its accessories. */
export async function cartonPackingList(db: Queryable, orderId: number): Promise<SheetContent> {
  const { order, boxes } = await cartonOrderDetail(db, orderId);
  const to = await shipToOf(db, orderId);
  const { ship_from: from } = await shippingSettings(db);
  const lines = boxes.flatMap(({ box, units, items }) => {
    const bySku = new Map<string, { sku: string; description: string; serials: string[] }>();
    for (const unit of units) {
      const line = bySku.get(unit.sku) ?? {
        sku: unit.sku,
        description: `${unit.description} (carton ${box.code})`,
        serials: [],
      };
      line.serials.push(unit.imei);
      bySku.set(unit.sku, line);
    }
    return [
      ...[...bySku.values()].map((line) => ({ ...line, quantity: line.serials.length })),
      ...items.map((item) => ({
        sku: item.sku,
        description: `${item.description} (carton ${box.code})`,
        quantity: item.qty,
        serials: [],
      })),
    ];
  });
  return {
    fileName: `${order.number}-packing-list`,
    sheet: packingSlip({
      orderNumber: order.number,
      orderDate: to.created,
      shipFrom: { name: from.name, lines: [from.line1, `${from.city}, ${from.state} ${from.zip}`] },
      shipTo: { name: to.name, lines: addressLines(to) },
      ...(to.ref ? { customerReference: to.ref } : {}),
      ...(order.shipment_number ? { carrier: `Shipment ${order.shipment_number}` } : {}),
      lines,
      note: `${boxes.length} carton(s): ${boxes
        .map(({ box }) => `${box.code}${box.weight_g ? ` ${weightText(box.weight_g)}` : ' (open)'}`)
        .join(', ')}.`,
    }),
  };
}

export async function shipmentBill(db: Queryable, id: number): Promise<SheetContent> {
  const { shipment, boxes, pallets } = await shipmentDetail(db, id);
  const to = await shipToOf(db, shipment.order_id);
  const { ship_from: from } = await shippingSettings(db);
  const palletUnits = pallets.map((pallet) => {
    const on = boxes.filter((box) => box.pallet_code === pallet.code);
    return {
      quantity: 1,
      type: 'Pallet',
      description: `${pallet.code}: ${on.length} carton(s) of refurbished mobile phones and accessories`,
      weightLb: pounds(on.reduce((total, box) => total + (box.weight_g ?? 0), 0)),
    };
  });
  const loose = boxes.filter((box) => box.pallet_code === null);
  const cartons = loose.length
    ? [
        {
          quantity: loose.length,
          type: 'Carton',
          description: `Refurbished mobile phones and accessories: ${loose.map((box) => box.code).join(', ')}`,
          weightLb: pounds(loose.reduce((total, box) => total + (box.weight_g ?? 0), 0)),
        },
      ]
    : [];
  return {
    fileName: `${shipment.number}-bill-of-lading`,
    sheet: billOfLading({
      number: shipment.bol_number ?? shipment.number,
      shipDate: shipment.ship_date,
      shipper: { name: from.name, lines: [from.line1, `${from.city}, ${from.state} ${from.zip}`] },
      consignee: { name: to.name, lines: addressLines(to) },
      carrier: shipment.carrier,
      ...(shipment.pro_number ? { proNumber: shipment.pro_number } : {}),
      freightTerms: 'prepaid',
      handlingUnits: [...palletUnits, ...cartons],
      specialInstructions: `Order ${shipment.order_number}, shipment ${shipment.number}.`,
    }),
  };
}

export async function shipmentLabels(db: Queryable, id: number): Promise<LabelContent> {
  const { shipment, boxes } = await shipmentDetail(db, id);
  const to = await shipToOf(db, shipment.order_id);
  const { ship_from: from } = await shippingSettings(db);
  const service = shipment.service ?? 'usps_ground_advantage';
  return {
    fileName: `${shipment.number}-labels`,
    labels: boxes
      .filter((box) => box.tracking_number !== null)
      .map((box) =>
        shippingLabel(
          {
            id: box.id,
            order_number: shipment.order_number,
            service,
            tracking_number: box.tracking_number!,
            weight_g: box.weight_g ?? 1,
            devices: box.devices,
            label_created_at: shipment.created_at,
            ship_to: to,
          },
          from,
        ),
      ),
  };
}

export async function shipmentManifest(db: Queryable, id: number): Promise<SheetContent> {
  const { shipment, boxes, pallets } = await shipmentDetail(db, id);
  const when = (at: string | null) => (at ? `${at.slice(0, 16).replace('T', ' ')} UTC` : '');
  const transport =
    shipment.mode === 'freight'
      ? { label: 'BOL', value: shipment.bol_number ?? 'none yet' }
      : {
          label: 'Service',
          value: shipment.service ? SHIPPING_SERVICE_INFO[shipment.service].name : '',
        };
  const weight = boxes.reduce((total, box) => total + (box.weight_g ?? 0), 0);
  return {
    fileName: `${shipment.number}-manifest`,
    sheet: {
      title: 'Dock manifest',
      number: shipment.number,
      fields: [
        {
          label: 'Order',
          value: `${shipment.order_number}${shipment.retailer ? ` (${shipment.retailer})` : ''}`,
        },
        { label: 'Carrier', value: shipment.carrier },
        transport,
        { label: 'Ship date', value: shipment.ship_date },
        {
          label: 'Checked',
          value: shipment.checked_at
            ? `${when(shipment.checked_at)} by ${shipment.checked_by_name ?? ''}`
            : 'not yet',
        },
        {
          label: 'Pickup',
          value: shipment.picked_up_at
            ? `${when(shipment.picked_up_at)}, ${shipment.pickup_carrier ?? ''}, driver ${shipment.driver_name ?? ''}`
            : 'not yet',
        },
        ...(shipment.override_by_name
          ? [
              {
                label: 'Override',
                value: `${shipment.override_by_name}: ${shipment.override_reason ?? ''}`,
              },
            ]
          : []),
        { label: 'Pallets', value: pallets.map((pallet) => pallet.code).join(', ') || 'none' },
      ],
      columns: [
        { header: '#', width: 1, align: 'right' },
        { header: 'Carton', width: 2 },
        { header: 'Pallet', width: 2 },
        { header: 'Tracking', width: 4 },
        { header: 'Devices', width: 1, align: 'right' },
        { header: 'Weight', width: 2, align: 'right' },
        { header: 'Scanned at the dock', width: 4 },
      ],
      rows: boxes.map((box, index) => [
        String(index + 1),
        box.code,
        box.pallet_code ?? '',
        box.tracking_number ?? '',
        String(box.devices),
        box.weight_g ? weightText(box.weight_g) : '',
        box.dock_scanned_at
          ? `${when(box.dock_scanned_at)} by ${box.dock_scanned_by_name ?? ''}`
          : 'NOT SCANNED',
      ]),
      totals: [
        { label: 'Cartons', value: `${shipment.boxes_scanned} of ${shipment.boxes} scanned` },
        { label: 'Devices', value: String(shipment.units) },
        { label: 'Weight', value: weightText(weight) },
      ],
      signatures: ['Loaded by', 'Carrier (driver)'],
      footer: `${shipment.number} - order ${shipment.order_number}`,
    },
  };
}
