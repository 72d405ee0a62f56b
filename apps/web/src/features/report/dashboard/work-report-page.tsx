import {
  JOB_MANAGER_ACCESS,
  WORK_ACTION_TEXT,
  WORK_ACTIONS,
  WORK_REPORT_COLUMNS,
  WORK_REPORT_FILES,
  WORK_REPORT_MAX_DAYS,
  type WorkAction,
  type WorkReport,
  type WorkReportQuery,
  type WorkReportTable,
} from '@inventory/contract';
import { Alert, Button, Card, DatePicker, Row, Select, Space, Table, Typography } from 'antd';
import dayjs from 'dayjs';
import { lazy, type ReactNode } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { DelayedFallback } from '../../../shell/delayed-fallback';
import { PAGE_TITLE_STYLE } from '../../../shell/page-styles';
import type { PageProps } from '../../../shell/page-types';
import { useCan } from '../../../shell/use-can';
import { ChartCard, Drill, ExportMenu, Figure, number } from '../../warehouse';
import { WorkLogDrawer } from './work-log-drawer';
import { drillOf, reportQueryOf, withDrill, type WorkDrill } from './work-report-filters';
import { useWorkReport, workReportTableLink } from './work-report.queries';

// The chart library comes with the chart alone, after the figures: the tables never wait for it.
const WorkPerDayChart = lazy(() =>
  import('./work-report-chart').then((module) => ({ default: module.WorkPerDayChart })),
);

type DayRow = WorkReport['days'][number];
type WorkerRow = WorkReport['workers'][number];
type ReworkRow = WorkReport['rework'][number];

const rangeText = (from: string, to: string) => (from === to ? from : `${from} to ${to}`);

/** What a drill-down shows, in words: "Graded by Dana Cruz, rework only, 2026-11-03". */
function drillTitle(drill: WorkDrill, report: WorkReport | undefined) {
  const work = drill.action ? WORK_ACTION_TEXT[drill.action] : 'All work';
  const worker = report?.workers.find((row) => row.user_id === drill.user_id)?.name;
  const team = report?.teams.find((row) => row.id === drill.team_id)?.name;
  const who =
    drill.user_id !== undefined
      ? ` by ${worker ?? `worker ${drill.user_id}`}`
      : drill.team_id !== undefined
        ? ` by the ${team ?? `team ${drill.team_id}`} team`
        : '';
  return `${work}${who}${drill.rework ? ', rework only' : ''}, ${rangeText(drill.from, drill.to)}`;
}

/** One table's export, for the range and team shown. */
function TableExport({ table, query }: { table: WorkReportTable; query: WorkReportQuery }) {
  return (
    <ExportMenu
      title={WORK_REPORT_FILES[table].title}
      linkOf={(format) => workReportTableLink(table, query, format)}
    />
  );
}

/** A card titled as a section of the page, its export beside the title. */
function Section({
  title,
  extra,
  children,
}: {
  title: string;
  extra: ReactNode;
  children: ReactNode;
}) {
  return (
    <Card
      size="small"
      title={
        <Typography.Title level={2} style={{ fontSize: 16, margin: 0 }}>
          {title}
        </Typography.Title>
      }
      extra={extra}
    >
      {children}
    </Card>
  );
}

/**
 * The working report (DOMAIN.md 4.11): per team and business day the units of each station's
 * work, units per hour per worker, rework per action; every count opens the work behind it and
 * every table exports. Filters and the work opened are in the address.
 */
