import {
  carrierUpdateEndpoints,
  vendorEndpoints,
  type ClientCarrierLink,
  type SaveClientCarrierLinkInput,
} from '@inventory/contract';
import { Button, Drawer, Form, Input, Select, Space, Switch, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { showApiError } from '../../../shell/api-errors';
import { useDialogFocus } from '../../../shell/dialog-focus';
import { callEndpoint } from '../../../shell/http-client';
import { notify } from '../../../shell/notify';

type Values = {
  update_url: string;
  update_key: string;
  device_change_ack: boolean;
  pre_activation: boolean;
};

/** One carrier's link: its update endpoint and key, acknowledgement and pre-activation. */
function LinkForm({ link, onSaved }: { link: ClientCarrierLink; onSaved: () => void }) {
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const client = useQueryClient();
  const save = async (values: Values) => {
    setSaving(true);
    try {
      const body: SaveClientCarrierLinkInput = {
        update_url: values.update_url.trim() || null,
        device_change_ack: values.device_change_ack,
        pre_activation: values.pre_activation,
        ...(values.update_key.trim() && { update_key: values.update_key.trim() }),
      };
      await callEndpoint(carrierUpdateEndpoints.saveLink, {
        params: { id: link.client_carrier_id },
        body,
      });
      await client.invalidateQueries({ queryKey: [carrierUpdateEndpoints.link.path] });
      notify.success(`${link.client_carrier}'s link is saved.`);
      onSaved();
    } catch (error) {
      showApiError(error, form);
    } finally {
      setSaving(false);
    }
  };
  return (
    <Form<Values>
      form={form}
      layout="vertical"
      initialValues={{
        update_url: link.update_url ?? '',
        update_key: '',
        device_change_ack: link.device_change_ack,
        pre_activation: link.pre_activation,
      }}
      onFinish={(values) => void save(values)}
    >
      <Form.Item
        name="update_url"
        label="Update endpoint URL"
        extra="Pairings and device changes are POSTed here by a background job; left empty, they go by batch file."
      >
        <Input placeholder="https://carrier.example/pairings" />
      </Form.Item>
      <Form.Item
        name="update_key"
        label="Endpoint key"
        extra={link.has_key ? 'A key is kept: leave empty to keep it.' : 'Sent as a bearer token.'}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        name="device_change_ack"
        label="Device changes need the carrier's acknowledgement before the label"
        valuePropName="checked"
      >
        <Switch />
      </Form.Item>
      <Form.Item
        name="pre_activation"
        label="We pre-activate its prepaid lines (MDN recorded before the label)"
        valuePropName="checked"
      >
        <Switch />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={saving}>
        Save the link
      </Button>
    </Form>
  );
}

/**
 * How each client carrier takes pairings and device changes (DOMAIN.md 4.14): its HTTP endpoint
 * and key, or batch files; whether device changes wait for its acknowledgement; whether we
 * pre-activate its prepaid lines. For those who manage vendors.
 */
export function CarrierLinkDrawer({ onClose }: { onClose: () => void }) {
  const dialogFocus = useDialogFocus();
  const [carrierId, setCarrierId] = useState<number | null>(null);
  const carriers = useQuery({
    queryKey: [vendorEndpoints.list.path, 'carrier-client'],
    queryFn: async () =>
      (
        await callEndpoint(vendorEndpoints.list, {
          query: { type: 'carrier-client', active: 'true', limit: 200 },
        })
      ).data.items,
  });
  const link = useQuery({
    queryKey: [carrierUpdateEndpoints.link.path, carrierId],
    enabled: carrierId !== null,
    queryFn: async () =>
      (await callEndpoint(carrierUpdateEndpoints.link, { params: { id: carrierId! } })).data,
  });
  return (
    <Drawer {...dialogFocus} open size={520} title="Client carrier links" onClose={onClose}>
      <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
        <Typography.Paragraph type="secondary">
          Choose a client carrier to see and change how it takes pairings and device changes.
        </Typography.Paragraph>
        <Select
          aria-label="Client carrier"
          showSearch
          optionFilterProp="label"
          placeholder="Choose a client carrier"
          loading={carriers.isPending}
          style={{ width: '100%' }}
          value={carrierId ?? undefined}
          options={(carriers.data ?? []).map((carrier) => ({
            value: carrier.id,
            label: carrier.name,
          }))}
          onChange={(id: number) => setCarrierId(id)}
        />
        {link.data && (
          <LinkForm key={link.data.client_carrier_id} link={link.data} onSaved={onClose} />
        )}
      </Space>
    </Drawer>
  );
}
