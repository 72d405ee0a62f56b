import { expect, test } from '@playwright/test';
import { ADMIN_PASSWORD, signIn } from './support';
import { rowOf } from './ui';

/**
 * The administrator opens the background jobs from the users page and finds the sweep of expired
 * web-order holds, which the server sends every minute, completed on its first attempt; the state
 * filter keeps it and the address keeps the filter.
 */

test('an administrator sees the background jobs with their state', async ({ page }) => {
  // The sweep is sent at the turn of each minute: the first one may be a minute away.
  test.setTimeout(150_000);
  await signIn(page, 'admin', ADMIN_PASSWORD);
  // Signed in before going on: a navigation under way would abort the sign-in's request.
  await expect(page.getByRole('heading', { name: /^Welcome, / })).toBeVisible();
  await page.goto('/users');
  await page.getByRole('link', { name: 'Background jobs' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Background jobs' })).toBeVisible();

  // The page reads the jobs again every few seconds by itself.
  const sweep = rowOf(page, 'web-order.expire-holds').filter({ hasText: 'Completed' }).first();
  await expect(sweep).toBeVisible({ timeout: 120_000 });
  await expect(sweep).toContainText('1 of 1');

  await page.getByLabel('State').click();
  // The option carries the state's count: "Completed (3)".
  await page
    .locator('.ant-select-dropdown:visible .ant-select-item-option')
    .filter({ hasText: /^Completed \(\d+\)$/ })
    .click();
  await expect(page).toHaveURL(/state=completed/);
  await expect(rowOf(page, 'web-order.expire-holds').first()).toContainText('Completed');
  await page.reload();
  await expect(rowOf(page, 'web-order.expire-holds').first()).toContainText('Completed');
});
