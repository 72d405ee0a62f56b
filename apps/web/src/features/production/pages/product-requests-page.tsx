import {
  allowedActions,
  PRODUCT_REQUEST_PRIORITIES,
  productRequestEndpoints,
  productRequestLifecycle,
  TARGET_GRADES,
  type ProductRequest,
  type RequestBox,
} from '@inventory/contract';
import {
  Alert,
  Button,
  Form,
  Input,
  InputNumber,
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
import { useProfile } from '../../../shell/use-profile';
import { pickerLoader } from '../../../toolkit/picker-options';
import { RemoteSelect } from '../../../toolkit/resource-form';
import { useProductRequestActions, useProductRequests } from '../api/product-requests.queries';

const modelField = {
  name: 'model_id',
  label: 'Model',
  kind: 'remote',
  load: pickerLoader(productRequestEndpoints.modelOptions),
} as const;

type RequestForm = {
  model_id: number;
  qty: number;
  target_grade?: (typeof TARGET_GRADES)[number];
  priority?: (typeof PRODUCT_REQUEST_PRIORITIES)[number];
  due_date?: string;
};

const STATUS_COLORS: Record<ProductRequest['status'], string> = {
  submitted: 'blue',
  approved: 'cyan',
  in_progress: 'gold',
  completed: 'green',
  cancelled: 'default',
};

const ACTION_WORDS = { approve: 'Approve', cancel: 'Cancel', complete: 'Complete' } as const;

const boxesText = (boxes: readonly RequestBox[]) =>
  boxes.map((box) => `${box.code} (${box.devices})`).join(', ') || '—';

/**
 * Product requests (DOMAIN.md 4.17): ask for units of a model; the server proposes staged boxes,
 * oldest first, and approving takes them; progress counts graded and failed devices.
 */
export default function ProductRequestsPage({ entry }: PageProps) {
  const requests = useProductRequests();
  const actions = useProductRequestActions();
  const profile = useProfile();
  const [form] = Form.useForm<RequestForm>();
  const [proposal, setProposal] = useState<{ number: string; boxes: RequestBox[] } | null>(null);

  const create = async (values: RequestForm) => {
    try {
      const created = await actions.create.mutateAsync({
        ...values,
        due_date: values.due_date || null,
      });
      setProposal({ number: created.request.number, boxes: created.proposal });
      notify.success(`Request ${created.request.number} is submitted.`);
      form.resetFields();
    } catch (error) {
      showApiError(error, form);
    }
  };

  const run = async (action: keyof typeof ACTION_WORDS, request: ProductRequest) => {
    try {
      await actions[action].mutateAsync(request.id);
      notify.success(`Request ${request.number}: ${ACTION_WORDS[action].toLowerCase()}d.`);
    } catch (error) {
      showApiError(error);
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
        aria-label="New product request"
        onFinish={(values) => void create(values)}
        initialValues={{ priority: 'normal' }}
        style={{ marginBottom: 16, rowGap: 8 }}
      >
        <Form.Item
          name="model_id"
          label="Model"
          rules={[{ required: true, message: 'Choose the model.' }]}
        >
          <RemoteSelect field={modelField} initial={[]} />
        </Form.Item>
        <Form.Item
          name="qty"
          label="Quantity"
          rules={[{ required: true, message: 'Enter the quantity.' }]}
        >
          <InputNumber min={1} precision={0} />
        </Form.Item>
        <Form.Item name="target_grade" label="Target grade">
          <Select
            allowClear
            style={{ width: 100 }}
            options={TARGET_GRADES.map((grade) => ({ value: grade, label: grade }))}
          />
        </Form.Item>
        <Form.Item name="priority" label="Priority">
          <Select
            style={{ width: 110 }}
            options={PRODUCT_REQUEST_PRIORITIES.map((value) => ({ value, label: value }))}
          />
        </Form.Item>
        <Form.Item name="due_date" label="Due date">
          <Input type="date" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={actions.create.isPending}>
          Request
        </Button>
      </Form>
      {proposal && (
        <Alert
          type={proposal.boxes.length > 0 ? 'info' : 'warning'}
          showIcon
          closable
          onClose={() => setProposal(null)}
          style={{ marginBottom: 16 }}
          title={`Proposed boxes for ${proposal.number}`}
          description={
            proposal.boxes.length > 0
              ? `Oldest first: ${boxesText(proposal.boxes)}. Approve the request to take them.`
              : 'No staged box holds this model: stage boxes before approving.'
          }
        />
      )}
      {requests.isError && <Alert type="error" title={requests.error.message} />}
      <Table<ProductRequest>
        rowKey="id"
        size="small"
        loading={requests.isLoading}
        dataSource={requests.data ?? []}
        pagination={false}
        columns={[
          { title: 'Request', dataIndex: 'number' },
          { title: 'Model', dataIndex: 'model' },
          { title: 'Qty', dataIndex: 'qty' },
          { title: 'Target grade', render: (_, row) => row.target_grade ?? '—' },
          { title: 'Priority', dataIndex: 'priority' },
          { title: 'Due', render: (_, row) => row.due_date ?? '—' },
          { title: 'Boxes', render: (_, row) => boxesText(row.boxes) },
          {
            title: 'Progress',
            render: (_, { progress }) =>
              `${progress.graded} graded · ${progress.failed} failed · ${progress.held} held · ${progress.in_production} in production · ${progress.waiting} waiting`,
          },
          {
            title: 'Status',
            render: (_, row) => (
              <Tag color={STATUS_COLORS[row.status]} data-testid="request-status">
                {productRequestLifecycle.stateText(row.status)}
              </Tag>
            ),
          },
          {
            title: 'Actions',
            render: (_, row) => (
              <Space>
                {allowedActions(productRequestLifecycle, row, profile.data)
                  .filter((action): action is keyof typeof ACTION_WORDS => action !== 'start')
                  .map((action) => (
                    <Button key={action} size="small" onClick={() => void run(action, row)}>
                      {ACTION_WORDS[action]} {row.number}
                    </Button>
                  ))}
              </Space>
            ),
          },
        ]}
      />
    </div>
  );
}
