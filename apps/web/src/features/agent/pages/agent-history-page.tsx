import {
  AGENT_LEDGER_ENTRIES,
  simRequestLifecycle,
  type AgentLedgerEntry,
} from '@inventory/contract';
import { Alert, Button, Empty, List, Select, Space, Spin, Tag, Typography } from 'antd';
import type { PageProps } from '../../../shell/page-types';
import { PAGE_TITLE_STYLE } from '../../../shell/page-styles';
import { when } from '../../../toolkit/format';
import { ListPager } from '../../../toolkit/list-pager';
import { useListUrlState } from '../../../toolkit/list-url-state';
import { useAgentRequests } from '../api/agent-requests.queries';
import { useAgentHistory } from '../api/agent-portal.queries';

const FILTERS = ['entry'] as const;

/** The ledger's entries in the agent's words. */
const ENTRY_WORDS: Record<AgentLedgerEntry['entry'], string> = {
  received: 'Received',
  transfer_in: 'Transferred to you',
  transfer_out: 'Transferred away',
  assigned: 'Activation recorded',
  activated: 'Activated',
  returned: 'Returned',
  lost: 'Marked lost',
  defective: 'Marked defective',
};

function Requests() {
  const overview = useAgentRequests();
  if (overview.isError) {
    return <Alert type="error" showIcon title="Your requests could not be loaded." />;
  }
  if (!overview.data) return <Spin />;
  return (
    <List
      bordered
      size="small"
      dataSource={overview.data.requests}
      locale={{ emptyText: <Empty description="You have made no requests yet." /> }}
      renderItem={(request) => (
        <List.Item data-testid="history-request">
          <List.Item.Meta
            title={`${request.number} · ${request.client_carrier}`}
            description={`${when(request.created_at)} · asked ${request.qty_requested}${
              request.qty_approved === null ? '' : `, approved ${request.qty_approved}`
            }${request.qty_received === null ? '' : `, received ${request.qty_received}`}`}
          />
          <Tag>{simRequestLifecycle.stateText(request.status)}</Tag>
        </List.Item>
      )}
    />
  );
}

/**
 * The agent's history (DOMAIN.md 7), read-only: requests with their state, and every SIM the
 * agent received, recorded, returned or saw activated, from the agent's ledger.
 */
export default function AgentHistoryPage({ entry }: PageProps) {
  const [state, update] = useListUrlState(FILTERS);
  const limit = Number(state.limit ?? 20);
  const { page, count } = useAgentHistory({ ...state, limit: String(limit) });
  return (
    <>
      <Typography.Title level={1} style={{ ...PAGE_TITLE_STYLE, marginBottom: 12 }}>
        {entry.label}
      </Typography.Title>
      <Typography.Title level={2} style={{ fontSize: 18 }}>
        Requests
      </Typography.Title>
      <Requests />
      <Space style={{ width: '100%', justifyContent: 'space-between', margin: '20px 0 8px' }} wrap>
        <Typography.Title level={2} style={{ fontSize: 18, margin: 0 }}>
          SIMs
        </Typography.Title>
        <Select
          aria-label="What happened"
          placeholder="Everything"
          allowClear
          style={{ minWidth: 180 }}
          value={state.entry}
          options={AGENT_LEDGER_ENTRIES.map((value) => ({ value, label: ENTRY_WORDS[value] }))}
          onChange={(value?: string) => update({ entry: value })}
        />
      </Space>
      {page.isError ? (
        <Alert
          type="error"
          showIcon
          title="Your history could not be loaded."
          description={page.error.message}
          action={<Button onClick={() => void page.refetch()}>Try again</Button>}
        />
      ) : (
        <List
          bordered
          size="small"
          loading={page.isPending}
          dataSource={page.data?.items ?? []}
          locale={{
            emptyText: (
              <Empty
                description={
                  state.entry
                    ? 'Nothing of this kind yet.'
                    : 'Nothing has happened to your SIMs yet.'
                }
              />
            ),
          }}
          renderItem={(line) => (
            <List.Item data-testid="history-entry" data-entry={line.entry}>
              <List.Item.Meta
                title={
                  <Space wrap size={4}>
                    <Tag>{ENTRY_WORDS[line.entry]}</Tag>
                    <span style={{ fontFamily: 'monospace' }}>{line.iccid}</span>
                  </Space>
                }
                description={[
                  when(line.at),
                  line.client_carrier,
                  line.request_number,
                  line.return_number,
                  line.counterpart_name,
                ]
                  .filter(Boolean)
                  .join(' · ')}
              />
            </List.Item>
          )}
        />
      )}
      <ListPager
        noun={{ singular: 'entry', plural: 'entries' }}
        count={count.data}
        page={page.data}
        cursor={state.cursor}
        limit={limit}
        onChange={update}
      />
    </>
  );
}
