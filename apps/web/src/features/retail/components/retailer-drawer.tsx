import {
  RETAILER_ACCESS,
  resaleCertificateBodySchema,
  retailerAttachments,
  type Retailer,
  type RetailerAddress,
  type RetailerContact,
  type Schema,
} from '@inventory/contract';
import {
  Alert,
  Button,
  Descriptions,
  Drawer,
  Form,
  Input,
  Popconfirm,
  Space,
  Spin,
  Table,
  Tabs,
  Tag,
  Typography,
} from 'antd';
import { showApiError } from '../../../shell/api-errors';
import { useDialogFocus } from '../../../shell/dialog-focus';
import { notify } from '../../../shell/notify';
import { useCan } from '../../../shell/use-can';
import { AttachmentsPanel } from '../../../toolkit/attachments-panel';
import { dollars } from '../../../toolkit/format';
import { fieldSchema, zodRule } from '../../../toolkit/zod-rules';
import { useRefreshRetailers, useRetailerActions, useRetailerDetail } from '../api/retail.queries';
import { CertificateTag } from './certificate-tag';
import { PortalUsers } from './portal-users';
import { RetailerOrders } from './retailer-orders';

const certificateRule = (name: string) =>
  zodRule(fieldSchema(resaleCertificateBodySchema as Schema, name));

type CertificateValues = { resale_certificate_no?: string; resale_certificate_expires_on?: string };

/** The resale certificate: its number and expiry here, its file in the attachments below. */
function ResaleCertificate({ retailer, canManage }: { retailer: Retailer; canManage: boolean }) {
  const [form] = Form.useForm<CertificateValues>();
  const { certificate } = useRetailerActions(retailer.id);
  // The certificate's status reads its file: attaching or removing one changes it.
  const refresh = useRefreshRetailers();
  const save = async (values: CertificateValues) => {
    try {
      await certificate.mutateAsync({
        resale_certificate_no: values.resale_certificate_no ?? '',
        resale_certificate_expires_on: values.resale_certificate_expires_on ?? '',
      });
      notify.success(`The resale certificate of ${retailer.name} is recorded.`);
    } catch (error) {
      showApiError(error, form);
    }
  };
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Typography.Title level={5} style={{ margin: 0 }}>
        Resale certificate <CertificateTag retailer={retailer} />
      </Typography.Title>
      {retailer.certificate_status === 'expired' && (
        <Alert
          type="warning"
          showIcon
          title={`The certificate expired on ${retailer.resale_certificate_expires_on}${
            retailer.tax_exempt ? ': sales are taxed until a renewed one is recorded.' : '.'
          }`}
        />
      )}
      {canManage && (
        <Form
          form={form}
          layout="inline"
          onFinish={(values) => void save(values)}
          initialValues={{
            resale_certificate_no: retailer.resale_certificate_no ?? '',
            resale_certificate_expires_on: retailer.resale_certificate_expires_on ?? '',
          }}
        >
          <Form.Item
            label="Certificate number"
            name="resale_certificate_no"
            rules={[certificateRule('resale_certificate_no')]}
          >
            <Input style={{ width: 180 }} />
          </Form.Item>
          <Form.Item
            label="Expires on"
            name="resale_certificate_expires_on"
            rules={[certificateRule('resale_certificate_expires_on')]}
          >
            <Input type="date" />
          </Form.Item>
          <Button htmlType="submit" loading={certificate.isPending}>
            Record certificate
          </Button>
        </Form>
      )}
      <AttachmentsPanel
        definition={retailerAttachments}
        recordId={retailer.id}
        onChanged={refresh}
      />
    </Space>
  );
}

const addressColumns = [
  { key: 'kind', dataIndex: 'kind', title: 'Kind' },
  {
    key: 'address',
    title: 'Address',
    render: (_: unknown, a: RetailerAddress) =>
      [a.line1, a.line2, `${a.city}, ${a.state} ${a.zip}`].filter(Boolean).join(', '),
  },
  {
    key: 'is_default',
    title: 'Default',
    render: (_: unknown, a: RetailerAddress) => (a.is_default ? 'Yes' : ''),
  },
];

const contactColumns = [
  { key: 'name', dataIndex: 'name', title: 'Name' },
  { key: 'role', title: 'Role', render: (_: unknown, c: RetailerContact) => c.role ?? '—' },
  { key: 'email', title: 'Email', render: (_: unknown, c: RetailerContact) => c.email ?? '—' },
  { key: 'phone', title: 'Phone', render: (_: unknown, c: RetailerContact) => c.phone ?? '—' },
  {
    key: 'is_main',
    title: 'Main',
    render: (_: unknown, c: RetailerContact) => (c.is_main ? 'Yes' : ''),
  },
];

