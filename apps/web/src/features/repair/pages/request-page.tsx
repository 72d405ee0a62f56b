import { QC_ISSUE_CODES } from '@inventory/contract';
import { Button, Form, Input, Select, Table, Typography } from 'antd';
import { showApiError } from '../../../shell/api-errors';
import { notify } from '../../../shell/notify';
import { PAGE_TITLE_STYLE } from '../../../shell/page-styles';
import type { PageProps } from '../../../shell/page-types';
import { useRecentTickets, useRequestRepair } from '../api/repair.queries';
import { ticketColumns } from '../components/ticket-parts';

type RequestForm = { code: string; issue_codes?: string[]; note?: string };

/**
 * Repair requests (DOMAIN.md 4.19): scan the IMEI of a device that failed QC or came back, say
 * what is wrong with the issue codes production uses, and it goes to repair on a new ticket.
 */
export default function RequestPage({ entry }: PageProps) {
  const recent = useRecentTickets();
  const request = useRequestRepair();
  const [form] = Form.useForm<RequestForm>();

  const submit = async (values: RequestForm) => {
    try {
      const ticket = await request.mutateAsync({
        code: values.code,
        issue_codes: (values.issue_codes ?? []) as (typeof QC_ISSUE_CODES)[number][],
        note: values.note ?? null,
      });
      notify.success(`${ticket.number} is raised: ${values.code.trim()} is in repair.`);
      form.resetFields();
    } catch (error) {
      showApiError(error, form);
    }
  };

  return (
    <div>
      <Typography.Title level={1} style={PAGE_TITLE_STYLE}>
        {entry.label}
      </Typography.Title>
      <Form
        form={form}
        layout="inline"
        aria-label="Repair request"
        onFinish={(values) => void submit(values)}
      >
        <Form.Item name="code" label="IMEI" rules={[{ required: true, message: 'Scan the IMEI.' }]}>
          <Input autoFocus autoComplete="off" style={{ width: 220 }} />
        </Form.Item>
        <Form.Item name="issue_codes" label="Issue codes">
          <Select
            mode="multiple"
            style={{ minWidth: 260 }}
            options={QC_ISSUE_CODES.map((value) => ({ value, label: value }))}
          />
        </Form.Item>
        <Form.Item name="note" label="Note">
          <Input style={{ width: 260 }} />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={request.isPending}>
          Raise ticket
        </Button>
      </Form>
      <Typography.Title level={2} style={{ fontSize: 18, marginTop: 16 }}>
        Raised last
      </Typography.Title>
      <Table
        rowKey="id"
        size="small"
        loading={recent.isLoading}
        dataSource={recent.data ?? []}
        pagination={false}
        columns={ticketColumns}
      />
    </div>
  );
}
