import { createPortalUserSchema, type Retailer, type Schema } from '@inventory/contract';
import { Alert, Button, Form, Input, Modal, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { showApiError } from '../../../shell/api-errors';
import { useDialogFocus } from '../../../shell/dialog-focus';
import { when } from '../../../toolkit/format';
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

/**
 * The retailer's people who sign in to its portal: they reach their cart and nothing of the
 * back office.
 */
export function PortalUsers({ retailer, canManage }: { retailer: Retailer; canManage: boolean }) {
  const users = usePortalUsers(retailer.id);
  const [adding, setAdding] = useState(false);
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Space style={{ justifyContent: 'space-between', width: '100%' }}>
        <Typography.Title level={5} style={{ margin: 0 }}>
          Portal users
        </Typography.Title>
        {canManage && retailer.status === 'active' && (
          <Button onClick={() => setAdding(true)}>New portal user</Button>
        )}
      </Space>
      <Table
        size="small"
        rowKey="id"
        loading={users.isPending}
        dataSource={users.data ?? []}
        pagination={false}
        locale={{ emptyText: 'Nobody of this retailer signs in yet.' }}
        columns={[
          { key: 'user_name', dataIndex: 'user_name', title: 'User name' },
          { key: 'name', dataIndex: 'name', title: 'Name' },
          { key: 'email', title: 'Email', render: (_, user) => user.email ?? '—' },
          { key: 'status', dataIndex: 'status', title: 'Status' },
          {
            key: 'last_login_at',
            title: 'Last sign-in',
            render: (_, user) =>
              user.first_login === 1 ? 'Not yet (temporary password)' : when(user.last_login_at),
          },
        ]}
      />
      {adding && <NewPortalUser retailer={retailer} onClose={() => setAdding(false)} />}
    </Space>
  );
}
