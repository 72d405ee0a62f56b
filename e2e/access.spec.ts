import { expect, test, type Page } from '@playwright/test';
import { ADMIN_PASSWORD, groupItems, menuGroups, signIn } from './support';

async function checkPermission(page: Page, name: string) {
  await page.getByRole('searchbox', { name: 'Search permissions' }).fill(name);
  await page.getByRole('checkbox', { name: new RegExp(`^${name.replace('.', '\\.')} `) }).check();
}

/** A new administrator's first role and user, and a permission taken away again. */
test('create a role and a user, sign in as them, see exactly their menu, take a permission away', async ({
  browser,
}) => {
  // Two people's sessions and a dozen pages, first in its lane while the other lanes start.
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await signIn(admin, 'admin', ADMIN_PASSWORD);
  await expect(admin.getByRole('heading', { name: 'Welcome, Administrator' })).toBeVisible();

  // A role with two permissions.
  await admin.goto('/roles');
  await admin.getByRole('button', { name: 'New role' }).click();
  await admin.getByLabel('Name', { exact: true }).fill('Dock Clerk');
  await admin
    .getByLabel('Description', { exact: true })
    .fill('Receives SIM boxes and looks users up');
  await checkPermission(admin, 'sim.index');
  await checkPermission(admin, 'user.view-list');
  await admin.getByRole('button', { name: 'Save' }).click();
  await expect(admin.getByRole('link', { name: 'Dock Clerk', exact: true })).toBeVisible();

  // A user holding it; the temporary password is shown once.
  await admin.goto('/users');
  await admin.getByRole('button', { name: 'New user' }).click();
  const form = admin.locator('.ant-drawer');
  await form.getByLabel('User name').fill('dock.clerk');
  await form.getByLabel('Name', { exact: true }).fill('Dana Dock');
  await form.getByLabel('Roles').fill('Dock');
  await admin.locator('.ant-select-item-option', { hasText: 'Dock Clerk' }).click();
  await form.getByLabel('Roles').press('Escape');
  await form.getByRole('button', { name: 'Save' }).click();
  const temporary = (
    await admin.getByRole('dialog', { name: 'Temporary password' }).locator('code').innerText()
  ).trim();
  expect(temporary).toMatch(/^[A-Za-z0-9]{14}$/);
  await admin.getByRole('button', { name: 'OK' }).click();
  await expect(admin.getByRole('link', { name: 'dock.clerk', exact: true })).toBeVisible();

  // The new user must set a password, then sees exactly what the role allows.
  const clerkContext = await browser.newContext();
  const clerk = await clerkContext.newPage();
  await signIn(clerk, 'dock.clerk', temporary);
  await expect(clerk.locator('.ant-drawer-title')).toHaveText('Update password');
  await clerk.getByLabel('New password', { exact: true }).fill('dana-dock-password');
  await clerk.getByLabel('Confirm new password').fill('dana-dock-password');
  await clerk.locator('.ant-drawer').getByRole('button', { name: 'Update password' }).click();
  await expect(clerk).toHaveURL(/\/login$/);
  await signIn(clerk, 'dock.clerk', 'dana-dock-password');
  await expect(clerk.getByRole('heading', { name: 'Welcome, Dana Dock' })).toBeVisible();
  await expect(menuGroups(clerk)).toHaveText(['RTS Office', 'SIM']);
  expect(await groupItems(clerk, 'RTS Office')).toEqual(['Users']);
  expect(await groupItems(clerk, 'SIM')).toEqual(['SIM boxes', 'SIM list']);
  await clerk.getByRole('link', { name: 'Users' }).first().click();
  await expect(clerk.getByRole('link', { name: 'dock.clerk', exact: true })).toBeVisible();
  await expect(clerk.getByRole('button', { name: 'New user' })).toHaveCount(0);

  // The administrator takes user.view-list away again.
  await admin.goto('/roles');
  await admin.getByRole('link', { name: 'Dock Clerk', exact: true }).click();
  await admin.getByRole('searchbox', { name: 'Search permissions' }).fill('user.view-list');
  await admin.getByRole('checkbox', { name: /^user\.view-list / }).uncheck();
  await admin.getByRole('button', { name: 'Save' }).click();
  await expect(
    admin.locator('.ant-notification-notice').filter({ hasText: 'Role Dock Clerk saved.' }),
  ).toBeVisible();

  // The clerk's next request is refused, and after a reload the menu has shrunk.
  await clerk.getByRole('searchbox', { name: 'Search users' }).fill('dock');
  await clerk.getByRole('searchbox', { name: 'Search users' }).press('Enter');
  await expect(
    clerk.getByText('This needs the permission user.view-list.', { exact: false }),
  ).toBeVisible();
  await clerk.reload();
  await expect(clerk.getByText('403')).toBeVisible();
  await expect(menuGroups(clerk)).toHaveText(['SIM']);

  await adminContext.close();
  await clerkContext.close();
});

