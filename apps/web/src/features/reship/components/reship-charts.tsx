import type { ReshipStatistics } from '@inventory/contract';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

/*
 * The reship statistics' chart (recharts, as the warehouse dashboard's, decision 0018): the only
 * module of the page that imports the library, loaded lazily after the figures' tables.
 */

/** Reships per day over the range, one bar per day with any. */
export function ReshipsByDayChart({ days }: { days: ReshipStatistics['by_day'] }) {
  return (
    <ResponsiveContainer width="100%" height={240}>
      <BarChart data={[...days]} margin={{ top: 8, right: 16, bottom: 8, left: 8 }}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="day" />
        <YAxis allowDecimals={false} />
        <Tooltip />
        <Bar dataKey="reships" name="Reships" fill="#003eb3" isAnimationActive={false} />
      </BarChart>
    </ResponsiveContainer>
  );
}
