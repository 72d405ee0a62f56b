import {
  accountRepOptionsEndpoint,
  ADDRESS_KINDS,
  CREDIT_TERMS,
  createRetailerSchema,
  RETAILER_PRICE_TIERS,
  RETAILER_TYPES,
  retailerAddressInputSchema,
  retailerContactInputSchema,
  retailerEndpoints,
  updateRetailerSchema,
  US_STATES,
  type RetailerDetail,
  type Schema,
} from '@inventory/contract';
import {
  Alert,
  Button,
  Card,
  Checkbox,
  Drawer,
  Form,
  Input,
  InputNumber,
  Select,
  Space,
  Spin,
  Switch,
  Typography,
} from 'antd';
import { showApiError } from '../../../shell/api-errors';
import { useDialogFocus } from '../../../shell/dialog-focus';
import { notify } from '../../../shell/notify';
import { pickerLoader } from '../../../toolkit/picker-options';
import { RemoteSelect } from '../../../toolkit/resource-form';
import type { FormField } from '../../../toolkit/resource-page-config';
import { useResourceWrites } from '../../../toolkit/resource-queries';
import { fieldSchema, zodRule } from '../../../toolkit/zod-rules';
import { optionsOf } from '../../master-data';
import { useRetailerDetail } from '../api/retail.queries';
import {
  bodyOf,
  NEW_RETAILER,
  newAddress,
  valuesOf,
  type RetailerValues,
} from '../retailer-form-values';

const repPicker: Extract<FormField, { kind: 'remote' }> = {
  name: 'account_rep_id',
  label: 'Account rep',
  kind: 'remote',
  load: pickerLoader(accountRepOptionsEndpoint),
  placeholder: 'Type to search staff',
};

const addressRule = (name: string) =>
  zodRule(fieldSchema(retailerAddressInputSchema as Schema, name));
const contactRule = (name: string) =>
  zodRule(fieldSchema(retailerContactInputSchema as Schema, name));
const stateOptions = optionsOf(US_STATES);

