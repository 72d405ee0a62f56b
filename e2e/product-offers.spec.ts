import { expect, test } from '@playwright/test';
import {
  apiAs,
  listedVariant,
  imeiOf,
  locateGradedStock,
  receiveStagedBox,
  seedReceivingCatalogue,
  type Staff,
} from './api';
import { ADMIN_PASSWORD, signIn } from './support';
import { closeNotifications, dialog, pick, rowOf, searchList, seriousViolations } from './ui';

/**
 * Product offers: staff enter a retailer's offer for a listing of the retailer channel, counter
 * it, accept it and convert it on /dashboard/product-offer; the order is ready on /order/list.
 */

/** This spec's tag: its vendor, models, TACs, invoice, zone and SKUs never meet another spec's. */
const TAG = 109;
const WORKER: Staff = {
  userName: `grader.${TAG}`,
  name: `Grader ${TAG}`,
  password: 'steady-bench-109',
};
const RETAILER = `Offer Wireless ${TAG}`;

let sku: string;
let listingLabel: string;

test.beforeAll(async ({ playwright }, testInfo) => {
  const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  const admin = await apiAs(request, 'admin', ADMIN_PASSWORD);

  // Two grade-B devices graded, consolidated and put away: sellable stock.
  const catalogue = await seedReceivingCatalogue(admin, TAG);
  const imeis = [imeiOf(catalogue.models.main.tac, 1), imeiOf(catalogue.models.main.tac, 2)];
  const box = await receiveStagedBox(admin, catalogue, { tag: TAG, imeis });
  await locateGradedStock(request, admin, { catalogue, box, worker: WORKER, tag: TAG, grade: 'B' });

  // Its variant on a live listing of the retailer channel at $125, floor $100.
  sku = await listedVariant(admin, catalogue, {
    skuPrefix: `OFR${TAG}`,
    grade: 'B',
    listing: {
      channel: 'retailer',
      qty_pushed: 2,
      price_cents: 12_500,
      floor_price_cents: 10_000,
    },
  });
  const options = await admin.get<{ id: number; label: string }[]>(
    `/product-offers/listing-options?search=${sku}`,
  );
  listingLabel = options[0]!.label;

  await admin.post('/retailers', {
    name: RETAILER,
    type: 'store',
    credit_terms: 'net30',
    credit_limit_cents: 1_000_000,
    addresses: [
      {
        kind: 'shipping',
        line1: '40 congress ave',
        city: 'Austin',
        state: 'tx',
        zip: '78701',
        is_default: true,
      },
    ],
    contacts: [],
  });
  await request.dispose();
});

test('staff enter an offer, counter, accept and convert it; the order is ready', async ({
  page,
}) => {
  await signIn(page, 'admin', ADMIN_PASSWORD);
  await expect(page.getByRole('heading', { name: /^Welcome, / })).toBeVisible();
  await page.goto('/dashboard/product-offer');
  await expect(page.getByRole('heading', { name: 'Product offers', level: 1 })).toBeVisible();

  // The retailer's offer: 2 units at $95 until the end of next week.
  await page.getByRole('button', { name: 'New offer' }).click();
  const form = dialog(page, 'New offer');
  await pick(page, form, /Retailer$/, RETAILER, RETAILER);
  await pick(page, form, /Listing$/, sku, listingLabel);
  await form.getByLabel('Quantity').fill('2');
  await form.getByLabel('Offered price per unit ($)').fill('95');
  const lastDay = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
  await form.getByLabel('Last day').fill(lastDay);
  expect(await seriousViolations(page, '.ant-drawer')).toEqual([]);
  await form.getByRole('button', { name: 'Enter offer' }).click();
  await expect(
    page.getByText(new RegExp(`Offer \\d+ from ${RETAILER} is entered\\.`)),
  ).toBeVisible();
  const row = rowOf(page, RETAILER);
  await expect(row).toContainText('submitted');
  await expect(row).toContainText('$95.00');
  await expect(row).toContainText('Under floor');
  await expect(row).toContainText('list $125.00, floor $100.00');
  const id = /#(\d+)/.exec((await row.textContent()) ?? '')![1]!;
  expect(await seriousViolations(page)).toEqual([]);
  await closeNotifications(page);

  // Countered at $110 for both units.
  await row.getByRole('button', { name: `Counter offer ${id}` }).click();
  const counter = dialog(page, `Counter offer ${id}`);
  await counter.getByLabel('Price per unit ($)').fill('110');
  await counter.getByRole('button', { name: 'Counter' }).click();
  await expect(page.getByText(`Offer ${id} is countered at 2 × $110.00.`)).toBeVisible();
  await expect(row).toContainText('countered');
  await expect(row).not.toContainText('Under floor');
  await closeNotifications(page);

  // Accepted: both units held on the listing.
  await row.getByRole('button', { name: `Accept offer ${id}` }).click();
  await expect(
    page.getByText(`Offer ${id} is accepted: 2 units held on the listing.`),
  ).toBeVisible();
  await expect(row).toContainText('accepted');
  await expect(row).toContainText('2 held');
  await closeNotifications(page);

  // Converted into an order, which leaves the open offers.
  await row.getByRole('button', { name: `Convert to order offer ${id}` }).click();
  const converted = page.getByText(new RegExp(`Offer ${id} is order SO-\\d+ now \\(ready\\)\\.`));
  await expect(converted).toBeVisible();
  const number = /SO-\d+/.exec((await converted.textContent()) ?? '')![0];
  await expect(rowOf(page, RETAILER)).toHaveCount(0);
  await page.getByText('Closed', { exact: true }).click();
  await expect(rowOf(page, RETAILER)).toContainText(number);
  await expect(rowOf(page, RETAILER)).toContainText('converted');
  expect(await seriousViolations(page)).toEqual([]);
  await closeNotifications(page);

  // Ready on the order list.
  await page.goto('/order/list');
  await searchList(page, number);
  await expect(rowOf(page, number)).toContainText('ready');
});
