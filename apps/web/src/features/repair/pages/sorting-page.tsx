import { PRODUCT_REQUEST_PRIORITIES, QC_ISSUE_CODES, type RepairTicket } from '@inventory/contract';
import { Button, Form, InputNumber, Select, Switch, Table, Typography } from 'antd';
import { useState } from 'react';
import { showApiError } from '../../../shell/api-errors';
import { notify } from '../../../shell/notify';
import { PAGE_TITLE_STYLE } from '../../../shell/page-styles';
import type { PageProps } from '../../../shell/page-types';
import { centsOf } from '../../../toolkit/format';
import { useSortingQueue, useTicketAction } from '../api/repair.queries';
import { TicketDrawer } from '../components/ticket-drawer';
import { ticketColumns } from '../components/ticket-parts';

type SortForm = {
  issue_codes: (typeof QC_ISSUE_CODES)[number][];
  priority: (typeof PRODUCT_REQUEST_PRIORITIES)[number];
  estimated_cost?: number | null;
  resale_value?: number | null;
  ber_candidate: boolean;
};

/** A repair that costs this share of what the device resells for is a BER candidate. */
const BER_SHARE = 0.6;

/**
 * Sorting (DOMAIN.md 4.19): each new ticket's issues confirmed, its priority, the repair's cost
 * against the device's resale value, and whether it is a candidate for beyond economical repair.
 */
export default function SortingPage({ entry }: PageProps) {
  const queue = useSortingQueue();
  const sort = useTicketAction('sort');
  const [ticket, setTicket] = useState<RepairTicket | null>(null);
  const [form] = Form.useForm<SortForm>();

  const open = (row: RepairTicket) => {
    setTicket(row);
    form.setFieldsValue({
      issue_codes: row.issue_codes as SortForm['issue_codes'],
      priority: row.priority,
      estimated_cost: null,
      resale_value: null,
      ber_candidate: false,
    });
  };

  /** Suggests the BER flag from the figures as they are typed; the sorter may change it. */
  const suggest = (_: unknown, values: SortForm) => {
    if (values.estimated_cost != null && values.resale_value) {
      form.setFieldValue('ber_candidate', values.estimated_cost >= values.resale_value * BER_SHARE);
    }
  };

  const submit = async (values: SortForm) => {
    if (!ticket) return;
    try {
      await sort.mutateAsync({
        id: ticket.id,
        body: {
          issue_codes: values.issue_codes,
          priority: values.priority,
          estimated_cost_cents:
            values.estimated_cost == null ? null : centsOf(values.estimated_cost),
          resale_value_cents: values.resale_value == null ? null : centsOf(values.resale_value),
          ber_candidate: values.ber_candidate,
        },
      });
      notify.success(`${ticket.number} is sorted.`);
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
        locale={{ emptyText: 'No ticket waits to be sorted.' }}
        columns={[
          ...ticketColumns,
          {
            title: 'Action',
            render: (_, row) => (
              <Button size="small" onClick={() => open(row)} aria-label={`Sort ${row.number}`}>
                Sort
              </Button>
            ),
          },
        ]}
      />
      {ticket && (
        <TicketDrawer
          title={`Sort ${ticket.number} (${ticket.identifier})`}
          onClose={() => setTicket(null)}
        >
          <Form
            form={form}
            layout="vertical"
            aria-label="Sorting"
            onValuesChange={suggest}
            onFinish={(values) => void submit(values)}
          >
            <Form.Item name="issue_codes" label="Issue codes">
              <Select
                mode="multiple"
                options={QC_ISSUE_CODES.map((value) => ({ value, label: value }))}
              />
            </Form.Item>
            <Form.Item name="priority" label="Priority">
              <Select
                options={PRODUCT_REQUEST_PRIORITIES.map((value) => ({ value, label: value }))}
              />
            </Form.Item>
            <Form.Item name="estimated_cost" label="Estimated repair cost ($)">
              <InputNumber min={0} precision={2} />
            </Form.Item>
            <Form.Item name="resale_value" label="Resale value ($)">
              <InputNumber min={0} precision={2} />
            </Form.Item>
            <Form.Item name="ber_candidate" label="BER candidate" valuePropName="checked">
              <Switch />
            </Form.Item>
            <Button type="primary" htmlType="submit" loading={sort.isPending}>
              Save sorting
            </Button>
          </Form>
        </TicketDrawer>
      )}
    </div>
  );
}
