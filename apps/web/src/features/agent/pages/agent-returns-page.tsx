import {
  SIM_RETURN_FLAG_TEXT,
  SIM_DISPOSITION_TEXT,
  SIM_RETURN_REASONS,
  type SimReturn,
  type SimReturnLine,
  type SimReturnReason,
} from '@inventory/contract';
import {
  Alert,
  Button,
  Card,
  Checkbox,
  Descriptions,
  Empty,
  Input,
  List,
  Popconfirm,
  Radio,
  Space,
  Spin,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { fieldErrorsOf, showApiError } from '../../../shell/api-errors';
import { notify } from '../../../shell/notify';
import { PAGE_TITLE_STYLE } from '../../../shell/page-styles';
import type { PageProps } from '../../../shell/page-types';
import { useUrlParam } from '../../../shell/use-url-state';
import { when } from '../../../toolkit/format';
import { countText } from '../../../toolkit/station';
import {
  openAgentReturnLabel,
  useAgentReturn,
  useAgentReturnActions,
  useAgentReturns,
  useReturnableSims,
} from '../api/agent-returns.queries';

const STATUS_COLORS: Record<SimReturn['status'], string> = {
  open: 'blue',
  receiving: 'gold',
  closed: 'green',
  cancelled: 'default',
};

/** What the agent reads of each status. */
const STATUS_TEXT: Record<SimReturn['status'], string> = {
  open: 'Waiting for the warehouse',
  receiving: 'Being received',
  closed: 'Done',
  cancelled: 'Cancelled',
};

const REASON_TEXT: Record<SimReturnReason, string> = {
  unused: 'Unused',
  defective: 'Defective',
  damaged: 'Damaged',
};

const printLabel = (id: number) => void openAgentReturnLabel(id).catch(showApiError);

/** What became of one SIM of the return, in the agent's words. */
function lineText(line: SimReturnLine): string {
  if (line.flag) return SIM_RETURN_FLAG_TEXT[line.flag];
  if (line.disposition) return SIM_DISPOSITION_TEXT[line.disposition];
  if (line.received_at) return 'Received';
  return 'Not received yet';
}

/** The form of a new return: the agent's SIMs to tick, the reason, a note. */
function NewReturn({ onDone, onCancel }: { onDone: (id: number) => void; onCancel: () => void }) {
  const sims = useReturnableSims(true);
  const { create } = useAgentReturnActions();
  const [chosen, setChosen] = useState<string[]>([]);
  const [reason, setReason] = useState<SimReturnReason | null>(null);
  const [note, setNote] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  const submit = () => {
    setProblem(null);
    if (!reason) {
      setProblem('Choose why the SIMs come back.');
      return;
    }
    create.mutate(
      { reason, note: note.trim() || null, iccids: chosen },
      {
        onSuccess: (detail) => {
          notify.success(`Return ${detail.return.number} is created: print its label.`);
          onDone(detail.return.id);
        },
        onError: (error) => {
          const fields = fieldErrorsOf(error);
          setProblem(
            fields
              ? Object.values(fields).flat().join(' ')
              : error instanceof Error
                ? error.message
                : String(error),
          );
        },
      },
    );
  };

  if (sims.isError) {
    return (
      <Alert
        type="error"
        showIcon
        title="Your SIMs could not be loaded."
        description={sims.error.message}
        action={<Button onClick={() => void sims.refetch()}>Try again</Button>}
      />
    );
  }
  if (!sims.data) return <Spin />;
  const all = sims.data.map((sim) => sim.iccid);
  return (
    <Card title="Return SIMs" size="small">
      {sims.data.length === 0 ? (
        <Empty description="You hold no SIM that can be returned." />
      ) : (
        <Space orientation="vertical" style={{ width: '100%' }}>
          <Checkbox
            checked={chosen.length === all.length}
            indeterminate={chosen.length > 0 && chosen.length < all.length}
            onChange={(event) => setChosen(event.target.checked ? all : [])}
          >
            All your SIMs ({all.length})
          </Checkbox>
          <Checkbox.Group
            aria-label="SIMs to return"
            value={chosen}
            onChange={(values) => setChosen(values)}
            style={{ display: 'flex', flexDirection: 'column', gap: 8 }}
          >
            {sims.data.map((sim) => (
              <div key={sim.iccid} data-testid="returnable-sim">
                <Checkbox value={sim.iccid}>
                  <Typography.Text code>{sim.iccid}</Typography.Text>
                  <br />
                  <Typography.Text type="secondary">
                    {sim.status.replace(/_/g, ' ')} · {sim.carrier} · held {sim.days_held} d
                  </Typography.Text>{' '}
                  {sim.ever_active && <Tag color="volcano">Was active</Tag>}
                </Checkbox>
              </div>
            ))}
          </Checkbox.Group>
          <div>
            <Typography.Text strong id="return-reason">
              Why do they come back?
            </Typography.Text>
            <Radio.Group
              aria-labelledby="return-reason"
              value={reason}
              onChange={(event) => setReason(event.target.value as SimReturnReason)}
              style={{ display: 'flex', gap: 8, flexWrap: 'wrap', marginTop: 4 }}
            >
              {SIM_RETURN_REASONS.map((value) => (
                <Radio.Button key={value} value={value}>
                  {REASON_TEXT[value]}
                </Radio.Button>
              ))}
            </Radio.Group>
          </div>
          <div>
            <label htmlFor="return-note">Note (optional)</label>
            <Input.TextArea
              id="return-note"
              value={note}
              maxLength={500}
              rows={2}
              onChange={(event) => setNote(event.target.value)}
            />
          </div>
        </Space>
      )}
      {problem && (
        <Alert
          type="warning"
          showIcon
          title={problem}
          style={{ marginTop: 12 }}
          data-testid="return-problem"
        />
      )}
      <Space wrap style={{ marginTop: 12 }}>
        {sims.data.length > 0 && (
          <Button
            type="primary"
            disabled={chosen.length === 0}
            loading={create.isPending}
            onClick={submit}
          >
            Return {chosen.length} SIM{chosen.length === 1 ? '' : 's'}
          </Button>
        )}
        <Button onClick={onCancel}>Cancel</Button>
      </Space>
    </Card>
  );
}

/** One of the agent's returns: its label to print or show, its status and its SIMs. */
function ReturnView({ id, onBack }: { id: number; onBack: () => void }) {
  const detail = useAgentReturn(id);
  const { cancel } = useAgentReturnActions();
  if (detail.isError) {
    return (
      <Alert
        type="error"
        showIcon
        title="This return could not be loaded."
        description={detail.error.message}
        action={<Button onClick={onBack}>All returns</Button>}
      />
    );
  }
  if (!detail.data) return <Spin />;
  const { return: found, lines } = detail.data;
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Button onClick={onBack}>All returns</Button>
      <Card size="small" title={`Return ${found.number}`} data-testid="agent-return">
        {/* The label shown: what the warehouse scans on the envelope. */}
        <div
          aria-label="Return label"
          style={{
            border: '2px dashed #8c8c8c',
            padding: 12,
            textAlign: 'center',
            marginBottom: 12,
          }}
        >
          <Typography.Text type="secondary">
            Write on the envelope or print the label
          </Typography.Text>
          <div style={{ fontSize: 28, fontFamily: 'monospace', fontWeight: 700 }}>
            {found.number}
          </div>
          <Typography.Text>
            {countText(found.qty_expected, null)} SIMs · {REASON_TEXT[found.reason]}
          </Typography.Text>
        </div>
        <Descriptions
          size="small"
          column={1}
          items={[
            {
              key: 'status',
              label: 'Status',
              children: (
                <Tag color={STATUS_COLORS[found.status]} data-testid="agent-return-status">
                  {STATUS_TEXT[found.status]}
                </Tag>
              ),
            },
            {
              key: 'received',
              label: 'Received',
              children: countText(found.qty_received, found.qty_expected),
            },
            { key: 'created', label: 'Created', children: when(found.created_at) },
            ...(found.note ? [{ key: 'note', label: 'Note', children: found.note }] : []),
          ]}
        />
        <Space wrap style={{ marginTop: 12 }}>
          <Button type="primary" onClick={() => printLabel(found.id)}>
            Print label
          </Button>
          {found.status === 'open' && (
            <Popconfirm
              title="Cancel this return? The SIMs stay yours."
              okText="Cancel return"
              cancelText="Keep it"
              onConfirm={() =>
                cancel
                  .mutateAsync(found.id)
                  .then(() => notify.success(`Return ${found.number} is cancelled.`), showApiError)
              }
            >
              <Button danger>Cancel return</Button>
            </Popconfirm>
          )}
        </Space>
      </Card>
      <List
        size="small"
        header={<Typography.Text strong>SIMs ({lines.length})</Typography.Text>}
        dataSource={lines}
        renderItem={(line) => (
          <List.Item>
            <Typography.Text code>{line.iccid}</Typography.Text>
            <Tag>{lineText(line)}</Tag>
          </List.Item>
        )}
      />
    </Space>
  );
}

