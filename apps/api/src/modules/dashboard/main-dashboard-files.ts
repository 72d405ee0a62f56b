import {
  DASHBOARD_WIDGET_FILES,
  DEVICE_OS_TEXT,
  PIPELINE_STAGE_TEXT,
  PIPELINE_STAGES,
  type DashboardWidget,
  type DashboardWidgets,
  type FileFormat,
} from '@inventory/contract';
import type { PreparedFile } from '../../toolkit/downloads.js';
import { CONTENT_TYPES, fileStream, type Cell } from '../../toolkit/files.js';

/** The rows of one widget, as the page shows its figures (DASHBOARD_WIDGET_FILES' columns). */
export function widgetRows(widget: DashboardWidget, widgets: DashboardWidgets): Cell[][] {
  switch (widget) {
    case 'stock': {
      const stock = widgets.stock!;
      return [
        ['All', 'Ready to sell', stock.units],
        ...stock.by_os.map((row) => ['OS', DEVICE_OS_TEXT[row.os], row.units]),
        ...stock.by_grade.map((row) => ['Grade', row.grade ?? 'Ungraded', row.units]),
        ...stock.top_models.map((row) => ['Model', row.model, row.units]),
      ];
    }
    case 'pipeline':
      return PIPELINE_STAGES.map((stage) => [PIPELINE_STAGE_TEXT[stage], widgets.pipeline![stage]]);
    case 'orders': {
      const orders = widgets.orders!;
      return [
        ['Received', orders.from, orders.to, orders.received],
        ['Shipped', orders.from, orders.to, orders.shipped],
        ['On hold now (backlog)', '', '', orders.backlog],
      ];
    }
    case 'sims': {
      const sims = widgets.sims!;
      return [
        ['With agents now', '', sims.with_agents],
        ['Agents holding SIMs now', '', sims.agents],
        ...sims.by_day.map((row) => ['Activated', row.day, row.activations]),
      ];
    }
    case 'rmas':
      return widgets.rmas!.by_day.map((row) => [row.day, row.rmas]);
    case 'unpacks':
      return widgets.unpacks!.by_day.map((row) => [row.day, row.unpacks]);
    case 'shipped_received':
      return widgets.shipped_received!.by_day.map((row) => [row.day, row.received, row.shipped]);
  }
}

/** One widget's figures as a file named by the widget and the moment they were read. */
export function widgetFile(
  widget: DashboardWidget,
  format: FileFormat,
  asOf: string,
  widgets: DashboardWidgets,
): PreparedFile {
  const { title, columns } = DASHBOARD_WIDGET_FILES[widget];
  const rows = widgetRows(widget, widgets);
  async function* chunks() {
    yield rows;
  }
  const moment = asOf.slice(0, 16).replace(':', '');
  return {
    fileName: `dashboard-${widget.replace('_', '-')}-${moment}.${format}`,
    contentType: CONTENT_TYPES[format],
    stream: fileStream(format, title, columns, chunks()),
  };
}
