import { expect, test } from '@playwright/test';
import { ADMIN_PASSWORD, signIn } from './support';
import { seriousViolations, visitEveryPage } from './ui';

/**
 * QUALITY.md item 7: axe finds no serious or critical accessibility violation on any page. The
 * pages are the home page's links, which list every page an administrator may open. The header and
 * the side menu are the same on every page: they are checked whole on the home page and on the
 * first page visited (an item selected), and then each page's main content, which is what changes.
 * Measured in one run on eight pages: axe took 2.7 s a page over the whole page, 1.8 s over main.
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
  let wholePages = 2;
  await visitEveryPage(page, async (path) => {
    const violations = await seriousViolations(page, wholePages-- > 0 ? undefined : 'main');
    if (violations.length > 0) found[path] = violations;
  });
  expect(found).toEqual({});
});
