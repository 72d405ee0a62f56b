import { USER_STATUSES, USER_TYPES, type CreateUserInput, type User } from '@inventory/contract';
import { Button, Drawer, Form, Input, InputNumber, Select, Space } from 'antd';
import { useState } from 'react';
import { showApiError } from '../../../shell/api-errors';
import { notify } from '../../../shell/notify';
import { useAllRoles, useCreateUser, useUpdateUser } from '../api/access.queries';
import { TemporaryPasswordModal } from './temporary-password-modal';
import { useDialogFocus } from '../../../shell/dialog-focus';

type FormValues = CreateUserInput & { status?: User['status'] };

/** Create a user (no user given) or edit one; the server's 422 messages land on the fields. */
export function UserFormDrawer({ user, onClose }: { user: User | null; onClose: () => void }) {
  const dialogFocus = useDialogFocus();
  const [form] = Form.useForm<FormValues>();
  const roles = useAllRoles();
  const createUser = useCreateUser();
  const updateUser = useUpdateUser();
  const [created, setCreated] = useState<{ userName: string; password: string } | null>(null);
  const type = Form.useWatch('type', form);

  const submit = async (values: FormValues) => {
    try {
      if (user) {
        const { user_name: _ignored, ...changes } = values;
        await updateUser.mutateAsync({ id: user.id, body: changes });
        notify.success(`${user.user_name} saved.`);
        onClose();
      } else {
        const answer = await createUser.mutateAsync(values);
        setCreated({
          userName: answer.data.user.user_name,
          password: answer.data.temporary_password,
        });
      }
    } catch (error) {
      showApiError(error, form);
    }
  };

  if (created) {
    return (
      <TemporaryPasswordModal
        userName={created.userName}
        password={created.password}
        onClose={onClose}
      />
    );
  }

  return (
    <Drawer
      {...dialogFocus}
      open
      size={480}
      title={user ? `Edit ${user.user_name}` : 'New user'}
      onClose={onClose}
      extra={
        <Space>
          <Button onClick={onClose}>Cancel</Button>
          <Button
            type="primary"
            onClick={() => form.submit()}
            loading={createUser.isPending || updateUser.isPending}
          >
            Save
          </Button>
        </Space>
      }
    >
      <Form<FormValues>
        form={form}
        layout="vertical"
        onFinish={submit}
        initialValues={
          user
            ? { ...user, role_ids: user.roles.map((role) => role.id) }
            : { type: 'staff', role_ids: [] }
        }
      >
        <Form.Item
          label="User name"
          name="user_name"
          rules={[{ required: true, message: 'Please enter the user name.' }]}
        >
          <Input disabled={Boolean(user)} autoComplete="off" />
        </Form.Item>
        <Form.Item
          label="Name"
          name="name"
          rules={[{ required: true, whitespace: true, message: 'Please enter the name.' }]}
        >
          <Input />
        </Form.Item>
        <Form.Item
          label="Email"
          name="email"
          rules={[{ type: 'email', message: 'This is not an email address.' }]}
        >
          <Input />
        </Form.Item>
        <Form.Item label="Phone" name="phone">
          <Input />
        </Form.Item>
        <Form.Item label="Type" name="type">
          <Select
            options={USER_TYPES.map((value) => ({
              value,
              label: value === 'staff' ? 'Staff' : 'Agent',
            }))}
          />
        </Form.Item>
        {user && (
          <Form.Item label="Status" name="status">
            <Select
              options={USER_STATUSES.map((value) => ({
                value,
                label: value === 'active' ? 'Active' : 'Disabled',
              }))}
            />
          </Form.Item>
        )}
        <Form.Item label="Roles" name="role_ids">
          <Select
            mode="multiple"
            loading={roles.isPending}
            optionFilterProp="label"
            options={roles.data?.items.map((role) => ({ value: role.id, label: role.name }))}
          />
        </Form.Item>
        {type === 'agent' && (
          <>
            <Form.Item label="RAD rep ID" name="rep_id">
              <Input />
            </Form.Item>
            <Form.Item label="Territory" name="territory">
              <Input />
            </Form.Item>
            <Form.Item label="SIM cap" name="sim_cap">
              <InputNumber min={0} style={{ width: '100%' }} />
            </Form.Item>
            <Form.Item label="Device cap" name="device_cap">
              <InputNumber min={0} style={{ width: '100%' }} />
            </Form.Item>
          </>
        )}
      </Form>
    </Drawer>
  );
}
