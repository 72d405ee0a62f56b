import {
  AGENT_CART_ACCESS,
  AGENT_PORTAL_ACCESS,
  AGENT_SIM_ASSIGN_ACCESS,
  AGENT_SIM_RECEIVE_ACCESS,
  AGENT_SIM_REQUEST_ACCESS,
  AGENT_SIM_RETURN_ACCESS,
  type Access,
  type AgentHome,
} from '@inventory/contract';
import { Alert, Button, Card, Empty, List, Spin, Statistic, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { PAGE_TITLE_STYLE } from '../../../shell/page-styles';
import { useCan } from '../../../shell/use-can';
import { useAgentHome } from '../api/agent-portal.queries';

const GRID = {
  display: 'grid',
  gridTemplateColumns: 'repeat(auto-fill, minmax(150px, 1fr))',
  gap: 12,
} as const;

/** The quick buttons of the home page, each shown to an agent allowed to use it. */
const QUICK: readonly { label: string; to: string; access: Access; primary?: boolean }[] = [
  {
    label: 'Record activation',
    to: '/agent/activate',
    access: AGENT_SIM_ASSIGN_ACCESS,
    primary: true,
  },
  { label: 'Request SIMs', to: '/agent/request', access: AGENT_SIM_REQUEST_ACCESS },
  { label: 'Receive', to: '/agent/receive', access: AGENT_SIM_RECEIVE_ACCESS },
  { label: 'Returns', to: '/agent/returns', access: AGENT_SIM_RETURN_ACCESS },
  { label: 'Shop', to: '/agent/shop', access: AGENT_CART_ACCESS },
  { label: 'My SIMs', to: '/agent/sims', access: AGENT_PORTAL_ACCESS },
  { label: 'History', to: '/agent/history', access: AGENT_PORTAL_ACCESS },
  { label: 'Profile', to: '/agent/profile', access: AGENT_PORTAL_ACCESS },
];

function QuickButton({ label, to, access, primary }: (typeof QUICK)[number]) {
  const navigate = useNavigate();
  if (!useCan(access)) return null;
  return (
    <Button
      type={primary ? 'primary' : 'default'}
      size="large"
      block
      onClick={() => void navigate(to)}
    >
      {label}
    </Button>
  );
}

/** A figure of the home page; `to` opens the list behind it. */
function Figure({
  title,
  value,
  testId,
  to,
  extra,
}: {
  title: string;
  value: ReactNode;
  testId: string;
  to?: string;
  extra?: ReactNode;
}) {
  const navigate = useNavigate();
  return (
    <Card size="small" data-testid={testId}>
      <Statistic title={title} value={value as number | string} />
      {extra}
      {to && (
        <Button type="link" size="small" style={{ padding: 0 }} onClick={() => void navigate(to)}>
          Open
        </Button>
      )}
    </Card>
  );
}

const percent = (rate: number | null) => (rate === null ? '—' : `${Math.round(rate * 1000) / 10}%`);

function Figures({ home }: { home: AgentHome }) {
  return (
    <>
      <div style={GRID}>
        <Figure
          title="SIMs on hand"
          value={home.on_hand}
          testId="home-on-hand"
          to="/agent/sims"
          extra={
            home.sim_cap !== null && (
              <Typography.Text type="secondary">Cap {home.sim_cap}</Typography.Text>
            )
          }
        />
        <Figure
          title="Requests pending"
          value={home.requests_pending}
          testId="home-requests"
          to="/agent/request"
        />
        <Figure
          title="In transit"
          value={home.in_transit.sims}
          testId="home-in-transit"
          to="/agent/receive"
          extra={
            <Typography.Text type="secondary">
              {home.in_transit.requests === 1
                ? '1 shipment'
                : `${home.in_transit.requests} shipments`}
            </Typography.Text>
          }
        />
        <Figure
          title={`Returns due (held over ${home.hold_days} days)`}
          value={home.returns_due}
          testId="home-returns-due"
          to="/agent/sims?held_over=true"
        />
        <Figure title="Activations today" value={home.activations.today} testId="home-act-today" />
        <Figure
          title="Activations, 7 days"
          value={home.activations.last_7_days}
          testId="home-act-7"
        />
        <Figure
          title="Activations, 30 days"
          value={home.activations.last_30_days}
          testId="home-act-30"
        />
        <Figure
          title="Activation rate"
          value={percent(home.activation_rate)}
          testId="home-rate"
          extra={
            <Typography.Text type="secondary">
              {home.activated} activated of {home.received} received
            </Typography.Text>
          }
        />
      </div>
      <Typography.Title level={2} style={{ fontSize: 18, marginTop: 20 }}>
        On hand by carrier
      </Typography.Title>
      {home.by_carrier.length === 0 ? (
        <Empty description="You hold no SIMs: request some to start." />
      ) : (
        <List
          bordered
          size="small"
          dataSource={home.by_carrier}
          renderItem={(row) => (
            <List.Item data-testid="home-carrier">
              <List.Item.Meta
                title={row.client_carrier}
                description={`${row.with_agent} not yet assigned · ${row.assigned} assigned`}
              />
              <Typography.Text strong>{row.with_agent + row.assigned}</Typography.Text>
            </List.Item>
          )}
        />
      )}
    </>
  );
}

/** The agent's home (DOMAIN.md 7): the agent's own figures and the way to each task. */
export default function AgentHomePage() {
  const home = useAgentHome();
  return (
    <>
      <Typography.Title level={1} style={{ ...PAGE_TITLE_STYLE, marginBottom: 12 }}>
        Home
      </Typography.Title>
      <nav aria-label="Tasks" style={{ ...GRID, marginBottom: 16 }}>
        {QUICK.map((quick) => (
          <QuickButton key={quick.to} {...quick} />
        ))}
      </nav>
      {home.isError ? (
        <Alert
          type="error"
          showIcon
          title="Your figures could not be loaded."
          description={home.error.message}
          action={<Button onClick={() => void home.refetch()}>Try again</Button>}
        />
      ) : home.data ? (
        <Figures home={home.data} />
      ) : (
        <Spin />
      )}
    </>
  );
}
