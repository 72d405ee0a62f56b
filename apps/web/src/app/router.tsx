import { lazy, Suspense, type ReactNode } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { DelayedFallback } from '../shell/delayed-fallback';
import { lazyPage, type PageEntry } from '../shell/page-types';
import { RequireSession } from '../shell/require-session';
import { AGENT_PAGES, STAFF_PAGES } from './page-registry';

// Everything past the router is lazy, so the login page loads only what it shows.
const StaffLayout = lazy(() => import('../shell/staff-layout'));
const AgentLayout = lazy(() => import('../shell/agent-layout'));
const PageFrame = lazy(() => import('../shell/page-frame'));
const HomePage = lazy(() => import('../shell/home-page'));
const NotFoundPage = lazy(() => import('../shell/not-found-page'));

const loginRoute = (path: string, page: 'StaffLoginPage' | 'AgentLoginPage'): RouteObject => ({
  path,
  lazy: async () => ({ Component: (await import('../shell/login-page'))[page] }),
});

const signedIn = (layout: ReactNode) => (
  <RequireSession>
    <Suspense fallback={<DelayedFallback />}>{layout}</Suspense>
  </RequireSession>
);

const pageElement = (entry: PageEntry) => <PageFrame entry={entry} page={lazyPage(entry)} />;

const pageRoutes = (pages: readonly PageEntry[]): RouteObject[] =>
  pages.map((entry) => ({ path: entry.path, element: pageElement(entry) }));

const [agentHome, ...agentSubpages] = AGENT_PAGES;

export const router = createBrowserRouter([
  loginRoute('/login', 'StaffLoginPage'),
  loginRoute('/agent/login', 'AgentLoginPage'),
  {
    path: '/agent',
    element: signedIn(<AgentLayout />),
    children: [
      ...(agentHome ? [{ index: true, element: pageElement(agentHome) }] : []),
      ...pageRoutes(agentSubpages),
      { path: '*', element: <NotFoundPage /> },
    ],
  },
  {
    path: '/',
    element: signedIn(<StaffLayout pages={STAFF_PAGES} />),
    children: [
      { index: true, element: <HomePage pages={STAFF_PAGES} /> },
      ...pageRoutes(STAFF_PAGES),
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);
