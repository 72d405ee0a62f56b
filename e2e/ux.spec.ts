import { expect, test, type Page } from '@playwright/test';
import { apiAs, newAgent } from './api';
import {
  ADMIN_PASSWORD,
  ALL_GROUPS,
  menuGroups,
  sideMenu,
  signIn,
  signInAsAgent,
  signInWithProfile,
} from './support';
import { visitEveryPage } from './ui';

/**
 * What a new user tripped over (UX.md, "Every page"): the side menu on a direct link, the menu's
 * last groups under the collapse trigger, focus in drawers, notifications over the primary
 * button, the body's margin, serif fonts, wide tables, the page titles, the skip link and counts
 * in the singular.
 */

const TAG = `${Date.now() % 1_000_000}`;

async function signInAsAdmin(page: Page) {
  await signIn(page, 'admin', ADMIN_PASSWORD);
  await expect(page.getByRole('heading', { name: 'Welcome, Administrator' })).toBeVisible();
}

/** The generic family a font-family list ends in, if the named faces are all missing. */
const families = (fontFamily: string) =>
  fontFamily.split(',').map((family) => family.trim().replace(/^["']|["']$/g, ''));

const isSerif = (fontFamily: string) =>
  families(fontFamily).some((family) => /^(serif|times|times new roman)$/i.test(family));

test('the sign-in heading and its notices use the app font, not the serif fallback', async ({
  page,
}) => {
  await page.goto('/login?code=401');
  const heading = page.getByRole('heading', { name: 'Sign in', level: 1 });
  await expect(heading).toBeVisible();
  const headingFont = await heading.evaluate((element) => getComputedStyle(element).fontFamily);
  expect(isSerif(headingFont), headingFont).toBe(false);
  expect(families(headingFont)).toContain('sans-serif');
  const alertFont = await page
    .getByRole('alert')
    .evaluate((element) => getComputedStyle(element).fontFamily);
  expect(isSerif(alertFont), alertFont).toBe(false);
  expect(alertFont).toBe(headingFont);
});

test('the body has no margin and a short page does not scroll either way', async ({ page }) => {
  const check = async (path: string, short: boolean) => {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const metrics = await page.evaluate(() => ({
      margin: getComputedStyle(document.body).margin,
      scrollWidth: document.documentElement.scrollWidth,
      clientWidth: document.documentElement.clientWidth,
      scrollHeight: document.documentElement.scrollHeight,
      clientHeight: document.documentElement.clientHeight,
    }));
    expect(metrics.margin, path).toBe('0px');
    expect(metrics.scrollWidth, `${path} scrolls sideways`).toBeLessThanOrEqual(
      metrics.clientWidth,
    );
    if (short) {
      expect(metrics.scrollHeight, `${path} scrolls`).toBeLessThanOrEqual(metrics.clientHeight);
    }
  };
  await check('/login', true);
  await signInAsAdmin(page);
  await check('/repair-process/inquire-device', true);
  await check('/', false);
  await check('/master-data/colors', false);
});

test('a direct link opens its group in the side menu and selects its item', async ({ page }) => {
  await signInAsAdmin(page);
  await page.goto('/master-data/colors');
  await expect(page.getByRole('heading', { name: 'Colours', level: 1 })).toBeVisible();
  const openGroups = sideMenu(page).locator('li.ant-menu-submenu-open > .ant-menu-submenu-title');
  await expect(openGroups).toHaveText(['Master Data']);
  const selected = sideMenu(page).locator('.ant-menu-item-selected');
  await expect(selected).toHaveText('Colours');
  await expect(selected.getByRole('link')).toHaveAttribute('aria-current', 'page');

  // A reload is a direct link too; another page's link opens its own group as well.
  await page.goto('/users');
  await expect(sideMenu(page).locator('.ant-menu-item-selected')).toHaveText('Users');
  await expect(openGroups).toContainText(['RTS Office']);
});

test('the last group of the side menu scrolls into view above the collapse trigger', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 600 });
  await signInWithProfile(page, { allRoles: ['admin'], allPermissions: [] });
  await page.goto('/');
  await expect(menuGroups(page)).toHaveCount(ALL_GROUPS.length);
  const last = menuGroups(page).last();
  await expect(last).toHaveText(ALL_GROUPS.at(-1)!);
  await last.scrollIntoViewIfNeeded();
  await last.click();
  const lastItem = sideMenu(page).locator('li.ant-menu-submenu-open .ant-menu-item').last();
  await lastItem.scrollIntoViewIfNeeded();
  const trigger = page.locator('.ant-layout-sider-trigger');
  const [itemBox, triggerBox] = [await lastItem.boundingBox(), await trigger.boundingBox()];
  expect(itemBox && triggerBox).toBeTruthy();
  expect(itemBox!.y + itemBox!.height).toBeLessThanOrEqual(triggerBox!.y + 1);
  // Nothing lies over it: a real click lands on the link.
  await lastItem.getByRole('link').click();
  await expect(page).not.toHaveURL(/\/$/);

  // The trigger has a name and works from the keyboard.
  const toggle = page.getByRole('button', { name: 'Collapse the side menu' });
  await toggle.focus();
  await page.keyboard.press('Enter');
  await expect(page.locator('.ant-layout-sider')).toHaveClass(/ant-layout-sider-collapsed/);
  await expect(page.getByRole('button', { name: 'Expand the side menu' })).toBeVisible();
  await page.getByRole('button', { name: 'Expand the side menu' }).click();
  await expect(page.locator('.ant-layout-sider')).not.toHaveClass(/ant-layout-sider-collapsed/);
});

