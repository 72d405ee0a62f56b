import { isAdministrator, type CreateRoleInput, type Role } from '@inventory/contract';
import { Alert, Button, Drawer, Form, Input, Space } from 'antd';
import { showApiError } from '../../../shell/api-errors';
import { notify } from '../../../shell/notify';
import { useProfile } from '../../../shell/use-profile';
import { useAllPermissions, useCreateRole, useUpdateRole } from '../api/access.queries';
import { PermissionMatrix } from './permission-matrix';
import { useDialogFocus } from '../../../shell/dialog-focus';

/** Create a role (none given) or edit one: name, description and its permission matrix. */
export function RoleFormDrawer({ role, onClose }: { role: Role | null; onClose: () => void }) {
  const dialogFocus = useDialogFocus();
  const [form] = Form.useForm<CreateRoleInput>();
  const permissions = useAllPermissions();
  const createRole = useCreateRole();
  const updateRole = useUpdateRole();
  const locked = role?.is_admin ?? false;
  const profile = useProfile();
  // The server renames a default role for an administrator only; its key, and so its access, stays.
  const nameFixed = (role?.is_system ?? false) && !(profile.data && isAdministrator(profile.data));

  const submit = async (values: CreateRoleInput) => {
    try {
      if (role) await updateRole.mutateAsync({ id: role.id, body: values });
      else await createRole.mutateAsync(values);
      notify.success(`Role ${values.name} saved.`);
      onClose();
    } catch (error) {
      showApiError(error, form);
    }
  };

  return (
    <Drawer
      {...dialogFocus}
      open
      size={640}
      title={role ? `Edit role ${role.name}` : 'New role'}
      onClose={onClose}
      extra={
        <Space>
          <Button onClick={onClose}>Cancel</Button>
          <Button
            type="primary"
            disabled={locked}
            onClick={() => form.submit()}
            loading={createRole.isPending || updateRole.isPending}
          >
            Save
          </Button>
        </Space>
      }
    >
      {locked && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          title="The admin role holds every permission and cannot be changed."
        />
      )}
      <Form<CreateRoleInput>
        form={form}
        layout="vertical"
        onFinish={submit}
        disabled={locked}
        initialValues={role ?? { name: '', description: '', permissions: [] }}
      >
        <Form.Item
          label="Name"
          name="name"
          rules={[{ required: true, whitespace: true, message: 'Please enter the role name.' }]}
          extra={nameFixed ? 'Only an administrator can rename a default role.' : undefined}
        >
          <Input disabled={nameFixed} />
        </Form.Item>
        <Form.Item label="Description" name="description">
          <Input.TextArea rows={2} />
        </Form.Item>
        <Form.Item label="Permissions" name="permissions">
          <PermissionMatrix
            permissions={permissions.data ?? []}
            loading={permissions.isPending}
            disabled={locked}
          />
        </Form.Item>
      </Form>
    </Drawer>
  );
}
