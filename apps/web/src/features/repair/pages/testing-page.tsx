import {
  GRADE_DEFINITIONS,
  REPAIR_GRADES,
  TEST_ITEMS,
  type RepairTicket,
  type TestItem,
} from '@inventory/contract';
import { Button, Form, Input, Radio, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { showApiError } from '../../../shell/api-errors';
import { notify } from '../../../shell/notify';
import { PAGE_TITLE_STYLE } from '../../../shell/page-styles';
import type { PageProps } from '../../../shell/page-types';
import { useTestingQueue, useTicketAction } from '../api/repair.queries';
import { codeTags, ticketColumns } from '../components/ticket-parts';

type TestForm = {
  items: Record<TestItem, 'pass' | 'fail'>;
  grade?: (typeof REPAIR_GRADES)[number];
  note?: string;
};
// Every item passes until the tester says otherwise (fromEntries loses the keys' type).
const ALL_PASS = Object.fromEntries(TEST_ITEMS.map((item) => [item, 'pass'])) as TestForm['items'];

/**
 * Testing (DOMAIN.md 4.19): the full checklist on a repaired device. All passed, with a grade: the
 * device is repaired and released to reuse. Any item failed: the ticket goes back to its
 * technician with the failed items.
 */
export default function TestingPage({ entry }: PageProps) {
  const queue = useTestingQueue();
  const test = useTicketAction('test');
  const [ticket, setTicket] = useState<RepairTicket | null>(null);
  const [form] = Form.useForm<TestForm>();
  const items = Form.useWatch('items', form);
  const failing = TEST_ITEMS.filter((item) => items?.[item] === 'fail');

  const open = (row: RepairTicket) => {
    form.resetFields();
    setTicket(row);
  };

  const submit = async (values: TestForm) => {
    if (!ticket) return;
    try {
      const answer = await test.mutateAsync({
        id: ticket.id,
        body: { items: values.items, grade: values.grade ?? null, note: values.note ?? null },
      });
      notify.success(
        answer.status === 'released'
          ? `${ticket.number} passed: ${ticket.identifier} is repaired, grade ${answer.grade}.`
          : `${ticket.number} failed: back to ${answer.technician ?? 'its technician'}.`,
      );
      setTicket(null);
    } catch (error) {
      showApiError(error, form);
    }
  };

  return (
    <div>
      <Typography.Title level={1} style={PAGE_TITLE_STYLE}>
        {entry.label}
      </Typography.Title>
      <Table<RepairTicket>
        rowKey="id"
        size="small"
        loading={queue.isLoading}
        dataSource={queue.data ?? []}
        pagination={false}
        locale={{ emptyText: 'No repaired device waits for its test.' }}
        columns={[
          ...ticketColumns,
          { title: 'Technician', render: (_, row) => row.technician ?? '—' },
          { title: 'Failed before', render: (_, row) => codeTags(row.failed_items) },
          {
            title: 'Action',
            render: (_, row) => (
              <Button size="small" onClick={() => open(row)} aria-label={`Test ${row.number}`}>
                Test
              </Button>
            ),
          },
        ]}
      />
      {ticket && (
        <section aria-label={`Test of ${ticket.number}`} style={{ marginTop: 16 }}>
          <Typography.Title level={2} style={{ fontSize: 18 }}>
            Test of {ticket.number} ({ticket.identifier}, {ticket.model})
          </Typography.Title>
          <Form
            form={form}
            layout="vertical"
            aria-label="Repair test"
            initialValues={{ items: ALL_PASS }}
            onFinish={(values) => void submit(values)}
          >
            <Space wrap size="large" align="start">
              <fieldset style={{ border: 0, padding: 0 }}>
                <legend>Checklist</legend>
                {TEST_ITEMS.map((item) => (
                  <Form.Item
                    key={item}
                    name={['items', item]}
                    label={item}
                    style={{ marginBottom: 4 }}
                  >
                    <Radio.Group
                      aria-label={`${item} result`}
                      options={[
                        { value: 'pass', label: 'Pass' },
                        { value: 'fail', label: 'Fail' },
                      ]}
                    />
                  </Form.Item>
                ))}
              </fieldset>
              <div>
                <Form.Item name="grade" label="Grade (to pass)">
                  <Radio.Group
                    aria-label="Grade"
                    disabled={failing.length > 0}
                    style={{ display: 'flex', flexDirection: 'column', gap: 4 }}
                    options={REPAIR_GRADES.map((grade) => ({
                      value: grade,
                      label: `${grade}: ${GRADE_DEFINITIONS[grade]}`,
                    }))}
                  />
                </Form.Item>
                <Form.Item name="note" label="Note">
                  <Input.TextArea rows={2} />
                </Form.Item>
              </div>
            </Space>
            <Button
              type="primary"
              htmlType="submit"
              danger={failing.length > 0}
              loading={test.isPending}
            >
              {failing.length > 0 ? `Fail: ${failing.join(', ')}` : 'Pass and release'}
            </Button>
          </Form>
        </section>
      )}
    </div>
  );
}
