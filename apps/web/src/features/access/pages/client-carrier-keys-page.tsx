import {
  CLIENT_CARRIER_KEY_STATES,
  clientCarrierKeyEndpoints,
  clientCarrierKeyList,
  clientCarrierOptionsEndpoint,
  createClientCarrierKeyEndpoint,
  createClientCarrierKeySchema,
  revokeClientCarrierKeyEndpoint,
  type ClientCarrierKey,
} from '@inventory/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Modal, Popconfirm, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { showApiError } from '../../../shell/api-errors';
import { useDialogFocus } from '../../../shell/dialog-focus';
import { callEndpoint } from '../../../shell/http-client';
import { notify } from '../../../shell/notify';
import type { PageProps } from '../../../shell/page-types';
import { ActionDrawer } from '../../../toolkit/action-drawer';
import { when } from '../../../toolkit/format';
import { pickerLoader } from '../../../toolkit/picker-options';
import type { FormField, ResourcePageConfig } from '../../../toolkit/resource-page-config';
import { ResourcePage } from '../../../toolkit/resource-page';
import { optionsOf } from '../../master-data';

const searchCarriers = pickerLoader(clientCarrierOptionsEndpoint);

const KEY_FIELDS: readonly FormField[] = [
  {
    name: 'client_carrier_id',
    label: 'Client carrier',
    kind: 'remote',
    required: true,
    load: searchCarriers,
    help: 'A vendor of type carrier-client.',
  },
  {
    name: 'name',
    label: 'Name',
    kind: 'text',
    required: true,
    placeholder: 'Enrolment system (production)',
    help: 'What will use the key, to know which one to revoke later.',
  },
];

const config = (
  revoke: (key: ClientCarrierKey) => Promise<void>,
  create: () => void,
): ResourcePageConfig<ClientCarrierKey, typeof clientCarrierKeyList> => ({
  resource: clientCarrierKeyList,
  endpoints: clientCarrierKeyEndpoints,
  titleOf: (key) => key.name,
  searchPlaceholder: 'Key name or client carrier',
  header: (
    <Typography.Paragraph type="secondary">
      The government-plan carriers send approved enrolments as orders through the API and read their
      status back, each with its own keys, sent in the <code>X-API-Key</code> header. A key is shown
      once, when it is created; revoke a key that may have leaked and give its system a new one. The
      API reference is at{' '}
      <Typography.Link href="/api/docs" underline>
        /api/docs
      </Typography.Link>
      .
    </Typography.Paragraph>
  ),
  actions: (
    <Button type="primary" onClick={create}>
      New API key
    </Button>
  ),
  rowActions: (key) =>
    key.status === 'active' && (
      <Popconfirm
        title={`Revoke ${key.name}?`}
        description="Its system's next call is refused."
        okText="Revoke"
        okButtonProps={{ danger: true }}
        onConfirm={() => revoke(key)}
      >
        <Button size="small" danger>
          Revoke
        </Button>
      </Popconfirm>
    ),
  columns: [
    { key: 'client_carrier_name', title: 'Client carrier' },
    { key: 'name', title: 'Name' },
    { key: 'key_prefix', title: 'Key starts', render: (key) => <code>{key.key_prefix}…</code> },
    {
      key: 'status',
      title: 'Status',
      render: (key) => (
        <Tag color={key.status === 'active' ? 'green' : 'default'}>{key.status}</Tag>
      ),
    },
    {
      key: 'created_at',
      title: 'Created',
      sortKey: 'created_at',
      render: (key) =>
        `${when(key.created_at)}${key.created_by_name ? ` by ${key.created_by_name}` : ''}`,
    },
    { key: 'last_used_at', title: 'Last used', render: (key) => when(key.last_used_at) },
    {
      key: 'revoked_at',
      title: 'Revoked',
      render: (key) =>
        key.revoked_at
          ? `${when(key.revoked_at)}${key.revoked_by_name ? ` by ${key.revoked_by_name}` : ''}`
          : '—',
    },
  ],
  filters: [
    { key: 'client_carrier_id', label: 'Client carrier', load: searchCarriers },
    { key: 'status', label: 'Status', options: optionsOf(CLIENT_CARRIER_KEY_STATES) },
  ],
});

/** A new key, shown this once with its copy button. */
function NewKeyModal({ created, onClose }: { created: NewKey; onClose: () => void }) {
  const dialogFocus = useDialogFocus();
  return (
    <Modal
      {...dialogFocus}
      open
      title="Copy the API key now"
      onOk={onClose}
      onCancel={onClose}
      okText="I have copied it"
      cancelButtonProps={{ style: { display: 'none' } }}
    >
      <p>
        The key of <strong>{created.key.name}</strong> for {created.key.client_carrier_name}. It is
        shown only now: only its fingerprint is kept.
      </p>
      <Typography.Paragraph copyable={{ text: created.secret }} code>
        {created.secret}
      </Typography.Paragraph>
    </Modal>
  );
}

type NewKey = { key: ClientCarrierKey; secret: string };

/** Client carriers' API keys: create (shown once), see when each was last used, revoke. */
export default function ClientCarrierKeysPage(props: PageProps) {
  const client = useQueryClient();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<NewKey | null>(null);
  const pageConfig = useMemo(() => {
    const refresh = () =>
      client.invalidateQueries({ queryKey: [clientCarrierKeyEndpoints.list.path] });
    return config(
      async (key) => {
        try {
          await callEndpoint(revokeClientCarrierKeyEndpoint, { params: { id: key.id } });
          await refresh();
          notify.success(`${key.name} is revoked.`);
        } catch (error) {
          showApiError(error);
        }
      },
      () => setCreating(true),
    );
  }, [client]);
  return (
    <>
      <ResourcePage {...props} config={pageConfig} />
      {creating && (
        <ActionDrawer
          title="New API key"
          fields={KEY_FIELDS}
          schema={createClientCarrierKeySchema}
          initialValues={{}}
          submitLabel="Create key"
          run={async (values) => {
            const answer = await callEndpoint(createClientCarrierKeyEndpoint, {
              body: values as { client_carrier_id: number; name: string },
            });
            await client.invalidateQueries({ queryKey: [clientCarrierKeyEndpoints.list.path] });
            setCreated(answer.data);
            return answer.message;
          }}
          onClose={() => setCreating(false)}
        />
      )}
      {created && <NewKeyModal created={created} onClose={() => setCreated(null)} />}
    </>
  );
}