/** A user manager who is not an administrator: the administrator's account is out of reach. */
test('a user manager cannot act on the administrator, and is told why', async ({
  page,
  request,
}) => {
  const api = async (method: 'POST' | 'PUT', url: string, token: string, data: object) => {
    const response = await request.fetch(`/api/v1${url}`, {
      method,
      headers: { authorization: `Bearer ${token}` },
      data,
    });
    expect(response.status(), await response.text()).toBeLessThan(300);
    return ((await response.json()) as { data: Record<string, unknown> }).data;
  };
  const tokenOf = async (user_name: string, password: string) =>
    (await api('POST', '/login', '', { user_name, password })).token as string;

  const admin = await tokenOf('admin', ADMIN_PASSWORD);
  const role = await api('POST', '/roles', admin, {
    name: 'User Desk',
    permissions: ['user.view-list', 'user.manage'],
  });
  const created = await api('POST', '/users', admin, {
    user_name: 'desk.lead',
    name: 'Desk Lead',
    type: 'staff',
    role_ids: [role.id],
  });
  const temporary = created.temporary_password as string;
  await api('POST', '/profile/password', await tokenOf('desk.lead', temporary), {
    new_password: 'quiet-harbour-71',
    new_password_confirm: 'quiet-harbour-71',
  });

  await signIn(page, 'desk.lead', 'quiet-harbour-71');
  await expect(page.getByRole('heading', { name: 'Welcome, Desk Lead' })).toBeVisible();
  await page.goto('/users');
  await page.getByRole('link', { name: 'admin', exact: true }).click();
  const refusal = 'Only an administrator can act on the account admin.';
  await expect(page.locator('.ant-drawer').getByText(refusal)).toBeVisible();
  // The user's drawer is an address: a reload opens it again.
  await expect(page).toHaveURL(/[?&]user=\d+/);
  await page.reload();
  await expect(page.locator('.ant-drawer').getByText(refusal)).toBeVisible();
  await page.locator('.ant-drawer-close').click();

  await page.getByRole('button', { name: 'More actions for admin' }).click();
  await page.getByRole('menuitem', { name: 'Reset password' }).click();
  await expect(page.locator('.ant-notification-notice').filter({ hasText: refusal })).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Temporary password' })).toHaveCount(0);
});

/** The audit log: the users page leads to it, newest first, paged and counted like every list. */
test('the audit log lists what was done, newest first, and filters by user', async ({ page }) => {
  await signIn(page, 'admin', ADMIN_PASSWORD);
  await expect(page.getByRole('heading', { name: 'Welcome, Administrator' })).toBeVisible();
  await page.goto('/users');
  await page.getByRole('link', { name: 'Audit log' }).click();
  await expect(page.getByRole('heading', { name: 'Audit log', level: 1 })).toBeVisible();
  await expect(page.getByTestId('list-count')).toHaveText(/\d+ audit events?|More than/);
  await expect(page.locator('.ant-table-row').first()).toBeVisible();

  await page.getByRole('combobox', { name: 'User' }).fill('admin');
  await page.locator('.ant-select-item-option', { hasText: /^admin$/ }).click();
  await expect(page).toHaveURL(/[?&]actor_id=\d+/);
  await expect(page.locator('.ant-table-row').first()).toContainText('admin');
});
