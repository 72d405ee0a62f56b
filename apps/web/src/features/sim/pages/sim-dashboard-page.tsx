import {
  SIM_ACCESS,
  SIM_REQUEST_ACCESS,
  SIM_REQUEST_APPROVE_ACCESS,
  SIM_RETURN_ACCESS,
  simDashboardExportEndpoint,
  simLifecycle,
  simRequestLifecycle,
  type AgentAddress,
  type AgentAddressChange,
  type SimDashboard,
  type SimDashboardFile,
} from '@inventory/contract';
import {
  Alert,
  Button,
  Card,
  Dropdown,
  Empty,
  Form,
  Input,
  List,
  Modal,
  Skeleton,
  Space,
  Spin,
  Statistic,
  Table,
  Tag,
  Typography,
} from 'antd';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { showApiError } from '../../../shell/api-errors';
import { callEndpoint } from '../../../shell/http-client';
import { notify } from '../../../shell/notify';
import type { PageProps } from '../../../shell/page-types';
import { PAGE_TITLE_STYLE } from '../../../shell/page-styles';
import { useCan } from '../../../shell/use-can';
import { when } from '../../../toolkit/format';
import { startDownload } from '../../../toolkit/resource-queries';
import {
  useAddressChanges,
  useDecideAddressChange,
  useSimDashboard,
} from '../api/sim-dashboard.queries';
import { simRequestsLink, simReturnsLink, simsLink } from '../sim-dashboard-links';

const charts = () => import('../components/sim-dashboard-charts');
const StatusChart = lazy(() => charts().then((module) => ({ default: module.StatusChart })));
const AgentsChart = lazy(() => charts().then((module) => ({ default: module.AgentsChart })));
const ActivationsChart = lazy(() =>
  charts().then((module) => ({ default: module.ActivationsChart })),
);

const GRID = {
  display: 'grid',
  gridTemplateColumns: 'repeat(auto-fill, minmax(180px, 1fr))',
  gap: 12,
  marginBottom: 16,
} as const;

const percent = (rate: number | null) => (rate === null ? '—' : `${Math.round(rate * 1000) / 10}%`);

/** A number that opens the list behind it for those who may open it. */
function Drill({ to, can, children }: { to: string; can: boolean; children: ReactNode }) {
  return can ? <Link to={to}>{children}</Link> : <>{children}</>;
}

/** One table of the dashboard as CSV or Excel. */
function ExportButton({ file, title }: { file: SimDashboardFile; title: string }) {
  const exportAs = async (format: 'csv' | 'xlsx') => {
    try {
      const link = await callEndpoint(simDashboardExportEndpoint, {
        body: { widget: file, format },
      });
      startDownload(link.data);
      notify.success(`${title} is downloading.`);
    } catch (error) {
      showApiError(error);
    }
  };
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        items: [
          { key: 'csv', label: 'CSV' },
          { key: 'xlsx', label: 'Excel (XLSX)' },
        ],
        onClick: ({ key }) => void exportAs(key as 'csv' | 'xlsx'),
      }}
    >
      <Button size="small" aria-label={`Export ${title}`}>
        Export
      </Button>
    </Dropdown>
  );
}

function Section({
  title,
  file,
  chart,
  children,
}: {
  title: string;
  file?: SimDashboardFile;
  chart?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Card
      size="small"
      style={{ marginBottom: 16 }}
      title={<h2 style={{ fontSize: 16, margin: 0 }}>{title}</h2>}
      extra={file && <ExportButton file={file} title={title} />}
    >
      {chart && (
        <div data-testid="sim-chart" style={{ marginBottom: 12 }}>
          <Suspense fallback={<Skeleton active paragraph={{ rows: 5 }} />}>{chart}</Suspense>
        </div>
      )}
      {children}
    </Card>
  );
}

const addressText = (address: AgentAddress) =>
  [address.line1, address.line2, `${address.city}, ${address.state} ${address.zip}`]
    .filter(Boolean)
    .join(', ');

