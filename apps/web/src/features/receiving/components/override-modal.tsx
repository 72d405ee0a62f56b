import type { WarehouseBox } from '@inventory/contract';
import { Form, Input, Modal, Typography } from 'antd';
import { useState } from 'react';

/** Closing a box whose count differs from the expected one: a manager's reason. */
export function OverrideModal({
  box,
  onClose,
  onConfirm,
}: {
  box: WarehouseBox;
  onClose: () => void;
  onConfirm: (reason: string) => Promise<void>;
}) {
  const [form] = Form.useForm<{ reason: string }>();
  const [saving, setSaving] = useState(false);
  return (
    <Modal
      open
      title={`Close box ${box.code} with a manager override`}
      okText="Close the box"
      confirmLoading={saving}
      onOk={() => form.submit()}
      onCancel={onClose}
    >
      <Typography.Paragraph>
        {box.qty_scanned} scanned of {box.qty_expected} expected. Say why the box is closed anyway;
        the reason stays on the box and in the audit log.
      </Typography.Paragraph>
      <Form
        form={form}
        layout="vertical"
        onFinish={async ({ reason }) => {
          setSaving(true);
          try {
            await onConfirm(reason.trim());
          } finally {
            setSaving(false);
          }
        }}
      >
        <Form.Item
          label="Reason"
          name="reason"
          rules={[{ required: true, whitespace: true, message: 'Say why the box is closed.' }]}
        >
          <Input.TextArea rows={3} maxLength={500} autoFocus />
        </Form.Item>
      </Form>
    </Modal>
  );
}
