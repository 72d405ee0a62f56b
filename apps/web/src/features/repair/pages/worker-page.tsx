import { repairPhotoAttachments, type RepairTicket } from '@inventory/contract';
import { Button, Form, Input, InputNumber, Select, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { showApiError } from '../../../shell/api-errors';
import { notify } from '../../../shell/notify';
import { PAGE_TITLE_STYLE } from '../../../shell/page-styles';
import type { PageProps } from '../../../shell/page-types';
import { AttachmentsPanel } from '../../../toolkit/attachments-panel';
import {
  usePartLocations,
  useTicket,
  useTicketAction,
  useWorkerQueue,
} from '../api/repair.queries';
import { hoursText, TicketDetail, ticketColumns } from '../components/ticket-parts';

type PartForm = { code: string; location_id: number; qty: number };

/**
 * The technician (DOMAIN.md 4.19): my tickets by priority and age; on one, the labour clock,
 * parts scanned out of stock, waiting for parts, notes and photos, and completing the repair,
 * which sends it to testing. A ticket failed at testing comes back here with its failed items.
 */
export default function WorkerPage({ entry }: PageProps) {
  const queue = useWorkerQueue();
  const locations = usePartLocations();
  const [ticketId, setTicketId] = useState<number | null>(null);
  const ticket = useTicket(ticketId);
  const clock = useTicketAction('clock');
  const issue = useTicketAction('issuePart');
  const waiting = useTicketAction('waiting');
  const note = useTicketAction('note');
  const complete = useTicketAction('complete');
  const [partForm] = Form.useForm<PartForm>();
  const [noteForm] = Form.useForm<{ note: string }>();
  const current = ticket.data;

  const step = async (run: () => Promise<unknown>, said: string) => {
    try {
      await run();
      notify.success(said);
    } catch (error) {
      showApiError(error);
    }
  };

  const issuePart = async (values: PartForm) => {
    if (!current) return;
    try {
      await issue.mutateAsync({ id: current.id, body: values });
      notify.success(`${values.qty} × ${values.code} issued to ${current.number}.`);
      partForm.resetFields(['code']);
    } catch (error) {
      showApiError(error, partForm);
    }
  };

  const writeNote = async (values: { note: string }) => {
    if (!current) return;
    try {
      await note.mutateAsync({ id: current.id, body: values });
      noteForm.resetFields();
    } catch (error) {
      showApiError(error, noteForm);
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
        locale={{ emptyText: 'No ticket is assigned to you.' }}
        columns={[
          ...ticketColumns,
          { title: 'Labour', render: (_, row) => hoursText(row.labour_seconds) },
          {
            title: 'Action',
            render: (_, row) => (
              <Button
                size="small"
                onClick={() => setTicketId(row.id)}
                aria-label={`Open ${row.number}`}
              >
                Open
              </Button>
            ),
          },
        ]}
      />
      {current && (
        <section aria-label={`Work on ${current.number}`} style={{ marginTop: 16 }}>
          <Space wrap style={{ marginBottom: 12 }}>
            {current.clock_started_at ? (
              <Button
                loading={clock.isPending}
                onClick={() =>
                  void step(
                    () => clock.mutateAsync({ id: current.id, body: { running: false } }),
                    'Clock stopped.',
                  )
                }
              >
                Stop clock
              </Button>
            ) : (
              <Button
                type="primary"
                loading={clock.isPending}
                disabled={!['assigned', 'failed', 'in_repair'].includes(current.status)}
                onClick={() =>
                  void step(
                    () => clock.mutateAsync({ id: current.id, body: { running: true } }),
                    'Clock started.',
                  )
                }
              >
                Start clock
              </Button>
            )}
            {current.status === 'in_repair' && (
              <Button
                onClick={() =>
                  void step(
                    () => waiting.mutateAsync({ id: current.id, body: { waiting: true } }),
                    `${current.number} waits for parts.`,
                  )
                }
              >
                Wait for parts
              </Button>
            )}
            {current.status === 'waiting_parts' && (
              <Button
                onClick={() =>
                  void step(
                    () => waiting.mutateAsync({ id: current.id, body: { waiting: false } }),
                    `${current.number} is back in repair.`,
                  )
                }
              >
                Parts are here
              </Button>
            )}
            <Button
              type="primary"
              disabled={current.status !== 'in_repair'}
              loading={complete.isPending}
              onClick={() =>
                void step(
                  () => complete.mutateAsync({ id: current.id, body: {} }),
                  `${current.number} is repaired: it goes to testing.`,
                )
              }
            >
              Complete repair
            </Button>
          </Space>
          {current.status === 'in_repair' && (
            <Form
              form={partForm}
              layout="inline"
              aria-label="Issue a part"
              initialValues={{ qty: 1 }}
              onFinish={(values) => void issuePart(values)}
              style={{ marginBottom: 12 }}
            >
              <Form.Item
                name="code"
                label="Part number or barcode"
                rules={[{ required: true, message: 'Scan the part.' }]}
              >
                <Input autoComplete="off" style={{ width: 200 }} />
              </Form.Item>
              <Form.Item
                name="location_id"
                label="From"
                rules={[{ required: true, message: 'Choose the location.' }]}
              >
                <Select
                  style={{ width: 220 }}
                  options={(locations.data ?? []).map((location) => ({
                    value: location.id,
                    label: location.label,
                  }))}
                />
              </Form.Item>
              <Form.Item name="qty" label="Qty">
                <InputNumber min={1} max={50} precision={0} />
              </Form.Item>
              <Button htmlType="submit" loading={issue.isPending}>
                Issue part
              </Button>
            </Form>
          )}
          <Form
            form={noteForm}
            layout="inline"
            aria-label="Note"
            onFinish={(values) => void writeNote(values)}
            style={{ marginBottom: 12 }}
          >
            <Form.Item
              name="note"
              label="Note"
              rules={[{ required: true, message: 'Write the note.' }]}
            >
              <Input style={{ width: 420 }} />
            </Form.Item>
            <Button htmlType="submit" loading={note.isPending}>
              Add note
            </Button>
          </Form>
          <section aria-label={`Photos of ${current.number}`} style={{ marginBottom: 12 }}>
            <AttachmentsPanel definition={repairPhotoAttachments} recordId={current.id} />
          </section>
          <TicketDetail ticket={current} />
        </section>
      )}
    </div>
  );
}