/** Deactivate or reactivate. */
function StatusAction({ retailer }: { retailer: Retailer }) {
  const { deactivate, reactivate } = useRetailerActions(retailer.id);
  const run = async (step: typeof deactivate, done: string) => {
    try {
      await step.mutateAsync();
      notify.success(done);
    } catch (error) {
      showApiError(error);
    }
  };
  return retailer.status === 'active' ? (
    <Popconfirm
      title={`Deactivate ${retailer.name}?`}
      description="It is kept, and nothing more is sold to it until it is reactivated."
      okText="Deactivate"
      onConfirm={() => run(deactivate, `${retailer.name} is deactivated.`)}
    >
      <Button danger>Deactivate</Button>
    </Popconfirm>
  ) : (
    <Button onClick={() => void run(reactivate, `${retailer.name} is active again.`)}>
      Reactivate
    </Button>
  );
}

/**
 * One retailer: its terms; a tab with the resale certificate and its file, addresses, contacts and
 * portal users, and one with its latest orders; edit, deactivate and reactivate.
 */
export function RetailerDrawer({
  id,
  onEdit,
  onClose,
}: {
  id: number;
  onEdit: () => void;
  onClose: () => void;
}) {
  const dialogFocus = useDialogFocus();
  const detail = useRetailerDetail(id);
  const canManage = useCan(RETAILER_ACCESS);
  const retailer = detail.data?.retailer;
  return (
    <Drawer
      {...dialogFocus}
      open
      size={960}
      title={retailer ? retailer.name : 'Retailer'}
      onClose={onClose}
    >
      {detail.isError && (
        <Alert
          type="error"
          showIcon
          title="The retailer could not be loaded."
          description={detail.error.message}
        />
      )}
      {!detail.data || !retailer ? (
        !detail.isError && <Spin />
      ) : (
        <Space orientation="vertical" size="large" style={{ width: '100%' }}>
          {canManage && (
            <Space wrap>
              <Button onClick={onEdit}>Edit</Button>
              <StatusAction retailer={retailer} />
            </Space>
          )}
          <Descriptions size="small" bordered column={{ xs: 1, md: 3 }}>
            <Descriptions.Item label="Status">
              <Tag color={retailer.status === 'active' ? 'green' : 'default'}>
                {retailer.status}
              </Tag>
            </Descriptions.Item>
            <Descriptions.Item label="Type">{retailer.type}</Descriptions.Item>
            <Descriptions.Item label="Legal name">{retailer.legal_name ?? '—'}</Descriptions.Item>
            <Descriptions.Item label="Tax ID">{retailer.tax_id ?? '—'}</Descriptions.Item>
            <Descriptions.Item label="Price tier">{retailer.price_tier}</Descriptions.Item>
            <Descriptions.Item label="Credit">
              {retailer.credit_terms}
              {retailer.credit_terms !== 'prepaid' &&
                `, limit ${dollars(retailer.credit_limit_cents)}`}
            </Descriptions.Item>
            <Descriptions.Item label="Tax-exempt">
              {retailer.tax_exempt_now ? 'Yes' : retailer.tax_exempt ? 'No (certificate)' : 'No'}
            </Descriptions.Item>
            <Descriptions.Item label="Account rep">{retailer.account_rep ?? '—'}</Descriptions.Item>
            <Descriptions.Item label="Notes">{retailer.notes ?? '—'}</Descriptions.Item>
          </Descriptions>

          <Tabs
            items={[
              {
                key: 'account',
                label: 'Account',
                children: (
                  <Space orientation="vertical" size="large" style={{ width: '100%' }}>
                    <ResaleCertificate retailer={retailer} canManage={canManage} />

                    <Typography.Title level={5} style={{ margin: 0 }}>
                      Addresses
                    </Typography.Title>
                    <Table<RetailerAddress>
                      size="small"
                      rowKey="id"
                      dataSource={detail.data.addresses}
                      columns={addressColumns}
                      pagination={false}
                      locale={{ emptyText: 'No addresses yet: add them with Edit.' }}
                    />

                    <Typography.Title level={5} style={{ margin: 0 }}>
                      Contacts
                    </Typography.Title>
                    <Table<RetailerContact>
                      size="small"
                      rowKey="id"
                      dataSource={detail.data.contacts}
                      columns={contactColumns}
                      pagination={false}
                      locale={{ emptyText: 'No contacts yet: add them with Edit.' }}
                    />

                    <PortalUsers retailer={retailer} canManage={canManage} />
                  </Space>
                ),
              },
              {
                key: 'orders',
                label: `Orders (${retailer.open_orders} open)`,
                children: <RetailerOrders retailer={retailer} />,
              },
            ]}
          />
        </Space>
      )}
    </Drawer>
  );
}
