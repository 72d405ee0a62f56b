import { WORK_ACTIONS, type WorkAction, type WorkReportQuery } from '@inventory/contract';

/**
 * The report's filters and the work opened behind a figure, both in the address (UX.md): a
 * filtered report, and the rows behind one of its counts, are links to share.
 */

/** The work behind one figure: a day range, and an action, worker, team or rework where given. */
export type WorkDrill = {
  from: string;
  to: string;
  action?: WorkAction;
  user_id?: number;
  team_id?: number;
  rework?: boolean;
};

/** The drill-down's keys, apart from the report's own `from`, `to` and `team_id`. */
const DRILL_KEYS = {
  from: 'log_from',
  to: 'log_to',
  action: 'log_action',
  user_id: 'log_user_id',
  team_id: 'log_team_id',
  rework: 'log_rework',
} as const satisfies Record<keyof WorkDrill, string>;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const idOf = (value: string | null) => {
  const id = Number(value);
  return Number.isInteger(id) && id > 0 ? id : undefined;
};
const dayOf = (value: string | null) => (value && DAY.test(value) ? value : undefined);

/** The report asked for: what the address holds of it, the server's defaults for the rest. */
export function reportQueryOf(params: URLSearchParams): WorkReportQuery {
  const [from, to, teamId] = [
    dayOf(params.get('from')),
    dayOf(params.get('to')),
    idOf(params.get('team_id')),
  ];
  return {
    ...(from && to && { from, to }),
    ...(teamId !== undefined && { team_id: teamId }),
  };
}

/** The work opened behind a figure, or null when none is open. */
export function drillOf(params: URLSearchParams): WorkDrill | null {
  const [from, to] = [dayOf(params.get(DRILL_KEYS.from)), dayOf(params.get(DRILL_KEYS.to))];
  if (!from || !to) return null;
  const action = params.get(DRILL_KEYS.action);
  const [userId, teamId] = [
    idOf(params.get(DRILL_KEYS.user_id)),
    idOf(params.get(DRILL_KEYS.team_id)),
  ];
  return {
    from,
    to,
    ...(WORK_ACTIONS.includes(action as WorkAction) && { action: action as WorkAction }),
    ...(userId !== undefined && { user_id: userId }),
    ...(teamId !== undefined && { team_id: teamId }),
    ...(params.get(DRILL_KEYS.rework) === 'true' && { rework: true }),
  };
}

/** The address with `drill` open (the report's own filters kept), or closed when null. */
export function withDrill(params: URLSearchParams, drill: WorkDrill | null): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const key of Object.values(DRILL_KEYS)) next.delete(key);
  if (drill) {
    for (const [field, key] of Object.entries(DRILL_KEYS)) {
      const value = drill[field as keyof WorkDrill];
      if (value !== undefined) next.set(key, String(value));
    }
  }
  return next;
}

/** The list filters of the registered work log (`report/work-logs`) for a drill-down. */
export const workLogFilters = (drill: WorkDrill) => ({
  from: drill.from,
  to: drill.to,
  action: drill.action,
  user_id: drill.user_id,
  team_id: drill.team_id,
  rework: drill.rework ? ('true' as const) : undefined,
});
