import {
  FULFILMENT_WIDGET_FILES,
  hourText,
  type FileFormat,
  type FulfilmentFigures,
  type FulfilmentWidget,
} from '@inventory/contract';
import type { PreparedFile } from '../../toolkit/downloads.js';
import { CONTENT_TYPES, fileStream, type Cell } from '../../toolkit/files.js';

/** The rows of one widget, as the page shows its figures (FULFILMENT_WIDGET_FILES' columns). */
export function fulfilmentWidgetRows(
  widget: FulfilmentWidget,
  figures: FulfilmentFigures,
): Cell[][] {
  switch (widget) {
    case 'queues':
      return figures.queues.map((queue) => [
        queue.fulfilment_type,
        queue.ready,
        queue.assigned,
        queue.in_progress,
        queue.fulfilled,
        queue.labeled,
        queue.shipped_today,
      ]);
    case 'backlog':
      return figures.backlog.map((row) => [row.hold_reason, row.orders, row.sla_breached]);
    case 'sla':
      return figures.sla.by_status.map((row) => [row.status, row.orders]);
    case 'throughput':
      return figures.throughput.by_hour.map((row) => [
        hourText(row.hour),
        row.picked,
        row.labelled,
        row.scanned_out,
      ]);
    case 'demand':
      return figures.demand.map((row) => [
        row.model,
        row.sku,
        row.orders,
        row.units,
        row.available,
      ]);
  }
}

/** One widget's figures as a file named by the widget and the moment they were read. */
export function fulfilmentWidgetFile(
  widget: FulfilmentWidget,
  format: FileFormat,
  kept: { readonly asOf: string; readonly figures: FulfilmentFigures },
): PreparedFile {
  const { title, columns } = FULFILMENT_WIDGET_FILES[widget];
  const rows = fulfilmentWidgetRows(widget, kept.figures);
  async function* chunks() {
    yield rows;
  }
  const moment = kept.asOf.slice(0, 16).replace(':', '');
  return {
    fileName: `fulfilment-${widget}-${moment}.${format}`,
    contentType: CONTENT_TYPES[format],
    stream: fileStream(format, title, columns, chunks()),
  };
}
