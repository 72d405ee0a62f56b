import {
  STOCK_AGE_BUCKETS,
  WAREHOUSE_WIDGET_FILES,
  type FileFormat,
  type WarehouseFigures,
  type WarehouseWidget,
} from '@inventory/contract';
import type { PreparedFile } from '../../toolkit/downloads.js';
import { CONTENT_TYPES, fileStream, type Cell } from '../../toolkit/files.js';

const AGE_LABELS = new Map(STOCK_AGE_BUCKETS.map((bucket) => [bucket.key, bucket.label]));

/** The rows of one widget, as the page shows its figures (WAREHOUSE_WIDGET_FILES' columns). */
export function widgetRows(widget: WarehouseWidget, figures: WarehouseFigures): Cell[][] {
  switch (widget) {
    case 'rts':
      return figures.rts.by_model.flatMap((model) =>
        model.by_grade.map((row) => [model.model, row.grade ?? 'Ungraded', row.units]),
      );
    case 'zones':
      return figures.boxes.by_zone.map((zone) => [
        zone.zone,
        zone.name,
        zone.quarantine ? 'yes' : 'no',
        zone.boxes,
        zone.units,
        zone.capacity,
        zone.utilisation,
      ]);
    case 'stock_age':
      return figures.stock_age.map((age) => [AGE_LABELS.get(age.bucket) ?? age.bucket, age.units]);
    case 'holds':
      return [
        ...figures.holds.by_reason.map((row) => [`On hold: ${row.reason}`, row.units]),
        ...figures.boxes.by_zone
          .filter((zone) => zone.quarantine)
          .map((zone) => [`In quarantine zone ${zone.zone}`, zone.units]),
        ['In repair', figures.holds.in_repair],
      ];
    case 'accessories':
      return figures.accessories_below_reorder.map((accessory) => [
        accessory.sku,
        accessory.name,
        accessory.available,
        accessory.reorder_point,
      ]);
    case 'audits':
      return figures.audits.by_zone.map((zone) => [zone.zone, zone.due, zone.due_soon]);
  }
}

/** One widget's figures as a file named by the widget and the moment they were read. */
export function widgetFile(
  widget: WarehouseWidget,
  format: FileFormat,
  kept: { readonly asOf: string; readonly figures: WarehouseFigures },
): PreparedFile {
  const { title, columns } = WAREHOUSE_WIDGET_FILES[widget];
  const rows = widgetRows(widget, kept.figures);
  async function* chunks() {
    yield rows;
  }
  const moment = kept.asOf.slice(0, 16).replace(':', '');
  return {
    fileName: `warehouse-${widget.replace('_', '-')}-${moment}.${format}`,
    contentType: CONTENT_TYPES[format],
    stream: fileStream(format, title, columns, chunks()),
  };
}