/** Agents' new shipping addresses waiting for a coordinator: approve, or reject saying why. */
function AddressChanges() {
  const changes = useAddressChanges(true);
  const { approve, reject } = useDecideAddressChange();
  const [rejecting, setRejecting] = useState<AgentAddressChange | null>(null);
  const [form] = Form.useForm<{ reason: string }>();
  return (
    <Section title="Agents' address changes">
      {changes.isError ? (
        <Alert type="error" showIcon title="The address changes could not be loaded." />
      ) : !changes.data ? (
        <Spin />
      ) : (
        <List
          dataSource={changes.data}
          locale={{ emptyText: <Empty description="No address change is waiting." /> }}
          renderItem={(change) => (
            <List.Item
              data-testid="address-change"
              actions={[
                <Button
                  key="approve"
                  type="primary"
                  loading={approve.isPending && approve.variables === change.id}
                  onClick={() =>
                    approve.mutate(change.id, {
                      onSuccess: () =>
                        notify.success(`${change.agent_name}'s address is approved.`),
                      onError: (error) => showApiError(error),
                    })
                  }
                >
                  Approve
                </Button>,
                <Button key="reject" onClick={() => setRejecting(change)}>
                  Reject
                </Button>,
              ]}
            >
              <List.Item.Meta
                title={`${change.agent_name}: ${addressText(change.address)}`}
                description={`Asked ${when(change.requested_at)} · now ${
                  change.current ? addressText(change.current) : 'no address'
                }`}
              />
            </List.Item>
          )}
        />
      )}
      <Modal
        open={rejecting !== null}
        title={`Reject ${rejecting?.agent_name ?? ''}'s address`}
        okText="Reject"
        confirmLoading={reject.isPending}
        onCancel={() => setRejecting(null)}
        onOk={() => form.submit()}
        destroyOnHidden
      >
        <Form
          form={form}
          layout="vertical"
          onFinish={({ reason }) =>
            reject.mutate(
              { id: rejecting!.id, reason },
              {
                onSuccess: () => {
                  setRejecting(null);
                  form.resetFields();
                },
                onError: (error) => showApiError(error, form),
              },
            )
          }
        >
          <Form.Item
            name="reason"
            label="Why"
            rules={[{ required: true, message: 'Say why, for the agent.' }]}
          >
            <Input.TextArea rows={3} />
          </Form.Item>
        </Form>
      </Modal>
    </Section>
  );
}

