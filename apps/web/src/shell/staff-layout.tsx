import { Layout } from 'antd';
import { useState } from 'react';
import { Navigate } from 'react-router';
import { CartButton } from './cart/cart-button';
import { LogoLink } from './logo-link';
import { visibleMenu } from './menu';
import { PageOutlet } from './page-outlet';
import type { PageEntry } from './page-types';
import { SessionControls } from './session-controls';
import { ShellProviders } from './shell-providers';
import { getStoredType } from './session-storage';
import { SideMenu } from './side-menu';
import { useProfile } from './use-profile';

const COLLAPSED_KEY = 'menuCollapsed';
const HEADER_HEIGHT = 64;

// The menu scrolls on its own so that long groups never push the collapse trigger away.
const siderStyle = {
  borderRight: '1px solid #f0f0f0',
  position: 'sticky',
  top: HEADER_HEIGHT,
  height: `calc(100vh - ${HEADER_HEIGHT}px)`,
  overflowY: 'auto',
} as const;

const headerStyle = {
  position: 'sticky',
  top: 0,
  zIndex: 10,
  height: HEADER_HEIGHT,
  display: 'flex',
  alignItems: 'center',
  gap: 12,
  background: '#fff',
  borderBottom: '1px solid #f0f0f0',
  padding: '0 16px',
} as const;

/** The back office's shell: header with logo, cart and user menu; the collapsible side menu. */
export default function StaffLayout({ pages }: { pages: readonly PageEntry[] }) {
  if (getStoredType() === 'agent') return <Navigate to="/agent" replace />;
  return (
    <ShellProviders>
      <StaffShell pages={pages} />
    </ShellProviders>
  );
}

function StaffShell({ pages }: { pages: readonly PageEntry[] }) {
  const profile = useProfile();
  const [collapsed, setCollapsed] = useState(() => localStorage.getItem(COLLAPSED_KEY) === '1');

  const toggle = (next: boolean) => {
    setCollapsed(next);
    localStorage.setItem(COLLAPSED_KEY, next ? '1' : '0');
  };

  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Layout.Header style={headerStyle}>
        <LogoLink to="/" title="Inventory" />
        <div style={{ flex: 1 }} />
        <CartButton />
        <SessionControls />
      </Layout.Header>
      <Layout>
        <Layout.Sider
          collapsible
          collapsed={collapsed}
          onCollapse={toggle}
          width={248}
          theme="light"
          style={siderStyle}
        >
          <nav aria-label="Side menu">
            <SideMenu sections={visibleMenu(pages, profile.data)} />
          </nav>
        </Layout.Sider>
        <Layout.Content style={{ padding: 24 }}>
          <PageOutlet />
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
