import LeftOutlined from '@ant-design/icons/LeftOutlined';
import RightOutlined from '@ant-design/icons/RightOutlined';
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
import { MAIN_ID, SkipLink } from './skip-link';
import { useProfile } from './use-profile';

const COLLAPSED_KEY = 'menuCollapsed';
const HEADER_HEIGHT = 64;

// The side menu fills the height below the header. antd keeps the trigger's 48 px free at the
// sider's foot (its padding) and fixes the trigger there: the menu scrolls on its own inside the
// rest (navStyle), so its last groups scroll into view above the trigger, never under it.
const siderStyle = {
  borderRight: '1px solid #f0f0f0',
  position: 'sticky',
  top: HEADER_HEIGHT,
  height: `calc(100vh - ${HEADER_HEIGHT}px)`,
  boxSizing: 'border-box',
} as const;

const navStyle = { height: '100%', overflowY: 'auto', overscrollBehavior: 'contain' } as const;

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
      <SkipLink />
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
          trigger={<CollapseTrigger collapsed={collapsed} onToggle={toggle} />}
          width={248}
          theme="light"
          style={siderStyle}
        >
          <nav aria-label="Side menu" style={navStyle}>
            <SideMenu sections={visibleMenu(pages, profile.data)} />
          </nav>
        </Layout.Sider>
        <Layout.Content id={MAIN_ID} tabIndex={-1} style={{ padding: 24, minWidth: 0 }}>
          <PageOutlet />
        </Layout.Content>
      </Layout>
    </Layout>
  );
}

/**
 * The sider's trigger, named for a screen reader and reachable by keyboard; antd's own is an
 * unnamed icon in a div. The click reaches antd's trigger, which toggles; keys toggle here.
 */
function CollapseTrigger({
  collapsed,
  onToggle,
}: {
  collapsed: boolean;
  onToggle: (next: boolean) => void;
}) {
  return (
    <span
      role="button"
      tabIndex={0}
      aria-label={collapsed ? 'Expand the side menu' : 'Collapse the side menu'}
      aria-expanded={!collapsed}
      style={{ display: 'block', width: '100%', height: '100%' }}
      onKeyDown={(event) => {
        if (event.key === 'Enter' || event.key === ' ') {
          event.preventDefault();
          onToggle(!collapsed);
        }
      }}
    >
      {collapsed ? <RightOutlined /> : <LeftOutlined />}
    </span>
  );
}
