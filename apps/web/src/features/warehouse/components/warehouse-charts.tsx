import {
  DEVICE_GRADES,
  STOCK_AGE_BUCKETS,
  type StockAgeBucket,
  type WarehouseFigures,
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
 * The warehouse dashboard's charts (recharts, decision 0018): this module is the only one of the
 * dashboard that imports the library, and the page loads it lazily, after the figures' tables.
 * Every bar drills down to the list behind it, as the tables beside the charts do.
 */

type Model = WarehouseFigures['rts']['by_model'][number];
type Zone = WarehouseFigures['boxes']['by_zone'][number];
type Age = WarehouseFigures['stock_age'][number];

/** A grade's colour, dark enough to tell apart on white. */
const GRADE_COLORS: Record<string, string> = {
  New: '#006d75',
  'A+': '#1677ff',
  A: '#003eb3',
  B: '#722ed1',
  C: '#ad4e00',
  D: '#a8071a',
  F: '#434343',
};
const UNGRADED = 'Ungraded';

/** The legend's words in the text colour: the bars' colours are for bars, not for text. */
const legendText = (value: string): ReactNode => <span style={{ color: '#262626' }}>{value}</span>;

/** Ready-to-sell units of the models given, one bar per model, its grades stacked. */
export function RtsChart({
  models: shown,
  onSelect,
}: {
  models: readonly Model[];
  onSelect: (modelId: number, grade: string | null) => void;
}) {
  const grades = [
    ...DEVICE_GRADES.filter((grade) =>
      shown.some((model) => model.by_grade.some((row) => row.grade === grade)),
    ),
    ...(shown.some((model) => model.by_grade.some((row) => row.grade === null)) ? [UNGRADED] : []),
  ];
  const data = shown.map((model) => ({
    model_id: model.model_id,
    model: model.model,
    ...Object.fromEntries(model.by_grade.map((row) => [row.grade ?? UNGRADED, row.units])),
  }));
  return (
    <ResponsiveContainer width="100%" height={Math.max(160, 32 * shown.length + 60)}>
      <BarChart data={data} layout="vertical" margin={{ top: 8, right: 16, bottom: 8, left: 8 }}>
        <CartesianGrid strokeDasharray="3 3" horizontal={false} />
        <XAxis type="number" allowDecimals={false} />
        <YAxis type="category" dataKey="model" width={170} />
        <Tooltip />
        {/* Grades best first, as the bars stack them (the legend sorts by name otherwise). */}
        <Legend
          formatter={legendText}
          itemSorter={(item) => grades.indexOf(String(item.dataKey))}
        />
        {grades.map((grade) => (
          <Bar
            key={grade}
            dataKey={grade}
            name={grade === UNGRADED ? UNGRADED : `Grade ${grade}`}
            stackId="grades"
            fill={GRADE_COLORS[grade] ?? '#8c8c8c'}
            cursor="pointer"
            isAnimationActive={false}
            onClick={(bar: { payload?: { model_id: number } }) => {
              if (bar.payload) onSelect(bar.payload.model_id, grade === UNGRADED ? null : grade);
            }}
          />
        ))}
      </BarChart>
    </ResponsiveContainer>
  );
}

/** Boxes put away per zone beside what the zone's locations hold at most. */
export function ZoneChart({
  zones,
  onSelect,
}: {
  zones: readonly Zone[];
  onSelect: (zoneId: number) => void;
}) {
  const open = (bar: { payload?: Zone }) => {
    if (bar.payload) onSelect(bar.payload.zone_id);
  };
  return (
    <ResponsiveContainer width="100%" height={240}>
      <BarChart data={[...zones]} margin={{ top: 8, right: 16, bottom: 8, left: 0 }}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="zone" />
        <YAxis allowDecimals={false} />
        <Tooltip />
        <Legend formatter={legendText} />
        <Bar
          dataKey="boxes"
          name="Boxes put away"
          fill="#0958d9"
          cursor="pointer"
          onClick={open}
          isAnimationActive={false}
        />
        <Bar
          dataKey="capacity"
          name="Capacity (boxes)"
          fill="#8c8c8c"
          cursor="pointer"
          onClick={open}
          isAnimationActive={false}
        />
      </BarChart>
    </ResponsiveContainer>
  );
}

const AGE_LABELS = new Map(STOCK_AGE_BUCKETS.map((bucket) => [bucket.key, bucket.label]));

/** Units in stock by days since their receipt. */
export function AgeChart({
  ages,
  onSelect,
}: {
  ages: readonly Age[];
  onSelect: (bucket: StockAgeBucket) => void;
}) {
  const data = ages.map((age) => ({ ...age, label: AGE_LABELS.get(age.bucket) }));
  return (
    <ResponsiveContainer width="100%" height={240}>
      <BarChart data={data} margin={{ top: 8, right: 16, bottom: 8, left: 0 }}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="label" />
        <YAxis allowDecimals={false} />
        <Tooltip />
        <Bar
          dataKey="units"
          name="Units in stock"
          fill="#0958d9"
          cursor="pointer"
          isAnimationActive={false}
          onClick={(bar: { payload?: Age }) => {
            if (bar.payload) onSelect(bar.payload.bucket);
          }}
        />
      </BarChart>
    </ResponsiveContainer>
  );
}
