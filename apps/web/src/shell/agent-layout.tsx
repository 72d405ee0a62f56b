import { Layout } from 'antd';
import { CartButton } from './cart/cart-button';
import { LogoLink } from './logo-link';
import { PageOutlet } from './page-outlet';
import { SessionControls } from './session-controls';
import { ShellProviders } from './shell-providers';
import { MAIN_ID, SkipLink } from './skip-link';

/** The field agents' layout: its own header and user menu, no back-office side menu. */
export default function AgentLayout() {
  return (
    <ShellProviders>
      <Layout style={{ minHeight: '100vh' }}>
        <SkipLink />
        <Layout.Header
          style={{
            display: 'flex',
            alignItems: 'center',
            gap: 12,
            background: '#fff',
            borderBottom: '1px solid #f0f0f0',
            padding: '0 12px',
          }}
        >
          <LogoLink to="/agent" title="Agent" />
          <div style={{ flex: 1 }} />
          <CartButton />
          <SessionControls />
        </Layout.Header>
        <Layout.Content
          id={MAIN_ID}
          tabIndex={-1}
          style={{ padding: 16, maxWidth: 720, width: '100%', margin: '0 auto' }}
        >
          <PageOutlet />
        </Layout.Content>
      </Layout>
    </ShellProviders>
  );
}
