import {
  FULFILMENT_DASHBOARD_ACCESS,
  fulfilmentDashboardEndpoint,
  fulfilmentDashboardExportEndpoint,
  refreshFulfilmentDashboardEndpoint,
  refreshWarehouseDashboardEndpoint,
  WAREHOUSE_DASHBOARD_ACCESS,
  warehouseDashboardEndpoint,
  warehouseDashboardExportEndpoint,
  type FileFormat,
  type FulfilmentWidget,
  type WarehouseWidget,
} from '@inventory/contract';
import { registerSnapshot } from '../../toolkit/snapshots.js';
import type { AppModule } from '../module.js';
import { fulfilmentDashboardSnapshot } from './fulfilment-dashboard.js';
import { fulfilmentWidgetFile } from './fulfilment-dashboard-files.js';
import { warehouseDashboardSnapshot } from './warehouse-dashboard.js';
import { widgetFile } from './warehouse-dashboard-files.js';

/** The warehouse and fulfilment dashboards (DOMAIN.md 4.18): kept figures, read in the background. */
export const warehouseModule: AppModule = {
  name: 'warehouse',
  register(context) {
    const { endpoint, downloads } = context;
    const dashboard = registerSnapshot(context, warehouseDashboardSnapshot);
    endpoint(warehouseDashboardEndpoint, () => dashboard.read());
    endpoint(refreshWarehouseDashboardEndpoint, ({ principal }) => dashboard.refresh(principal));

    downloads.addProducer('warehouse-dashboard-widget', async (request) =>
      widgetFile(
        request.widget as WarehouseWidget,
        request.format as FileFormat,
        await dashboard.kept(),
      ),
    );
    endpoint(warehouseDashboardExportEndpoint, ({ principal, body }) =>
      downloads.issue(principal, {
        producer: 'warehouse-dashboard-widget',
        access: WAREHOUSE_DASHBOARD_ACCESS,
        widget: body.widget,
        format: body.format,
      }),
    );

    const fulfilment = registerSnapshot(context, fulfilmentDashboardSnapshot);
    endpoint(fulfilmentDashboardEndpoint, () => fulfilment.read());
    endpoint(refreshFulfilmentDashboardEndpoint, ({ principal }) => fulfilment.refresh(principal));

    downloads.addProducer('fulfilment-dashboard-widget', async (request) =>
      fulfilmentWidgetFile(
        request.widget as FulfilmentWidget,
        request.format as FileFormat,
        await fulfilment.kept(),
      ),
    );
    endpoint(fulfilmentDashboardExportEndpoint, ({ principal, body }) =>
      downloads.issue(principal, {
        producer: 'fulfilment-dashboard-widget',
        access: FULFILMENT_DASHBOARD_ACCESS,
        widget: body.widget,
        format: body.format,
      }),
    );
  },
};
