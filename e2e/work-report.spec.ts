import { expect, test } from '@playwright/test';
import {
  apiAs,
  createStaff,
  imeiOf,
  receiveStagedBox,
  seedReceivingCatalogue,
  type Staff,
} from './api';
import { ADMIN_PASSWORD, signIn } from './support';
import { closeNotifications, dialog, pick, rowOf, seriousViolations } from './ui';

/**
 * The working report (DOMAIN.md 4.11): a receiving clerk scans a box of devices at the station;
 * the warehouse manager reads the clerk's work on `/report/dashboard`, narrows it to the clerk's
 * team, opens the units behind the count (the IMEIs scanned) and exports a table.
 */

const TAG = 233;
const staff = (role: string, first: string): Staff => ({
  userName: `${role}.${TAG}`,
  name: `${first} ${TAG}`,
  password: `steady-${role}-${TAG}`,
});
const CLERK = staff('clerk', 'Clerk');
const MANAGER = staff('manager', 'Manager');
const TEAM = 'Invoice Management';

let imeis: string[];

test.beforeAll(async ({ playwright }, testInfo) => {
  test.setTimeout(180_000);
  const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  const admin = await apiAs(request, 'admin', ADMIN_PASSWORD);
  const catalogue = await seedReceivingCatalogue(admin, TAG);
  imeis = [1, 2, 3].map((serial) => imeiOf(catalogue.models.main.tac, serial));
  await createStaff(request, admin, CLERK, TEAM);
  await createStaff(request, admin, MANAGER, 'Warehouse Manager');
  // The clerk's own scans: the station's work is the clerk's.
  const clerk = await apiAs(request, CLERK.userName, CLERK.password);
  await receiveStagedBox(clerk, catalogue, { tag: TAG, imeis });
  await request.dispose();
});

test('the manager reads the clerk’s work, by team, down to the IMEIs, and exports it', async ({
  page,
}) => {
  await signIn(page, MANAGER.userName, MANAGER.password);
  await expect(page.getByRole('heading', { name: `Welcome, ${MANAGER.name}` })).toBeVisible();
  await page.goto('/report/dashboard');
  await expect(page.getByRole('heading', { name: 'Working report', level: 1 })).toBeVisible();
  await expect(page.getByTestId('figure-work-receive_scan')).toContainText(/\d/);

  // The clerk's team: the clerk's three receiving scans, on the worker table.
  await pick(page, page.locator('main'), 'Team', TEAM, TEAM);
  await expect(page).toHaveURL(/team_id=\d+/);
  const workers = page.getByRole('table', { name: 'Units per hour per worker' });
  const clerkRow = rowOf(workers, CLERK.name).filter({ hasText: 'Received' });
  await expect(clerkRow).toHaveCount(1);
  await expect(clerkRow.getByRole('cell').nth(2)).toHaveText('3');

  // The chart arrives in its own chunk, beside the table of the days.
  const chart = page.getByRole('figure', { name: /^Work per team and day/ });
  await expect(chart.getByRole('application')).toBeVisible();
  await expect(
    page.getByRole('table', { name: 'Work per team and day' }).getByRole('row', { name: TEAM }),
  ).not.toHaveCount(0);
  expect(await seriousViolations(page)).toEqual([]);

  // The count opens the units behind it: the IMEIs the clerk scanned.
  await clerkRow.getByRole('link', { name: '3' }).click();
  const drawer = dialog(page, new RegExp(`^Received by ${CLERK.name}, `));
  await expect(drawer).toBeVisible();
  await expect(page).toHaveURL(/log_action=receive_scan/);
  const rows = drawer.getByTestId('work-log-rows');
  for (const imei of imeis) await expect(rowOf(rows, imei)).toContainText(CLERK.name);
  await expect(drawer.getByTestId('list-count')).toHaveText('3 work log entries');
  expect(await seriousViolations(page, '.ant-drawer')).toEqual([]);
  await drawer.getByRole('button', { name: 'Close' }).click();
  await expect(drawer).toHaveCount(0);
  await expect(page).not.toHaveURL(/log_action/);

  // Each table exports as the page shows it, for the range and team read.
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export Units per hour per worker', exact: true }).click();
  await page.getByRole('menuitem', { name: 'CSV' }).click();
  expect((await downloading).suggestedFilename()).toMatch(
    /^work-workers-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/,
  );
  await closeNotifications(page);
});
