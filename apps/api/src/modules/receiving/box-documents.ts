import type { WarehouseBox } from '@inventory/contract';
import type { Queryable } from '../../db/db.js';
import type { LabelContent, SheetContent } from '../../toolkit/documents/print.js';
import { MAX_SHEET_ROWS } from '../../toolkit/documents/sheet.js';
import { MODEL_DISPLAY_NAME } from '../master-data/index.js';
import { findBox } from './warehouse-boxes.service.js';

/** The box label (4x6): its code as a barcode, and what the carton was opened for. */
export function boxLabel(box: WarehouseBox): LabelContent {
  const expected = box.expected_model
    ? `${box.expected_model}${box.qty_expected ? ` x ${box.qty_expected}` : ''}`
    : box.qty_expected
      ? `Expected: ${box.qty_expected}`
      : '';
  return {
    fileName: box.code,
    labels: [
      {
        barcode: box.code,
        title: box.code,
        lines: [
          `Invoice ${box.invoice_no}`,
          box.vendor,
          box.vendor_label ? `Vendor label: ${box.vendor_label}` : '',
          expected,
          `Opened ${box.created_at.slice(0, 10)}`,
        ].filter(Boolean),
      },
    ],
  };
}

type ContentRow = {
  identifier: string;
  imei2: string | null;
  model: string;
  color: string | null;
  capacity_gb: number | null;
  status: string;
};

/**
 * The box's content list (DOMAIN.md 4.17): its devices by model and IMEI, the count of each
 * model, and lines for who counted and checked it. Quarantined devices are not in the box and
 * not on the list.
 */
export async function boxContentList(db: Queryable, id: number): Promise<SheetContent> {
  const box = await findBox(db, id);
  const [devices, models] = await Promise.all([
    db.query<ContentRow>(
      `SELECT d.identifier, d.imei2, ${MODEL_DISPLAY_NAME} AS model, c.name AS color,
         d.capacity_gb, d.status
       FROM devices d
       JOIN device_models m ON m.id = d.model_id JOIN brands b ON b.id = m.brand_id
       LEFT JOIN colors c ON c.id = d.color_id
       WHERE d.warehouse_box_id = $1
       ORDER BY model, d.identifier LIMIT $2`,
      [id, MAX_SHEET_ROWS + 1],
    ),
    db.query<{ model: string; devices: number }>(
      `SELECT ${MODEL_DISPLAY_NAME} AS model, count(*)::int AS devices
       FROM devices d
       JOIN device_models m ON m.id = d.model_id JOIN brands b ON b.id = m.brand_id
       WHERE d.warehouse_box_id = $1
       GROUP BY model ORDER BY model`,
      [id],
    ),
  ]);
  const total = models.reduce((sum, model) => sum + model.devices, 0);
  return {
    fileName: `${box.code}-content`,
    sheet: {
      title: 'Warehouse box content',
      number: box.code,
      fields: [
        { label: 'Invoice', value: box.invoice_no },
        { label: 'Vendor', value: box.vendor },
        { label: 'Vendor label', value: box.vendor_label ?? '' },
        { label: 'Status', value: box.status.replace('_', ' ') },
        {
          label: 'Expected',
          value: [box.expected_model, box.qty_expected].filter((part) => part !== null).join(' x '),
        },
        { label: 'Staging', value: box.staging_location ?? '' },
      ],
      columns: [
        { header: '#', width: 1, align: 'right' },
        { header: 'IMEI / MEID', width: 3 },
        { header: 'IMEI 2', width: 3 },
        { header: 'Model', width: 5 },
        { header: 'Colour', width: 2 },
        { header: 'GB', width: 1, align: 'right' },
        { header: 'Status', width: 2 },
      ],
      rows: devices.map((device, index) => [
        String(index + 1),
        device.identifier,
        device.imei2 ?? '',
        device.model,
        device.color ?? '',
        device.capacity_gb === null ? '' : String(device.capacity_gb),
        device.status.replace('_', ' '),
      ]),
      totals: [
        ...models.map((model) => ({ label: model.model, value: String(model.devices) })),
        { label: 'Devices', value: String(total) },
      ],
      signatures: ['Counted by', 'Checked by'],
      footer: `${box.code} - invoice ${box.invoice_no} - ${box.vendor}`,
    },
  };
}
