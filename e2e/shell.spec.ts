import { expect, test } from '@playwright/test';
import { newAgent } from './api';
import {
  ALL_GROUPS,
  chooseFromUserMenu,
  drawerTitle,
  groupItems,
  menuGroups,
  sideMenu,
  signInAsAgent,
  signInWithProfile,
} from './support';

test.describe('signed out', () => {
  test("the title is 'Inventory' and any page sends the visitor to the right login", async ({
    page,
  }) => {
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/login$/);
    await expect(page).toHaveTitle('Inventory');
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();

    await page.goto('/agent/requests');
    await expect(page).toHaveURL(/\/agent\/login$/);
    await expect(page.getByRole('heading', { name: 'Agent sign in' })).toBeVisible();
  });

  test('the login form shows its errors on the form', async ({ page }) => {
    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByText('Please enter your user name.')).toBeVisible();
    await expect(page.getByText('Please enter your password.')).toBeVisible();
    await page.getByLabel('User name').fill('nobody');
    await page.getByLabel('Password').fill('wrong-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByText('The user name or password is incorrect.')).toBeVisible();
  });

  test('a 401 clears the token and says the session has ended', async ({ page }) => {
    await page.goto('/login');
    await page.evaluate(() => localStorage.setItem('token', 'a'.repeat(43)));
    await page.goto('/master-data/models');
    await expect(page).toHaveURL(/\/login\?code=401$/);
    await expect(page.getByRole('alert')).toHaveText(
      'Your session has ended. Please sign in again.',
    );
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  });
});

test.describe('the side menu follows spec section 6', () => {
  test('admin, in any case, sees every group', async ({ page }) => {
    await signInWithProfile(page, { allRoles: ['ADMIN'], allPermissions: [] });
    await page.goto('/');
    await expect(menuGroups(page)).toHaveText(ALL_GROUPS);
  });

  test('permissions show their items, case-insensitively; empty groups are hidden', async ({
    page,
  }) => {
    await signInWithProfile(page, {
      allRoles: ['Customer Support'],
      allPermissions: ['SIM.INDEX', 'user.view-list'],
    });
    await page.goto('/');
    await expect(menuGroups(page)).toHaveText(['RTS Office', 'SIM']);
    expect(await groupItems(page, 'SIM')).toEqual(['SIM boxes', 'SIM list']);
    expect(await groupItems(page, 'RTS Office')).toEqual(['Users']);
  });

  test("items with permission 'roles' need one of their roles", async ({ page }) => {
    await signInWithProfile(page, {
      allRoles: ['repair worker'],
      allPermissions: ['part-stock.view-list'],
    });
    await page.goto('/');
    await expect(menuGroups(page)).toHaveText(['RTS Inventory', 'Repair']);
    expect(await groupItems(page, 'Repair')).toEqual(['Technician', 'Repair history']);
  });

  test('without a profile the menu is empty', async ({ page }) => {
    await signInWithProfile(page, null);
    await page.goto('/');
    await expect(page.getByText('No pages are open to you yet.', { exact: false })).toBeVisible();
    await expect(page.locator('.ant-layout-sider')).toBeVisible();
    await expect(menuGroups(page)).toHaveCount(0);
  });

  test('a route the menu hides shows a 403 page; a visible one opens', async ({ page }) => {
    await signInWithProfile(page, {
      allRoles: ['repair worker'],
      allPermissions: ['part-stock.view-list'],
    });
    await page.goto('/report/dashboard');
    await expect(page.getByText('403')).toBeVisible();
    await expect(
      page.getByText('It needs the permission tasks.manager-report', { exact: false }),
    ).toBeVisible();
    // Repair history reads nothing until an IMEI is scanned, so the made-up token is never sent.
    await page.goto('/repair-process/inquire-device');
    await expect(page.getByRole('heading', { name: 'Repair history', level: 1 })).toBeVisible();
    await expect(page.getByRole('searchbox', { name: 'Scan an IMEI' })).toBeVisible();
  });

  test('the collapse of the side menu is remembered', async ({ page }) => {
    await signInWithProfile(page, { allRoles: ['admin'], allPermissions: [] });
    await page.goto('/');
    const sider = page.locator('.ant-layout-sider');
    await expect(sider).not.toHaveClass(/ant-layout-sider-collapsed/);
    await page.locator('.ant-layout-sider-trigger').click();
    await expect(sider).toHaveClass(/ant-layout-sider-collapsed/);
    await page.reload();
    await expect(page.locator('.ant-layout-sider')).toHaveClass(/ant-layout-sider-collapsed/);
  });

  test("a menu link's page code loads once the link nears the viewport", async ({ page }) => {
    await signInWithProfile(page, {
      allRoles: ['repair worker'],
      allPermissions: ['part-stock.view-list'],
    });
    const historyPageCode = /\/assets\/history-page-[\w-]+\.js$/;
    const pageCode: string[] = [];
    page.on('request', (request) => {
      if (historyPageCode.test(request.url())) pageCode.push(request.url());
    });
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Welcome, Test User' })).toBeVisible();
    expect(pageCode).toEqual([]);
    const prefetched = page.waitForRequest(historyPageCode);
    await menuGroups(page).filter({ hasText: 'Repair' }).click();
    await prefetched;
    await expect(page).toHaveURL(/\/$/);
  });
});

