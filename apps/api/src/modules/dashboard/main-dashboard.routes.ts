import {
  DASHBOARD_WIDGET_ACCESS,
  mainDashboardEndpoint,
  mainDashboardExportEndpoint,
  refreshMainDashboardEndpoint,
  type DashboardWidget,
  type FileFormat,
  type MainDashboardFigures,
} from '@inventory/contract';
import type { JsonAnswer } from '../../http/endpoint.js';
import { accessSubjectOf, type Principal } from '../../http/principal.js';
import { registerSnapshot } from '../../toolkit/snapshots.js';
import type { AppModule } from '../module.js';
import { mainDashboardSnapshot } from './main-dashboard.js';
import { widgetFile } from './main-dashboard-files.js';
import { dashboardView, visibleWidgets, type DashboardFilters } from './main-dashboard-view.js';

/** What the snapshot toolkit's answer says of the figures' moments (`snapshotSchema`). */
type Moments = {
  as_of: string;
  read_at: string;
  max_age_seconds: number;
  took_ms: number;
  refreshed_by: string | null;
};

/** The kept snapshot's answer with its figures replaced by the reader's view of them. */
function answerFor<Extra extends object = object>(
  kept: JsonAnswer,
  principal: Principal,
  query: DashboardFilters & { readonly widget?: DashboardWidget | undefined },
) {
  const { figures, ...moments } = JSON.parse(kept.json) as Moments &
    Extra & { figures: MainDashboardFigures };
  const shown = visibleWidgets(accessSubjectOf(principal), query.widget);
  return { ...moments, figures: dashboardView(figures, query, shown) };
}

/** The main dashboard (DOMAIN.md 4.1): kept figures, read in the background, shown per access. */
export const dashboardModule: AppModule = {
  name: 'dashboard',
  register(context) {
    const { endpoint, downloads } = context;
    const dashboard = registerSnapshot(context, mainDashboardSnapshot);

    endpoint(mainDashboardEndpoint, async ({ principal, query }) =>
      answerFor(await dashboard.read(), principal, query),
    );
    endpoint(refreshMainDashboardEndpoint, async ({ principal, query }) => {
      // Filters and access are checked before the figures are read again.
      answerFor(await dashboard.read(), principal, query);
      return answerFor<{ refreshed: boolean }>(
        await dashboard.refresh(principal),
        principal,
        query,
      );
    });

    downloads.addProducer('main-dashboard-widget', async (request) => {
      const widget = request.widget as DashboardWidget;
      const { asOf, figures } = await dashboard.kept();
      const view = dashboardView(figures, request.filters as DashboardFilters, new Set([widget]));
      return widgetFile(widget, request.format as FileFormat, asOf, view.widgets);
    });
    endpoint(mainDashboardExportEndpoint, async ({ principal, body }) => {
      const { widget, format, ...filters } = body;
      visibleWidgets(accessSubjectOf(principal), widget);
      // Bad filters are refused now, not when the link is followed.
      dashboardView((await dashboard.kept()).figures, filters, new Set([widget]));
      return downloads.issue(principal, {
        producer: 'main-dashboard-widget',
        access: DASHBOARD_WIDGET_ACCESS[widget],
        widget,
        format,
        filters,
      });
    });
  },
};
