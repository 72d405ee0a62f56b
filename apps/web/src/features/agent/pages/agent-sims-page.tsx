import { SIM_STATUSES, simLifecycle, type AgentSim } from '@inventory/contract';
import {
  Alert,
  Button,
  Card,
  Drawer,
  Empty,
  Input,
  List,
  Select,
  Space,
  Spin,
  Switch,
  Tag,
  Timeline,
  Typography,
} from 'antd';
import type { PageProps } from '../../../shell/page-types';
import { PAGE_TITLE_STYLE } from '../../../shell/page-styles';
import { useUrlParam } from '../../../shell/use-url-state';
import { when } from '../../../toolkit/format';
import { ListPager } from '../../../toolkit/list-pager';
import { useListUrlState } from '../../../toolkit/list-url-state';
import { useAgentSim, useAgentSims } from '../api/agent-portal.queries';

const FILTERS = ['status', 'held_over'] as const;

/** The states an agent's SIM may be in, as the filter offers them. */
const STATUS_OPTIONS = SIM_STATUSES.map((status) => ({
  value: status,
  label: simLifecycle.stateText(status),
}));

const STATUS_COLORS: Partial<Record<AgentSim['status'], string>> = {
  with_agent: 'blue',
  assigned: 'purple',
  active: 'green',
  inactive: 'default',
  suspended: 'orange',
};

function SimLine({ sim, onOpen }: { sim: AgentSim; onOpen: () => void }) {
  return (
    <List.Item
      data-testid="agent-sim"
      data-held-over={sim.held_over}
      style={sim.held_over ? { background: '#fff7e6' } : undefined}
      actions={[
        <Button key="open" type="link" onClick={onOpen} aria-label={`Open SIM ${sim.iccid}`}>
          Open
        </Button>,
      ]}
    >
      <List.Item.Meta
        title={<span style={{ fontFamily: 'monospace' }}>{sim.iccid}</span>}
        description={
          <Space wrap size={4}>
            <Tag color={STATUS_COLORS[sim.status] ?? 'default'}>
              {simLifecycle.stateText(sim.status)}
            </Tag>
            <span>{sim.client_carrier}</span>
            <span>· {sim.days_held === 1 ? '1 day' : `${sim.days_held} days`} held</span>
            {sim.held_over && <Tag color="orange">Held over: use or return it</Tag>}
          </Space>
        }
      />
    </List.Item>
  );
}

/** One of the agent's SIMs with its steps; another agent's is not found. */
function SimDrawer({ iccid, onClose }: { iccid: string | null; onClose: () => void }) {
  const sim = useAgentSim(iccid);
  return (
    <Drawer open={iccid !== null} onClose={onClose} title={`SIM ${iccid ?? ''}`} size="default">
      {sim.isError ? (
        <Alert
          type="error"
          showIcon
          title="SIM not found"
          description={sim.error.message}
          data-testid="sim-not-found"
        />
      ) : !sim.data ? (
        <Spin />
      ) : (
        <>
          <Card size="small" style={{ marginBottom: 16 }}>
            <Space direction="vertical" size={2}>
              <Typography.Text>
                Status: <Tag>{simLifecycle.stateText(sim.data.sim.status)}</Tag>
              </Typography.Text>
              <Typography.Text>Carrier: {sim.data.sim.client_carrier}</Typography.Text>
              <Typography.Text>Held since {when(sim.data.sim.held_since)}</Typography.Text>
              {sim.data.sim.request_number && (
                <Typography.Text>Request {sim.data.sim.request_number}</Typography.Text>
              )}
              {sim.data.sim.enrolment_ref && (
                <Typography.Text>Enrolment reference {sim.data.sim.enrolment_ref}</Typography.Text>
              )}
              {sim.data.sim.paired_imei && (
                <Typography.Text>Phone IMEI {sim.data.sim.paired_imei}</Typography.Text>
              )}
            </Space>
          </Card>
          <Timeline
            items={sim.data.steps.map((step) => ({
              children: `${when(step.at)}: ${step.type.replaceAll('_', ' ')}`,
            }))}
          />
        </>
      )}
    </Drawer>
  );
}

/** The agent's SIMs (DOMAIN.md 7 "My SIMs"): status, carrier, days held; held over highlighted. */
export default function AgentSimsPage({ entry }: PageProps) {
  const [state, update] = useListUrlState(FILTERS);
  const [iccid, setIccid] = useUrlParam('iccid');
  const limit = Number(state.limit ?? 20);
  const { page, count } = useAgentSims({ ...state, limit: String(limit) });
  return (
    <>
      <Typography.Title level={1} style={{ ...PAGE_TITLE_STYLE, marginBottom: 12 }}>
        {entry.label}
      </Typography.Title>
      <Space direction="vertical" style={{ width: '100%', marginBottom: 12 }}>
        <Input.Search
          aria-label="Find an ICCID"
          placeholder="Find an ICCID"
          allowClear
          defaultValue={state.search}
          onSearch={(search) => update({ search })}
        />
        <Space wrap>
          <Select
            aria-label="Status"
            placeholder="Any status"
            allowClear
            style={{ minWidth: 160 }}
            value={state.status}
            options={STATUS_OPTIONS}
            onChange={(status?: string) => update({ status })}
          />
          <label style={{ display: 'inline-flex', alignItems: 'center', gap: 8 }}>
            <Switch
              checked={state.held_over === 'true'}
              onChange={(checked) => update({ held_over: checked ? 'true' : undefined })}
            />
            Held over only
          </label>
        </Space>
      </Space>
      {page.isError ? (
        <Alert
          type="error"
          showIcon
          title="Your SIMs could not be loaded."
          description={page.error.message}
          action={<Button onClick={() => void page.refetch()}>Try again</Button>}
        />
      ) : (
        <List
          bordered
          loading={page.isPending}
          dataSource={page.data?.items ?? []}
          locale={{
            emptyText: (
              <Empty
                description={
                  state.status || state.held_over || state.search
                    ? 'No SIM of yours matches: clear the filters.'
                    : 'You hold no SIMs yet: request some from the home page.'
                }
              />
            ),
          }}
          renderItem={(sim) => <SimLine sim={sim} onOpen={() => setIccid(sim.iccid)} />}
        />
      )}
      <ListPager
        noun={{ singular: 'SIM', plural: 'SIMs' }}
        count={count.data}
        page={page.data}
        cursor={state.cursor}
        limit={limit}
        onChange={update}
      />
      <SimDrawer iccid={iccid ?? null} onClose={() => setIccid(undefined)} />
    </>
  );
}
