import {
  DEVICE_CONDITIONS,
  DEVICE_GRADES,
  deviceCorrectionEndpoints,
  deviceCorrectionImport,
  deviceCorrectionImportEndpoints,
  type CorrectableDevice,
} from '@inventory/contract';
import {
  Alert,
  Button,
  Descriptions,
  Form,
  Input,
  InputNumber,
  Select,
  Space,
  Typography,
  type InputRef,
} from 'antd';
import { lazy, Suspense, useRef, useState } from 'react';
import { showApiError } from '../../../shell/api-errors';
import { notify } from '../../../shell/notify';
import { PAGE_TITLE_STYLE } from '../../../shell/page-styles';
import type { PageProps } from '../../../shell/page-types';
import { pickerLoader } from '../../../toolkit/picker-options';
import { RemoteSelect } from '../../../toolkit/resource-form';
import { ScanInput, useWedgeScanner } from '../../../toolkit/station';
import { lookUpCorrectableDevice, useCorrectDevice } from '../api/device-corrections.queries';

const modelField = {
  name: 'model_id',
  label: 'Model',
  kind: 'remote',
  load: pickerLoader(deviceCorrectionEndpoints.modelOptions),
} as const;
const colorField = {
  name: 'color_id',
  label: 'Colour',
  kind: 'remote',
  load: pickerLoader(deviceCorrectionEndpoints.colorOptions),
} as const;

const ImportDrawer = lazy(() => import('../../../toolkit/import-drawer'));

type CorrectionForm = Pick<
  CorrectableDevice,
  'model_id' | 'color_id' | 'capacity_gb' | 'grade' | 'carrier_lock' | 'condition'
> & { reason: string };

/**
 * Correcting a device (DOMAIN.md 4.17 `/invoice/product-team/update-device`): scan an IMEI, change
 * its model, colour, capacity, grade, carrier lock or condition and say why; or import a file of
 * corrections (IMEI, field, new value, reason), checked row by row before any is written. The
 * server refuses a unit promised or gone to a customer and records every correction on the
 * device's timeline.
 */
export default function UpdateDevicePage({ entry }: PageProps) {
  const [device, setDevice] = useState<CorrectableDevice | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [importing, setImporting] = useState(false);
  const [form] = Form.useForm<CorrectionForm>();
  const correct = useCorrectDevice();
  const scanField = useRef<InputRef>(null);
  const scanner = useWedgeScanner(scanField, device === null && !importing);

  const show = (found: CorrectableDevice) => {
    setDevice(found);
    form.setFieldsValue({ ...found, reason: '' });
  };

  const look = async (code: string) => {
    setRefusal(null);
    try {
      show(await lookUpCorrectableDevice(code));
    } catch (error) {
      setDevice(null);
      setRefusal(error instanceof Error ? error.message : String(error));
    }
  };

  const save = async (values: CorrectionForm) => {
    if (!device) return;
    try {
      const corrected = await correct.mutateAsync({ device_id: device.id, ...values });
      notify.success(`${corrected.identifier} is corrected.`);
      setDevice(null);
      scanner.refocus();
    } catch (error) {
      showApiError(error, form);
    }
  };

  return (
    <div>
      <Typography.Title level={1} style={PAGE_TITLE_STYLE}>
        {entry.label}
      </Typography.Title>
      <Space wrap style={{ marginBottom: 12 }}>
        <ScanInput
          ref={scanField}
          scanner={scanner}
          label="Scan an IMEI"
          placeholder="Scan the IMEI of the device to correct"
          onScan={(code) => void look(code)}
        />
        <Button onClick={() => setImporting(true)}>Import corrections</Button>
      </Space>
      {refusal && <Alert type="error" showIcon title={refusal} style={{ marginBottom: 12 }} />}
      {device && (
        <section aria-label={`Correct ${device.identifier}`}>
          <Descriptions size="small" bordered column={2} style={{ marginBottom: 12 }}>
            <Descriptions.Item label="IMEI">{device.identifier}</Descriptions.Item>
            <Descriptions.Item label="Status">{device.status.replace(/_/g, ' ')}</Descriptions.Item>
            <Descriptions.Item label="Model">{device.model}</Descriptions.Item>
            <Descriptions.Item label="Colour">{device.color ?? '—'}</Descriptions.Item>
          </Descriptions>
          <Form
            form={form}
            layout="vertical"
            aria-label="Correction"
            onFinish={(values) => void save(values)}
          >
            <Space wrap align="start">
              <Form.Item name="model_id" label="Model">
                <RemoteSelect
                  field={modelField}
                  initial={[{ value: device.model_id, label: device.model }]}
                />
              </Form.Item>
              <Form.Item name="color_id" label="Colour">
                <RemoteSelect
                  field={colorField}
                  initial={
                    device.color_id && device.color
                      ? [{ value: device.color_id, label: device.color }]
                      : []
                  }
                />
              </Form.Item>
              <Form.Item name="capacity_gb" label="Capacity GB">
                <InputNumber min={1} precision={0} />
              </Form.Item>
              <Form.Item name="grade" label="Grade">
                <Select
                  allowClear
                  style={{ width: 90 }}
                  options={DEVICE_GRADES.map((value) => ({ value, label: value }))}
                />
              </Form.Item>
              <Form.Item name="carrier_lock" label="Carrier lock">
                <Input placeholder="unlocked" />
              </Form.Item>
              <Form.Item name="condition" label="Condition">
                <Select
                  allowClear
                  style={{ width: 140 }}
                  options={DEVICE_CONDITIONS.map((value) => ({ value, label: value }))}
                />
              </Form.Item>
            </Space>
            <Form.Item
              name="reason"
              label="Reason"
              rules={[{ required: true, message: 'Say why you correct the device.' }]}
            >
              <Input.TextArea rows={2} />
            </Form.Item>
            <Space>
              <Button type="primary" htmlType="submit" loading={correct.isPending}>
                Save correction
              </Button>
              <Button
                onClick={() => {
                  setDevice(null);
                  scanner.refocus();
                }}
              >
                Another device
              </Button>
            </Space>
          </Form>
        </section>
      )}
      {importing && (
        <Suspense fallback={null}>
          <ImportDrawer
            resource={deviceCorrectionImport}
            endpoints={deviceCorrectionImportEndpoints}
            onClose={() => {
              setImporting(false);
              scanner.refocus();
            }}
          />
        </Suspense>
      )}
    </div>
  );
}