function Figures({ figures }: { figures: SimDashboard }) {
  const navigate = useNavigate();
  const canSims = useCan(SIM_ACCESS);
  const canRequests = useCan(SIM_REQUEST_ACCESS);
  const canReturns = useCan(SIM_RETURN_ACCESS);
  const total = figures.by_status.reduce((sum, row) => sum + row.sims, 0);
  const withAgents = figures.agents.reduce((sum, row) => sum + row.on_hand, 0);
  const aged = figures.agents.reduce((sum, row) => sum + row.aged, 0);
  const pendingRequests = figures.requests
    .filter((row) => row.status !== 'shipped')
    .reduce((sum, row) => sum + row.requests, 0);
  const pendingReturns = figures.returns.reduce((sum, row) => sum + row.returns, 0);
  const headline: readonly { title: string; value: string | number; to?: string; can?: boolean }[] =
    [
      { title: 'SIMs', value: total, to: simsLink(), can: canSims },
      { title: 'Held by agents', value: withAgents },
      { title: `Held over ${figures.hold_days} days`, value: aged },
      {
        title: 'Requests pending',
        value: pendingRequests,
        to: simRequestsLink({ status: 'submitted' }),
        can: canRequests,
      },
      { title: 'Activations, 7 days', value: figures.activations.last_7_days },
      { title: 'Activations, 30 days', value: figures.activations.last_30_days },
      {
        title: 'Returns pending',
        value: pendingReturns,
        to: simReturnsLink({ status: 'open' }),
        can: canReturns,
      },
    ];
  return (
    <>
      <div style={GRID}>
        {headline.map((figure) => (
          <Card key={figure.title} size="small" data-testid="sim-headline">
            <Statistic title={figure.title} value={figure.value} />
            {figure.to && figure.can && <Link to={figure.to}>Open the list</Link>}
          </Card>
        ))}
      </div>

      <Section
        title="SIMs by status and carrier"
        file="status"
        chart={
          figures.by_status.length > 0 && (
            <StatusChart
              figures={figures}
              onSelect={(status, carrierId) => {
                if (canSims) void navigate(simsLink({ status, client_carrier_id: carrierId }));
              }}
            />
          )
        }
      >
        <Table
          size="small"
          rowKey={(row) => `${row.client_carrier_id}-${row.status}`}
          dataSource={figures.by_status}
          pagination={false}
          locale={{ emptyText: <Empty description="No SIMs yet: receive a box first." /> }}
          columns={[
            { title: 'Client carrier', dataIndex: 'client_carrier' },
            {
              title: 'Status',
              dataIndex: 'status',
              render: (status: SimDashboard['by_status'][number]['status']) =>
                simLifecycle.stateText(status),
            },
            {
              title: 'SIMs',
              dataIndex: 'sims',
              align: 'right',
              render: (sims: number, row) => (
                <Drill
                  can={canSims}
                  to={simsLink({ status: row.status, client_carrier_id: row.client_carrier_id })}
                >
                  {sims.toLocaleString()}
                </Drill>
              ),
            },
          ]}
        />
      </Section>

      <Section
        title="SIMs per agent"
        file="agents"
        chart={
          withAgents > 0 && (
            <AgentsChart
              agents={figures.agents}
              onSelect={(agentId) => {
                if (canSims) void navigate(simsLink({ agent_id: agentId }));
              }}
            />
          )
        }
      >
        <Table
          size="small"
          rowKey="agent_id"
          dataSource={figures.agents}
          scroll={{ x: 900 }}
          pagination={{ pageSize: 20, hideOnSinglePage: true, showSizeChanger: false }}
          locale={{ emptyText: <Empty description="No agents yet." /> }}
          columns={[
            { title: 'Agent', dataIndex: 'agent_name' },
            {
              title: 'On hand',
              dataIndex: 'on_hand',
              align: 'right',
              render: (value: number, row) => (
                <Drill can={canSims} to={simsLink({ agent_id: row.agent_id })}>
                  {value}
                  {row.sim_cap !== null && ` / ${row.sim_cap}`}
                </Drill>
              ),
            },
            {
              title: 'Not yet assigned',
              dataIndex: 'with_agent',
              align: 'right',
              render: (value: number, row) => (
                <Drill
                  can={canSims}
                  to={simsLink({ agent_id: row.agent_id, status: 'with_agent' })}
                >
                  {value}
                </Drill>
              ),
            },
            {
              title: `Held over ${figures.hold_days} days`,
              dataIndex: 'aged',
              align: 'right',
              render: (value: number) => (value > 0 ? <Tag color="orange">{value}</Tag> : 0),
            },
            { title: 'Received', dataIndex: 'received', align: 'right' },
            { title: 'Activated', dataIndex: 'activated', align: 'right' },
            {
              title: 'Activation rate',
              dataIndex: 'activation_rate',
              align: 'right',
              render: (rate: number | null, row) =>
                row.low_rate ? <Tag color="red">{percent(rate)} low</Tag> : percent(rate),
            },
            { title: '7 days', dataIndex: 'activations_7d', align: 'right' },
            { title: '30 days', dataIndex: 'activations_30d', align: 'right' },
          ]}
        />
      </Section>

      <Section
        title="Activations"
        file="activations"
        chart={<ActivationsChart days={figures.activations.by_day} />}
      >
        <Table
          size="small"
          rowKey="client_carrier_id"
          dataSource={figures.activations.by_carrier}
          pagination={false}
          locale={{ emptyText: <Empty description="No activation in the last 30 days." /> }}
          columns={[
            { title: 'Client carrier', dataIndex: 'client_carrier' },
            {
              title: 'Last 7 days',
              dataIndex: 'last_7_days',
              align: 'right',
              render: (value: number, row) => (
                <Drill
                  can={canSims}
                  to={simsLink({ status: 'active', client_carrier_id: row.client_carrier_id })}
                >
                  {value}
                </Drill>
              ),
            },
            { title: 'Last 30 days', dataIndex: 'last_30_days', align: 'right' },
          ]}
        />
      </Section>

      <Space align="start" wrap style={{ width: '100%' }} styles={{ item: { flex: '1 1 300px' } }}>
        <Section title="Requests waiting">
          <Table
            size="small"
            rowKey="status"
            dataSource={figures.requests}
            pagination={false}
            locale={{ emptyText: <Empty description="No request is waiting." /> }}
            columns={[
              {
                title: 'Status',
                dataIndex: 'status',
                render: (status: SimDashboard['requests'][number]['status']) =>
                  simRequestLifecycle.stateText(status),
              },
              {
                title: 'Requests',
                dataIndex: 'requests',
                align: 'right',
                render: (value: number, row) => (
                  <Drill can={canRequests} to={simRequestsLink({ status: row.status })}>
                    {value}
                  </Drill>
                ),
              },
              { title: 'SIMs', dataIndex: 'sims', align: 'right' },
            ]}
          />
        </Section>
        <Section title="Returns pending">
          <Table
            size="small"
            rowKey="status"
            dataSource={figures.returns}
            pagination={false}
            locale={{ emptyText: <Empty description="No return is waiting." /> }}
            columns={[
              { title: 'Status', dataIndex: 'status' },
              {
                title: 'Returns',
                dataIndex: 'returns',
                align: 'right',
                render: (value: number, row) => (
                  <Drill can={canReturns} to={simReturnsLink({ status: row.status })}>
                    {value}
                  </Drill>
                ),
              },
            ]}
          />
        </Section>
      </Space>
    </>
  );
}

/**
 * The SIM dashboard (DOMAIN.md 4.6): every figure counted as SIMs change, each opening the list
 * behind it; the agents' address changes for the coordinators who decide them.
 */
export default function SimDashboardPage({ entry }: PageProps) {
  const dashboard = useSimDashboard();
  const canDecide = useCan(SIM_REQUEST_APPROVE_ACCESS);
  return (
    <div>
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 12 }} wrap>
        <Typography.Title level={1} style={PAGE_TITLE_STYLE}>
          {entry.label}
        </Typography.Title>
        {dashboard.data && (
          <Typography.Text type="secondary">
            Figures as of {when(dashboard.data.as_of)}
          </Typography.Text>
        )}
      </Space>
      {dashboard.isError ? (
        <Alert
          type="error"
          showIcon
          title="The figures could not be loaded."
          description={dashboard.error.message}
          action={<Button onClick={() => void dashboard.refetch()}>Try again</Button>}
        />
      ) : dashboard.data ? (
        <Figures figures={dashboard.data} />
      ) : (
        <Spin />
      )}
      {canDecide && <AddressChanges />}
    </div>
  );
}
