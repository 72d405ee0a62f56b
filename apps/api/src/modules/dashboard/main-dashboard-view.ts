import {
  canAccess,
  DASHBOARD_WIDGET_ACCESS,
  DASHBOARD_WIDGETS,
  MAIN_DASHBOARD_KEPT_DAYS,
  SHIPPED_RECEIVED_DAYS,
  DASHBOARD_ACTIVATION_DAYS,
  type AccessSubject,
  type DashboardWidget,
  type DashboardWidgets,
  type MainDashboardFigures,
  type MainDashboardView,
} from '@inventory/contract';
import { fieldError, ForbiddenError, ValidationError } from '../../http/errors.js';

/*
 * A reader's dashboard from the kept figures: the widgets their access allows, for the client
 * carrier and the dates they chose. It sums at most MAIN_DASHBOARD_KEPT_DAYS days per carrier,
 * so it costs the same whatever the registry holds.
 */

export type DashboardFilters = {
  readonly from?: string | undefined;
  readonly to?: string | undefined;
  readonly client_carrier_id?: number | undefined;
};

type Period = { readonly from: string; readonly to: string };

const DAY_MS = 86_400_000;
const dayNumber = (day: string) => Date.parse(`${day}T00:00:00Z`) / DAY_MS;
const dayText = (n: number) => new Date(n * DAY_MS).toISOString().slice(0, 10);
const shift = (day: string, days: number) => dayText(dayNumber(day) + days);

/** Every day of a period, first to last. */
const daysOf = (period: Period) =>
  Array.from({ length: dayNumber(period.to) - dayNumber(period.from) + 1 }, (_, n) =>
    shift(period.from, n),
  );

/** The chosen range, checked against the days kept. */
function chosenPeriod(figures: MainDashboardFigures, filters: DashboardFilters): Period | null {
  if (filters.from === undefined && filters.to === undefined) return null;
  if (filters.from === undefined) throw fieldError('from', 'Choose the first day of the range.');
  if (filters.to === undefined) throw fieldError('to', 'Choose the last day of the range.');
  const errors: Record<string, string[]> = {};
  if (filters.from < figures.first_day)
    errors.from = [
      `The dashboard keeps the last ${MAIN_DASHBOARD_KEPT_DAYS} days: start on ${figures.first_day} or later.`,
    ];
  if (filters.to > figures.business_day)
    errors.to = [`The last day cannot be after today (${figures.business_day}).`];
  if (filters.to < filters.from) errors.to = ['The last day cannot be before the first.'];
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  return { from: filters.from, to: filters.to };
}

