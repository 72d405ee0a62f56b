import {
  SIM_REQUEST_STATUSES,
  simRequestList,
  simRequestListEndpoints,
  type SimRequestRow,
} from '@inventory/contract';
import { Typography } from 'antd';
import type { PageProps } from '../../../shell/page-types';
import { useUrlParam } from '../../../shell/use-url-state';
import { when } from '../../../toolkit/format';
import type { ResourcePageConfig } from '../../../toolkit/resource-page-config';
import { ResourcePage } from '../../../toolkit/resource-page';
import { optionsOf } from '../../master-data';
import { rateText, SimRequestDrawer } from '../components/sim-request-drawer';
import { SimRequestStatusTag } from '../components/sim-request-status';

/** The address key of the request whose drawer is open. */
export const SIM_REQUEST_PARAM = 'request';

/** Whole days since the request was made. */
const age = (iso: string) => {
  const days = Math.floor((Date.now() - Date.parse(iso)) / 86_400_000);
  return days === 0 ? 'Today' : `${days} d`;
};

const config: ResourcePageConfig<SimRequestRow, typeof simRequestList> = {
  resource: simRequestList,
  endpoints: simRequestListEndpoints,
  titleOf: (request) => request.number,
  searchPlaceholder: 'Request number',
  header: (
    <Typography.Paragraph type="secondary">
      Agents&apos; requests for SIMs, oldest first. Approve within the agent&apos;s cap (on hand
      plus approved never passes it; a low activation rate needs a manager), allocate by scanning
      packs or ICCIDs, pack, print the packing slip and label, then ship or hand over. Open a
      request to work it.
    </Typography.Paragraph>
  ),
  record: { param: SIM_REQUEST_PARAM, rowClick: true },
  columns: [
    { key: 'number', title: 'Request' },
    { key: 'agent_name', title: 'Agent' },
    { key: 'client_carrier', title: 'Carrier' },
    {
      key: 'qty_requested',
      title: 'Requested / approved',
      render: (request) => `${request.qty_requested} / ${request.qty_approved ?? '—'}`,
    },
    { key: 'qty_allocated', title: 'Allocated' },
    {
      key: 'agent_on_hand',
      title: 'On hand / cap',
      render: (request) => `${request.agent_on_hand} / ${request.agent_sim_cap ?? '—'}`,
    },
    {
      key: 'agent_activation_rate',
      title: 'Activation rate',
      render: (request) => rateText(request.agent_activation_rate),
    },
    {
      key: 'delivery',
      title: 'Delivery',
      render: (request) => (request.delivery === 'pickup' ? 'Pickup' : 'Ship'),
    },
    {
      key: 'status',
      title: 'Status',
      render: (request) => (
        <>
          <SimRequestStatusTag status={request.status} />
          {request.qty_missing ? (
            <Typography.Text type="danger">{request.qty_missing} missing</Typography.Text>
          ) : null}
        </>
      ),
    },
    {
      key: 'created_at',
      title: 'Age',
      sortKey: 'created_at',
      render: (request) => <span title={when(request.created_at)}>{age(request.created_at)}</span>,
    },
  ],
  filters: [
    { key: 'status', label: 'Status', options: optionsOf(SIM_REQUEST_STATUSES) },
    // Set by links from an agent's records.
    { key: 'agent_id', label: 'Agent', fromAddress: true },
    { key: 'client_carrier_id', label: 'Carrier', fromAddress: true },
  ],
};

/** The SIM request queue (`/sim/request`) and a request's drawer (`?request=`). */
export default function SimRequestsPage(props: PageProps) {
  const [opened, setOpened] = useUrlParam(SIM_REQUEST_PARAM);
  const openedId = Number(opened) || null;
  return (
    <>
      <ResourcePage {...props} config={config} />
      {openedId && <SimRequestDrawer id={openedId} onClose={() => setOpened(undefined)} />}
    </>
  );
}
