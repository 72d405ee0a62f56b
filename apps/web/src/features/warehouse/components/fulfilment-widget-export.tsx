import { fulfilmentDashboardExportEndpoint, type FulfilmentWidget } from '@inventory/contract';
import { callEndpoint } from '../../../shell/http-client';
import { ExportMenu } from './export-menu';

/** A fulfilment dashboard widget's figures as CSV or Excel: the kept figures the page shows. */
export function FulfilmentWidgetExport({
  widget,
  title,
}: {
  widget: FulfilmentWidget;
  title: string;
}) {
  return (
    <ExportMenu
      title={title}
      linkOf={async (format) =>
        (await callEndpoint(fulfilmentDashboardExportEndpoint, { body: { widget, format } })).data
      }
    />
  );
}