test('a drawer puts the focus in its first field and gives it back on close', async ({ page }) => {
  await signInAsAdmin(page);
  await page.goto('/master-data/colors');
  const create = page.getByRole('button', { name: 'New colour' });
  await create.click();
  const drawer = page.getByRole('dialog', { name: 'New colour' });
  await expect(drawer.getByLabel('Name')).toBeFocused();
  await drawer.getByRole('button', { name: 'Cancel' }).click();
  await expect(drawer).toHaveCount(0);
  await expect(create).toBeFocused();

  // A hand-built drawer does the same.
  await page.goto('/users');
  await page.getByRole('button', { name: 'New user' }).click();
  await expect(
    page.getByRole('dialog', { name: 'New user' }).getByLabel('User name'),
  ).toBeFocused();
});

test('a notification leaves the page title row and its primary action uncovered', async ({
  page,
}) => {
  await signInAsAdmin(page);
  await page.goto('/master-data/colors');
  const primary = page.getByRole('button', { name: 'New colour' });
  await expect(primary).toBeVisible();
  await page.getByRole('button', { name: 'Export' }).click();
  await page.getByRole('menuitem', { name: 'CSV' }).click();
  const notice = page.locator('.ant-notification-notice').first();
  await expect(notice).toContainText('Successes');
  await expect(page.locator('.ant-notification')).toHaveClass(/ant-notification-topRight/);
  const [noticeBox, primaryBox] = [await notice.boundingBox(), await primary.boundingBox()];
  expect(noticeBox!.y).toBeGreaterThanOrEqual(primaryBox!.y + primaryBox!.height);
  // Still at the top right: in the upper part of the window, against its right edge.
  const viewport = page.viewportSize()!;
  expect(noticeBox!.y).toBeLessThan(viewport.height / 2);
  expect(noticeBox!.x + noticeBox!.width).toBeGreaterThan(viewport.width - 64);
  await primary.click();
  await expect(page.getByRole('dialog', { name: 'New colour' })).toBeVisible();
});

test('a wide table scrolls sideways with its key column fixed, and shows that it scrolls', async ({
  page,
}) => {
  await page.setViewportSize({ width: 900, height: 700 });
  await signInAsAdmin(page);
  await page.goto('/users');
  await expect(page.getByRole('heading', { name: 'Users', level: 1 })).toBeVisible();
  const table = page.locator('.ant-table').first();
  await expect(table.getByRole('link', { name: 'admin', exact: true })).toBeVisible();
  const body = table.locator('.ant-table-content, .ant-table-body').first();
  const widths = await body.evaluate((element) => ({
    scroll: element.scrollWidth,
    client: element.clientWidth,
  }));
  expect(widths.scroll).toBeGreaterThan(widths.client);
  // More columns hide on the right: antd draws the shadow there.
  await expect(table).toHaveClass(/ant-table-fix-end-shadow-show/);
  const keyCell = table.locator('tbody tr.ant-table-row td').first();
  await expect(keyCell).toHaveClass(/ant-table-cell-fix-start/);
  const before = await keyCell.boundingBox();
  await body.evaluate((element) => element.scrollTo({ left: element.scrollWidth }));
  await expect(table).toHaveClass(/ant-table-fix-start-shadow-show/);
  const after = await keyCell.boundingBox();
  expect(after!.x).toBeCloseTo(before!.x, 0);
  // The page itself does not scroll sideways: the table does.
  expect(
    await page.evaluate(
      () => document.documentElement.scrollWidth <= document.documentElement.clientWidth,
    ),
  ).toBe(true);
});

test('every page has exactly one h1', async ({ page }) => {
  test.setTimeout(300_000);
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await expect(page.locator('h1')).toHaveCount(1);
  await signInAsAdmin(page);
  const wrong: Record<string, string[]> = {};
  await visitEveryPage(
    page,
    async (path) => {
      const h1s = await page.locator('h1').allInnerTexts();
      if (h1s.length !== 1) wrong[path] = h1s;
    },
    ['/no-such-page'],
  );
  expect(wrong).toEqual({});
});

test('the skip link comes first and moves the focus to the main content', async ({ page }) => {
  await signInAsAdmin(page);
  await page.goto('/master-data/colors');
  await expect(page.getByRole('heading', { name: 'Colours', level: 1 })).toBeVisible();
  await page.locator('body').focus();
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to main content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('main')).toBeFocused();
  await expect(page).toHaveURL(/\/master-data\/colors$/);
  // The next Tab lands in the page, past the header and the side menu.
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => Boolean(document.activeElement?.closest('main')))).toBe(true);
});

test('the agent layout has the skip link too', async ({ page, request }) => {
  await signInAsAgent(page, await newAgent(request));
  await expect(page.getByRole('heading', { name: 'Home', level: 1 })).toBeVisible();
  await page.locator('body').focus();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to main content' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('main')).toBeFocused();
});

test('a count of one reads in the singular', async ({ page, request }) => {
  const api = await apiAs(request, 'admin', ADMIN_PASSWORD);
  await api.post('/colors', { name: `UX Singular ${TAG}` });
  await api.post('/users', {
    user_name: `ux-singular-${TAG}`,
    name: `UX Singular ${TAG}`,
    type: 'staff',
    role_ids: [],
  });
  await signInAsAdmin(page);

  await page.goto(`/master-data/colors?search=${encodeURIComponent(`UX Singular ${TAG}`)}`);
  await expect(page.getByTestId('list-count')).toHaveText('1 colour');

  await page.goto(`/users?search=ux-singular-${TAG}`);
  await expect(page.getByTestId('list-count')).toHaveText('1 user');
});