export default function WorkReportPage({ entry }: PageProps) {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const query = reportQueryOf(params);
  const drill = drillOf(params);
  const report = useWorkReport(query);
  const canSeeJobs = useCan(JOB_MANAGER_ACCESS);
  const data = report.data;

  const change = (changes: Record<string, string | undefined>) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [key, value] of Object.entries(changes)) {
          if (value) next.set(key, value);
          else next.delete(key);
        }
        return next;
      },
      { replace: true },
    );
  const drillTo = (opened: WorkDrill) => `?${withDrill(params, opened).toString()}`;

  const header = (
    <>
      <Typography.Title level={1} style={PAGE_TITLE_STYLE}>
        {entry.label}
      </Typography.Title>
      <Typography.Paragraph type="secondary">
        Every station step counts as work for the person who took it. Open any count to see the
        units behind it.
      </Typography.Paragraph>
    </>
  );

  if (report.isError && !data) {
    return (
      <div>
        {header}
        <Alert
          type="error"
          showIcon
          title="The report could not be loaded."
          description={report.error.message}
          action={
            <Space>
              <Button onClick={() => setParams(new URLSearchParams(), { replace: true })}>
                The last 7 days, every team
              </Button>
              <Button onClick={() => void report.refetch()}>Try again</Button>
            </Space>
          }
        />
      </div>
    );
  }
  if (!data) {
    return (
      <div>
        {header}
        <DelayedFallback />
      </div>
    );
  }

  const shown: WorkReportQuery = {
    from: data.from,
    to: data.to,
    ...(data.team && { team_id: data.team.id }),
  };
  const team = data.team?.id;
  const readDays = data.days.filter((row) => row.team_id === (data.team?.id ?? null));
  const figureActions = WORK_ACTIONS.filter(
    (action) =>
      (WORK_REPORT_COLUMNS as readonly WorkAction[]).includes(action) || data.totals[action] > 0,
  );
  const anyWork = figureActions.some((action) => data.totals[action] > 0);
  const rangeDrill = { from: data.from, to: data.to, team_id: team };

  return (
    <div>
      {header}
      <Space wrap style={{ marginBottom: 8 }} align="center">
        <label>
          Team{' '}
          <Select
            aria-label="Team"
            allowClear
            showSearch
            optionFilterProp="label"
            placeholder="Every team"
            style={{ width: 240 }}
            value={team}
            options={data.teams.map((known) => ({ value: known.id, label: known.name }))}
            onChange={(value?: number) =>
              change({ team_id: value === undefined ? undefined : String(value) })
            }
          />
        </label>
        <span id="work-report-days">Business days</span>
        <DatePicker.RangePicker
          aria-labelledby="work-report-days"
          placeholder={['First day', 'Last day']}
          allowClear={false}
          value={[dayjs(data.from), dayjs(data.to)]}
          onChange={(days) => {
            const [from, to] = days ?? [];
            change({ from: from?.format('YYYY-MM-DD'), to: to?.format('YYYY-MM-DD') });
          }}
        />
        {params.has('from') && (
          <Button onClick={() => change({ from: undefined, to: undefined })}>
            The last 7 days
          </Button>
        )}
      </Space>
      <Typography.Paragraph type="secondary">
        {rangeText(data.from, data.to)} in {data.time_zone}, {data.team?.name ?? 'every team'}; at
        most {WORK_REPORT_MAX_DAYS} days at once. A person counts under each team (role) they hold.
      </Typography.Paragraph>
      {report.isError && (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 8 }}
          title="These filters cannot be answered: the report below is the last one read."
          description={report.error.message}
        />
      )}
      {!anyWork && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 8 }}
          title="No work was counted in these days."
          description="Station work (receiving scans, grading, picking, shipping, repairs…) appears here as it is done: choose other days or every team."
        />
      )}

      <Row gutter={[16, 16]} style={{ marginBottom: 16 }}>
        {figureActions.map((action) => (
          <Figure
            key={action}
            id={`work-${action}`}
            title={WORK_ACTION_TEXT[action]}
            value={number(data.totals[action])}
            to={drillTo({ ...rangeDrill, action })}
            allowed
          />
        ))}
        <Figure
          id="jobs-open"
          title="Open jobs"
          value={number(data.jobs.open)}
          to="/report/admin"
          allowed={canSeeJobs}
        />
        <Figure
          id="jobs-overdue"
          title="Overdue jobs"
          value={number(data.jobs.overdue)}
          to="/report/admin"
          allowed={canSeeJobs}
        />
      </Row>

      <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
        <div data-testid="work-days">
          <ChartCard
            title={`${WORK_REPORT_FILES.days.title}, ${rangeText(data.from, data.to)}`}
            extra={<TableExport table="days" query={shown} />}
            chart={
              <WorkPerDayChart
                days={readDays}
                onSelect={(day, action) =>
                  void navigate(drillTo({ from: day, to: day, action, team_id: team }))
                }
              />
            }
            table={<DaysTable days={data.days} drillTo={drillTo} />}
          />
        </div>
        <Section
          title={WORK_REPORT_FILES.workers.title}
          extra={<TableExport table="workers" query={shown} />}
        >
          <WorkersTable workers={data.workers} drill={rangeDrill} drillTo={drillTo} />
        </Section>
        <Section
          title={WORK_REPORT_FILES.rework.title}
          extra={<TableExport table="rework" query={shown} />}
        >
          <ReworkTable rework={data.rework} drill={rangeDrill} drillTo={drillTo} />
        </Section>
      </Space>

      {drill && (
        <WorkLogDrawer
          key={withDrill(new URLSearchParams(), drill).toString()}
          drill={drill}
          title={drillTitle(drill, data)}
          onClose={() => setParams(withDrill(params, null), { replace: true })}
        />
      )}
    </div>
  );
}

type DrillTo = (drill: WorkDrill) => string;

