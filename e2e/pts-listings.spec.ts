import { expect, test } from '@playwright/test';
import { apiAs } from './api';
import { ADMIN_PASSWORD, signIn } from './support';
import { closeNotifications, dialog, pick, rowOf, searchList, seriousViolations } from './ui';

/**
 * Publishing for sale (DOMAIN.md 5, step 11): a product's variant is listed on the web channel,
 * published, paused and resumed; then its price is lowered by 10 % in a bulk change, previewed
 * before and after, applied and found in the log of applied changes.
 */

/** This spec's tag: its model, product and SKUs never meet another spec's. */
const TAG = 102;
let sku = '';
let model = '';

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ playwright }, testInfo) => {
  const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  const admin = await apiAs(request, 'admin', ADMIN_PASSWORD);
  const created = await admin.post<{ id: number; display_name: string }>('/models', {
    brand: `Brand ${TAG}`,
    name: `Listed ${TAG}`,
    device_type: 'phone',
    os: 'android',
    network: '5G',
  });
  model = created.display_name;
  const product = await admin.post<{ id: number }>('/pts-products', {
    model_id: created.id,
    sku_prefix: `E2E${TAG}`,
    capacities_gb: [128],
    grades: ['A'],
  });
  const variants = await admin.get<{ items: { sku: string }[] }>(
    `/pts-variants?product_id=${product.id}`,
  );
  sku = variants.items[0]!.sku;
  await request.dispose();
});

test.beforeEach(async ({ page }) => {
  await signIn(page, 'admin', ADMIN_PASSWORD);
  await expect(page.getByRole('heading', { name: /^Welcome/ })).toBeVisible();
});

test('list a variant on the web channel, publish, pause and resume it', async ({ page }) => {
  await page.goto('/pts-management/list');
  // The page's code loads on first use; a busy machine takes its time.
  await expect(page.getByRole('heading', { name: 'Listings', level: 1 })).toBeVisible({
    timeout: 15_000,
  });
  await page.getByRole('button', { name: 'New listing' }).click();
  const creating = dialog(page, 'New listing');
  await creating.getByLabel('SKU').fill(sku);
  await creating.getByLabel('Quantity pushed').fill('5');
  await creating.getByLabel('Price ($)', { exact: true }).fill('199');
  // Nothing is in stock yet: pushing 5 is a backorder, which the administrator may allow.
  await creating.getByLabel('Allow backorder').click();
  await creating.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByText(`Listing ${sku} on web created as a draft.`)).toBeVisible();

  await searchList(page, sku);
  const row = rowOf(page, sku);
  await expect(row.getByTestId('listing-status')).toHaveText('draft');
  await expect(row.getByTestId('over-available')).toHaveText('Backorder');
  expect(await seriousViolations(page)).toEqual([]);

  await row.getByRole('button', { name: 'Publish' }).click();
  await expect(row.getByTestId('listing-status')).toHaveText('live');
  // The notification sits over the row's buttons at the right.
  await closeNotifications(page);
  await row.getByRole('button', { name: 'Pause' }).click();
  await expect(row.getByTestId('listing-status')).toHaveText('paused');
  // The notification sits over the row's buttons at the right.
  await closeNotifications(page);
  await row.getByRole('button', { name: 'Resume' }).click();
  await expect(row.getByTestId('listing-status')).toHaveText('live');
});

test('lower the price by 10 % with a preview, apply it and read the log', async ({ page }) => {
  await page.goto('/push-to-sale/update');
  await expect(page.getByRole('heading', { name: 'Bulk update', level: 1 })).toBeVisible({
    timeout: 15_000,
  });
  const form = page.getByRole('form', { name: 'Bulk change' });
  await pick(page, form, 'Model', `Listed ${TAG}`, model);
  await form.getByRole('spinbutton', { name: 'Value' }).fill('-10');
  await form.getByRole('button', { name: 'Preview' }).click();

  const preview = page.getByRole('region', { name: 'Preview' });
  await expect(preview.getByText('1 listing chosen: 1 would change')).toBeVisible();
  const row = rowOf(preview, sku);
  await expect(row).toContainText('5 · $199.00 · live');
  await expect(row).toContainText('5 · $179.10 · live');
  // Checked with the pointer off the Preview button, whose hover colour is lighter.
  await page.mouse.move(0, 0);
  expect(await seriousViolations(page)).toEqual([]);

  await preview.getByRole('button', { name: 'Apply to 1 listing' }).click();
  await expect(page.getByText(/Price -10 % \(model \d+\): 1 listing changed\./)).toBeVisible();
  await expect(preview).toBeHidden();

  const log = page.getByRole('region', { name: 'Applied changes' });
  const applied = log.getByRole('row').filter({ hasText: 'Price -10 %' }).first();
  await applied.getByRole('button', { name: /Before and after of change/ }).click();
  const details = page.getByRole('dialog', { name: /Applied change/ });
  await expect(rowOf(details, sku)).toContainText('5 · $179.10 · live');
  expect(await seriousViolations(page)).toEqual([]);

  await page.goto('/pts-management/list');
  await searchList(page, sku);
  await expect(rowOf(page, sku)).toContainText('$179.10');
});