function RetailerForm({ detail, onClose }: { detail: RetailerDetail | null; onClose: () => void }) {
  const dialogFocus = useDialogFocus();
  const [form] = Form.useForm<RetailerValues>();
  const writes = useResourceWrites(retailerEndpoints);
  const schema = (detail ? updateRetailerSchema : createRetailerSchema) as Schema;
  const rule = (name: string) => zodRule(fieldSchema(schema, name));
  const retailer = detail?.retailer;

  const submit = async (values: RetailerValues) => {
    try {
      const body = bodyOf(values);
      if (retailer) await writes.update.mutateAsync({ id: retailer.id, body });
      else await writes.create.mutateAsync(body);
      notify.success(`${values.name?.trim()} is saved.`);
      onClose();
    } catch (error) {
      showApiError(error, form);
    }
  };

  return (
    <Drawer
      {...dialogFocus}
      open
      size={880}
      title={retailer ? `Edit ${retailer.name}` : 'New retailer'}
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
      <Form
        form={form}
        layout="vertical"
        onFinish={(values) => void submit(values)}
        initialValues={detail ? valuesOf(detail) : NEW_RETAILER}
      >
        <Space wrap align="start" size="middle">
          <Form.Item label="Name" name="name" required rules={[rule('name')]}>
            <Input style={{ width: 260 }} />
          </Form.Item>
          <Form.Item label="Legal name" name="legal_name" rules={[rule('legal_name')]}>
            <Input style={{ width: 260 }} />
          </Form.Item>
          <Form.Item label="Type" name="type" required rules={[rule('type')]}>
            <Select options={optionsOf(RETAILER_TYPES)} style={{ width: 140 }} />
          </Form.Item>
          <Form.Item label="Tax ID" name="tax_id" rules={[rule('tax_id')]}>
            <Input style={{ width: 160 }} />
          </Form.Item>
        </Space>
        <Space wrap align="start" size="middle">
          <Form.Item label="Price tier" name="price_tier" rules={[rule('price_tier')]}>
            <Select options={optionsOf(RETAILER_PRICE_TIERS)} style={{ width: 140 }} />
          </Form.Item>
          <Form.Item label="Credit terms" name="credit_terms" rules={[rule('credit_terms')]}>
            <Select options={optionsOf(CREDIT_TERMS)} style={{ width: 140 }} />
          </Form.Item>
          <Form.Item label="Credit limit" name="credit_limit" extra="Prepaid accounts have none.">
            <InputNumber min={0} precision={2} prefix="$" style={{ width: 160 }} />
          </Form.Item>
          <Form.Item label="Account rep" name="account_rep_id" style={{ minWidth: 240 }}>
            <RemoteSelect
              field={repPicker}
              initial={
                retailer?.account_rep_id && retailer.account_rep
                  ? [{ value: retailer.account_rep_id, label: retailer.account_rep }]
                  : []
              }
            />
          </Form.Item>
          <Form.Item
            label="Tax-exempt"
            name="tax_exempt"
            valuePropName="checked"
            extra="Needs a valid resale certificate with its file."
          >
            <Switch />
          </Form.Item>
        </Space>
        <Form.Item label="Notes" name="notes" rules={[rule('notes')]}>
          <Input.TextArea rows={2} />
        </Form.Item>

        <Typography.Title level={5}>Addresses</Typography.Title>
        <Form.List name="addresses">
          {(addresses, { add, remove }) => (
            <Space orientation="vertical" style={{ width: '100%' }}>
              {addresses.map(({ key, name }, index) => (
                <Card
                  key={key}
                  size="small"
                  title={`Address ${index + 1}`}
                  data-testid="retailer-address"
                  extra={
                    <Button
                      size="small"
                      aria-label={`Remove address ${index + 1}`}
                      onClick={() => remove(name)}
                    >
                      Remove
                    </Button>
                  }
                >
                  <Form.Item name={[name, 'id']} hidden>
                    <Input />
                  </Form.Item>
                  <Space wrap align="start">
                    <Form.Item label="Kind" name={[name, 'kind']} rules={[addressRule('kind')]}>
                      <Select options={optionsOf(ADDRESS_KINDS)} style={{ width: 120 }} />
                    </Form.Item>
                    <Form.Item
                      label="Street address"
                      name={[name, 'line1']}
                      required
                      rules={[addressRule('line1')]}
                    >
                      <Input style={{ width: 260 }} />
                    </Form.Item>
                    <Form.Item
                      label="Address line 2"
                      name={[name, 'line2']}
                      rules={[addressRule('line2')]}
                    >
                      <Input style={{ width: 180 }} />
                    </Form.Item>
                  </Space>
                  <Space wrap align="start">
                    <Form.Item
                      label="City"
                      name={[name, 'city']}
                      required
                      rules={[addressRule('city')]}
                    >
                      <Input style={{ width: 200 }} />
                    </Form.Item>
                    <Form.Item
                      label="State"
                      name={[name, 'state']}
                      required
                      rules={[addressRule('state')]}
                    >
                      <Select showSearch options={stateOptions} style={{ width: 100 }} />
                    </Form.Item>
                    <Form.Item
                      label="ZIP code"
                      name={[name, 'zip']}
                      required
                      rules={[addressRule('zip')]}
                    >
                      <Input style={{ width: 130 }} />
                    </Form.Item>
                    <Form.Item label="Default" name={[name, 'is_default']} valuePropName="checked">
                      <Checkbox>Default of its kind</Checkbox>
                    </Form.Item>
                  </Space>
                </Card>
              ))}
              <Button onClick={() => add(newAddress('shipping', addresses.length === 0))}>
                Add address
              </Button>
            </Space>
          )}
        </Form.List>

        <Typography.Title level={5}>Contacts</Typography.Title>
        <Form.List name="contacts">
          {(contacts, { add, remove }) => (
            <Space orientation="vertical" style={{ width: '100%' }}>
              {contacts.map(({ key, name }, index) => (
                <Card
                  key={key}
                  size="small"
                  title={`Contact ${index + 1}`}
                  data-testid="retailer-contact"
                  extra={
                    <Button
                      size="small"
                      aria-label={`Remove contact ${index + 1}`}
                      onClick={() => remove(name)}
                    >
                      Remove
                    </Button>
                  }
                >
                  <Form.Item name={[name, 'id']} hidden>
                    <Input />
                  </Form.Item>
                  <Space wrap align="start">
                    <Form.Item
                      label="Contact name"
                      name={[name, 'name']}
                      required
                      rules={[contactRule('name')]}
                    >
                      <Input style={{ width: 220 }} />
                    </Form.Item>
                    <Form.Item label="Email" name={[name, 'email']} rules={[contactRule('email')]}>
                      <Input style={{ width: 220 }} />
                    </Form.Item>
                    <Form.Item label="Phone" name={[name, 'phone']} rules={[contactRule('phone')]}>
                      <Input style={{ width: 170 }} />
                    </Form.Item>
                    <Form.Item label="Role" name={[name, 'role']} rules={[contactRule('role')]}>
                      <Input style={{ width: 140 }} placeholder="Buyer" />
                    </Form.Item>
                    <Form.Item label="Main" name={[name, 'is_main']} valuePropName="checked">
                      <Checkbox>Main contact</Checkbox>
                    </Form.Item>
                  </Space>
                </Card>
              ))}
              <Button onClick={() => add({ is_main: contacts.length === 0 })}>Add contact</Button>
            </Space>
          )}
        </Form.List>
      </Form>
    </Drawer>
  );
}

/** Create a retailer, or edit one (`retailerId`): its terms, addresses and contacts in one save. */
export function RetailerFormDrawer({
  retailerId,
  onClose,
}: {
  retailerId: number | null;
  onClose: () => void;
}) {
  const dialogFocus = useDialogFocus();
  const detail = useRetailerDetail(retailerId);
  if (retailerId === null) return <RetailerForm detail={null} onClose={onClose} />;
  if (detail.data) return <RetailerForm detail={detail.data} onClose={onClose} />;
  return (
    <Drawer {...dialogFocus} open size={880} title="Edit retailer" onClose={onClose}>
      {detail.isError ? (
        <Alert
          type="error"
          showIcon
          title="The retailer could not be loaded."
          description={detail.error.message}
        />
      ) : (
        <Spin />
      )}
    </Drawer>
  );
}
