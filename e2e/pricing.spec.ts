import { expect, test, type Page } from '@playwright/test';
import { apiAs, createStaff, type Staff } from './api';
import { ADMIN_PASSWORD, signIn } from './support';
import { closeNotifications, dialog, pick, rowOf, seriousViolations } from './ui';

/**
 * A pricing manager prices AirTalk's Lifeline plan for Texas on a new model, is warned that the
 * plan's data is below the Lifeline minimum, schedules a better plan from next week and reads the
 * price's history with the two versions compared.
 */

/** This spec's tag: its carrier, model and user never meet another spec's. */
const TAG = 103;
const CARRIER = `AirTalk Wireless ${TAG}`;
const BRAND = `Brand ${TAG}`;
const MODEL = `Phone ${TAG}`;
const ROLE = `Pricing ${TAG}`;
const MANAGER: Staff = {
  userName: `pricing.${TAG}`,
  name: `Pricing Manager ${TAG}`,
  password: `pricing-${TAG}-password-2026`,
};

/** A day from today, as the server counts days (UTC). */
const dayFrom = (days: number) => {
  const date = new Date();
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
};

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ playwright }, testInfo) => {
  const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  const admin = await apiAs(request, 'admin', ADMIN_PASSWORD);
  await admin.post('/vendors', { name: CARRIER, type: 'carrier-client' });
  await admin.post('/models', {
    brand: BRAND,
    name: MODEL,
    device_type: 'phone',
    os: 'android',
    network: '5G',
  });
  await admin.post('/roles', { name: ROLE, permissions: ['price.management'] });
  await createStaff(request, admin, MANAGER, ROLE);
  await request.dispose();
});

async function openPricing(page: Page) {
  await signIn(page, MANAGER.userName, MANAGER.password);
  await expect(page.getByRole('heading', { name: `Welcome, ${MANAGER.name}` })).toBeVisible();
  await page.goto('/push-to-sale/price/air-talk');
  await expect(page.getByRole('heading', { name: 'AirTalk plans', level: 1 })).toBeVisible();
}

test('price a Texas Lifeline plan, schedule a change and read its history', async ({ page }) => {
  await openPricing(page);
  await expect(page.getByText('Lifeline minimum service standard: 4.5 GB')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  // The plan gives 3 GB: the form warns, and the price is saved all the same.
  await page.getByRole('button', { name: 'Add price' }).click();
  const adding = dialog(page, 'Add a price');
  await pick(page, adding, 'Client carrier', CARRIER, CARRIER);
  await pick(page, adding, 'State', 'T', 'TX');
  await pick(page, adding, 'Model', MODEL, `${BRAND} ${MODEL}`);
  await adding.getByLabel('Device price (co-pay)').fill('10.01');
  await adding.getByLabel('Plan', { exact: true }).fill(`Basic ${TAG}`);
  await adding.getByLabel('Data (GB a month)').fill('3');
  await expect(adding.getByRole('alert')).toContainText(
    '3 GB a month is below the Lifeline minimum service standard of 4.5 GB',
  );
  expect(await seriousViolations(page, '.ant-drawer')).toEqual([]);
  await adding.getByRole('button', { name: 'Add price' }).click();
  await expect(
    page.getByText(`Version 1 of the TX price of ${BRAND} ${MODEL} is added.`),
  ).toBeVisible();
  await expect(adding).toBeHidden();
  await closeNotifications(page);

  await page.getByRole('searchbox', { name: 'Search' }).fill(`Basic ${TAG}`);
  await page.getByRole('searchbox', { name: 'Search' }).press('Enter');
  const first = rowOf(page, `Basic ${TAG}`);
  await expect(first).toHaveCount(1);
  await expect(first).toContainText('Below Lifeline minimum (4.5 GB)');
  await expect(first).toContainText('$10.01');
  await expect(first).toContainText('Current');

  // From next week the plan gives 6 GB and the phone is free.
  await first.getByRole('button', { name: 'Schedule change' }).click();
  const changing = dialog(page, /Schedule a change of Lifeline TX/);
  await changing.getByLabel('Change from').fill(dayFrom(7));
  await changing.getByLabel('Device price (co-pay)').fill('0');
  await changing.getByLabel('Plan', { exact: true }).fill(`Better ${TAG}`);
  await changing.getByLabel('Data (GB a month)').fill('6');
  await expect(changing.getByRole('alert')).toHaveCount(0);
  await changing.getByRole('button', { name: 'Schedule change' }).click();
  await expect(page.getByText(`Version 2 starts on ${dayFrom(7)}.`)).toBeVisible();
  await closeNotifications(page);

  // The first version now ends the day before the change.
  await expect(first).toContainText(dayFrom(6));

  // The history lists both versions and compares them.
  await first.getByRole('link', { name: `${BRAND} ${MODEL}` }).click();
  const history = dialog(page, `History of Lifeline TX, ${BRAND} ${MODEL}`);
  await expect(history.getByRole('row', { name: /v1/ })).toContainText('Current');
  await expect(history.getByRole('row', { name: /v2/ })).toContainText('Scheduled');
  const compared = history.getByRole('table', { name: 'Version 1 compared with version 2' });
  await expect(compared.getByRole('row', { name: /Device price/ })).toContainText(
    '$10.01$0.00 Changed',
  );
  await expect(compared.getByRole('row', { name: /Data/ })).toContainText('3 GB6 GB Changed');
  expect(await seriousViolations(page, '.ant-drawer')).toEqual([]);

  // The history has an address of its own: a reload opens it again.
  await page.reload();
  await expect(dialog(page, `History of Lifeline TX, ${BRAND} ${MODEL}`)).toBeVisible();
});

test('a price that overlaps another version is refused, naming it', async ({ page }) => {
  await openPricing(page);
  await page.getByRole('button', { name: 'Add price' }).click();
  const adding = dialog(page, 'Add a price');
  await pick(page, adding, 'Client carrier', CARRIER, CARRIER);
  await pick(page, adding, 'State', 'T', 'TX');
  await pick(page, adding, 'Model', MODEL, `${BRAND} ${MODEL}`);
  await adding.getByLabel('Device price (co-pay)').fill('5');
  await adding.getByLabel('Plan', { exact: true }).fill(`Clash ${TAG}`);
  await adding.getByLabel('Effective from').fill(dayFrom(3));
  await adding.getByRole('button', { name: 'Add price' }).click();
  await expect(page.getByText(/It overlaps version 1 of Lifeline, TX/)).toBeVisible();
  await expect(adding).toBeVisible();
});
