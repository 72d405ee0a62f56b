import {
  addTransferDevicesEndpoint,
  removeTransferDeviceEndpoint,
  transferDevicesEndpoint,
  transferStepEndpoint,
  VENDOR_TRANSFER_MANAGE_ACCESS,
  vendorTransferEndpoints,
  type TransferDevice,
  type TransferStep,
  type VendorTransfer,
} from '@inventory/contract';
import {
  Alert,
  Button,
  Descriptions,
  Drawer,
  Form,
  Input,
  InputNumber,
  Modal,
  Popconfirm,
  Space,
  Spin,
  Table,
  Tag,
  Typography,
} from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { fieldErrorsOf, showApiError } from '../../../shell/api-errors';
import { callEndpoint } from '../../../shell/http-client';
import { notify } from '../../../shell/notify';
import { useCan } from '../../../shell/use-can';
import { counted, centsOf, dollars, when } from '../../../toolkit/format';
import { DeviceStatusTag, HoldTag, useRefreshDevices } from '../../devices';
import { codesOf, stepsOf, TRANSFER_STEP_RULES } from './transfer-steps';
import { useDialogFocus } from '../../../shell/dialog-focus';

const transfersKey = vendorTransferEndpoints.list.path;

/** The status of a return, coloured by how far it has gone. */
export const TRANSFER_STATUS_COLORS: Record<VendorTransfer['status'], string> = {
  draft: 'default',
  packed: 'blue',
  shipped: 'purple',
  received_by_vendor: 'cyan',
  credited: 'green',
  cancelled: 'red',
};

type StepBody = { carrier?: string; tracking?: string; credit_cents?: number };

