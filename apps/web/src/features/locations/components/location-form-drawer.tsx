import {
  createLocationSchema,
  LOCATION_KINDS,
  locationParentOptionsEndpoint,
  updateLocationSchema,
  type Location,
  type LocationKind,
} from '@inventory/contract';
import { Button, Drawer, Form, Input, InputNumber, Select, Space, Switch } from 'antd';
import { showApiError } from '../../../shell/api-errors';
import { useDialogFocus } from '../../../shell/dialog-focus';
import { notify } from '../../../shell/notify';
import { pickerLoader } from '../../../toolkit/picker-options';
import { RemoteSelect } from '../../../toolkit/resource-form';
import { fieldSchema, zodRule } from '../../../toolkit/zod-rules';
import { useLocationWrites } from '../api/locations.queries';

type Values = {
  kind: LocationKind;
  parent_id?: number | null;
  segment?: string;
  name?: string | null;
  quarantine?: boolean;
  capacity_boxes?: number | null;
};

const PARENT_FIELD = {
  name: 'parent_id',
  label: 'Under',
  kind: 'remote',
  load: pickerLoader(locationParentOptionsEndpoint),
  placeholder: 'Search a zone, aisle, rack or level',
} as const;

/**
 * A new zone or one location under a parent, or the name, capacity and quarantine flag of one
 * location. A child's code is its parent's and the segment written here.
 */
export function LocationFormDrawer({
  location,
  onClose,
}: {
  /** The location edited; null: a new one. */
  location: Location | null;
  onClose: () => void;
}) {
  const dialogFocus = useDialogFocus();
  const [form] = Form.useForm<Values>();
  const writes = useLocationWrites();
  const kind = Form.useWatch('kind', form) ?? location?.kind ?? 'zone';
  const schema = location ? updateLocationSchema : createLocationSchema;
  const rule = (name: string) => [zodRule(fieldSchema(schema, name))];

  const submit = async (values: Values) => {
    try {
      if (location) {
        await writes.update.mutateAsync({
          id: location.id,
          body: {
            name: values.name ?? null,
            capacity_boxes: values.capacity_boxes ?? null,
            ...(location.kind === 'zone' && { quarantine: Boolean(values.quarantine) }),
          },
        });
        notify.success(`Location ${location.code} is saved.`);
      } else {
        const created = await writes.create.mutateAsync({
          kind: values.kind,
          parent_id: values.kind === 'zone' ? null : (values.parent_id ?? null),
          segment: values.segment ?? '',
          name: values.name ?? null,
          quarantine: values.kind === 'zone' && Boolean(values.quarantine),
          capacity_boxes: values.capacity_boxes ?? null,
        });
        notify.success(`Location ${created.code} is created, inactive until you activate it.`);
      }
      onClose();
    } catch (error) {
      showApiError(error, form);
    }
  };

  return (
    <Drawer
      {...dialogFocus}
      open
      size={480}
      title={location ? `Edit location ${location.code}` : 'New location'}
      onClose={onClose}
      extra={
        <Space>
          <Button onClick={onClose}>Cancel</Button>
          <Button
            type="primary"
            onClick={() => form.submit()}
            loading={writes.create.isPending || writes.update.isPending}
          >
            Save
          </Button>
        </Space>
      }
    >
      <Form<Values>
        form={form}
        layout="vertical"
        onFinish={submit}
        initialValues={
          location
            ? {
                kind: location.kind,
                name: location.name,
                capacity_boxes: location.capacity_boxes,
                quarantine: location.quarantine,
              }
            : { kind: 'zone', quarantine: false }
        }
      >
        {!location && (
          <>
            <Form.Item label="Kind" name="kind" required rules={rule('kind')}>
              <Select options={LOCATION_KINDS.map((value) => ({ value, label: value }))} />
            </Form.Item>
            {kind !== 'zone' && (
              <Form.Item
                label="Under"
                name="parent_id"
                required
                extra="The code starts with this location's code."
              >
                <RemoteSelect field={PARENT_FIELD} initial={[]} />
              </Form.Item>
            )}
            <Form.Item
              label={kind === 'zone' ? 'Zone code' : 'Code segment'}
              name="segment"
              required
              rules={rule('segment')}
              extra={
                kind === 'zone'
                  ? 'Letters and digits: A, QRT, RCV.'
                  : 'Added to the parent’s code: 03 under A-01 makes A-01-03.'
              }
            >
              <Input />
            </Form.Item>
          </>
        )}
        <Form.Item label="Name" name="name" rules={rule('name')}>
          <Input placeholder="Optional: Quarantine, Returns bay" />
        </Form.Item>
        <Form.Item
          label="Capacity (boxes)"
          name="capacity_boxes"
          rules={rule('capacity_boxes')}
          extra="Leave empty for no limit."
        >
          <InputNumber style={{ width: '100%' }} min={1} step={1} precision={0} />
        </Form.Item>
        {kind === 'zone' && (
          <Form.Item
            label="Quarantine zone"
            name="quarantine"
            valuePropName="checked"
            extra="Held stock goes only here, and nothing else does; its locations follow."
          >
            <Switch />
          </Form.Item>
        )}
      </Form>
    </Drawer>
  );
}
