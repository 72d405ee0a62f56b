import type { AccessoryDashboard } from '@inventory/contract';
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

type Week = AccessoryDashboard['weeks'][number];

/**
 * Units consumed and received per week (recharts, loaded with this chart only: decision in the
 * stock area's notes). A bar opens the SKUs behind it; the same figures are in the table below.
 */
export default function WeeklyConsumptionChart({
  weeks,
  onWeek,
}: {
  weeks: readonly Week[];
  onWeek: (week: string) => void;
}) {
  const open = (bar: { payload?: Week }) => {
    if (bar.payload) onWeek(bar.payload.week);
  };
  return (
    <ResponsiveContainer width="100%" height={260}>
      <BarChart data={[...weeks]} margin={{ top: 8, right: 16, bottom: 8, left: 0 }}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="week" tickFormatter={(week: string) => week.slice(5)} />
        <YAxis allowDecimals={false} />
        <Tooltip labelFormatter={(week) => `Week of ${String(week)}`} />
        {/* The legend's words in the text colour: the bars' colours are too light for text. */}
        <Legend formatter={(value: string) => <span style={{ color: '#262626' }}>{value}</span>} />
        <Bar
          dataKey="consumed"
          name="Consumed"
          fill="#0958d9"
          cursor="pointer"
          onClick={open}
          isAnimationActive={false}
        />
        <Bar
          dataKey="received"
          name="Received"
          fill="#237804"
          cursor="pointer"
          onClick={open}
          isAnimationActive={false}
        />
      </BarChart>
    </ResponsiveContainer>
  );
}