/** The ship and credit steps ask for what they record: the parcel, or the vendor's credit. */
function StepModal({
  transfer,
  step,
  onSubmit,
  onClose,
}: {
  transfer: VendorTransfer;
  step: 'ship' | 'credit';
  onSubmit: (body: StepBody, form: ReturnType<typeof Form.useForm>[0]) => Promise<void>;
  onClose: () => void;
}) {
  const dialogFocus = useDialogFocus();
  const [form] = Form.useForm();
  const [saving, setSaving] = useState(false);
  const submit = async (values: { carrier?: string; tracking?: string; credit?: number }) => {
    setSaving(true);
    try {
      await onSubmit(
        step === 'ship'
          ? { carrier: values.carrier, tracking: values.tracking }
          : { credit_cents: centsOf(values.credit ?? 0) },
        form,
      );
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      {...dialogFocus}
      open
      title={step === 'ship' ? `Ship ${transfer.code}` : `Record the credit for ${transfer.code}`}
      okText={step === 'ship' ? 'Ship' : 'Record credit'}
      confirmLoading={saving}
      onOk={() => form.submit()}
      onCancel={onClose}
    >
      <Form
        form={form}
        layout="vertical"
        onFinish={(values) => void submit(values)}
        initialValues={
          step === 'ship'
            ? { carrier: transfer.carrier ?? '', tracking: transfer.tracking ?? '' }
            : { credit: transfer.devices_cost_cents / 100 }
        }
      >
        {step === 'ship' ? (
          <>
            <Typography.Paragraph type="secondary">
              The {counted(transfer.device_count, 'device')} leave stock: their status becomes rtv.
            </Typography.Paragraph>
            <Form.Item
              label="Carrier"
              name="carrier"
              rules={[{ required: true, whitespace: true, message: 'Enter the carrier.' }]}
            >
              <Input placeholder="UPS, FedEx, USPS" autoFocus />
            </Form.Item>
            <Form.Item
              label="Tracking number"
              name="tracking"
              rules={[{ required: true, whitespace: true, message: 'Enter the tracking number.' }]}
            >
              <Input />
            </Form.Item>
          </>
        ) : (
          <Form.Item
            label="Credit"
            name="credit"
            extra={`The devices cost ${dollars(transfer.devices_cost_cents)}.`}
            rules={[{ required: true, message: "Enter the vendor's credit." }]}
          >
            <InputNumber min={0} precision={2} prefix="$" style={{ width: 200 }} autoFocus />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}

/**
 * One return to vendor: its devices (scan to add, remove while a draft), its totals, and the
 * steps its status allows.
 */
export function TransferDrawer({ id, onClose }: { id: number; onClose: () => void }) {
  const dialogFocus = useDialogFocus();
  const canManage = useCan(VENDOR_TRANSFER_MANAGE_ACCESS);
  const refresh = useRefreshDevices();
  const transfer = useQuery({
    queryKey: [transfersKey, 'one', id],
    queryFn: async () => (await callEndpoint(vendorTransferEndpoints.get, { params: { id } })).data,
  });
  const devices = useQuery({
    queryKey: [transfersKey, 'devices', id],
    queryFn: async () => (await callEndpoint(transferDevicesEndpoint, { params: { id } })).data,
  });
  const [scanned, setScanned] = useState('');
  const [refused, setRefused] = useState<string[]>([]);
  const [adding, setAdding] = useState(false);
  const [asking, setAsking] = useState<'ship' | 'credit' | null>(null);

  const add = async (text: string) => {
    const codes = codesOf(text);
    if (codes.length === 0) return;
    setAdding(true);
    setRefused([]);
    try {
      const after = (
        await callEndpoint(addTransferDevicesEndpoint, { params: { id }, body: { codes } })
      ).data;
      setScanned('');
      await refresh();
      notify.success(`${after.code} holds ${counted(after.device_count, 'device')}.`);
    } catch (error) {
      const codeErrors = fieldErrorsOf(error)?.codes;
      if (codeErrors) setRefused(codeErrors);
      else showApiError(error);
    } finally {
      setAdding(false);
    }
  };

  const remove = async (device: TransferDevice) => {
    try {
      await callEndpoint(removeTransferDeviceEndpoint, {
        params: { id, deviceId: device.device_id },
      });
      await refresh();
    } catch (error) {
      showApiError(error);
    }
  };

  const takeStep = async (
    step: TransferStep,
    body: StepBody = {},
    form?: ReturnType<typeof Form.useForm>[0],
  ) => {
    try {
      const after = (await callEndpoint(transferStepEndpoint, { params: { id, step }, body })).data;
      await refresh();
      setAsking(null);
      notify.success(`${after.code} is ${after.status.replace(/_/g, ' ')}.`);
    } catch (error) {
      showApiError(error, form);
    }
  };

  const current = transfer.data;
  const draft = current?.status === 'draft';

  const stepButton = (step: TransferStep, item: VendorTransfer) => {
    const { label } = TRANSFER_STEP_RULES[step];
    if (step === 'ship' || step === 'credit') {
      return (
        <Button key={step} type="primary" onClick={() => setAsking(step)}>
          {label}
        </Button>
      );
    }
    return (
      <Popconfirm
        key={step}
        title={`${label} ${item.code}?`}
        okText={label}
        okButtonProps={{ danger: step === 'cancel' }}
        onConfirm={() => takeStep(step)}
      >
        <Button danger={step === 'cancel'} type={step === 'pack' ? 'primary' : 'default'}>
          {label}
        </Button>
      </Popconfirm>
    );
  };

  return (
    <Drawer
      {...dialogFocus}
      open
      size={880}
      title={current ? `Return ${current.code}` : 'Return to vendor'}
      onClose={onClose}
    >
      {transfer.isError && (
        <Alert
          type="error"
          showIcon
          title="The return could not be loaded."
          description={transfer.error.message}
        />
      )}
      {!current ? (
        !transfer.isError && <Spin />
      ) : (
        <Space orientation="vertical" size="large" style={{ width: '100%' }}>
          {canManage && (
            // In the body, not the header: the notifications at the top right would cover them.
            <Space wrap>{stepsOf(current).map((step) => stepButton(step, current))}</Space>
          )}
          <Descriptions size="small" bordered column={{ xs: 1, md: 2 }}>
            <Descriptions.Item label="Status">
              <Tag color={TRANSFER_STATUS_COLORS[current.status]}>{current.status}</Tag>
            </Descriptions.Item>
            <Descriptions.Item label="Vendor">{current.vendor}</Descriptions.Item>
            <Descriptions.Item label="Invoice">{current.invoice_no ?? '—'}</Descriptions.Item>
            <Descriptions.Item label="Reason">
              {current.reason.replace(/_/g, ' ')}
            </Descriptions.Item>
            <Descriptions.Item label="Devices">{current.device_count}</Descriptions.Item>
            <Descriptions.Item label="Devices cost">
              {dollars(current.devices_cost_cents)}
            </Descriptions.Item>
            <Descriptions.Item label="Credit">{dollars(current.credit_cents)}</Descriptions.Item>
            <Descriptions.Item label="Carrier">{current.carrier ?? '—'}</Descriptions.Item>
            <Descriptions.Item label="Tracking">{current.tracking ?? '—'}</Descriptions.Item>
            <Descriptions.Item label="Shipped">{when(current.shipped_at)}</Descriptions.Item>
            <Descriptions.Item label="Received by vendor">
              {when(current.received_by_vendor_at)}
            </Descriptions.Item>
            <Descriptions.Item label="Credited">{when(current.credited_at)}</Descriptions.Item>
            <Descriptions.Item label="Notes">{current.notes ?? '—'}</Descriptions.Item>
          </Descriptions>

          {draft && canManage && (
            <Space orientation="vertical" style={{ width: '100%' }}>
              <Input.Search
                aria-label="Scan a device onto this return"
                placeholder="Scan or type IMEIs or MEIDs; several at once, separated by spaces"
                enterButton="Add"
                value={scanned}
                loading={adding}
                onChange={(event) => setScanned(event.target.value)}
                onSearch={(text) => void add(text)}
                autoFocus
              />
              {refused.length > 0 && (
                <Alert
                  type="error"
                  showIcon
                  title="Nothing was added: these codes were refused."
                  description={
                    <ul style={{ margin: 0, paddingLeft: 20 }}>
                      {refused.map((problem) => (
                        <li key={problem}>{problem}</li>
                      ))}
                    </ul>
                  }
                />
              )}
            </Space>
          )}

          <Typography.Title level={5} style={{ margin: 0 }}>
            Devices on this return
          </Typography.Title>
          <Table<TransferDevice>
            size="small"
            rowKey="device_id"
            loading={devices.isFetching}
            dataSource={devices.data ?? []}
            pagination={false}
            locale={{ emptyText: 'No devices on this return yet.' }}
            columns={[
              {
                key: 'imei',
                title: 'IMEI',
                render: (_, device) => device.imei ?? device.meid ?? '—',
              },
              { key: 'model', dataIndex: 'model', title: 'Model' },
              {
                key: 'status',
                title: 'Status',
                render: (_, device) => <DeviceStatusTag status={device.status} />,
              },
              {
                key: 'hold',
                title: 'Hold',
                render: (_, device) => <HoldTag reason={device.hold_reason} />,
              },
              {
                key: 'container',
                title: 'Box',
                render: (_, device) => device.container ?? '—',
              },
              {
                key: 'unit_cost',
                title: 'Unit cost',
                render: (_, device) => dollars(device.unit_cost_cents),
              },
              { key: 'added_at', title: 'Added', render: (_, device) => when(device.added_at) },
              ...(draft && canManage
                ? [
                    {
                      key: 'remove',
                      title: '',
                      render: (_: unknown, device: TransferDevice) => (
                        <Button
                          size="small"
                          aria-label={`Remove ${device.imei ?? device.meid}`}
                          onClick={() => void remove(device)}
                        >
                          Remove
                        </Button>
                      ),
                    },
                  ]
                : []),
            ]}
          />
        </Space>
      )}
      {current && asking && (
        <StepModal
          transfer={current}
          step={asking}
          onClose={() => setAsking(null)}
          onSubmit={(body, form) => takeStep(asking, body, form)}
        />
      )}
    </Drawer>
  );
}
