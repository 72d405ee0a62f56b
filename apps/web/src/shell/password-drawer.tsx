import {
  changePasswordEndpoint,
  validatePasswordChange,
  type ChangePasswordInput,
  type PasswordField,
} from '@inventory/contract';
import { Button, Drawer, Form, Input } from 'antd';
import { useState } from 'react';
import { ApiError, callEndpoint } from './http-client';
import { notify } from './notify';
import { getStoredUserName } from './session-storage';
import { useSignOut } from './use-sign-out';
import { useDialogFocus } from './dialog-focus';

/** Width of the drawer, spec section 9. */
export const PASSWORD_DRAWER_WIDTH = 360;

/**
 * Spec section 8: field messages are read as a map of field to messages and the first of each
 * field is shown as an error notification; anything else is shown as it came.
 */
function notifyPasswordError(error: unknown): Record<string, string[]> {
  const message = error instanceof ApiError ? error.body?.message : undefined;
  if (message && typeof message === 'object') {
    for (const messages of Object.values(message)) {
      if (messages[0]) notify.error(messages[0]);
    }
    return message;
  }
  notify.error(typeof message === 'string' ? message : String((error as Error).message ?? error));
  return {};
}

/**
 * The Change Password drawer titled 'Update password'. On first login it opens by itself, cannot
 * be dismissed, and does not ask for the current password.
 */
export default function PasswordDrawer({
  firstLogin,
  onClose,
}: {
  firstLogin: boolean;
  onClose: () => void;
}) {
  const dialogFocus = useDialogFocus();
  const [form] = Form.useForm<ChangePasswordInput>();
  const [saving, setSaving] = useState(false);
  const signOut = useSignOut();

  const userName = getStoredUserName();
  const rule = (field: PasswordField) => ({
    validator: async () => {
      const errors = validatePasswordChange(form.getFieldsValue(), { firstLogin, userName });
      const message = errors[field]?.[0];
      if (message) throw new Error(message);
    },
  });

  const submit = async (values: ChangePasswordInput) => {
    setSaving(true);
    try {
      const answer = await callEndpoint(changePasswordEndpoint, { body: values });
      form.resetFields();
      onClose();
      notify.success(answer.message);
      await signOut({ endServerSession: false });
    } catch (error) {
      const fields = notifyPasswordError(error);
      const shown: PasswordField[] = firstLogin
        ? ['new_password', 'new_password_confirm']
        : ['current_password', 'new_password', 'new_password_confirm'];
      form.setFields(
        shown.filter((name) => fields[name]).map((name) => ({ name, errors: fields[name] ?? [] })),
      );
    } finally {
      setSaving(false);
    }
  };

  return (
    <Drawer
      {...dialogFocus}
      title="Update password"
      size={PASSWORD_DRAWER_WIDTH}
      open
      onClose={onClose}
      closable={!firstLogin}
      mask={{ closable: !firstLogin }}
      keyboard={!firstLogin}
    >
      {firstLogin && (
        <p>Welcome. Set a password of your own before you continue; you will then sign in again.</p>
      )}
      <Form form={form} layout="vertical" onFinish={submit} requiredMark>
        {!firstLogin && (
          <Form.Item
            label="Current password"
            name="current_password"
            required
            rules={[rule('current_password')]}
          >
            <Input.Password autoComplete="current-password" />
          </Form.Item>
        )}
        <Form.Item
          label="New password"
          name="new_password"
          required
          rules={[rule('new_password')]}
          dependencies={['current_password']}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          label="Confirm new password"
          name="new_password_confirm"
          required
          rules={[rule('new_password_confirm')]}
          dependencies={['new_password']}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={saving} block>
          Update password
        </Button>
      </Form>
    </Drawer>
  );
}