test.describe('the header', () => {
  test('the logo goes home and the user menu shows the name', async ({ page }) => {
    await signInWithProfile(page, { allRoles: ['admin'], allPermissions: [] });
    await page.goto('/repair-process/inquire-device');
    await page.getByRole('link', { name: 'Home page' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { name: 'Welcome, Test User' })).toBeVisible();
    await page.getByRole('button', { name: 'User menu of Test User' }).click();
    await expect(page.getByRole('menuitem', { name: 'Change Password' })).toBeVisible();
    await expect(page.getByRole('menuitem', { name: 'Logout' })).toBeVisible();
  });

  test('the cart keeps its lines across a reload, and remove and clear work', async ({ page }) => {
    await signInWithProfile(page, { allRoles: ['admin'], allPermissions: [] });
    await page.goto('/');
    await page.evaluate(() =>
      localStorage.setItem(
        'cart',
        JSON.stringify([
          { id: 7, type: 'product', quantity: 2, variant_id: 70 },
          { id: 8, type: 'sim', quantity: 1 },
        ]),
      ),
    );
    await page.reload();
    const cartButton = page.getByRole('button', { name: /^Cart, / });
    await expect(cartButton).toHaveAccessibleName('Cart, 3 units');
    await cartButton.click();
    await page.getByRole('button', { name: 'Remove product 7' }).click();
    await expect(cartButton).toHaveAccessibleName('Cart, 1 unit');
    await page.reload();
    await expect(page.getByRole('button', { name: /^Cart, / })).toHaveAccessibleName(
      'Cart, 1 unit',
    );
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem('cart') ?? '[]'))).toEqual([
      { id: 8, type: 'sim', quantity: 1 },
    ]);
    await page.getByRole('button', { name: /^Cart, / }).click();
    await page.getByRole('button', { name: 'Clear cart' }).click();
    await expect(page.getByText('The cart is empty.')).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('cart'))).toBeNull();
  });
});

test.describe('the Update password drawer', () => {
  test('opens from the user menu at width 360 and applies every rule of section 5', async ({
    page,
  }) => {
    await signInWithProfile(page, { allRoles: ['admin'], allPermissions: [] });
    await page.goto('/');
    await chooseFromUserMenu(page, 'Test User', 'Change Password', () =>
      expect(drawerTitle(page)).toHaveText('Update password', { timeout: 2_000 }),
    );
    const drawer = page.locator('.ant-drawer-content-wrapper');
    await expect(drawer).toHaveCSS('width', '360px');

    const submit = page.locator('.ant-drawer').getByRole('button', { name: 'Update password' });
    await submit.click();
    await expect(page.getByText('Please enter current password.')).toBeVisible();
    await expect(page.getByText('Please enter new password.', { exact: true })).toBeVisible();
    await expect(page.getByText('Please enter new password confirm.')).toBeVisible();

    await page.getByLabel('Current password').fill('same-password-1');
    await page.getByLabel('New password', { exact: true }).fill('same-password-1');
    await page.getByLabel('Confirm new password').fill('another-password');
    await submit.click();
    await expect(
      page.getByText('The new password field and current password must be different.'),
    ).toBeVisible();
    await expect(page.getByText('The two passwords that you entered do not match!')).toBeVisible();
  });

  test("shows the server's field messages as error notifications", async ({ page }) => {
    await signInWithProfile(page, { allRoles: ['admin'], allPermissions: [] });
    await page.route('**/api/v1/profile/password', (route) =>
      route.fulfill({
        status: 422,
        json: {
          code: 422,
          message: {
            current_password: ['The current password is incorrect.', 'second message'],
            new_password: ['Refused by the server.'],
          },
          requestId: 'r1',
        },
      }),
    );
    await page.goto('/');
    await chooseFromUserMenu(page, 'Test User', 'Change Password', () =>
      expect(drawerTitle(page)).toHaveText('Update password', { timeout: 2_000 }),
    );
    await page.getByLabel('Current password').fill('old-password-1');
    await page.getByLabel('New password', { exact: true }).fill('new-password-1');
    await page.getByLabel('Confirm new password').fill('new-password-1');
    await page.locator('.ant-drawer').getByRole('button', { name: 'Update password' }).click();
    const notices = page.locator('.ant-notification-notice');
    await expect(notices.filter({ hasText: 'The current password is incorrect.' })).toContainText(
      'Error',
    );
    await expect(notices.filter({ hasText: 'Refused by the server.' })).toContainText('Error');
    await expect(notices.filter({ hasText: 'second message' })).toHaveCount(0);
    await expect(page.locator('.ant-notification')).toHaveClass(/ant-notification-topRight/);
  });
});

test.describe('the agent layout', () => {
  test("an agent's stored type 'agent' gets the title 'Agent' and its own layout", async ({
    page,
    request,
  }) => {
    const agent = await newAgent(request);
    await signInAsAgent(page, agent);
    expect(await page.evaluate(() => localStorage.getItem('type'))).toBe('agent');
    await page.goto('/');
    await expect(page).toHaveURL(/\/agent$/);
    await expect(page).toHaveTitle('Agent');
    await expect(page.getByRole('heading', { name: 'Home' })).toBeVisible();
    await expect(sideMenu(page)).toHaveCount(0);
    await page.getByRole('button', { name: `User menu of ${agent.name}` }).click();
    await expect(page.getByRole('menuitem', { name: 'Change Password' })).toBeVisible();
  });
});
