import {
  AGENT_ACTIVATION_TONES,
  parseIccid,
  parseImei,
  type AgentActivationResult,
} from '@inventory/contract';
import { Button, Card, Form, Input, Typography, type InputRef } from 'antd';
import { useRef, useState } from 'react';
import { fieldErrorsOf, showApiError } from '../../../shell/api-errors';
import type { PageProps } from '../../../shell/page-types';
import { PAGE_TITLE_STYLE } from '../../../shell/page-styles';
import {
  beep,
  ScanLog,
  withAnswer,
  type ScanFeedback,
  type ScanLine,
} from '../../../toolkit/station';
import { useRecordActivation } from '../api/agent-portal.queries';
import { CameraScanButton } from '../components/camera-scanner';

const FEEDBACK: ScanFeedback<AgentActivationResult> = {
  tones: AGENT_ACTIVATION_TONES,
  words: { recorded: 'Recorded', already_recorded: 'Already recorded' },
};

type Values = { iccid: string; enrolment_ref: string; imei?: string; enrolled_on: string };

/** Today in the phone's own calendar, as YYYY-MM-DD. */
function localToday(): string {
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/**
 * Record an activation (DOMAIN.md 5.4 step 5, 7): scan or type the ICCID of a SIM handed out
 * (checked with its Luhn digit before it is sent), the carrier's enrolment reference, the phone's
 * IMEI if one was handed out, and the day. No subscriber's personal data is asked for.
 */
export default function AgentActivatePage({ entry }: PageProps) {
  const [form] = Form.useForm<Values>();
  const record = useRecordActivation();
  const [lines, setLines] = useState<ScanLine<AgentActivationResult>[]>([]);
  const iccidField = useRef<InputRef>(null);

  const failed = (code: string, message: string) => {
    beep('error');
    setLines((current) =>
      [
        { key: `failed-${Date.now()}`, code, at: new Date().toISOString(), failed: true, message },
        ...current,
      ].slice(0, 50),
    );
  };

  const submit = (values: Values) => {
    const iccid = parseIccid(values.iccid);
    if (!iccid.ok) {
      form.setFields([{ name: 'iccid', errors: [iccid.message] }]);
      return;
    }
    const imeiText = values.imei?.trim() ?? '';
    const imei = imeiText ? parseImei(imeiText) : null;
    if (imei && !imei.ok) {
      form.setFields([{ name: 'imei', errors: [imei.message] }]);
      return;
    }
    record.mutate(
      {
        iccid: iccid.value.iccid,
        enrolment_ref: values.enrolment_ref,
        imei: imei?.ok ? imei.value.imei : null,
        enrolled_on: values.enrolled_on,
      },
      {
        onSuccess: (answer) => {
          beep(AGENT_ACTIVATION_TONES[answer.result]);
          setLines((current) => withAnswer(current, answer));
          form.resetFields(['iccid', 'enrolment_ref', 'imei']);
          iccidField.current?.focus();
        },
        onError: (error) => {
          if (fieldErrorsOf(error)) showApiError(error, form);
          else failed(iccid.value.iccid, error.message);
        },
      },
    );
  };

  return (
    <>
      <Typography.Title level={1} style={{ ...PAGE_TITLE_STYLE, marginBottom: 8 }}>
        {entry.label}
      </Typography.Title>
      <Typography.Paragraph type="secondary">
        Enrol the subscriber in the carrier&apos;s system first, then record the SIM here with the
        reference it gave you. Never enter the subscriber&apos;s name or details.
      </Typography.Paragraph>
      <Card size="small" style={{ marginBottom: 16 }}>
        <Form
          form={form}
          layout="vertical"
          requiredMark="optional"
          initialValues={{ enrolled_on: localToday() }}
          onFinish={submit}
        >
          <Form.Item
            name="iccid"
            label="ICCID"
            style={{ marginBottom: 8 }}
            extra="Scan the barcode on the SIM card, or type its 19 or 20 digits."
            rules={[{ required: true, message: 'Scan or type the ICCID.' }]}
          >
            <Input ref={iccidField} inputMode="numeric" autoComplete="off" size="large" autoFocus />
          </Form.Item>
          <div style={{ marginBottom: 16 }}>
            <CameraScanButton
              label="Scan ICCID with camera"
              onCode={(code) => {
                form.setFieldValue('iccid', code);
                const parsed = parseIccid(code);
                form.setFields([{ name: 'iccid', errors: parsed.ok ? [] : [parsed.message] }]);
              }}
            />
          </div>
          <Form.Item
            name="enrolment_ref"
            label="Carrier enrolment reference"
            rules={[{ required: true, message: "Enter the carrier's enrolment reference." }]}
          >
            <Input autoComplete="off" size="large" />
          </Form.Item>
          <Form.Item
            name="imei"
            label="IMEI of the phone handed out"
            extra="Only when a phone went with the SIM: 15 digits."
          >
            <Input inputMode="numeric" autoComplete="off" size="large" />
          </Form.Item>
          <Form.Item
            name="enrolled_on"
            label="Enrolment date"
            rules={[{ required: true, message: 'Enter the enrolment date.' }]}
          >
            <Input type="date" size="large" />
          </Form.Item>
          <Button type="primary" htmlType="submit" size="large" block loading={record.isPending}>
            Record activation
          </Button>
        </Form>
      </Card>
      <Typography.Title level={2} style={{ fontSize: 18 }}>
        Recorded here
      </Typography.Title>
      <ScanLog lines={lines} feedback={FEEDBACK} empty="Each activation you record shows here." />
    </>
  );
}
