import { warehouseDashboardExportEndpoint, type WarehouseWidget } from '@inventory/contract';
import { callEndpoint } from '../../../shell/http-client';
import { ExportMenu } from './export-menu';

/** A warehouse dashboard widget's figures as CSV or Excel: the kept figures the page shows. */
export function WidgetExport({ widget, title }: { widget: WarehouseWidget; title: string }) {
  return (
    <ExportMenu
      title={title}
      linkOf={async (format) =>
        (await callEndpoint(warehouseDashboardExportEndpoint, { body: { widget, format } })).data
      }
    />
  );
}
