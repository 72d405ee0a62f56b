import { expect, test } from '@playwright/test';
import {
  apiAs,
  locateGradedStock,
  imeiOf,
  receiveStagedBox,
  seedReceivingCatalogue,
  type ReceivingCatalogue,
  type Staff,
} from './api';
import { ADMIN_PASSWORD, signIn } from './support';
import { chooseOption, closeNotifications, dialog, pick, rowOf, seriousViolations } from './ui';

/**
 * The push-to-sale catalogue (DOMAIN.md 4.5): a product made from a model in the browser, its
 * variant showing the stock that matches it (two A-grade units in a located box), then a bundle
 * and a combo of that variant with what the stock builds and fills.
 */

/** This spec's tag: its vendor, models, TACs, invoices and zone never meet another spec's. */
const TAG = 101;
const WORKER: Staff = {
  userName: `grader.${TAG}`,
  name: `Grader ${TAG}`,
  password: 'steady-bench-101',
};

let catalogue: ReceivingCatalogue;

test.describe.configure({ mode: 'serial' });

/**
 * Two devices of the main model made as the warehouse makes them, through the API: received,
 * graded A by a production worker, consolidated into one box, sealed and put away in a bin.
 */
test.beforeAll(async ({ playwright }, testInfo) => {
  const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  const api = await apiAs(request, 'admin', ADMIN_PASSWORD);
  catalogue = await seedReceivingCatalogue(api, TAG);
  const imeis = [1, 2].map((serial) => imeiOf(catalogue.models.main.tac, serial));
  const box = await receiveStagedBox(api, catalogue, { tag: TAG, imeis });
  await locateGradedStock(request, api, { catalogue, box, worker: WORKER, tag: TAG, grade: 'A' });
  await request.dispose();
});

test.beforeEach(async ({ page }) => {
  await signIn(page, 'admin', ADMIN_PASSWORD);
  await expect(page.getByRole('heading', { name: /^Welcome, / })).toBeVisible();
});

const SKU = `BRAND-${TAG}-PHONE-${TAG}-COLOUR-${TAG}-A`;
/** The cut added by hand: grade C, any colour. */
const C_SKU = `BRAND-${TAG}-PHONE-${TAG}-C`;

test('a product made from a model, its variants with the stock that matches them', async ({
  page,
}) => {
  await page.goto('/pts-management/products');
  await expect(page.getByRole('heading', { name: 'Products', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'New product' }).click();
  const form = dialog(page, 'New product from a model');
  await pick(page, form, 'Model', `Phone ${TAG}`, catalogue.models.main.name);
  await pick(page, form, 'Colours', `Colour ${TAG}`, catalogue.color);
  await page.keyboard.press('Escape');
  await form.getByRole('combobox', { name: 'Grades' }).click();
  await chooseOption(page, 'A');
  await chooseOption(page, 'B');
  await page.keyboard.press('Escape');
  expect(await seriousViolations(page, '.ant-drawer')).toEqual([]);
  await form.getByRole('button', { name: 'Create product' }).click();
  await expect(
    page.getByText(`${catalogue.models.main.name} is created with 2 variants.`),
  ).toBeVisible();

  // The new product's drawer opens on its variants: the A cut matches the two located units.
  const drawer = dialog(page, catalogue.models.main.name);
  await expect(drawer).toBeVisible();
  await expect(page).toHaveURL(/product=\d+/);
  const variants = drawer.getByRole('region', {
    name: `Variants of ${catalogue.models.main.name}`,
  });
  await expect(rowOf(variants, SKU)).toContainText('2');
  await expect(rowOf(variants, `COLOUR-${TAG}-B`)).toContainText('0');
  await closeNotifications(page);
  expect(await seriousViolations(page, '.ant-drawer')).toEqual([]);

  // One more cut, then archived again.
  await drawer.getByRole('button', { name: 'Add variant' }).click();
  const add = dialog(page, `Add a variant to ${catalogue.models.main.name}`);
  await add.getByRole('combobox', { name: 'Grade' }).click();
  await chooseOption(page, 'C');
  await add.getByRole('button', { name: 'Add variant' }).click();
  await expect(variants.getByRole('row', { name: new RegExp(`^${C_SKU} `) })).toBeVisible();
  await variants.getByRole('button', { name: `Archive ${C_SKU}`, exact: true }).click();
  await expect(variants.getByRole('row', { name: new RegExp(`^${C_SKU} `) })).toContainText(
    'archived',
  );
  await drawer.getByRole('button', { name: 'Close' }).first().click();
  // As a person would, search once the drawer has gone.
  await expect(drawer).toHaveCount(0);
  await expect(page).not.toHaveURL(/product=/);

  await page.getByRole('searchbox', { name: 'Search' }).fill(SKU);
  await page.getByRole('searchbox', { name: 'Search' }).press('Enter');
  await expect(rowOf(page, catalogue.models.main.name)).toContainText('2 of 3 active');
  await closeNotifications(page);
  expect(await seriousViolations(page)).toEqual([]);
});

test('a bundle and a combo of the variant, with what the stock builds and fills', async ({
  page,
}) => {
  await page.goto('/pts-management/bundles');
  await expect(page.getByRole('heading', { name: 'Bundles', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'New bundle' }).click();
  const bundleForm = dialog(page, 'New bundle');
  await bundleForm.getByRole('textbox', { name: 'SKU' }).fill(`kit-${TAG}`);
  await bundleForm.getByRole('textbox', { name: 'Bundle name' }).fill(`Two phones ${TAG}`);
  await pick(
    page,
    bundleForm,
    'Variant',
    SKU,
    `${SKU} (${catalogue.models.main.name} · Colour ${TAG} A)`,
  );
  await bundleForm.getByRole('spinbutton', { name: 'Quantity' }).fill('2');
  expect(await seriousViolations(page, '.ant-drawer')).toEqual([]);
  await bundleForm.getByRole('button', { name: 'Save' }).click();
  const bundleRow = rowOf(page, `KIT-${TAG}`);
  await expect(bundleRow).toContainText(`2 × ${SKU}`);
  // Two units in stock make one kit of two.
  await expect(bundleRow.getByRole('cell').nth(3)).toHaveText('1');
  await closeNotifications(page);
  expect(await seriousViolations(page)).toEqual([]);

  await page.goto('/pts-management/combo');
  await expect(page.getByRole('heading', { name: 'Combos', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'New combo' }).click();
  const comboForm = dialog(page, 'New combo');
  await comboForm.getByRole('textbox', { name: 'SKU' }).fill(`combo-${TAG}`);
  await comboForm.getByRole('textbox', { name: 'Combo name' }).fill(`Any phone ${TAG}`);
  await comboForm.getByRole('textbox', { name: 'Slot name' }).fill('Phone');
  await pick(
    page,
    comboForm,
    'Allowed variants',
    SKU,
    `${SKU} (${catalogue.models.main.name} · Colour ${TAG} A)`,
  );
  await page.keyboard.press('Escape');
  expect(await seriousViolations(page, '.ant-drawer')).toEqual([]);
  await comboForm.getByRole('button', { name: 'Save' }).click();
  const comboRow = rowOf(page, `COMBO-${TAG}`);
  await expect(comboRow).toContainText(`1 × Phone: ${SKU} (pool 2)`);
  await expect(comboRow.getByRole('cell').nth(3)).toHaveText('2');
  await closeNotifications(page);
  expect(await seriousViolations(page)).toEqual([]);
});
