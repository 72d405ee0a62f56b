import {
  agentOptionsEndpoint,
  createPortalUserSchema,
  type PortalUser,
  type Retailer,
  type Schema,
} from '@inventory/contract';
import { Alert, Button, Form, Input, Modal, Popconfirm, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { showApiError } from '../../../shell/api-errors';
import { useDialogFocus } from '../../../shell/dialog-focus';
import { notify } from '../../../shell/notify';
import { when } from '../../../toolkit/format';
import { pickerLoader } from '../../../toolkit/picker-options';
import { RemoteSelect } from '../../../toolkit/resource-form';
import type { FormField } from '../../../toolkit/resource-page-config';
import { fieldSchema, zodRule } from '../../../toolkit/zod-rules';
import { usePortalUsers, useRetailerActions } from '../api/retail.queries';

type PortalUserValues = { user_name?: string; name?: string; email?: string; phone?: string };

const rule = (name: string) => zodRule(fieldSchema(createPortalUserSchema as Schema, name));

/** A new portal user's account: the temporary password is shown here once and never again. */
function NewPortalUser({ retailer, onClose }: { retailer: Retailer; onClose: () => void }) {
  const dialogFocus = useDialogFocus();
  const [form] = Form.useForm<PortalUserValues>();
  const { createPortalUser } = useRetailerActions(retailer.id);
  const [created, setCreated] = useState<{ userName: string; password: string } | null>(null);

  const submit = async (values: PortalUserValues) => {
    try {
      const answer = await createPortalUser.mutateAsync({
        user_name: values.user_name ?? '',
        name: values.name ?? '',
        email: values.email || null,
        phone: values.phone || null,
      });
      setCreated({ userName: answer.user.user_name, password: answer.temporary_password });
    } catch (error) {
      showApiError(error, form);
    }
  };

  return (
    <Modal
      {...dialogFocus}
      open
      title={`New portal user of ${retailer.name}`}
      onCancel={onClose}
      footer={
        created ? (
          <Button type="primary" onClick={onClose}>
            Done
          </Button>
        ) : (
          <Space>
            <Button onClick={onClose}>Cancel</Button>
            <Button
              type="primary"
              loading={createPortalUser.isPending}
              onClick={() => form.submit()}
            >
              Create portal user
            </Button>
          </Space>
        )
      }
    >
      {created ? (
        <Alert
          type="success"
          showIcon
          title={`${created.userName} can sign in now.`}
          description={
            <>
              Give them this temporary password; it is shown only now. They choose their own at
              first sign-in:{' '}
              <Typography.Text code copyable data-testid="temporary-password">
                {created.password}
              </Typography.Text>
            </>
          }
        />
      ) : (
        <Form form={form} layout="vertical" onFinish={(values) => void submit(values)}>
          <Form.Item label="User name" name="user_name" required rules={[rule('user_name')]}>
            <Input autoComplete="off" />
          </Form.Item>
          <Form.Item label="Name" name="name" required rules={[rule('name')]}>
            <Input />
          </Form.Item>
          <Form.Item label="Email" name="email" rules={[rule('email')]}>
            <Input />
          </Form.Item>
          <Form.Item label="Phone" name="phone" rules={[rule('phone')]}>
            <Input />
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}

const agentPicker: Extract<FormField, { kind: 'remote' }> = {
  name: 'user_id',
  label: 'Field agent',
  kind: 'remote',
  load: pickerLoader(agentOptionsEndpoint),
  placeholder: 'Type to search agents',
};

/**
 * Links a field agent who works for this dealer (decision 0031): they then order from the web
 * channel on its account. The picker offers active agents not linked to a dealer yet.
 */
function LinkAgent({ retailer, onClose }: { retailer: Retailer; onClose: () => void }) {
  const dialogFocus = useDialogFocus();
  const [form] = Form.useForm<{ user_id?: number | null }>();
  const { linkAgent } = useRetailerActions(retailer.id);
  const submit = async (values: { user_id?: number | null }) => {
    try {
      const linked = await linkAgent.mutateAsync({ user_id: values.user_id ?? 0 });
      notify.success(`${linked.name} orders for ${retailer.name} now.`);
      onClose();
    } catch (error) {
      showApiError(error, form);
    }
  };
  return (
    <Modal
      {...dialogFocus}
      open
      title={`Link an agent to ${retailer.name}`}
      onCancel={onClose}
      okText="Link agent"
      okButtonProps={{ loading: linkAgent.isPending }}
      onOk={() => form.submit()}
    >
      <Typography.Paragraph type="secondary">
        The agent works for this dealer: they order from the shop on its account, credit and
        shipping address. An agent works for one dealer at a time.
      </Typography.Paragraph>
      <Form form={form} layout="vertical" onFinish={(values) => void submit(values)}>
        <Form.Item
          label="Field agent"
          name="user_id"
          required
          rules={[{ required: true, message: 'Choose a field agent.' }]}
        >
          <RemoteSelect field={agentPicker} initial={[]} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** Unlinks an agent from the dealer, after a confirmation. */
function UnlinkAgent({ retailer, user }: { retailer: Retailer; user: PortalUser }) {
  const { unlinkAgent } = useRetailerActions(retailer.id);
  return (
    <Popconfirm
      title={`Unlink ${user.name}?`}
      description={`They will no longer order for ${retailer.name}; their orders stay.`}
      okText="Unlink"
      onConfirm={async () => {
        try {
          notify.success((await unlinkAgent.mutateAsync(user.id)).message);
        } catch (error) {
          showApiError(error);
        }
      }}
    >
      <Button size="small" loading={unlinkAgent.isPending} aria-label={`Unlink ${user.user_name}`}>
        Unlink
      </Button>
    </Popconfirm>
  );
}

/**
 * The retailer's people who sign in to its portal (they reach their cart and nothing of the back
 * office), and the field agents linked to it as the dealer they work for.
 */
export function PortalUsers({ retailer, canManage }: { retailer: Retailer; canManage: boolean }) {
  const users = usePortalUsers(retailer.id);
  const [adding, setAdding] = useState<'portal-user' | 'agent' | null>(null);
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Space style={{ justifyContent: 'space-between', width: '100%' }} wrap>
        <Typography.Title level={5} style={{ margin: 0 }}>
          Portal users and agents
        </Typography.Title>
        {canManage && retailer.status === 'active' && (
          <Space wrap>
            <Button onClick={() => setAdding('portal-user')}>New portal user</Button>
            <Button onClick={() => setAdding('agent')}>Link an agent</Button>
          </Space>
        )}
      </Space>
      <Table
        size="small"
        rowKey="id"
        loading={users.isPending}
        dataSource={users.data ?? []}
        pagination={false}
        locale={{ emptyText: 'Nobody of this retailer signs in yet, and no agent is linked.' }}
        columns={[
          { key: 'user_name', dataIndex: 'user_name', title: 'User name' },
          { key: 'name', dataIndex: 'name', title: 'Name' },
          {
            key: 'type',
            title: 'Kind',
            render: (_, user) =>
              user.type === 'agent' ? <Tag color="blue">Field agent</Tag> : 'Portal user',
          },
          { key: 'email', title: 'Email', render: (_, user) => user.email ?? '—' },
          { key: 'status', dataIndex: 'status', title: 'Status' },
          {
            key: 'last_login_at',
            title: 'Last sign-in',
            render: (_, user) =>
              user.first_login === 1 ? 'Not yet (temporary password)' : when(user.last_login_at),
          },
          ...(canManage
            ? [
                {
                  key: 'actions',
                  title: 'Actions',
                  render: (_: unknown, user: PortalUser) =>
                    user.type === 'agent' && <UnlinkAgent retailer={retailer} user={user} />,
                },
              ]
            : []),
        ]}
      />
      {adding === 'portal-user' && (
        <NewPortalUser retailer={retailer} onClose={() => setAdding(null)} />
      )}
      {adding === 'agent' && <LinkAgent retailer={retailer} onClose={() => setAdding(null)} />}
    </Space>
  );
}
