import {
  WORK_JOB_KIND_TEXT,
  WORK_JOB_KINDS,
  workJobList,
  workJobListEndpoints,
  type CreateWorkJobInput,
  type WorkJobKind,
  type WorkJobRow,
} from '@inventory/contract';
import {
  Button,
  Drawer,
  Form,
  Input,
  InputNumber,
  Popconfirm,
  Select,
  Space,
  Spin,
  Typography,
} from 'antd';
import { useMemo, useState } from 'react';
import { showApiError } from '../../../shell/api-errors';
import { notify } from '../../../shell/notify';
import type { PageProps } from '../../../shell/page-types';
import { useUrlParam } from '../../../shell/use-url-state';
import type { ResourcePageConfig } from '../../../toolkit/resource-page-config';
import { ResourcePage } from '../../../toolkit/resource-page';
import { JobRecord } from './job-parts';
import { jobColumns, jobFilters } from './job-columns';
import {
  cancelJob,
  createJob,
  saveTemplate,
  useAssignees,
  useJobDetail,
  useRefreshJobs,
  useTemplates,
} from './jobs.queries';

const JOB_PARAM = 'job';

const config = (onNew: () => void): ResourcePageConfig<WorkJobRow, typeof workJobList> => ({
  resource: workJobList,
  endpoints: workJobListEndpoints,
  titleOf: (job) => `Job #${job.id}`,
  searchPlaceholder: 'Job number or title',
  header: (
    <Typography.Paragraph type="secondary">
      Jobs for the team: a count of boxes, a move, a production or repair target. Only people whose
      roles allow the kind can be given one; a count job locks its boxes until it is done.
    </Typography.Paragraph>
  ),
  actions: (
    <Button type="primary" onClick={onNew}>
      New job
    </Button>
  ),
  record: { param: JOB_PARAM, rowClick: true },
  columns: jobColumns,
  filters: jobFilters,
});

type FormValues = {
  template_id?: number;
  kind?: WorkJobKind;
  title?: string;
  target_qty?: number | null;
  assignee_ids?: number[];
  due?: string;
  box_codes?: string[];
  location_codes?: string[];
  product_request_number?: string;
  instructions?: string;
};

/** The create form: from a template or from nothing; the assignees offered follow the kind. */
function NewJobDrawer({
  onClose,
  onCreated,
}: {
  onClose: () => void;
  onCreated: (id: number) => void;
}) {
  const [form] = Form.useForm<FormValues>();
  const kind = Form.useWatch('kind', form);
  const assignees = useAssignees(kind, 'jobs');
  const templates = useTemplates();
  const refresh = useRefreshJobs();
  const [sending, setSending] = useState(false);

  const submit = async (values: FormValues) => {
    setSending(true);
    try {
      const body: CreateWorkJobInput = {
        kind: values.kind!,
        title: values.title ?? '',
        target_qty: values.target_qty ?? null,
        assignee_ids: values.assignee_ids ?? [],
        due_at: values.due ? new Date(values.due).toISOString() : null,
        box_codes: values.box_codes ?? [],
        location_codes: values.location_codes ?? [],
        product_request_number: values.product_request_number ?? null,
        instructions: values.instructions ?? null,
        template_id: values.template_id ?? null,
      };
      const created = await createJob(body);
      notify.success(`Job #${created.job.id} created for ${created.job.assignees_text}.`);
      await refresh();
      onCreated(created.job.id);
      onClose();
    } catch (error) {
      showApiError(error, form);
    } finally {
      setSending(false);
    }
  };

  return (
    <Drawer open title="New job" size="large" onClose={onClose} destroyOnHidden>
      <Form<FormValues>
        form={form}
        layout="vertical"
        onFinish={submit}
        initialValues={{ box_codes: [], location_codes: [], assignee_ids: [] }}
      >
        <Form.Item name="template_id" label="From a template">
          <Select
            allowClear
            placeholder="Start from nothing"
            loading={templates.isLoading}
            options={(templates.data ?? []).map((template) => ({
              value: template.id,
              label: template.name,
            }))}
            onChange={(id?: number) => {
              const template = templates.data?.find((each) => each.id === id);
              if (template) {
                form.setFieldsValue({
                  kind: template.kind,
                  title: template.title,
                  target_qty: template.target_qty,
                  instructions: template.instructions ?? undefined,
                  assignee_ids: [],
                });
              }
            }}
          />
        </Form.Item>
        <Form.Item
          name="kind"
          label="Kind"
          rules={[{ required: true, message: 'Choose the kind of job.' }]}
        >
          <Select
            options={WORK_JOB_KINDS.map((each) => ({
              value: each,
              label: WORK_JOB_KIND_TEXT[each],
            }))}
            onChange={() => form.setFieldValue('assignee_ids', [])}
          />
        </Form.Item>
        <Form.Item
          name="title"
          label="Title"
          rules={[{ required: true, message: 'Write the job’s title.' }]}
        >
          <Input maxLength={200} />
        </Form.Item>
        <Form.Item
          name="target_qty"
          label="Target (units)"
          extra="A count job’s target is what its boxes hold, unless you write one."
        >
          <InputNumber min={1} style={{ width: 200 }} />
        </Form.Item>
        <Form.Item
          name="assignee_ids"
          label="Assignees"
          extra={
            kind ? 'Only people whose roles allow this kind are offered.' : 'Choose the kind first.'
          }
        >
          <Select
            mode="multiple"
            disabled={!kind}
            loading={assignees.isLoading}
            optionFilterProp="label"
            options={(assignees.data ?? []).map((person) => ({
              value: person.id,
              label: person.label,
            }))}
          />
        </Form.Item>
        <Form.Item name="due" label="Due">
          <Input type="datetime-local" style={{ width: 260 }} />
        </Form.Item>
        <Form.Item name="box_codes" label="Boxes" extra="Scan or type each box code, then Enter.">
          <Select mode="tags" tokenSeparators={[',', ' ']} open={false} suffixIcon={null} />
        </Form.Item>
        <Form.Item name="location_codes" label="Locations">
          <Select mode="tags" tokenSeparators={[',', ' ']} open={false} suffixIcon={null} />
        </Form.Item>
        <Form.Item name="product_request_number" label="Product request">
          <Input placeholder="PR-000012" maxLength={40} style={{ width: 260 }} />
        </Form.Item>
        <Form.Item name="instructions" label="Instructions">
          <Input.TextArea rows={3} maxLength={1000} />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={sending}>
          Create job
        </Button>
      </Form>
    </Drawer>
  );
}

