import { expect, test } from '@playwright/test';
import {
  apiAs,
  listedVariant,
  locateGradedStock,
  imeiOf,
  receiveStagedBox,
  seedReceivingCatalogue,
  type Staff,
} from './api';
import { ADMIN_PASSWORD, signIn } from './support';
import { chooseOption, closeNotifications, dialog, pick, seriousViolations } from './ui';

/**
 * Orders: a support order entered by hand through the intake, found in the list with its customer
 * masked, its details revealed (audited), its address edited (a ZIP outside the state refused,
 * then a good one), held and released, and counted on the daily order report.
 */

/** This spec's tag: its vendor, models, TACs, invoice, zone and SKUs never meet another spec's. */
const TAG = 105;
const CARRIER = `Carrier ${TAG}`;
const WORKER: Staff = {
  userName: `grader.${TAG}`,
  name: `Grader ${TAG}`,
  password: 'steady-bench-105',
};

let sku: string;

test.beforeAll(async ({ playwright }, testInfo) => {
  const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  const admin = await apiAs(request, 'admin', ADMIN_PASSWORD);

  // One grade-B device of the spec's model, graded, consolidated and put away: sellable stock.
  const catalogue = await seedReceivingCatalogue(admin, TAG);
  const imei = imeiOf(catalogue.models.main.tac, 1);
  const box = await receiveStagedBox(admin, catalogue, { tag: TAG, imeis: [imei] });
  await locateGradedStock(request, admin, { catalogue, box, worker: WORKER, tag: TAG, grade: 'B' });

  // The product's grade-B variant on a live carrier listing, and the client carrier.
  sku = await listedVariant(admin, catalogue, {
    skuPrefix: `ORD${TAG}`,
    grade: 'B',
    listing: {
      channel: 'carrier',
      qty_pushed: 1,
      price_cents: 0,
    },
  });
  await admin.post('/vendors', { name: CARRIER, type: 'carrier-client' });
  await request.dispose();
});

test('a support order is validated, masked, revealed, re-addressed, held, released and counted', async ({
  page,
}) => {
  // Many steps through drawers, each read again from the server: more than the default minute.
  test.setTimeout(180_000);
  await signIn(page, 'admin', ADMIN_PASSWORD);
  await expect(page.getByRole('heading', { name: /^Welcome, / })).toBeVisible();
  await page.goto('/order/list');
  await expect(page.getByRole('heading', { name: 'All orders', level: 1 })).toBeVisible();

  // A support order for a new subscriber.
  await page.getByRole('button', { name: 'New order' }).click();
  const form = dialog(page, 'New support order');
  await pick(page, form, 'Client carrier', CARRIER, CARRIER);
  await form.getByRole('combobox', { name: 'Programme' }).click();
  await chooseOption(page, 'lifeline');
  await form.getByLabel('Enrolment or account number').fill(`ENR-${TAG}`);
  await form.getByLabel('First name').fill('Maria');
  await form.getByLabel('Last name').fill('Gonzalez');
  await form.getByLabel('Phone').fill('713-555-0105');
  await form.getByLabel('Service address').fill('105 Travis St');
  await form.getByLabel('City').fill('Houston');
  await form.getByLabel('State').fill('TX');
  await form.getByLabel('ZIP code').fill('77002');
  await pick(page, form, 'Item (live listing)', sku, `${sku} · carrier · $0.00`);
  await form.getByRole('button', { name: 'Create order' }).click();
  await expect(page.getByText(/^Order SO-\d{7} is ready\.$/)).toBeVisible();
  await closeNotifications(page);

  // The new order's drawer: the customer masked, the lines, no units or shipments yet.
  const drawer = page.getByRole('dialog', { name: /^Order SO-\d{7}$/ });
  await expect(drawer).toBeVisible();
  const number = ((await drawer.locator('.ant-drawer-title').textContent()) ?? '').replace(
    'Order ',
    '',
  );
  await expect(drawer.getByText('M*** G***')).toBeVisible();
  await expect(drawer.getByText('HOUSTON, TX')).toBeVisible();
  await expect(drawer.getByRole('cell', { name: sku })).toBeVisible();
  await expect(drawer.getByText(/No shipments yet/)).toBeVisible();
  await expect(drawer).not.toContainText('Gonzalez');
  expect(await seriousViolations(page, '.ant-drawer')).toEqual([]);

  // Shown in full on request, which the audit log records.
  await drawer.getByRole('button', { name: 'Show full customer details' }).click();
  await expect(drawer.getByTestId('customer-in-full')).toContainText('Maria Gonzalez');
  await expect(drawer.getByTestId('customer-in-full')).toContainText('105 TRAVIS ST');

  // The address: a ZIP outside the state is refused on the field, a good one is kept.
  await drawer.getByRole('button', { name: 'Edit address' }).click();
  const address = dialog(page, `Address of ${number}`);
  await address.getByLabel('Street address').fill('200 Main St');
  await address.getByLabel('City').fill('Dallas');
  await address.getByLabel('ZIP code').fill('10001');
  await address.getByRole('button', { name: 'Save address' }).click();
  await expect(address.getByText('ZIP 10001 is in NY (New York), not TX.')).toBeVisible();
  await address.getByLabel('ZIP code').fill('75201');
  await address.getByRole('button', { name: 'Save address' }).click();
  await expect(address).toBeHidden();
  await expect(drawer.getByText('DALLAS, TX')).toBeVisible();
  await expect(drawer.getByText(/address edited — changed: line1, city, zip/)).toBeVisible();
  await closeNotifications(page);

  // Held for a fraud review, then released: validated again, ready.
  await drawer.getByRole('button', { name: 'Hold' }).click();
  const hold = dialog(page, `Hold ${number}`);
  await hold.getByRole('combobox', { name: 'Reason' }).click();
  await chooseOption(page, 'Fraud review');
  await hold.getByLabel('Note').fill('Check the enrolment');
  await hold.getByRole('button', { name: 'Hold' }).click();
  await expect(drawer.getByText('On hold: Fraud review')).toBeVisible();
  await closeNotifications(page);
  await drawer.getByRole('button', { name: 'Release' }).click();
  await page.getByRole('tooltip').getByRole('button', { name: 'Release' }).click();
  await expect(drawer.getByText('On hold: Fraud review')).toBeHidden();
  await expect(drawer.locator('.ant-tag').filter({ hasText: /^ready$/ })).toBeVisible();
  await drawer.getByRole('button', { name: 'Close' }).click();

  // The list shows the order masked; the daily report counts it and leads back to it.
  await page.getByRole('searchbox', { name: 'Search' }).fill(number);
  await page.getByRole('searchbox', { name: 'Search' }).press('Enter');
  const row = page.getByRole('row').filter({ hasText: number });
  await expect(row).toContainText('M*** G***');
  await expect(row).toContainText('ready');
  expect(await seriousViolations(page)).toEqual([]);

  await page.goto('/order/daily-order');
  await expect(page.getByRole('heading', { name: 'Daily orders', level: 1 })).toBeVisible();
  // Today's row of support orders of the support type (its third column; other specs' orders
  // may make rows of other types).
  const today = page
    .getByRole('row')
    .filter({ has: page.locator('td:nth-child(3)', { hasText: /^support$/ }) })
    .first();
  await expect(today).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await today.getByRole('link', { name: /orders received/ }).click();
  await expect(page).toHaveURL(/\/order\/list\?.*received_day=/);
  await expect(page.getByRole('row').filter({ hasText: number })).toBeVisible();
});
