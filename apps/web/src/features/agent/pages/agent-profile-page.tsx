import { US_STATES, type AgentAddress, type AgentProfile } from '@inventory/contract';
import {
  Alert,
  Button,
  Card,
  Descriptions,
  Form,
  Input,
  Select,
  Spin,
  Tag,
  Typography,
} from 'antd';
import { showApiError } from '../../../shell/api-errors';
import { notify } from '../../../shell/notify';
import type { PageProps } from '../../../shell/page-types';
import { PAGE_TITLE_STYLE } from '../../../shell/page-styles';
import { when } from '../../../toolkit/format';
import { useAgentProfile, useAgentProfileActions } from '../api/agent-portal.queries';

const addressText = (address: AgentAddress) =>
  [address.line1, address.line2, `${address.city}, ${address.state} ${address.zip}`]
    .filter(Boolean)
    .join(', ');

const CHANGE_COLORS = { pending: 'gold', approved: 'green', rejected: 'red', withdrawn: 'default' };

function NameAndPhone({ profile }: { profile: AgentProfile }) {
  const [form] = Form.useForm<{ name: string; phone: string }>();
  const { update } = useAgentProfileActions();
  return (
    <Form
      form={form}
      layout="vertical"
      initialValues={{ name: profile.name, phone: profile.phone ?? '' }}
      onFinish={(values) =>
        update.mutate(values, {
          onSuccess: () => notify.success('Your name and phone are saved.'),
          onError: (error) => showApiError(error, form),
        })
      }
    >
      <Form.Item name="name" label="Name" rules={[{ required: true, message: 'Enter your name.' }]}>
        <Input autoComplete="name" />
      </Form.Item>
      <Form.Item name="phone" label="Phone">
        <Input autoComplete="tel" inputMode="tel" />
      </Form.Item>
      <Button htmlType="submit" loading={update.isPending} block>
        Save name and phone
      </Button>
    </Form>
  );
}

type AddressValues = { line1: string; line2?: string; city: string; state: string; zip: string };

function AddressChange() {
  const [form] = Form.useForm<AddressValues>();
  const { requestAddress } = useAgentProfileActions();
  return (
    <Form
      form={form}
      layout="vertical"
      onFinish={(values) =>
        requestAddress.mutate(values, {
          onSuccess: () => {
            form.resetFields();
            notify.success('Your new address waits for a coordinator’s approval.');
          },
          onError: (error) => showApiError(error, form),
        })
      }
    >
      <Form.Item
        name="line1"
        label="Street address"
        rules={[{ required: true, message: 'Enter the street address.' }]}
      >
        <Input autoComplete="address-line1" />
      </Form.Item>
      <Form.Item name="line2" label="Apartment, suite (optional)">
        <Input autoComplete="address-line2" />
      </Form.Item>
      <Form.Item name="city" label="City" rules={[{ required: true, message: 'Enter the city.' }]}>
        <Input autoComplete="address-level2" />
      </Form.Item>
      <Form.Item
        name="state"
        label="State"
        rules={[{ required: true, message: 'Choose the state.' }]}
      >
        <Select showSearch options={US_STATES.map((state) => ({ value: state, label: state }))} />
      </Form.Item>
      <Form.Item
        name="zip"
        label="ZIP code"
        rules={[{ required: true, message: 'Enter the ZIP code.' }]}
      >
        <Input autoComplete="postal-code" inputMode="numeric" />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={requestAddress.isPending} block>
        Ask for this address
      </Button>
    </Form>
  );
}

/**
 * The agent's profile (DOMAIN.md 7): name and phone the agent changes; the shipping address
 * changes only once a coordinator approves it; Rep ID, territory and cap are the coordinators'.
 */
export default function AgentProfilePage({ entry }: PageProps) {
  const profile = useAgentProfile();
  const data = profile.data;
  return (
    <>
      <Typography.Title level={1} style={{ ...PAGE_TITLE_STYLE, marginBottom: 12 }}>
        {entry.label}
      </Typography.Title>
      {profile.isError ? (
        <Alert
          type="error"
          showIcon
          title="Your profile could not be loaded."
          description={profile.error.message}
          action={<Button onClick={() => void profile.refetch()}>Try again</Button>}
        />
      ) : !data ? (
        <Spin />
      ) : (
        <>
          <Descriptions
            bordered
            size="small"
            column={1}
            style={{ marginBottom: 16 }}
            items={[
              { key: 'user', label: 'User name', children: data.user_name },
              { key: 'rep', label: 'RAD Rep ID', children: data.rep_id ?? 'Not set' },
              { key: 'territory', label: 'Territory', children: data.territory ?? 'Not set' },
              { key: 'cap', label: 'SIM cap', children: data.sim_cap ?? 'Not set' },
              {
                key: 'address',
                label: 'Shipping address',
                children: data.address ? addressText(data.address) : 'None approved yet',
              },
            ]}
          />
          <Card
            size="small"
            title={<h2 style={{ fontSize: 16, margin: 0 }}>Name and phone</h2>}
            style={{ marginBottom: 16 }}
          >
            <NameAndPhone key={`${data.name}|${data.phone ?? ''}`} profile={data} />
          </Card>
          <Card
            size="small"
            title={<h2 style={{ fontSize: 16, margin: 0 }}>Change the shipping address</h2>}
            style={{ marginBottom: 16 }}
          >
            <Typography.Paragraph type="secondary">
              A coordinator approves a new address before SIMs are shipped to it.
            </Typography.Paragraph>
            {data.address_changes.map((change) => (
              <Alert
                key={change.id}
                style={{ marginBottom: 8 }}
                type={change.status === 'rejected' ? 'warning' : 'info'}
                data-testid="address-change"
                title={
                  <>
                    <Tag color={CHANGE_COLORS[change.status]}>{change.status}</Tag>
                    {addressText(change.address)}
                  </>
                }
                description={`Asked ${when(change.requested_at)}${
                  change.reason ? ` · ${change.reason}` : ''
                }`}
              />
            ))}
            <AddressChange />
          </Card>
        </>
      )}
    </>
  );
}
