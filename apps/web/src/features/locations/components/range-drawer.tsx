import {
  LOCATION_KINDS,
  locationParentOptionsEndpoint,
  MAX_LOCATIONS_AT_ONCE,
  type BulkCreateResult,
  type LocationKind,
} from '@inventory/contract';
import { Alert, Button, Drawer, Form, Input, InputNumber, Select, Space, Typography } from 'antd';
import { useState } from 'react';
import { showApiError } from '../../../shell/api-errors';
import { useDialogFocus } from '../../../shell/dialog-focus';
import { notify } from '../../../shell/notify';
import { counted } from '../../../toolkit/format';
import { pickerLoader } from '../../../toolkit/picker-options';
import { RemoteSelect } from '../../../toolkit/resource-form';
import { useLocationWrites } from '../api/locations.queries';

type Level = { kind: LocationKind; from: string; to: string };
type Values = { parent_id?: number; levels: Level[]; capacity_boxes?: number | null };

const PARENT_FIELD = {
  name: 'parent_id',
  label: 'Under',
  kind: 'remote',
  load: pickerLoader(locationParentOptionsEndpoint),
  placeholder: 'Search a zone, aisle, rack or level',
} as const;

const KIND_OPTIONS = LOCATION_KINDS.filter((kind) => kind !== 'zone').map((value) => ({
  value,
  label: value,
}));

const codesText = (codes: readonly string[], total: number) =>
  codes.length < total ? `${codes.join(', ')}, …` : codes.join(', ');

/**
 * Bulk-creates ranges under a parent: aisles 01..20, or racks 01..05 x levels A..D, each code the
 * parent's code and the segments. A dry run comes first and says how many would be created and
 * which exist already; creating is one transaction.
 */
export function RangeDrawer({ onClose }: { onClose: () => void }) {
  const dialogFocus = useDialogFocus();
  const [form] = Form.useForm<Values>();
  const writes = useLocationWrites();
  const [checked, setChecked] = useState<BulkCreateResult | null>(null);

  const send = async (dryRun: boolean) => {
    let values: Values;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    try {
      const result = await writes.ranges.mutateAsync({
        parent_id: values.parent_id!,
        levels: values.levels,
        capacity_boxes: values.capacity_boxes ?? null,
        dry_run: dryRun,
      });
      if (dryRun) {
        setChecked(result);
        return;
      }
      notify.success(
        `${counted(result.created, 'location')} created${result.existing ? `; ${counted(result.existing, 'location')} existed already` : ''}. Activate them when they are ready.`,
      );
      onClose();
    } catch (error) {
      setChecked(null);
      showApiError(error, form);
    }
  };

  return (
    <Drawer
      {...dialogFocus}
      open
      size={560}
      title="Create a range of locations"
      onClose={onClose}
      extra={
        <Space>
          <Button onClick={onClose}>Cancel</Button>
          <Button onClick={() => void send(true)} loading={writes.ranges.isPending && !checked}>
            Check
          </Button>
          <Button
            type="primary"
            disabled={!checked || checked.created === 0}
            onClick={() => void send(false)}
            loading={writes.ranges.isPending && Boolean(checked)}
          >
            {checked ? `Create ${counted(checked.created, 'location')}` : 'Create'}
          </Button>
        </Space>
      }
    >
      <Typography.Paragraph type="secondary">
        Each range adds one kind below the one before it; codes are the parent’s code and the
        segments (A-01-03-B). At most {MAX_LOCATIONS_AT_ONCE.toLocaleString('en-US')} at once. Check
        first: nothing is written until you create.
      </Typography.Paragraph>
      <Form<Values>
        form={form}
        layout="vertical"
        initialValues={{ levels: [{ kind: 'aisle', from: '01', to: '10' }] }}
        onValuesChange={() => setChecked(null)}
      >
        <Form.Item
          label="Under"
          name="parent_id"
          required
          rules={[{ required: true, message: 'Choose the location the range goes under.' }]}
        >
          <RemoteSelect field={PARENT_FIELD} initial={[]} />
        </Form.Item>
        <Form.List name="levels">
          {(fields, { add, remove }) => (
            <>
              {fields.map((field, index) => (
                <Space key={field.key} align="start" wrap>
                  <Form.Item label={`Range ${index + 1}: kind`} name={[field.name, 'kind']}>
                    <Select options={KIND_OPTIONS} style={{ width: 110 }} />
                  </Form.Item>
                  <Form.Item
                    label="From"
                    name={[field.name, 'from']}
                    rules={[{ required: true, message: 'Write the first: 01 or A.' }]}
                  >
                    <Input style={{ width: 90 }} />
                  </Form.Item>
                  <Form.Item
                    label="To"
                    name={[field.name, 'to']}
                    rules={[{ required: true, message: 'Write the last: 20 or D.' }]}
                  >
                    <Input style={{ width: 90 }} />
                  </Form.Item>
                  {fields.length > 1 && (
                    <Form.Item label=" ">
                      <Button onClick={() => remove(field.name)}>Remove range {index + 1}</Button>
                    </Form.Item>
                  )}
                </Space>
              ))}
              {fields.length < 4 && (
                <Button onClick={() => add({ kind: 'level', from: 'A', to: 'D' })}>
                  Add a range below
                </Button>
              )}
            </>
          )}
        </Form.List>
        <Form.Item
          label="Capacity of the innermost locations (boxes)"
          name="capacity_boxes"
          style={{ marginTop: 16 }}
          extra="Leave empty for no limit."
        >
          <InputNumber style={{ width: '100%' }} min={1} step={1} precision={0} />
        </Form.Item>
      </Form>
      {checked && (
        <Alert
          type={checked.created > 0 ? 'info' : 'warning'}
          showIcon
          role="status"
          title={`${counted(checked.created, 'location')} would be created; ${counted(checked.existing, 'location')} ${checked.existing === 1 ? 'exists' : 'exist'} already.`}
          description={
            <>
              {checked.created > 0 && (
                <div data-testid="range-new">
                  New: {codesText(checked.created_codes, checked.created)}
                </div>
              )}
              {checked.existing > 0 && (
                <div data-testid="range-existing">
                  Exist already, left as they are:{' '}
                  {codesText(checked.existing_codes, checked.existing)}
                </div>
              )}
            </>
          }
        />
      )}
    </Drawer>
  );
}
