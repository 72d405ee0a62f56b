import type { DashboardWidgets } from '@inventory/contract';
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
 * The main dashboard's chart (recharts, decision 0018): this module is the only one of the page
 * that imports the library, and the page loads it lazily, after the figures. A day's bars drill
 * down to the orders received that day, as the table beside the chart does.
 */

type Day = NonNullable<DashboardWidgets['shipped_received']>['by_day'][number];

const COLORS = { received: '#1677ff', shipped: '#006d75' } as const;

/** The legend's words in the text colour: the bars' colours are for bars, not for text. */
const legendText = (value: string): ReactNode => <span style={{ color: '#262626' }}>{value}</span>;

/** Orders received and shipped per business day, side by side. */
export function ShippedReceivedChart({
  days,
  onSelect,
}: {
  days: readonly Day[];
  onSelect: (day: string) => void;
}) {
  const data = days.map((row) => ({ ...row, label: row.day.slice(5) }));
  return (
    <ResponsiveContainer width="100%" height={280}>
      <BarChart data={data} margin={{ top: 8, right: 16, bottom: 8, left: 0 }}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="label" minTickGap={12} />
        <YAxis allowDecimals={false} />
        <Tooltip />
        <Legend formatter={legendText} />
        {(['received', 'shipped'] as const).map((figure) => (
          <Bar
            key={figure}
            dataKey={figure}
            name={figure === 'received' ? 'Received' : 'Shipped'}
            fill={COLORS[figure]}
            cursor="pointer"
            isAnimationActive={false}
            onClick={(bar: { payload?: Day }) => {
              if (bar.payload) onSelect(bar.payload.day);
            }}
          />
        ))}
      </BarChart>
    </ResponsiveContainer>
  );
}
