import {
  auditEventEndpoints,
  auditEventList,
  getUserEndpoint,
  listUsersEndpoint,
  type AuditEvent,
} from '@inventory/contract';
import { Typography } from 'antd';
import type { PageProps } from '../../../shell/page-types';
import { callEndpoint } from '../../../shell/http-client';
import { when } from '../../../toolkit/format';
import type { Option, ResourcePageConfig } from '../../../toolkit/resource-page-config';
import { ResourcePage } from '../../../toolkit/resource-page';

/** Users by user name for the actor filter; given an id, that user (a link's filter). */
async function userOptions(search: string, id?: number): Promise<Option[]> {
  const users =
    id === undefined
      ? (await callEndpoint(listUsersEndpoint, { query: { search, limit: 20 } })).data.items
      : [(await callEndpoint(getUserEndpoint, { params: { id } })).data];
  return users.map((user) => ({ value: user.id, label: user.user_name }));
}

/** A change as one line: the fields it wrote, from its state after (or before, for a delete). */
const changeOf = (event: AuditEvent) => {
  const state = event.after ?? event.before;
  return state && typeof state === 'object' ? Object.keys(state).join(', ') : '—';
};

const config: ResourcePageConfig<AuditEvent> = {
  resource: auditEventList,
  endpoints: auditEventEndpoints,
  titleOf: (event) => `${event.action} #${event.id}`,
  searchPlaceholder: 'User name or action',
  header: (
    <Typography.Paragraph type="secondary">
      Every change, newest first: who did it, when, and to what. A user&apos;s record links here
      with its activity; a time range is given in the address (from, to).
    </Typography.Paragraph>
  ),
  columns: [
    { key: 'at', title: 'Time', sortKey: 'at', render: (event) => when(event.at) },
    { key: 'actor_name', title: 'User' },
    { key: 'action', title: 'Action' },
    { key: 'entity_type', title: 'Entity' },
    { key: 'entity_id', title: 'Entity id' },
    { key: 'fields', title: 'Fields', render: changeOf },
    { key: 'ip', title: 'IP', hidden: true },
  ],
  filters: [
    { key: 'actor_id', label: 'User', load: userOptions },
    { key: 'entity_type', label: 'Entity', fromAddress: true },
    { key: 'entity_id', label: 'Entity id', fromAddress: true },
    { key: 'action', label: 'Action', fromAddress: true },
    { key: 'from', label: 'From', fromAddress: true },
    { key: 'to', label: 'Before', fromAddress: true },
  ],
};

/** The audit log: the toolkit's keyset list, filtered by user, entity, action and time. */
export default function AuditLogPage(props: PageProps) {
  return <ResourcePage {...props} config={config} />;
}
