import {
  HOLD_REASON_TEXT,
  hourText,
  QUEUE_STAGE_TEXT,
  QUEUE_STAGES,
  type FulfilmentFigures,
  type FulfilmentType,
  type OrderHoldReason,
  type QueueStage,
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
import { QUEUE_TEXT } from '../fulfilment-dashboard-text';

/*
 * The fulfilment dashboard's charts (recharts, decision 0018): this module is the only one of the
 * page that imports the library, and the page loads it lazily, after the figures' tables. A bar
 * that stands for a list drills down to it, as the tables beside the charts do.
 */

type Queue = FulfilmentFigures['queues'][number];
type Backlog = FulfilmentFigures['backlog'][number];
type Hour = FulfilmentFigures['throughput']['by_hour'][number];

/** A stage's colour, dark enough to tell apart on white, in the pipeline's order. */
const STAGE_COLORS: Record<QueueStage, string> = {
  ready: '#003eb3',
  assigned: '#1677ff',
  in_progress: '#722ed1',
  fulfilled: '#006d75',
  labeled: '#ad4e00',
};

/** The legend's words in the text colour: the bars' colours are for bars, not for text. */
const legendText = (value: string): ReactNode => <span style={{ color: '#262626' }}>{value}</span>;

/** What each queue holds now, one bar per queue, its stages stacked. */
export function QueueChart({
  queues,
  onSelect,
}: {
  queues: readonly Queue[];
  onSelect: (type: FulfilmentType, stage: QueueStage) => void;
}) {
  const data = queues.map((queue) => ({ ...queue, queue: QUEUE_TEXT[queue.fulfilment_type] }));
  return (
    <ResponsiveContainer width="100%" height={Math.max(160, 36 * data.length + 70)}>
      <BarChart data={data} layout="vertical" margin={{ top: 8, right: 16, bottom: 8, left: 8 }}>
        <CartesianGrid strokeDasharray="3 3" horizontal={false} />
        <XAxis type="number" allowDecimals={false} />
        <YAxis type="category" dataKey="queue" width={130} />
        <Tooltip />
        {/* Stages in the pipeline's order, as the bars stack them. */}
        <Legend
          formatter={legendText}
          itemSorter={(item) => QUEUE_STAGES.indexOf(item.dataKey as QueueStage)}
        />
        {QUEUE_STAGES.map((stage) => (
          <Bar
            key={stage}
            dataKey={stage}
            name={QUEUE_STAGE_TEXT[stage]}
            stackId="stages"
            fill={STAGE_COLORS[stage]}
            cursor="pointer"
            isAnimationActive={false}
            onClick={(bar: { payload?: Queue }) => {
              if (bar.payload) onSelect(bar.payload.fulfilment_type, stage);
            }}
          />
        ))}
      </BarChart>
    </ResponsiveContainer>
  );
}

/** Orders on hold by reason, beside those of them past their SLA. */
export function BacklogChart({
  backlog,
  onSelect,
}: {
  backlog: readonly Backlog[];
  onSelect: (reason: OrderHoldReason) => void;
}) {
  const data = backlog.map((row) => ({ ...row, reason: HOLD_REASON_TEXT[row.hold_reason] }));
  const open = (bar: { payload?: Backlog }) => {
    if (bar.payload) onSelect(bar.payload.hold_reason);
  };
  return (
    <ResponsiveContainer width="100%" height={240}>
      <BarChart data={data} margin={{ top: 8, right: 16, bottom: 8, left: 0 }}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="reason" />
        <YAxis allowDecimals={false} />
        <Tooltip />
        <Legend formatter={legendText} />
        <Bar
          dataKey="orders"
          name="On hold"
          fill="#0958d9"
          cursor="pointer"
          onClick={open}
          isAnimationActive={false}
        />
        <Bar
          dataKey="sla_breached"
          name="Past SLA"
          fill="#a8071a"
          cursor="pointer"
          onClick={open}
          isAnimationActive={false}
        />
      </BarChart>
    </ResponsiveContainer>
  );
}

/** The day's picks, labels and scan-outs per hour of the business day. */
export function ThroughputChart({ hours }: { hours: readonly Hour[] }) {
  const data = hours.map((hour) => ({ ...hour, label: hourText(hour.hour) }));
  return (
    <ResponsiveContainer width="100%" height={260}>
      <BarChart data={data} margin={{ top: 8, right: 16, bottom: 8, left: 0 }}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="label" interval={2} />
        <YAxis allowDecimals={false} />
        <Tooltip />
        <Legend formatter={legendText} />
        <Bar dataKey="picked" name="Units picked" fill="#722ed1" isAnimationActive={false} />
        <Bar dataKey="labelled" name="Labels" fill="#ad4e00" isAnimationActive={false} />
        <Bar dataKey="scanned_out" name="Scanned out" fill="#006d75" isAnimationActive={false} />
      </BarChart>
    </ResponsiveContainer>
  );
}
