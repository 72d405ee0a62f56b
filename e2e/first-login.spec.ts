import { expect, test } from '@playwright/test';
import {
  ADMIN_PASSWORD as NEW_PASSWORD,
  ALL_GROUPS,
  chooseFromUserMenu,
  menuGroups,
} from './support';

/** A new user's first day, against the real server on a fresh database. */
test('first start: admin / admin, forced new password, sign out, sign in again, whole menu', async ({
  page,
}) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel('User name').fill('admin');
  await page.getByLabel('Password').fill('admin');
  await page.getByRole('button', { name: 'Sign in' }).click();

  // The drawer opens by itself, cannot be dismissed and does not ask for the current password.
  // The first answers of a server that has just started (every lane starts one at once, each
  // setting up its job queues) may take longer than an expectation's five seconds.
  await expect(page.locator('.ant-drawer-title')).toHaveText('Update password', {
    timeout: 30_000,
  });
  await expect(page.getByLabel('Current password')).toHaveCount(0);
  await expect(page.locator('.ant-drawer-close')).toHaveCount(0);
  await page.keyboard.press('Escape');
  await page.mouse.click(50, 400);
  await expect(page.locator('.ant-drawer-title')).toBeVisible();

  // Keeping 'admin' is refused (the server also refuses reusing the current password).
  const submit = page.locator('.ant-drawer').getByRole('button', { name: 'Update password' });
  await page.getByLabel('New password', { exact: true }).fill('admin');
  await page.getByLabel('Confirm new password').fill('admin');
  await submit.click();
  await expect(page.getByText('The new password must be at least 8 characters.')).toBeVisible();

  await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
  await page.getByLabel('Confirm new password').fill(NEW_PASSWORD);
  await submit.click();
  const success = page.locator('.ant-notification-notice').filter({ hasText: 'Successes' });
  await expect(success).toContainText('Your password has been changed. Please sign in again.');
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();

  // The agent sign-in accepts only agents.
  await page.goto('/agent/login');
  await page.getByLabel('User name').fill('admin');
  await page.getByLabel('Password').fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('This sign-in is for field agents.', { exact: false })).toBeVisible();

  await page.goto('/login');
  await page.getByLabel('User name').fill('admin');
  await page.getByLabel('Password').fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Welcome, Administrator' })).toBeVisible();
  await expect(page.locator('.ant-drawer-title')).toHaveCount(0);
  await expect(menuGroups(page)).toHaveText(ALL_GROUPS);
  expect(await page.evaluate(() => JSON.parse(localStorage.getItem('userInfo') ?? '[]'))).toEqual([
    'admin',
  ]);

  // Logout ends the session on the server too: the old token no longer works.
  const token = await page.evaluate(() => localStorage.getItem('token'));
  await chooseFromUserMenu(page, 'Administrator', 'Logout', () =>
    expect(page).toHaveURL(/\/login$/, { timeout: 2_000 }),
  );
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  const reuse = await page.request.get('/api/v1/profile', {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(reuse.status()).toBe(401);
});
