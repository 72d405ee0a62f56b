import { DEFAULT_AUDIT_INTERVAL_DAYS } from '@inventory/contract';
import { Form, Input, Modal, Typography } from 'antd';
import { showApiError } from '../../../shell/api-errors';
import { notify } from '../../../shell/notify';
import { counted } from '../../../toolkit/format';
import { useLocationWrites } from '../api/locations.queries';

/** Today plus the default interval, as the date field writes it (the browser's day). */
function defaultDue(): string {
  const due = new Date();
  due.setDate(due.getDate() + DEFAULT_AUDIT_INTERVAL_DAYS);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${due.getFullYear()}-${pad(due.getMonth() + 1)}-${pad(due.getDate())}`;
}

/** Records an audit of the chosen locations, now and by me, and when the next one is due. */
export function AuditModal({
  ids,
  onClose,
  onDone,
}: {
  ids: number[];
  onClose: () => void;
  onDone: () => void;
}) {
  const [form] = Form.useForm<{ next_audit_due: string }>();
  const writes = useLocationWrites();
  return (
    <Modal
      open
      title={`Record an audit of ${counted(ids.length, 'location')}`}
      okText="Record the audit"
      confirmLoading={writes.audit.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
    >
      <Typography.Paragraph>
        The audit is recorded as done now, by you. Choose when the next one is due.
      </Typography.Paragraph>
      <Form
        form={form}
        layout="vertical"
        initialValues={{ next_audit_due: defaultDue() }}
        onFinish={async ({ next_audit_due }) => {
          try {
            const done = await writes.audit.mutateAsync({ ids, next_audit_due });
            notify.success(
              `Audit recorded for ${counted(done.audited, 'location')}; the next is due ${done.next_audit_due}.`,
            );
            onDone();
          } catch (error) {
            showApiError(error, form);
          }
        }}
      >
        <Form.Item
          label="Next audit due"
          name="next_audit_due"
          rules={[{ required: true, message: 'Choose the date the next audit is due.' }]}
          extra={`${DEFAULT_AUDIT_INTERVAL_DAYS} days from today unless you choose another date.`}
        >
          <Input type="date" autoFocus />
        </Form.Item>
      </Form>
    </Modal>
  );
}
