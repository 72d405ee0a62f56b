import {
  BLACKLIST_REASONS,
  BLACKLIST_SOURCES,
  blacklistEndpoints,
  createBlacklistEntrySchema,
  type BlacklistEntry,
  type CreateBlacklistEntryInput,
} from '@inventory/contract';
import { Button, Drawer, Form, Input, Select, Space, Typography } from 'antd';
import { useState } from 'react';
import { showApiError } from '../../../shell/api-errors';
import { callEndpoint } from '../../../shell/http-client';
import { notify } from '../../../shell/notify';
import { fieldSchema, zodRule } from '../../../toolkit/zod-rules';
import { optionsOf } from '../../master-data';
import { useRefreshDevices } from '../api/devices.queries';
import { useDialogFocus } from '../../../shell/dialog-focus';

const ruleOf = (name: keyof CreateBlacklistEntryInput) =>
  zodRule(fieldSchema(createBlacklistEntrySchema, name));

/**
 * Lists an IMEI as blocked by hand: from a device's card (its IMEI given) or on the blacklist
 * page. The device of the IMEI, if we have it, is held at once.
 */
export function BlacklistEntryDrawer({
  imei,
  onClose,
}: {
  /** The device's IMEI when listing from its card; typed in otherwise. */
  imei?: string;
  onClose: () => void;
}) {
  const dialogFocus = useDialogFocus();
  const [form] = Form.useForm<CreateBlacklistEntryInput>();
  const [saving, setSaving] = useState(false);
  const refresh = useRefreshDevices();

  const submit = async (values: CreateBlacklistEntryInput) => {
    setSaving(true);
    try {
      const entry: BlacklistEntry = (
        await callEndpoint(blacklistEndpoints.create, {
          body: { ...values, imei: imei ?? values.imei },
        })
      ).data;
      await refresh();
      notify.success(
        entry.device_status === 'hold'
          ? `${entry.imei} is on the blacklist and its device is on hold.`
          : `${entry.imei} is on the blacklist.`,
      );
      onClose();
    } catch (error) {
      showApiError(error, form);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Drawer
      {...dialogFocus}
      open
      size={480}
      title={imei ? `Put ${imei} on the blacklist` : 'Add an IMEI to the blacklist'}
      onClose={onClose}
      extra={
        <Space>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="primary" loading={saving} onClick={() => form.submit()}>
            Put on blacklist
          </Button>
        </Space>
      }
    >
      <Typography.Paragraph type="secondary">
        A listed device is held at once: it takes no step until the listing is cleared with
        evidence, or it goes back to its vendor.
      </Typography.Paragraph>
      <Form
        form={form}
        layout="vertical"
        onFinish={(values) => void submit(values)}
        initialValues={{ imei: imei ?? '', source: 'internal' }}
      >
        <Form.Item label="IMEI" name="imei" required rules={imei ? [] : [ruleOf('imei')]}>
          <Input disabled={Boolean(imei)} placeholder="15 digits" autoFocus={!imei} />
        </Form.Item>
        <Form.Item label="Source" name="source" required rules={[ruleOf('source')]}>
          <Select options={optionsOf(BLACKLIST_SOURCES)} />
        </Form.Item>
        <Form.Item label="Reason" name="reason" required rules={[ruleOf('reason')]}>
          <Select options={optionsOf(BLACKLIST_REASONS)} placeholder="Choose the reason" />
        </Form.Item>
        <Form.Item
          label="Reference"
          name="reference"
          rules={[ruleOf('reference')]}
          extra="The provider's check number or the carrier's case."
        >
          <Input />
        </Form.Item>
        <Form.Item label="Note" name="note" rules={[ruleOf('note')]}>
          <Input.TextArea rows={3} />
        </Form.Item>
      </Form>
    </Drawer>
  );
}
