import {
  WORK_ACTION_TEXT,
  WORK_REPORT_COLUMNS,
  type WorkAction,
  type WorkReport,
} from '@inventory/contract';
import type { ReactNode } from 'react';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';

/*
 * The working report's chart (recharts, decision 0018): the only module of the page that imports
 * the library, loaded lazily after the figures. A bar's part opens the work behind it, as the
 * count in the table beside it does.
 */

type Day = WorkReport['days'][number];

/** One colour per action the table shows, distinguishable side by side. */
const COLORS: Record<(typeof WORK_REPORT_COLUMNS)[number], string> = {
  receive_scan: '#1677ff',
  grade: '#389e0d',
  consolidate: '#d48806',
  pick: '#531dab',
  label: '#c41d7f',
  scan_ship: '#006d75',
  unpack: '#d4380d',
  repair: '#08979c',
  test: '#7cb305',
};

/** The legend's words in the text colour: the bars' colours are for bars, not for text. */
const legendText = (value: string): ReactNode => <span style={{ color: '#262626' }}>{value}</span>;

/** The team's units per business day, oldest first, stacked by action. */
export function WorkPerDayChart({
  days,
  onSelect,
}: {
  /** The days of one team, newest first as the report answers them. */
  days: readonly Day[];
  onSelect: (day: string, action: WorkAction) => void;
}) {
  const data = [...days]
    .reverse()
    .map((row) => ({ ...row.counts, day: row.day, label: row.day.slice(5) }));
  return (
    <ResponsiveContainer width="100%" height={300}>
      <BarChart data={data} margin={{ top: 8, right: 16, bottom: 8, left: 0 }}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="label" minTickGap={12} />
        <YAxis allowDecimals={false} />
        <Tooltip />
        <Legend formatter={legendText} />
        {WORK_REPORT_COLUMNS.map((action) => (
          <Bar
            key={action}
            dataKey={action}
            stackId="work"
            name={WORK_ACTION_TEXT[action]}
            fill={COLORS[action]}
            cursor="pointer"
            isAnimationActive={false}
            onClick={(bar: { payload?: { day: string } }) => {
              if (bar.payload) onSelect(bar.payload.day, action);
            }}
          />
        ))}
      </BarChart>
    </ResponsiveContainer>
  );
}