/** A job's record on /report/job: cancel it, save it as a template. */
function JobDrawer({ id, onClose }: { id: number; onClose: () => void }) {
  const detail = useJobDetail(id, 'jobs');
  const refresh = useRefreshJobs();
  const [templateName, setTemplateName] = useState('');
  const job = detail.data?.job;
  const open = job && (job.status === 'assigned' || job.status === 'in_progress');
  return (
    <Drawer open title={`Job #${id}${job ? ` · ${job.title}` : ''}`} size="large" onClose={onClose}>
      {!detail.data ? (
        <Spin />
      ) : (
        <JobRecord
          detail={detail.data}
          actions={
            <>
              {open && (
                <Popconfirm
                  title="Cancel this job?"
                  description={job.kind === 'count' ? 'Its boxes are unlocked.' : undefined}
                  okText="Cancel the job"
                  cancelText="Keep it"
                  onConfirm={async () => {
                    try {
                      await cancelJob(id, null);
                      notify.success(`Job #${id} cancelled.`);
                      await refresh();
                    } catch (error) {
                      showApiError(error);
                    }
                  }}
                >
                  <Button danger>Cancel job</Button>
                </Popconfirm>
              )}
              <Space.Compact>
                <Input
                  aria-label="Template name"
                  placeholder="Template name"
                  value={templateName}
                  onChange={(event) => setTemplateName(event.target.value)}
                />
                <Button
                  onClick={async () => {
                    try {
                      const saved = await saveTemplate(id, templateName);
                      notify.success(`Saved as the template ${saved.name}.`);
                      setTemplateName('');
                      await refresh();
                    } catch (error) {
                      showApiError(error);
                    }
                  }}
                >
                  Save as template
                </Button>
              </Space.Compact>
            </>
          }
        />
      )}
    </Drawer>
  );
}

/** Jobs (`/report/job`, DOMAIN.md 4.11): the list, a new job and a job's record. */
export default function JobsPage(props: PageProps) {
  const [opened, setOpened] = useUrlParam(JOB_PARAM);
  const [creating, setCreating] = useState(false);
  const openedId = Number(opened) || null;
  // Made once: the toolkit page reads its config in its effects.
  const pageConfig = useMemo(() => config(() => setCreating(true)), []);
  return (
    <>
      <ResourcePage {...props} config={pageConfig} />
      {openedId && <JobDrawer id={openedId} onClose={() => setOpened(undefined)} />}
      {creating && (
        <NewJobDrawer
          onClose={() => setCreating(false)}
          onCreated={(id) => setOpened(String(id))}
        />
      )}
    </>
  );
}
