import {
  createAgentSimRequestSchema,
  simRequestLifecycle,
  type AgentSimRequest,
  type CreateAgentSimRequestInput,
} from '@inventory/contract';
import {
  Alert,
  Button,
  Card,
  Descriptions,
  Empty,
  Form,
  Input,
  InputNumber,
  List,
  Popconfirm,
  Radio,
  Select,
  Space,
  Spin,
  Typography,
} from 'antd';
import { showApiError } from '../../../shell/api-errors';
import { notify } from '../../../shell/notify';
import type { PageProps } from '../../../shell/page-types';
import { PAGE_TITLE_STYLE } from '../../../shell/page-styles';
import { when } from '../../../toolkit/format';
import { fieldSchema, zodRule } from '../../../toolkit/zod-rules';
import { SimRequestStatusTag } from '../../sim';
import { useAgentRequestActions, useAgentRequests } from '../api/agent-requests.queries';

const rule = (name: string) => zodRule(fieldSchema(createAgentSimRequestSchema, name));

/** One of the agent's requests, as a card line of the list. */
function RequestLine({ request }: { request: AgentSimRequest }) {
  const { cancel } = useAgentRequestActions();
  return (
    <List.Item
      data-testid="agent-request"
      actions={
        request.status === 'submitted'
          ? [
              <Popconfirm
                key="cancel"
                title={`Cancel ${request.number}?`}
                okText="Cancel request"
                cancelText="Keep it"
                onConfirm={async () => {
                  try {
                    await cancel.mutateAsync(request.id);
                    notify.success(`${request.number} is cancelled.`);
                  } catch (error) {
                    showApiError(error);
                  }
                }}
              >
                <Button size="small">Cancel</Button>
              </Popconfirm>,
            ]
          : []
      }
    >
      <List.Item.Meta
        title={
          <Space wrap>
            <Typography.Text strong>{request.number}</Typography.Text>
            <SimRequestStatusTag status={request.status} />
          </Space>
        }
        description={
          <>
            {request.client_carrier}: {request.qty_requested} requested
            {request.qty_approved !== null ? `, ${request.qty_approved} approved` : ''}
            {request.qty_received !== null ? `, ${request.qty_received} received` : ''}
            {request.qty_missing ? `, ${request.qty_missing} reported missing` : ''}
            <br />
            {request.delivery === 'pickup' ? 'Pickup' : 'Ship'} · {when(request.created_at)}
            {request.tracking_number ? ` · tracking ${request.tracking_number}` : ''}
            {request.reason ? (
              <>
                <br />
                Reason: {request.reason}
              </>
            ) : null}
          </>
        }
      />
    </List.Item>
  );
}

/**
 * Request SIMs (agent portal, DOMAIN.md 7): the cap, what the agent holds and has in open
 * requests, a request of a carrier's SIMs shipped to the agent's address or picked up, and the
 * agent's requests with their status. The server refuses what passes the cap and a second open
 * request of a carrier, with the words shown on the form.
 */
export default function AgentRequestPage(_props: PageProps) {
  const overview = useAgentRequests();
  const { create } = useAgentRequestActions();
  const [form] = Form.useForm<CreateAgentSimRequestInput>();
  const delivery = Form.useWatch('delivery', form);

  const submit = async (values: CreateAgentSimRequestInput) => {
    try {
      const made = await create.mutateAsync(values);
      notify.success(
        `${made.number} is sent: ${made.qty_requested} SIMs of ${made.client_carrier}.`,
      );
      form.resetFields(['qty', 'note']);
    } catch (error) {
      showApiError(error, form);
    }
  };

  const figures = overview.data;
  return (
    <>
      <Typography.Title level={1} style={PAGE_TITLE_STYLE}>
        Request SIMs
      </Typography.Title>
      {overview.isError ? (
        <Alert
          type="error"
          showIcon
          title="Your requests could not be loaded."
          description={overview.error.message}
          action={<Button onClick={() => void overview.refetch()}>Try again</Button>}
        />
      ) : !figures ? (
        <Spin />
      ) : (
        <Space orientation="vertical" size="large" style={{ width: '100%' }}>
          <Descriptions
            size="small"
            bordered
            column={{ xs: 2, sm: 4 }}
            layout="vertical"
            items={[
              { key: 'cap', label: 'Your cap', children: figures.sim_cap ?? 'Not set' },
              { key: 'hand', label: 'On hand', children: figures.on_hand },
              { key: 'open', label: 'In open requests', children: figures.committed },
              {
                key: 'available',
                label: 'You may request',
                children: <span data-testid="available">{figures.available}</span>,
              },
            ]}
          />
          {figures.sim_cap === null && (
            <Alert
              type="warning"
              showIcon
              title="Your SIM cap is not set yet: ask your coordinator to set it."
            />
          )}
          <Card title="New request" size="small">
            <Form
              form={form}
              layout="vertical"
              onFinish={(values) => void submit(values)}
              initialValues={{ delivery: 'ship' }}
            >
              <Form.Item
                label="Carrier"
                name="client_carrier_id"
                required
                rules={[rule('client_carrier_id')]}
              >
                <Select
                  options={figures.carriers.map((carrier) => ({
                    value: carrier.id,
                    label: carrier.label,
                  }))}
                  placeholder="Choose the carrier"
                />
              </Form.Item>
              <Form.Item label="Quantity" name="qty" required rules={[rule('qty')]}>
                <InputNumber min={1} style={{ width: '100%' }} inputMode="numeric" />
              </Form.Item>
              <Form.Item label="Delivery" name="delivery" required>
                <Radio.Group
                  optionType="button"
                  options={[
                    { value: 'ship', label: 'Ship to me' },
                    { value: 'pickup', label: 'Pick up' },
                  ]}
                />
              </Form.Item>
              <Form.Item
                label={delivery === 'pickup' ? 'Pickup note (optional)' : 'Ship to'}
                name="ship_to"
                required={delivery !== 'pickup'}
                extra={delivery === 'pickup' ? undefined : 'Your address as on your profile.'}
                rules={[rule('ship_to')]}
              >
                <Input.TextArea rows={2} />
              </Form.Item>
              <Form.Item label="Note (optional)" name="note" rules={[rule('note')]}>
                <Input.TextArea rows={2} />
              </Form.Item>
              <Button type="primary" htmlType="submit" loading={create.isPending} block>
                Send request
              </Button>
            </Form>
          </Card>
          <section aria-labelledby="agent-requests">
            <Typography.Title level={2} id="agent-requests" style={{ fontSize: 18 }}>
              Your requests
            </Typography.Title>
            {figures.requests.length === 0 ? (
              <Empty description="You have no requests yet: send your first one above." />
            ) : (
              <List
                dataSource={figures.requests}
                renderItem={(request) => <RequestLine key={request.id} request={request} />}
              />
            )}
          </section>
          <Typography.Paragraph type="secondary">
            One open request per carrier: a request is open until it is{' '}
            {simRequestLifecycle.stateText('shipped')}.
          </Typography.Paragraph>
        </Space>
      )}
    </>
  );
}
