import {
  allowedActions,
  SIM_LIST_ACTIONS,
  SIM_STATUSES,
  SIM_TRANSFER_ACCESS,
  simBoxPickers,
  simCardList,
  simCardListEndpoints,
  simCardPickers,
  simLifecycle,
  simStatusActionSchema,
  simTransferSchema,
  type SimCardRow,
  type SimListAction,
} from '@inventory/contract';
import { Button, Space, Tag, Typography } from 'antd';
import { useMemo, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import type { PageProps } from '../../../shell/page-types';
import { useCan } from '../../../shell/use-can';
import { useProfile } from '../../../shell/use-profile';
import { ActionDrawer } from '../../../toolkit/action-drawer';
import { when } from '../../../toolkit/format';
import { pickerLoader } from '../../../toolkit/picker-options';
import { ResourcePage } from '../../../toolkit/resource-page';
import type { ResourcePageConfig } from '../../../toolkit/resource-page-config';
import { useSimWrites } from '../api/sim-stock.queries';
import { SIM_STATUS_COLORS, simLinkPath } from '../sim-stock-links';

const ACTION_WORDS: Record<SimListAction, string> = {
  markDefective: 'Mark defective',
  markLost: 'Mark lost',
};

type Working =
  { kind: 'mark'; sim: SimCardRow; action: SimListAction } | { kind: 'transfer'; sim: SimCardRow };

/** The SIM's holder now: its agent, request, order or device, each linked. */
function holderOf(sim: SimCardRow): ReactNode {
  const parts: ReactNode[] = [];
  if (sim.agent_id !== null) {
    parts.push(
      <Link key="agent" to={simLinkPath({ kind: 'agent', id: sim.agent_id, label: '' })}>
        {sim.agent_name}
      </Link>,
    );
  }
  if (sim.sim_request_id !== null && sim.request_number !== null) {
    parts.push(
      <Link
        key="request"
        to={simLinkPath({ kind: 'request', id: sim.sim_request_id, label: sim.request_number })}
      >
        {sim.request_number}
      </Link>,
    );
  }
  if (sim.order_id !== null && sim.order_number !== null) {
    parts.push(
      <Link
        key="order"
        to={simLinkPath({ kind: 'order', id: sim.order_id, label: sim.order_number })}
      >
        {sim.order_number}
      </Link>,
    );
  }
  if (sim.device_imei !== null) parts.push(<span key="device">IMEI {sim.device_imei}</span>);
  return parts.length === 0 ? (
    '—'
  ) : (
    <Space size={4} wrap>
      {parts}
    </Space>
  );
}

const statusOptions = SIM_STATUSES.map((status) => ({
  value: status,
  label: simLifecycle.stateText(status),
}));

/**
 * The SIM list (`/sim`, DOMAIN.md 4.6): every SIM with its carrier, status, box or pack, holder,
 * MDN, activation and last detection, on keyset pages; filters and export from the toolkit. A
 * SIM's ICCID opens its story (`/sim/inquire`). Status changes only through the named actions the
 * SIM's state and the user's permissions allow: mark defective or lost (with a reason), and
 * transfer an agent's SIM to another agent.
 */
export default function SimListPage(props: PageProps) {
  const profile = useProfile();
  const canTransfer = useCan(SIM_TRANSFER_ACCESS);
  const writes = useSimWrites();
  const [working, setWorking] = useState<Working | null>(null);
  const close = () => setWorking(null);

  const config = useMemo(
    (): ResourcePageConfig<SimCardRow, typeof simCardList> => ({
      resource: simCardList,
      endpoints: simCardListEndpoints,
      titleOf: (sim) => sim.iccid,
      searchPlaceholder: 'ICCID or its start',
      header: (
        <Typography.Paragraph type="secondary">
          Every SIM by ICCID. Open an ICCID to read its whole story.
        </Typography.Paragraph>
      ),
      record: {
        href: (sim) => `/sim/inquire?iccid=${sim.iccid}`,
        where: (sim) => `The story of SIM ${sim.iccid}`,
      },
      columns: [
        { key: 'iccid', title: 'ICCID', sortKey: 'iccid' },
        { key: 'client_carrier', title: 'Client carrier' },
        { key: 'issuer', title: 'Issuer', hidden: true, render: (sim) => sim.issuer ?? '—' },
        {
          key: 'status',
          title: 'Status',
          render: (sim) => (
            <Tag color={SIM_STATUS_COLORS[sim.status]} data-testid="sim-status">
              {simLifecycle.stateText(sim.status)}
            </Tag>
          ),
        },
        {
          key: 'box_code',
          title: 'Box / pack',
          render: (sim) => (
            <Space size={4}>
              <Link to={simLinkPath({ kind: 'box', id: sim.sim_box_id, label: sim.box_code })}>
                {sim.box_code}
              </Link>
              {sim.pack_code && <Typography.Text type="secondary">{sim.pack_code}</Typography.Text>}
            </Space>
          ),
        },
        { key: 'holder', title: 'Holder', render: holderOf },
        { key: 'mdn', title: 'MDN', render: (sim) => sim.mdn ?? '—' },
        { key: 'activated_at', title: 'Activated', render: (sim) => when(sim.activated_at) },
        {
          key: 'last_detect_state',
          title: 'Last detection',
          render: (sim) =>
            sim.last_detect_state
              ? `${sim.last_detect_state.replace('_', ' ')}, ${when(sim.last_detected_at)}`
              : '—',
        },
        {
          key: 'status_reason',
          title: 'Reason',
          hidden: true,
          render: (sim) => sim.status_reason ?? '—',
        },
      ],
      filters: [
        { key: 'status', label: 'Status', options: statusOptions },
        {
          key: 'client_carrier_id',
          label: 'Client carrier',
          load: pickerLoader(simBoxPickers.carriers),
        },
        { key: 'agent_id', label: 'Agent', load: pickerLoader(simCardPickers.agents) },
        { key: 'box_id', label: 'Box', load: pickerLoader(simCardPickers.boxes) },
        // Set by a pack's link (the SIM lookup).
        { key: 'pack_id', label: 'Pack', fromAddress: true },
      ],
      rowActions: (sim) => (
        <Space size="small" wrap>
          {allowedActions(simLifecycle, sim, profile.data)
            .filter((action): action is SimListAction =>
              (SIM_LIST_ACTIONS as readonly string[]).includes(action),
            )
            .map((action) => (
              <Button
                key={action}
                size="small"
                aria-label={`${ACTION_WORDS[action]}: ${sim.iccid}`}
                onClick={() => setWorking({ kind: 'mark', sim, action })}
              >
                {ACTION_WORDS[action]}
              </Button>
            ))}
          {canTransfer && sim.status === 'with_agent' && (
            <Button
              size="small"
              aria-label={`Transfer ${sim.iccid} to another agent`}
              onClick={() => setWorking({ kind: 'transfer', sim })}
            >
              Transfer
            </Button>
          )}
        </Space>
      ),
    }),
    [canTransfer, profile.data],
  );

  return (
    <>
      <ResourcePage {...props} config={config} />
      {working?.kind === 'mark' && (
        <ActionDrawer
          title={`${ACTION_WORDS[working.action]}: ${working.sim.iccid}`}
          fields={[{ name: 'reason', label: 'Reason', kind: 'textarea', required: true }]}
          schema={simStatusActionSchema}
          initialValues={{ action: working.action }}
          submitLabel={ACTION_WORDS[working.action]}
          run={async (values) => {
            const sim = await writes.mark.mutateAsync({
              id: working.sim.id,
              action: working.action,
              reason: String(values.reason ?? ''),
            });
            return `${sim.iccid} is ${simLifecycle.stateText(sim.status)}.`;
          }}
          onClose={close}
        />
      )}
      {working?.kind === 'transfer' && (
        <ActionDrawer
          title={`Transfer ${working.sim.iccid}`}
          intro={`From ${working.sim.agent_name} to another active agent, within that agent's SIM cap. Both agents' ledgers record it.`}
          fields={[
            {
              name: 'to_agent_id',
              label: 'To agent',
              kind: 'remote',
              required: true,
              load: pickerLoader(simCardPickers.agents),
            },
          ]}
          schema={simTransferSchema}
          initialValues={{}}
          submitLabel="Transfer"
          run={async (values) => {
            const answer = await writes.transfer.mutateAsync({
              from_agent_id: working.sim.agent_id!,
              to_agent_id: Number(values.to_agent_id),
              sim_ids: [working.sim.id],
            });
            return `${working.sim.iccid} transferred to ${answer.to_agent} (${answer.to_on_hand} on hand).`;
          }}
          onClose={close}
        />
      )}
    </>
  );
}