/**
 * The agent's Returns (`/agent/returns`, DOMAIN.md 7): send back SIMs they hold with a reason,
 * show or print the return's label, and follow each return until the warehouse has received it.
 * Made for a phone: one column, large targets.
 */
export default function AgentReturnsPage({ entry }: PageProps) {
  const [opened, setOpened] = useUrlParam('return');
  const [creating, setCreating] = useState(false);
  const returns = useAgentReturns();
  const openedId = Number(opened) || null;

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <Typography.Title level={1} style={PAGE_TITLE_STYLE}>
        {entry.label}
      </Typography.Title>
      {openedId !== null ? (
        <ReturnView id={openedId} onBack={() => setOpened(undefined)} />
      ) : creating ? (
        <NewReturn
          onCancel={() => setCreating(false)}
          onDone={(id) => {
            setCreating(false);
            setOpened(String(id));
          }}
        />
      ) : (
        <>
          <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
            Send back SIMs you will not use, or that do not work: choose them, say why, and put the
            label on the envelope. The warehouse scans them in.
          </Typography.Paragraph>
          <Button type="primary" size="large" block onClick={() => setCreating(true)}>
            Return SIMs
          </Button>
          {returns.isError ? (
            <Alert
              type="error"
              showIcon
              title="Your returns could not be loaded."
              description={returns.error.message}
              action={<Button onClick={() => void returns.refetch()}>Try again</Button>}
            />
          ) : !returns.data ? (
            <Spin />
          ) : (
            <List
              aria-label="Your returns"
              dataSource={returns.data}
              locale={{ emptyText: 'You have made no return yet.' }}
              renderItem={(row) => (
                <List.Item
                  data-testid="agent-return-row"
                  actions={[
                    <Button key="open" onClick={() => setOpened(String(row.id))}>
                      Open
                    </Button>,
                  ]}
                >
                  <List.Item.Meta
                    title={
                      <Space wrap>
                        {row.number}
                        <Tag color={STATUS_COLORS[row.status]}>{STATUS_TEXT[row.status]}</Tag>
                      </Space>
                    }
                    description={`${REASON_TEXT[row.reason]} · ${countText(row.qty_received, row.qty_expected)} received · ${when(row.created_at)}`}
                  />
                </List.Item>
              )}
            />
          )}
        </>
      )}
    </Space>
  );
}
