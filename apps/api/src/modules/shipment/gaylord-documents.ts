import { CARRIER_NAMES, SHIPPING_SERVICE_INFO, type ShippingService } from '@inventory/contract';
import type { Queryable } from '../../db/db.js';
import type { LabelContent, SheetContent } from '../../toolkit/documents/print.js';
import { MAX_SHEET_ROWS } from '../../toolkit/documents/sheet.js';
import { gaylordRow, parcelsText } from './gaylords.service.js';
import { scanFormRow } from './scan-forms.service.js';
import { shippingSettings, weightText } from './shipping-label.js';

/**
 * A gaylord's 4x6 label and a SCAN form's sheet, printed through the documents toolkit (decision
 * 0015): the label carries the gaylord's code as its Code 128 barcode under the service's banner,
 * so the sorter sees at a glance which parcels go in; the form lists its parcels under one
 * barcode, its number, which the carrier scans once to accept them all.
 */

export async function gaylordLabel(db: Queryable, id: number): Promise<LabelContent> {
  const gaylord = await gaylordRow(db, id);
  const { ship_from: from } = await shippingSettings(db);
  const info = SHIPPING_SERVICE_INFO[gaylord.service];
  return {
    fileName: gaylord.code,
    labels: [
      {
        barcode: gaylord.code,
        title: info.banner,
        lines: [
          `Gaylord ${gaylord.code}`,
          info.name,
          'Outbound parcels',
          `Opened ${gaylord.opened_at.slice(0, 10)}${gaylord.opened_by_name ? ` by ${gaylord.opened_by_name}` : ''}`,
          `FROM: ${from.name}, ${from.city}, ${from.state} ${from.zip}`,
        ],
      },
    ],
  };
}

type FormParcel = {
  tracking_number: string;
  service: ShippingService;
  gaylord: string;
  order_number: string;
  weight_g: number;
};

export async function scanFormSheet(db: Queryable, id: number): Promise<SheetContent> {
  const form = await scanFormRow(db, id);
  const { ship_from: from } = await shippingSettings(db);
  const [parcels, gaylords] = await Promise.all([
    db.query<FormParcel>(
      `SELECT p.tracking_number, p.service, g.code AS gaylord, o.number AS order_number, p.weight_g
       FROM gaylords g
       JOIN packages p ON p.gaylord_id = g.id AND p.status <> 'voided'
       JOIN orders o ON o.id = p.order_id
       WHERE g.scan_form_id = $1
       ORDER BY g.id, p.id LIMIT $2`,
      [id, MAX_SHEET_ROWS + 1],
    ),
    db.query<{ code: string; parcels: number; weight_g: number }>(
      `SELECT g.code, count(p.id)::int AS parcels, COALESCE(sum(p.weight_g), 0)::int AS weight_g
       FROM gaylords g LEFT JOIN packages p ON p.gaylord_id = g.id AND p.status <> 'voided'
       WHERE g.scan_form_id = $1
       GROUP BY g.id ORDER BY g.id`,
      [id],
    ),
  ]);
  const count = gaylords.reduce((sum, gaylord) => sum + gaylord.parcels, 0);
  const weight = gaylords.reduce((sum, gaylord) => sum + gaylord.weight_g, 0);
  const carrier = CARRIER_NAMES[form.carrier];
  return {
    fileName: `scan-form-${form.number}`,
    sheet: {
      title:
        form.carrier === 'usps' ? 'USPS SCAN Form (PS Form 5630)' : `${carrier} pickup manifest`,
      number: form.number,
      parties: [
        {
          title: 'Mailer',
          lines: [from.name, from.line1, `${from.city}, ${from.state} ${from.zip}`],
        },
      ],
      fields: [
        { label: 'Carrier', value: carrier },
        { label: 'Ship date', value: form.ship_date },
        { label: 'Origin ZIP', value: form.origin_zip },
        { label: 'Parcels', value: String(count) },
        {
          label: 'Gaylords',
          value: gaylords.map((gaylord) => `${gaylord.code} (${gaylord.parcels})`).join(', '),
        },
        {
          label: 'Made',
          value: `${form.created_at.slice(0, 16).replace('T', ' ')} UTC${form.created_by_name ? ` by ${form.created_by_name}` : ''}`,
        },
      ],
      columns: [
        { header: '#', width: 1, align: 'right' },
        { header: 'Tracking number', width: 5 },
        { header: 'Service', width: 4 },
        { header: 'Gaylord', width: 2 },
        { header: 'Order', width: 2 },
        { header: 'Weight', width: 2, align: 'right' },
      ],
      rows: parcels.map((parcel, index) => [
        String(index + 1),
        parcel.tracking_number,
        SHIPPING_SERVICE_INFO[parcel.service].name,
        parcel.gaylord,
        parcel.order_number,
        weightText(parcel.weight_g),
      ]),
      totals: [
        { label: 'Parcels', value: parcelsText(count) },
        { label: 'Weight', value: weightText(weight) },
      ],
      notes: [
        `One scan of the barcode ${form.number} accepts every parcel listed, as of the ship date.`,
      ],
      signatures: ['Released by', 'Carrier employee (acceptance)'],
      footer: `${form.number} - ${carrier} - ship date ${form.ship_date} - origin ZIP ${form.origin_zip}`,
    },
  };
}
