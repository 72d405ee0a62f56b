import { describe, expect, it } from 'vitest';
import { drillOf, reportQueryOf, withDrill, workLogFilters } from './work-report-filters';

describe('the working report in the address', () => {
  it('asks a range only once both its days are valid, and a team by its id', () => {
    expect(reportQueryOf(new URLSearchParams('from=2026-11-02&to=2026-11-08&team_id=4'))).toEqual({
      from: '2026-11-02',
      to: '2026-11-08',
      team_id: 4,
    });
    expect(reportQueryOf(new URLSearchParams('from=2026-11-02&team_id=x'))).toEqual({});
  });

  it('keeps the report’s filters while a drill-down opens and closes', () => {
    const report = new URLSearchParams('from=2026-11-02&to=2026-11-08&team_id=4');
    const drill = {
      from: '2026-11-03',
      to: '2026-11-03',
      action: 'grade',
      user_id: 9,
      rework: true,
    } as const;
    const opened = withDrill(report, drill);
    expect(drillOf(opened)).toEqual(drill);
    expect(reportQueryOf(opened)).toEqual(reportQueryOf(report));
    expect(withDrill(opened, null).toString()).toBe(report.toString());
  });

  it('reads no drill-down without its days, and drops an unknown action', () => {
    expect(drillOf(new URLSearchParams('log_action=grade'))).toBeNull();
    expect(
      drillOf(new URLSearchParams('log_from=2026-11-03&log_to=2026-11-03&log_action=nap')),
    ).toEqual({ from: '2026-11-03', to: '2026-11-03' });
  });

  it('filters the work log as the list answers: rework only as "true"', () => {
    expect(workLogFilters({ from: '2026-11-03', to: '2026-11-04', team_id: 2 })).toEqual({
      from: '2026-11-03',
      to: '2026-11-04',
      action: undefined,
      user_id: undefined,
      team_id: 2,
      rework: undefined,
    });
  });
});
