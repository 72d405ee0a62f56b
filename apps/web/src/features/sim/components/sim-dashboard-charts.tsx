import { simLifecycle, type SimDashboard } from '@inventory/contract';
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
 * The SIM dashboard's charts (recharts, decision 0018): the only module of the dashboard that
 * imports the library, loaded lazily by the page. Every bar drills down to the list behind it, as
 * the tables beside the charts do.
 */

/** Colours dark enough to tell apart on white, one per carrier. */
const CARRIER_COLORS = ['#0958d9', '#722ed1', '#006d75', '#ad4e00', '#a8071a', '#434343'];

const legendText = (value: string): ReactNode => <span style={{ color: '#262626' }}>{value}</span>;

/** SIMs per status, each carrier's share stacked; a bar opens the SIM list filtered so. */
export function StatusChart({
  figures,
  onSelect,
}: {
  figures: SimDashboard;
  onSelect: (status: string, carrierId: number) => void;
}) {
  const statuses = [...new Set(figures.by_status.map((row) => row.status))];
  const data = statuses.map((status) => ({
    status,
    label: simLifecycle.stateText(status),
    ...Object.fromEntries(
      figures.by_status
        .filter((row) => row.status === status)
        .map((row) => [`c${row.client_carrier_id}`, row.sims]),
    ),
  }));
  return (
    <ResponsiveContainer width="100%" height={260}>
      <BarChart data={data} margin={{ top: 8, right: 16, bottom: 8, left: 0 }}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="label" />
        <YAxis allowDecimals={false} />
        <Tooltip />
        <Legend formatter={legendText} />
        {figures.carriers.map((carrier, index) => (
          <Bar
            key={carrier.id}
            dataKey={`c${carrier.id}`}
            name={carrier.name}
            stackId="carriers"
            fill={CARRIER_COLORS[index % CARRIER_COLORS.length]}
            cursor="pointer"
            isAnimationActive={false}
            onClick={(bar: { payload?: { status: string } }) => {
              if (bar.payload) onSelect(bar.payload.status, carrier.id);
            }}
          />
        ))}
      </BarChart>
    </ResponsiveContainer>
  );
}

/** Activations per business day over the last 30 days. */
export function ActivationsChart({ days }: { days: SimDashboard['activations']['by_day'] }) {
  const data = days.map((day) => ({ ...day, label: day.day.slice(5) }));
  return (
    <ResponsiveContainer width="100%" height={220}>
      <BarChart data={data} margin={{ top: 8, right: 16, bottom: 8, left: 0 }}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="label" minTickGap={12} />
        <YAxis allowDecimals={false} />
        <Tooltip />
        <Bar dataKey="sims" name="Activations" fill="#0958d9" isAnimationActive={false} />
      </BarChart>
    </ResponsiveContainer>
  );
}

/** SIMs each agent holds, not yet assigned and assigned stacked, most first (the top 15). */
export function AgentsChart({
  agents,
  onSelect,
}: {
  agents: SimDashboard['agents'];
  onSelect: (agentId: number) => void;
}) {
  const shown = agents.filter((agent) => agent.on_hand > 0).slice(0, 15);
  return (
    <ResponsiveContainer width="100%" height={Math.max(160, 28 * shown.length + 60)}>
      <BarChart data={shown} layout="vertical" margin={{ top: 8, right: 16, bottom: 8, left: 8 }}>
        <CartesianGrid strokeDasharray="3 3" horizontal={false} />
        <XAxis type="number" allowDecimals={false} />
        <YAxis type="category" dataKey="agent_name" width={140} />
        <Tooltip />
        <Legend formatter={legendText} />
        {(
          [
            ['with_agent', 'Not yet assigned', '#0958d9'],
            ['assigned', 'Assigned', '#722ed1'],
          ] as const
        ).map(([key, name, fill]) => (
          <Bar
            key={key}
            dataKey={key}
            name={name}
            stackId="held"
            fill={fill}
            cursor="pointer"
            isAnimationActive={false}
            onClick={(bar: { payload?: { agent_id: number } }) => {
              if (bar.payload) onSelect(bar.payload.agent_id);
            }}
          />
        ))}
      </BarChart>
    </ResponsiveContainer>
  );
}
