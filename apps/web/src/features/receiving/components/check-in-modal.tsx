import {
  checkInBodySchema,
  checkInShipmentEndpoint,
  type InboundShipment,
  type Schema,
} from '@inventory/contract';
import { Form, Input, InputNumber, Modal, Space, Switch, Typography } from 'antd';
import { useState } from 'react';
import { showApiError } from '../../../shell/api-errors';
import { callEndpoint } from '../../../shell/http-client';
import { notify } from '../../../shell/notify';
import { fieldSchema, zodRule } from '../../../toolkit/zod-rules';
import { useRefreshInvoices } from '../api/invoices.queries';
import { useDialogFocus } from '../../../shell/dialog-focus';

type CheckInValues = {
  pallets_received?: number | null;
  boxes_received?: number | null;
  damaged?: boolean;
  damage_notes?: string;
};

const rule = (name: string) => zodRule(fieldSchema(checkInBodySchema as Schema, name));

/**
 * Checks a shipment in at the dock: the pallets and boxes that arrived, and any damage. Checking
 * in again corrects what was noted.
 */
export function CheckInModal({
  shipment,
  onClose,
}: {
  shipment: InboundShipment;
  onClose: () => void;
}) {
  const dialogFocus = useDialogFocus();
  const [form] = Form.useForm<CheckInValues>();
  const damaged = Form.useWatch('damaged', form);
  const refresh = useRefreshInvoices();
  const [saving, setSaving] = useState(false);
  const title = `Check in ${shipment.tracking ?? `shipment ${shipment.id}`}`;

  const submit = async (values: CheckInValues) => {
    setSaving(true);
    try {
      await callEndpoint(checkInShipmentEndpoint, {
        params: { id: shipment.id },
        body: {
          pallets_received: values.pallets_received ?? null,
          boxes_received: values.boxes_received ?? null,
          damaged: values.damaged ?? false,
          damage_notes: values.damaged ? values.damage_notes?.trim() || null : null,
        },
      });
      await refresh();
      notify.success(`The shipment from ${shipment.vendor} has arrived.`);
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
      title={title}
      okText="Check in"
      confirmLoading={saving}
      onOk={() => form.submit()}
      onCancel={onClose}
    >
      <Typography.Paragraph type="secondary">
        {shipment.vendor}
        {shipment.invoice_no ? `, invoice ${shipment.invoice_no}` : ', no invoice linked yet'}.
        Expected: {shipment.pallets_expected ?? '—'} pallet(s), {shipment.boxes_expected ?? '—'}{' '}
        box(es).
      </Typography.Paragraph>
      <Form
        form={form}
        layout="vertical"
        onFinish={(values) => void submit(values)}
        initialValues={{
          pallets_received: shipment.pallets_received ?? shipment.pallets_expected,
          boxes_received: shipment.boxes_received ?? shipment.boxes_expected,
          damaged: shipment.damaged,
          damage_notes: shipment.damage_notes ?? '',
        }}
      >
        <Space wrap>
          <Form.Item
            label="Pallets received"
            name="pallets_received"
            rules={[rule('pallets_received')]}
          >
            <InputNumber min={0} style={{ width: 160 }} />
          </Form.Item>
          <Form.Item label="Boxes received" name="boxes_received" rules={[rule('boxes_received')]}>
            <InputNumber min={0} style={{ width: 160 }} />
          </Form.Item>
        </Space>
        <Form.Item label="Damaged" name="damaged" valuePropName="checked">
          <Switch />
        </Form.Item>
        {damaged && (
          <Form.Item
            label="Damage notes"
            name="damage_notes"
            rules={[
              rule('damage_notes'),
              { required: true, whitespace: true, message: 'Say what is damaged.' },
            ]}
          >
            <Input.TextArea rows={3} placeholder="Crushed corner on pallet 2, three wet cartons…" />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}
