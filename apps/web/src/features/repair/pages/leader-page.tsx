import { BER_OUTCOMES, type RepairTicket } from '@inventory/contract';
import {
  Button,
  Form,
  Input,
  InputNumber,
  Radio,
  Select,
  Space,
  Table,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { showApiError } from '../../../shell/api-errors';
import { notify } from '../../../shell/notify';
import { PAGE_TITLE_STYLE } from '../../../shell/page-styles';
import type { PageProps } from '../../../shell/page-types';
import { dollars } from '../../../toolkit/format';
import { useLeaderBoard, useRequestableParts, useTicketAction } from '../api/repair.queries';
import { TicketDrawer } from '../components/ticket-drawer';
import { ticketColumns } from '../components/ticket-parts';

type Step = 'assign' | 'ber' | 'part' | 'cancel';
const STEP_TITLES: Record<Step, string> = {
  assign: 'Assign',
  ber: 'Approve BER for',
  part: 'Request a part for',
  cancel: 'Cancel',
};
const SUBMIT_LABELS: Record<Step, string> = {
  assign: 'Assign',
  ber: 'Approve BER',
  part: 'Request part',
  cancel: 'Cancel ticket',
};
type StepForm = {
  technician_id?: number;
  outcome?: (typeof BER_OUTCOMES)[number];
  reason?: string;
  part_id?: number;
  qty?: number;
};

/**
 * The repair leader (DOMAIN.md 4.19): open tickets by priority and age; assign a technician by
 * their load, approve beyond economical repair (the device scrapped or kept for parts), request
 * parts, cancel.
 */
export default function LeaderPage({ entry }: PageProps) {
  const board = useLeaderBoard();
  const parts = useRequestableParts();
  const assign = useTicketAction('assign');
  const ber = useTicketAction('beyondRepair');
  const requestPart = useTicketAction('requestParts');
  const cancel = useTicketAction('cancel');
  const [open, setOpen] = useState<{ step: Step; ticket: RepairTicket } | null>(null);
  const [form] = Form.useForm<StepForm>();
  const technicians = board.data?.technicians ?? [];

  const run = async (values: StepForm) => {
    if (!open) return;
    const { id, number } = open.ticket;
    try {
      if (open.step === 'assign') {
        await assign.mutateAsync({ id, body: { technician_id: values.technician_id ?? 0 } });
        const name = technicians.find((technician) => technician.id === values.technician_id)?.name;
        notify.success(`${number} is assigned to ${name}.`);
      } else if (open.step === 'ber') {
        await ber.mutateAsync({
          id,
          body: { outcome: values.outcome ?? 'scrapped', reason: values.reason ?? '' },
        });
        notify.success(`${number} is closed beyond repair.`);
      } else if (open.step === 'part') {
        await requestPart.mutateAsync({
          id,
          body: { part_id: values.part_id ?? 0, qty: values.qty ?? 1 },
        });
        notify.success(`A part is requested for ${number}.`);
      } else {
        await cancel.mutateAsync({ id, body: { reason: values.reason ?? null } });
        notify.success(`${number} is cancelled.`);
      }
      setOpen(null);
    } catch (error) {
      showApiError(error, form);
    }
  };

  const start = (step: Step, ticket: RepairTicket) => {
    form.resetFields();
    setOpen({ step, ticket });
  };

  return (
    <div>
      <Typography.Title level={1} style={PAGE_TITLE_STYLE}>
        {entry.label}
      </Typography.Title>
      <Space wrap style={{ marginBottom: 12 }} aria-label="Technicians by load">
        {technicians.map((technician) => (
          <Tag key={technician.id}>
            {technician.name}: {technician.open_tickets} open
          </Tag>
        ))}
      </Space>
      <Table<RepairTicket>
        rowKey="id"
        size="small"
        loading={board.isLoading}
        dataSource={board.data?.tickets ?? []}
        pagination={{ pageSize: 50 }}
        locale={{ emptyText: 'No open ticket past sorting.' }}
        columns={[
          ...ticketColumns,
          { title: 'Technician', render: (_, row) => row.technician ?? '—' },
          {
            title: 'Cost / value',
            render: (_, row) => (
              <span>
                {dollars(row.estimated_cost_cents)} / {dollars(row.resale_value_cents)}
                {row.ber_candidate && (
                  <Tag color="volcano" style={{ marginLeft: 4 }}>
                    BER?
                  </Tag>
                )}
              </span>
            ),
          },
          {
            title: 'Actions',
            render: (_, row) => (
              <Space size={4} wrap>
                {(row.status === 'sorted' || row.status === 'assigned') && (
                  <Button
                    size="small"
                    onClick={() => start('assign', row)}
                    aria-label={`Assign ${row.number}`}
                  >
                    Assign
                  </Button>
                )}
                <Button
                  size="small"
                  onClick={() => start('part', row)}
                  aria-label={`Request a part for ${row.number}`}
                >
                  Part
                </Button>
                <Button
                  size="small"
                  onClick={() => start('ber', row)}
                  aria-label={`Approve BER for ${row.number}`}
                >
                  BER
                </Button>
                <Button
                  size="small"
                  danger
                  onClick={() => start('cancel', row)}
                  aria-label={`Cancel ${row.number}`}
                >
                  Cancel
                </Button>
              </Space>
            ),
          },
        ]}
      />
      {open && (
        <TicketDrawer
          title={`${STEP_TITLES[open.step]} ${open.ticket.number} (${open.ticket.identifier})`}
          onClose={() => setOpen(null)}
        >
          <Form
            form={form}
            layout="vertical"
            aria-label={STEP_TITLES[open.step]}
            onFinish={(values) => void run(values)}
          >
            {open.step === 'assign' && (
              <Form.Item
                name="technician_id"
                label="Technician"
                rules={[{ required: true, message: 'Choose a technician.' }]}
              >
                <Select
                  options={technicians.map((technician) => ({
                    value: technician.id,
                    label: `${technician.name} (${technician.open_tickets} open)`,
                  }))}
                />
              </Form.Item>
            )}
            {open.step === 'ber' && (
              <Form.Item
                name="outcome"
                label="The device is"
                rules={[{ required: true, message: 'Choose scrap or parts.' }]}
              >
                <Radio.Group
                  options={[
                    { value: 'scrapped', label: 'Scrapped' },
                    { value: 'parts', label: 'Kept for parts' },
                  ]}
                />
              </Form.Item>
            )}
            {open.step === 'part' && (
              <>
                <Form.Item
                  name="part_id"
                  label="Part"
                  rules={[{ required: true, message: 'Choose a part.' }]}
                >
                  <Select
                    showSearch={{ optionFilterProp: 'label' }}
                    options={(parts.data ?? []).map((part) => ({
                      value: part.id,
                      label: part.label,
                    }))}
                  />
                </Form.Item>
                <Form.Item name="qty" label="Quantity" initialValue={1}>
                  <InputNumber min={1} max={50} precision={0} />
                </Form.Item>
              </>
            )}
            {(open.step === 'ber' || open.step === 'cancel') && (
              <Form.Item
                name="reason"
                label="Reason"
                rules={open.step === 'ber' ? [{ required: true, message: 'Say why.' }] : []}
              >
                <Input.TextArea rows={2} />
              </Form.Item>
            )}
            <Button
              type="primary"
              htmlType="submit"
              danger={open.step !== 'assign' && open.step !== 'part'}
            >
              {SUBMIT_LABELS[open.step]}
            </Button>
          </Form>
        </TicketDrawer>
      )}
    </div>
  );
}
