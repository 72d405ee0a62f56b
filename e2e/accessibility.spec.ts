import { expect, test } from '@playwright/test';
import { ADMIN_PASSWORD, signIn } from './support';
import { seriousViolations, visitEveryPage } from './ui';

/**
 * QUALITY.md item 7: axe finds no serious or critical accessibility violation on any page. The
 * pages are the home page's links, which list every page an administrator may open.
 */

test('every page and the login page have no serious accessibility violation', async ({ page }) => {
  // Every page through axe: about 8 minutes in a lane of CI, more as areas add pages.
  test.setTimeout(1_200_000);
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  const found: Record<string, unknown> = {};
  const login = await seriousViolations(page);
  if (login.length > 0) found['/login'] = login;

  await signIn(page, 'admin', ADMIN_PASSWORD);
  await expect(page.getByRole('heading', { name: 'Welcome, Administrator' })).toBeVisible();
  await visitEveryPage(page, async (path) => {
    const violations = await seriousViolations(page);
    if (violations.length > 0) found[path] = violations;
  });
  expect(found).toEqual({});
});
