import type { UnpackStatistics } from '@inventory/contract';
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
 * The unpack statistics' charts (recharts, decision 0018): the only module of the page that
 * imports the library, loaded lazily after the tables.
 */

/** Returns, mismatches and empty parcels per day. */
export function ReturnsByDayChart({ days }: { days: UnpackStatistics['by_day'] }) {
  return (
    <ResponsiveContainer width="100%" height={240}>
      <BarChart data={days} margin={{ top: 8, right: 16, bottom: 8, left: 0 }}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="day" />
        <YAxis allowDecimals={false} />
        <Tooltip />
        <Legend />
        <Bar dataKey="returns" name="Returns" fill="#1677ff" isAnimationActive={false} />
        <Bar dataKey="mismatches" name="Mismatches" fill="#ad4e00" isAnimationActive={false} />
        <Bar dataKey="empties" name="Empty" fill="#722ed1" isAnimationActive={false} />
      </BarChart>
    </ResponsiveContainer>
  );
}

/** Returns per group (carrier, reason, client carrier), one bar each. */
export function ReturnsByGroupChart({
  rows,
}: {
  rows: readonly { readonly group: string; readonly returns: number }[];
}) {
  return (
    <ResponsiveContainer width="100%" height={Math.max(140, 32 * rows.length + 60)}>
      <BarChart
        data={[...rows]}
        layout="vertical"
        margin={{ top: 8, right: 16, bottom: 8, left: 8 }}
      >
        <CartesianGrid strokeDasharray="3 3" horizontal={false} />
        <XAxis type="number" allowDecimals={false} />
        <YAxis type="category" dataKey="group" width={160} />
        <Tooltip />
        <Bar dataKey="returns" name="Returns" fill="#1677ff" isAnimationActive={false} />
      </BarChart>
    </ResponsiveContainer>
  );
}
