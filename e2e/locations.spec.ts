import { expect, test } from '@playwright/test';
import { apiAs } from './api';
import { ADMIN_PASSWORD, signIn } from './support';
import { dialog, pick, rowOf, seriousViolations } from './ui';

/**
 * A warehouse manager lays out new storage, as on the first day of a new hall: a zone, a range of
 * aisles and levels checked by a dry run and created, activated, labelled and audited.
 */

/** This spec's tag: its zone and user never meet another spec's. */
const TAG = 71;
const ZONE = `Z${TAG}`;
const USER = `manager.${TAG}`;
const PASSWORD = `manager-${TAG}-password-2026`;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ playwright }, testInfo) => {
  // A warehouse manager as the default role makes one.
  const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  const admin = await apiAs(request, 'admin', ADMIN_PASSWORD);
  const roles = await admin.get<{ items: { id: number; name: string }[] }>('/roles?limit=200');
  const manager = roles.items.find((role) => role.name === 'Warehouse Manager')!;
  const created = await admin.post<{ temporary_password: string }>('/users', {
    user_name: USER,
    name: `Manager ${TAG}`,
    type: 'staff',
    role_ids: [manager.id],
  });
  const first = await apiAs(request, USER, created.temporary_password);
  await first.post('/profile/password', { new_password: PASSWORD, new_password_confirm: PASSWORD });
  await request.dispose();
});

test.beforeEach(async ({ page }) => {
  await signIn(page, USER, PASSWORD);
  await expect(page.getByRole('heading', { name: `Welcome, Manager ${TAG}` })).toBeVisible();
});

test('create a zone, then a range after its dry run', async ({ page }) => {
  await page.goto('/inventory-box/location/update-location');
  await expect(page.getByRole('heading', { name: 'Locations', level: 1 })).toBeVisible();

  await page.getByRole('button', { name: 'New location' }).click();
  const creating = dialog(page, 'New location');
  await creating.getByLabel('Zone code').fill(ZONE.toLowerCase());
  await creating.getByLabel('Name').fill('Hall two');
  await creating.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText(`Location ${ZONE} is created`)).toBeVisible();
  await expect(creating).toBeHidden();

  await page.getByRole('button', { name: 'Create range' }).click();
  const range = dialog(page, 'Create a range of locations');
  await pick(page, range, 'Under', ZONE, `${ZONE} (Hall two)`);
  await range.getByLabel('From').fill('01');
  await range.getByLabel('To').fill('02');
  await range.getByRole('button', { name: 'Add a range below' }).click();
  // Aisles 01..02, and levels A..D under each: ten locations.
  await range.getByRole('button', { name: 'Check' }).click();
  await expect(range.getByRole('status')).toContainText(
    '10 locations would be created; 0 locations exist already.',
  );
  await expect(range.getByTestId('range-new')).toContainText(`${ZONE}-01, ${ZONE}-01-A`);
  await range.getByRole('button', { name: 'Create 10 locations' }).click();
  await expect(page.getByText('10 locations created')).toBeVisible();
  await expect(range).toBeHidden();

  await page.getByRole('searchbox', { name: 'Search' }).fill(`${ZONE}-01`);
  await page.getByRole('searchbox', { name: 'Search' }).press('Enter');
  await expect(page.getByTestId('list-count')).toHaveText('5 locations');
  await expect(rowOf(page, `${ZONE}-01-C`)).toContainText('Inactive');
  expect(await seriousViolations(page)).toEqual([]);
});

test('activate the aisle, print its labels and record its audit', async ({ page }) => {
  await page.goto(`/inventory-box/location/update-location?search=${ZONE}-01`);
  await expect(page.getByTestId('list-count')).toHaveText('5 locations');
  await page.getByRole('checkbox', { name: `Choose ${ZONE}-01`, exact: true }).check();
  await page.getByRole('button', { name: 'Activate', exact: true }).click();
  await expect(page.getByText('5 locations activated')).toBeVisible();
  await expect(rowOf(page, `${ZONE}-01-D`)).toContainText('Active');

  for (const level of ['A', 'B']) {
    await page.getByRole('checkbox', { name: `Choose ${ZONE}-01-${level}` }).check();
  }
  await expect(page.getByText('3 locations chosen:')).toBeVisible();
  const labels = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Print labels' }).click();
  await (await labels).waitForURL(/\/api\/v1\/downloads\//);

  await page.getByRole('button', { name: 'Record audit' }).click();
  const audit = dialog(page, 'Record an audit of 3 locations');
  await expect(audit.getByLabel('Next audit due')).not.toHaveValue('');
  await audit.getByRole('button', { name: 'Record the audit' }).click();
  await expect(
    page.getByText(/Audit recorded for 3 locations; the next is due \d{4}-\d{2}-\d{2}/),
  ).toBeVisible();
  await expect(rowOf(page, `${ZONE}-01-B`)).toContainText(`by Manager ${TAG}`);
  await expect(rowOf(page, `${ZONE}-01-C`)).toContainText('Never');
});
