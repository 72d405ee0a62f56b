import type { RepairStatistics } from '@inventory/contract';
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
import { ticketStatusText } from './ticket-parts';

/*
 * The repair dashboard's charts (recharts, decision 0018): the only module of the repair pages
 * that imports the library; the dashboard loads it lazily, after its tables.
 */

const legendText = (value: string): ReactNode => <span style={{ color: '#262626' }}>{value}</span>;

/** Tickets raised and closed per day of the range. */
export function ThroughputChart({ days }: { days: RepairStatistics['days'] }) {
  return (
    <ResponsiveContainer width="100%" height={240}>
      <BarChart data={[...days]} margin={{ top: 8, right: 16, bottom: 8, left: 0 }}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="day" />
        <YAxis allowDecimals={false} />
        <Tooltip />
        <Legend formatter={legendText} />
        <Bar dataKey="requested" name="Raised" fill="#0958d9" isAnimationActive={false} />
        <Bar dataKey="closed" name="Closed" fill="#389e0d" isAnimationActive={false} />
      </BarChart>
    </ResponsiveContainer>
  );
}

/** Open tickets per state, the ones open three days or more apart. */
export function OpenTicketsChart({ states }: { states: RepairStatistics['open_by_state'] }) {
  const data = states.map((state) => ({
    state: ticketStatusText(state.status),
    recent: state.tickets - state.older_than_3_days,
    old: state.older_than_3_days,
  }));
  return (
    <ResponsiveContainer width="100%" height={240}>
      <BarChart data={data} margin={{ top: 8, right: 16, bottom: 8, left: 0 }}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="state" />
        <YAxis allowDecimals={false} />
        <Tooltip />
        <Legend formatter={legendText} />
        <Bar
          dataKey="recent"
          name="Under 3 days"
          stackId="age"
          fill="#0958d9"
          isAnimationActive={false}
        />
        <Bar
          dataKey="old"
          name="3 days or more"
          stackId="age"
          fill="#a8071a"
          isAnimationActive={false}
        />
      </BarChart>
    </ResponsiveContainer>
  );
}
