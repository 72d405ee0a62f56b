import {
  SIM_RETURN_REASONS,
  SIM_RETURN_SOURCES,
  SIM_RETURN_STATUSES,
  simReturnEndpoints,
  simReturnList,
  simReturnListEndpoints,
  type SimReturn,
} from '@inventory/contract';
import { Button, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { showApiError } from '../../../shell/api-errors';
import { PAGE_TITLE_STYLE } from '../../../shell/page-styles';
import type { PageProps } from '../../../shell/page-types';
import { when } from '../../../toolkit/format';
import { pickerLoader } from '../../../toolkit/picker-options';
import type { ResourcePageConfig } from '../../../toolkit/resource-page-config';
import { ResourcePage } from '../../../toolkit/resource-page';
import { countText } from '../../../toolkit/station';
import { openSimReturnLabel } from '../api/sim-returns.queries';
import { CreateSimReturnDrawer } from '../components/create-sim-return-drawer';
import { SIM_RETURN_STATUS_COLORS, SimReturnStation } from '../components/sim-return-station';

/** The return whose station is open, in the address: a reload stays at the station. */
const RETURN_PARAM = 'return';

const optionsOf = (values: readonly string[]) =>
  values.map((value) => ({ value, label: value.replace(/_/g, ' ') }));

/**
 * SIM returns (`/sim/return`, DOMAIN.md 4.6): returns from agents, RMAs and customers with what
 * was expected and received; a new return with its label; a return's receiving station
 * (`?return=<id>`) where SIMs are scanned in, disposed of and the return closed.
 */
export default function SimReturnsPage(props: PageProps) {
  const [params, setParams] = useSearchParams();
  const openId = Number(params.get(RETURN_PARAM)) || null;
  const [creating, setCreating] = useState(false);

  const config = useMemo<ResourcePageConfig<SimReturn, typeof simReturnList>>(() => {
    const openStation = (id: number) =>
      setParams((current) => {
        const next = new URLSearchParams(current);
        next.set(RETURN_PARAM, String(id));
        return next;
      });
    return {
      resource: simReturnList,
      endpoints: simReturnListEndpoints,
      titleOf: (row) => row.number,
      searchPlaceholder: 'Return number, agent or ICCID',
      record: { param: RETURN_PARAM, rowClick: true, replacesList: true },
      header: (
        <Typography.Paragraph type="secondary">
          SIMs coming back from agents, RMAs and customers. Open a return to receive it by scanning:
          a SIM that is not the agent&apos;s is set aside, never moved. Each SIM received is
          restocked, destroyed or sent to the carrier as defective; a SIM ever detected active is
          never restocked.
        </Typography.Paragraph>
      ),
      actions: (
        <Button type="primary" onClick={() => setCreating(true)}>
          New return
        </Button>
      ),
      filters: [
        { key: 'status', label: 'Status', options: optionsOf(SIM_RETURN_STATUSES) },
        { key: 'source', label: 'From', options: optionsOf(SIM_RETURN_SOURCES) },
        { key: 'reason', label: 'Reason', options: optionsOf(SIM_RETURN_REASONS) },
        { key: 'agent_id', label: 'Agent', load: pickerLoader(simReturnEndpoints.agentOptions) },
      ],
      columns: [
        { key: 'number', title: 'Return' },
        { key: 'source', title: 'From' },
        { key: 'agent', title: 'Agent', render: (row) => row.agent ?? '—' },
        { key: 'reason', title: 'Reason' },
        {
          key: 'received',
          title: 'Received',
          render: (row) => countText(row.qty_received, row.qty_expected || null),
        },
        { key: 'qty_flagged', title: 'Set aside' },
        { key: 'qty_disposed', title: 'Disposed of' },
        {
          key: 'status',
          title: 'Status',
          render: (row) => <Tag color={SIM_RETURN_STATUS_COLORS[row.status]}>{row.status}</Tag>,
        },
        {
          key: 'created_at',
          title: 'Created',
          sortKey: 'created_at',
          render: (row) => when(row.created_at),
        },
        { key: 'closed_at', title: 'Closed', hidden: true, render: (row) => when(row.closed_at) },
      ],
      rowActions: (row) => (
        <>
          <Button size="small" onClick={() => openStation(row.id)}>
            Receive
          </Button>
          <Button size="small" onClick={() => void openSimReturnLabel(row.id).catch(showApiError)}>
            Label
          </Button>
        </>
      ),
    };
  }, [setParams]);

  const drawer = creating && (
    <CreateSimReturnDrawer
      onClose={() => setCreating(false)}
      onCreated={(id) =>
        setParams((current) => {
          const next = new URLSearchParams(current);
          next.set(RETURN_PARAM, String(id));
          return next;
        })
      }
    />
  );
  if (openId !== null) {
    return (
      <div>
        <Typography.Title level={1} style={{ ...PAGE_TITLE_STYLE, marginBottom: 16 }}>
          {props.entry.label}
        </Typography.Title>
        <SimReturnStation
          key={openId}
          id={openId}
          onBack={() =>
            setParams((current) => {
              const next = new URLSearchParams(current);
              next.delete(RETURN_PARAM);
              return next;
            })
          }
        />
      </div>
    );
  }
  return (
    <>
      <ResourcePage {...props} config={config} />
      {drawer}
    </>
  );
}