/** The widgets of the figures for these filters; `shown` says which. */
function widgetsOf(
  figures: MainDashboardFigures,
  filters: DashboardFilters,
  shown: ReadonlySet<DashboardWidget>,
): DashboardWidgets {
  const today = figures.business_day;
  const chosen = chosenPeriod(figures, filters);
  const carrier = filters.client_carrier_id;
  const ofCarrier = <R extends { client_carrier_id: number | null }>(rows: readonly R[]) =>
    carrier === undefined ? rows : rows.filter((row) => row.client_carrier_id === carrier);
  const days = ofCarrier(figures.days);

  /** The period a widget covers: the chosen range, else its own. */
  const periodOr = (from: string): Period => chosen ?? { from, to: today };
  /** A figure per day of the period, and its total. */
  const perDay = (period: Period, figure: (row: (typeof days)[number]) => number) => {
    const byDay = new Map<string, number>();
    for (const row of days) {
      if (row.day >= period.from && row.day <= period.to)
        byDay.set(row.day, (byDay.get(row.day) ?? 0) + figure(row));
    }
    const list = daysOf(period).map((day) => ({ day, n: byDay.get(day) ?? 0 }));
    return { list, total: list.reduce((sum, row) => sum + row.n, 0) };
  };
  // This week: from its Monday (1970-01-01, day 0, was a Thursday).
  const monday = shift(today, -((dayNumber(today) + 3) % 7));

  const widgets: DashboardWidgets = {};
  if (shown.has('stock')) widgets.stock = figures.stock;
  if (shown.has('pipeline')) widgets.pipeline = figures.pipeline;
  if (shown.has('orders')) {
    const period = periodOr(today);
    widgets.orders = {
      ...period,
      received: perDay(period, (row) => row.orders_received).total,
      shipped: perDay(period, (row) => row.orders_shipped).total,
      backlog: ofCarrier(figures.backlog).reduce((sum, row) => sum + row.orders, 0),
    };
  }
  if (shown.has('sims')) {
    const period = periodOr(shift(today, -(DASHBOARD_ACTIVATION_DAYS - 1)));
    const activations = perDay(period, (row) => row.activations);
    const held = figures.sims_with_agents.filter(
      (row) => carrier === undefined || row.client_carrier_id === carrier,
    );
    widgets.sims = {
      ...period,
      with_agents: held.reduce((sum, row) => sum + row.sims, 0),
      agents: carrier === undefined ? figures.agents_holding : (held[0]?.agents ?? 0),
      activations: activations.total,
      by_day: activations.list.map(({ day, n }) => ({ day, activations: n })),
    };
  }
  if (shown.has('rmas')) {
    const period = periodOr(monday);
    const rmas = perDay(period, (row) => row.rmas);
    widgets.rmas = {
      ...period,
      rmas: rmas.total,
      by_day: rmas.list.map(({ day, n }) => ({ day, rmas: n })),
    };
  }
  if (shown.has('unpacks')) {
    const period = periodOr(monday);
    const unpacks = perDay(period, (row) => row.unpacks);
    widgets.unpacks = {
      ...period,
      unpacks: unpacks.total,
      by_day: unpacks.list.map(({ day, n }) => ({ day, unpacks: n })),
    };
  }
  if (shown.has('shipped_received')) {
    const period = periodOr(shift(today, -(SHIPPED_RECEIVED_DAYS - 1)));
    const received = perDay(period, (row) => row.orders_received);
    const shipped = perDay(period, (row) => row.orders_shipped);
    widgets.shipped_received = {
      ...period,
      received: received.total,
      shipped: shipped.total,
      by_day: received.list.map(({ day, n }, index) => ({
        day,
        received: n,
        shipped: shipped.list[index]!.n,
      })),
    };
  }
  return widgets;
}

/**
 * The widgets a reader may see: all of theirs, or the one asked for, refused (403) when its
 * source is not theirs.
 */
export function visibleWidgets(
  subject: AccessSubject,
  only?: DashboardWidget,
): ReadonlySet<DashboardWidget> {
  if (only !== undefined) {
    if (!canAccess(subject, DASHBOARD_WIDGET_ACCESS[only]))
      throw new ForbiddenError(
        DASHBOARD_WIDGET_ACCESS[only],
        'This widget’s figures are not yours to read.',
      );
    return new Set([only]);
  }
  return new Set(
    DASHBOARD_WIDGETS.filter((widget) => canAccess(subject, DASHBOARD_WIDGET_ACCESS[widget])),
  );
}

/** The reader's view of the kept figures. */
export function dashboardView(
  figures: MainDashboardFigures,
  filters: DashboardFilters,
  shown: ReadonlySet<DashboardWidget>,
): MainDashboardView {
  const carrier = filters.client_carrier_id;
  if (carrier !== undefined && !figures.carriers.some((known) => known.id === carrier))
    throw fieldError('client_carrier_id', 'Choose one of the client carriers listed.');
  return {
    business_day: figures.business_day,
    first_day: figures.first_day,
    carriers: figures.carriers,
    from: filters.from ?? null,
    to: filters.to ?? null,
    client_carrier_id: carrier ?? null,
    widgets: widgetsOf(figures, filters, shown),
  };
}
