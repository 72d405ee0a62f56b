import { expect, type Locator, type Page } from '@playwright/test';

/** The password the first-start journey gives the first administrator. */
export const ADMIN_PASSWORD = 'warehouse-keeper-2026';

/** Signs in through the login form. */
export async function signIn(page: Page, userName: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('User name').fill(userName);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Signs a field agent in through the agent's own login and waits for the agent's home. */
export async function signInAsAgent(
  page: Page,
  agent: { userName: string; password: string },
): Promise<void> {
  await page.goto('/agent/login');
  await page.getByLabel('User name').fill(agent.userName);
  await page.getByLabel('Password').fill(agent.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/agent$/);
}

/** The menu groups of spec section 2, written out from the spec rather than read from the code. */
export const ALL_GROUPS = [
  'Dashboard',
  'RTS Inventory',
  'RTS Office',
  'Master Data',
  'PTS Management',
  'SIM',
  'Order',
  'Retail customers',
  'Pricing (Government Plans)',
  'RMA',
  'Working Report',
  'Blacklist devices',
  'Invoice IMEI',
  'Fulfilment',
  'Campaign',
  'Shipment',
  'Invoice',
  'Warehouse',
  'Repair',
];

export type TestProfile = {
  allRoles: string[];
  allPermissions: string[];
  first_login?: 0 | 1;
  type?: 'staff' | 'agent';
};

/**
 * Puts a session in browser storage and answers GET /profile with the given roles and permissions,
 * so that the client-side rules of the shell can be tried for any access set.
 */
export async function signInWithProfile(page: Page, profile: TestProfile | null): Promise<void> {
  const type = profile?.type ?? 'staff';
  await page.goto('/login');
  await page.evaluate((storedType) => {
    localStorage.setItem('token', 'e2e-token-not-checked-by-the-server-000');
    localStorage.setItem('type', storedType);
    localStorage.setItem('user_name', 'tester');
    localStorage.setItem('userInfoId', '99');
    localStorage.setItem('userInfo', '[]');
  }, type);
  await page.route('**/api/v1/profile', (route) =>
    profile
      ? route.fulfill({
          json: {
            code: 200,
            message: 'OK',
            data: {
              id: 99,
              name: 'Test User',
              user_name: 'tester',
              type,
              first_login: profile.first_login ?? 0,
              allRoles: profile.allRoles,
              allPermissions: profile.allPermissions,
            },
          },
        })
      : route.fulfill({ status: 500, json: { code: 500, message: 'down', requestId: 'x' } }),
  );
  // The cart's shop: this made-up user buys for no customer account.
  await page.route('**/api/v1/web-orders/catalogue', (route) =>
    route.fulfill({ json: { code: 200, message: 'OK', data: { customer: null, items: [] } } }),
  );
}

export const sideMenu = (page: Page) => page.getByRole('navigation', { name: 'Side menu' });

export const menuGroups = (page: Page) => sideMenu(page).locator('.ant-menu-submenu-title');

/** Opens a group of the side menu and returns the labels of its items. */
export async function groupItems(page: Page, group: string): Promise<string[]> {
  await menuGroups(page).filter({ hasText: group }).click();
  const items = sideMenu(page)
    .locator('li.ant-menu-submenu-open')
    .filter({ has: page.locator('.ant-menu-submenu-title', { hasText: group }) })
    .locator('.ant-menu-item');
  await items.first().waitFor();
  return items.allInnerTexts();
}

/**
 * Picks an entry of the header's user menu and waits for its effect. Under load a click can land
 * while the dropdown is still opening, so the whole gesture is retried until the effect shows.
 */
export async function chooseFromUserMenu(
  page: Page,
  userName: string,
  entry: 'Change Password' | 'Logout',
  effect: () => Promise<void>,
): Promise<void> {
  const item = page.getByRole('menuitem', { name: entry });
  await expect(async () => {
    // A click of an earlier attempt may have landed after all: then only its effect is awaited.
    const landed = await effect().then(
      () => true,
      () => false,
    );
    if (landed) return;
    if (!(await item.isVisible())) {
      await page
        .getByRole('button', { name: `User menu of ${userName}` })
        .click({ timeout: 2_000 });
    }
    await item.click({ timeout: 2_000 });
    await effect();
  }).toPass({ timeout: 30_000 });
}

export const drawerTitle = (page: Page): Locator => page.locator('.ant-drawer-title');