/** Per team and day, each action's units, each the link to its work. */
function DaysTable({ days, drillTo }: { days: readonly DayRow[]; drillTo: DrillTo }) {
  // A dozen actions are wider than a narrow screen: the region scrolls, and takes the focus so
  // that a keyboard scrolls it too (days without work have no link to tab to).
  return (
    <div
      role="region"
      aria-label="Work per team and day"
      tabIndex={0}
      style={{ overflowX: 'auto' }}
    >
      <Table<DayRow>
        size="small"
        aria-label="Work per team and day"
        rowKey={(row) => `${row.team_id ?? 'all'}-${row.day}`}
        dataSource={[...days]}
        pagination={{ pageSize: 10, showSizeChanger: false, hideOnSinglePage: true }}
        columns={[
          { key: 'team', title: 'Team', dataIndex: 'team' },
          { key: 'day', title: 'Day', dataIndex: 'day' },
          ...WORK_REPORT_COLUMNS.map((action) => ({
            key: action,
            title: WORK_ACTION_TEXT[action],
            align: 'right' as const,
            render: (_: unknown, row: DayRow) =>
              row.counts[action] === 0 ? (
                '0'
              ) : (
                <Drill
                  allowed
                  to={drillTo({
                    from: row.day,
                    to: row.day,
                    action,
                    team_id: row.team_id ?? undefined,
                  })}
                >
                  {number(row.counts[action])}
                </Drill>
              ),
          })),
        ]}
      />
    </div>
  );
}

/** Units per hour per worker and action, the busiest first. */
function WorkersTable({
  workers,
  drill,
  drillTo,
}: {
  workers: readonly WorkerRow[];
  drill: WorkDrill;
  drillTo: DrillTo;
}) {
  return (
    <Table<WorkerRow>
      size="small"
      aria-label={WORK_REPORT_FILES.workers.title}
      rowKey={(row) => `${row.user_id}-${row.action}`}
      dataSource={[...workers]}
      pagination={{ pageSize: 20, showSizeChanger: false, hideOnSinglePage: true }}
      locale={{ emptyText: 'No one’s work was counted in these days.' }}
      columns={[
        { key: 'name', title: 'Worker', dataIndex: 'name' },
        { key: 'action', title: 'Work', render: (_, row) => WORK_ACTION_TEXT[row.action] },
        {
          key: 'qty',
          title: 'Units',
          align: 'right',
          render: (_, row) => (
            <Drill
              allowed
              to={drillTo({
                from: drill.from,
                to: drill.to,
                action: row.action,
                user_id: row.user_id,
              })}
            >
              {number(row.qty)}
            </Drill>
          ),
        },
        {
          key: 'rework',
          title: 'Rework',
          align: 'right',
          render: (_, row) =>
            row.rework === 0 ? (
              '0'
            ) : (
              <Drill
                allowed
                to={drillTo({
                  from: drill.from,
                  to: drill.to,
                  action: row.action,
                  user_id: row.user_id,
                  rework: true,
                })}
              >
                {number(row.rework)}
              </Drill>
            ),
        },
        { key: 'hours', title: 'Hours', align: 'right', render: (_, row) => row.hours.toFixed(2) },
        {
          key: 'rate',
          title: 'Units per hour',
          align: 'right',
          render: (_, row) =>
            row.units_per_hour === null ? (
              <span title="No time to measure: a single unit in a day">—</span>
            ) : (
              row.units_per_hour.toFixed(1)
            ),
        },
      ]}
    />
  );
}

/** Rework per action: re-grades, mismatches, tests failed after repair. */
function ReworkTable({
  rework,
  drill,
  drillTo,
}: {
  rework: readonly ReworkRow[];
  drill: WorkDrill;
  drillTo: DrillTo;
}) {
  return (
    <Table<ReworkRow>
      size="small"
      aria-label={WORK_REPORT_FILES.rework.title}
      rowKey="action"
      dataSource={[...rework]}
      pagination={false}
      locale={{ emptyText: 'No work was counted in these days, so none was done again.' }}
      columns={[
        { key: 'action', title: 'Work', render: (_, row) => WORK_ACTION_TEXT[row.action] },
        {
          key: 'qty',
          title: 'Units',
          align: 'right',
          render: (_, row) => (
            <Drill allowed to={drillTo({ ...drill, action: row.action })}>
              {number(row.qty)}
            </Drill>
          ),
        },
        {
          key: 'rework',
          title: 'Rework',
          align: 'right',
          render: (_, row) =>
            row.rework === 0 ? (
              '0'
            ) : (
              <Drill allowed to={drillTo({ ...drill, action: row.action, rework: true })}>
                {number(row.rework)}
              </Drill>
            ),
        },
        {
          key: 'rate',
          title: 'Rework rate',
          align: 'right',
          render: (_, row) => `${(row.rate * 100).toFixed(1)} %`,
        },
      ]}
    />
  );
}
