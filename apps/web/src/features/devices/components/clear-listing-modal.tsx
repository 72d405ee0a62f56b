import { clearBlacklistEntryEndpoint, type BlacklistEntry, type Schema } from '@inventory/contract';
import { Form, Input, Modal, Typography } from 'antd';
import { useState } from 'react';
import { showApiError } from '../../../shell/api-errors';
import { callEndpoint } from '../../../shell/http-client';
import { notify } from '../../../shell/notify';
import { fieldSchema, zodRule } from '../../../toolkit/zod-rules';
import { useRefreshDevices } from '..';
import { useDialogFocus } from '../../../shell/dialog-focus';

/** Clears a listing with its evidence; a device it held goes back to its status before the hold. */
export function ClearListingModal({
  entry,
  onClose,
}: {
  entry: BlacklistEntry;
  onClose: () => void;
}) {
  const dialogFocus = useDialogFocus();
  const [form] = Form.useForm<{ evidence: string }>();
  const [saving, setSaving] = useState(false);
  const refresh = useRefreshDevices();

  const submit = async ({ evidence }: { evidence: string }) => {
    setSaving(true);
    try {
      const cleared = (
        await callEndpoint(clearBlacklistEntryEndpoint, {
          params: { id: entry.id },
          body: { evidence },
        })
      ).data;
      await refresh();
      notify.success(
        cleared.device_status
          ? `${cleared.imei} is cleared; its device is ${cleared.device_status} again.`
          : `${cleared.imei} is cleared.`,
      );
      onClose();
    } catch (error) {
      showApiError(error, form);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      {...dialogFocus}
      open
      title={`Clear ${entry.imei} from the blacklist`}
      okText="Clear the listing"
      confirmLoading={saving}
      onOk={() => form.submit()}
      onCancel={onClose}
    >
      <Typography.Paragraph type="secondary">
        Listed by {entry.source} as {entry.reason}
        {entry.reference ? ` (${entry.reference})` : ''}. Say what shows the device is clean: it is
        kept with the listing.
      </Typography.Paragraph>
      <Form form={form} layout="vertical" onFinish={(values) => void submit(values)}>
        <Form.Item
          label="Evidence"
          name="evidence"
          required
          rules={[zodRule(fieldSchema(clearBlacklistEntryEndpoint.body as Schema, 'evidence'))]}
        >
          <Input.TextArea rows={3} placeholder="A provider result, a carrier letter" autoFocus />
        </Form.Item>
      </Form>
    </Modal>
  );
}
