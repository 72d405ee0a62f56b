import { agentLoginEndpoint, loginEndpoint, type LoginInput } from '@inventory/contract';
import { Button, Form } from 'antd';
// Direct imports: antd's Input barrel also brings TextArea, Search and OTP to the login page.
import Input from 'antd/es/input/Input';
import Password from 'antd/es/input/Password';
import { useState } from 'react';
import { Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import { ApiError, callEndpoint } from './http-client';
import { getStoredType, getToken, saveSession } from './session-storage';
import { AppTheme } from './theme';

type Variant = 'staff' | 'agent';

const SESSION_ENDED = 'Your session has ended. Please sign in again.';

const cardStyle = {
  width: 380,
  maxWidth: '100%',
  background: '#fff',
  borderRadius: 8,
  padding: 32,
  boxShadow: '0 1px 3px rgba(0, 0, 0, 0.08)',
} as const;

const NOTICE_COLOURS = {
  warning: { background: '#fffbe6', border: '#ffe58f' },
  error: { background: '#fff2f0', border: '#ffccc7' },
} as const;

/** A message above the form; plain markup keeps the login page's cold load small. */
function Notice({ tone, children }: { tone: keyof typeof NOTICE_COLOURS; children: string }) {
  const colours = NOTICE_COLOURS[tone];
  return (
    <div
      role="alert"
      style={{
        background: colours.background,
        border: `1px solid ${colours.border}`,
        borderRadius: 8,
        padding: '8px 12px',
        marginBottom: 16,
      }}
    >
      {children}
    </div>
  );
}

/** The login form; errors show on the form. The agent variant accepts only agents. */
function LoginPage({ variant }: { variant: Variant }) {
  const [form] = Form.useForm<LoginInput>();
  const [params] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  if (getToken()) return <Navigate to={getStoredType() === 'agent' ? '/agent' : '/'} replace />;

  const submit = async (values: LoginInput) => {
    setBusy(true);
    setFormError(null);
    try {
      const { data } = await callEndpoint(
        variant === 'agent' ? agentLoginEndpoint : loginEndpoint,
        { body: values },
      );
      saveSession(data);
      const from = (location.state as { from?: { pathname?: string } } | null)?.from?.pathname;
      const home = data.type === 'agent' ? '/agent' : '/';
      const target = from && (data.type === 'agent') === from.startsWith('/agent') ? from : home;
      await navigate(target, { replace: true });
    } catch (error) {
      const message = error instanceof ApiError ? error.body?.message : undefined;
      if (message && typeof message === 'object') {
        form.setFields(
          Object.entries(message)
            .filter(([field]) => field === 'user_name' || field === 'password')
            .map(([field, errors]) => ({ name: field as keyof LoginInput, errors })),
        );
        const other = Object.entries(message).filter(
          ([field]) => field !== 'user_name' && field !== 'password',
        );
        if (other.length > 0) setFormError(other.flatMap(([, errors]) => errors).join(' '));
      } else {
        setFormError(
          typeof message === 'string' ? message : 'The server could not be reached. Try again.',
        );
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <div
      style={{
        minHeight: '100vh',
        boxSizing: 'border-box',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        background: '#f5f5f5',
        padding: 16,
      }}
    >
      <main style={cardStyle}>
        <div style={{ textAlign: 'center', marginBottom: 24 }}>
          <img src="/logo.svg" alt="" width={48} height={48} />
          <h1 style={{ fontSize: 24, fontWeight: 600, margin: '8px 0 0' }}>
            {variant === 'agent' ? 'Agent sign in' : 'Sign in'}
          </h1>
        </div>
        {params.get('code') === '401' && <Notice tone="warning">{SESSION_ENDED}</Notice>}
        {formError && <Notice tone="error">{formError}</Notice>}
        <Form form={form} layout="vertical" onFinish={submit} requiredMark={false}>
          <Form.Item
            label="User name"
            name="user_name"
            rules={[{ required: true, whitespace: true, message: 'Please enter your user name.' }]}
          >
            <Input autoComplete="username" autoFocus />
          </Form.Item>
          <Form.Item
            label="Password"
            name="password"
            rules={[{ required: true, message: 'Please enter your password.' }]}
          >
            <Password autoComplete="current-password" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={busy}>
            Sign in
          </Button>
        </Form>
      </main>
    </div>
  );
}

export const StaffLoginPage = () => (
  <AppTheme>
    <LoginPage variant="staff" />
  </AppTheme>
);
export const AgentLoginPage = () => (
  <AppTheme>
    <LoginPage variant="agent" />
  </AppTheme>
);
