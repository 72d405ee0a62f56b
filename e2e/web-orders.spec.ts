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
import { closeNotifications, rowOf, searchList, seriousViolations } from './ui';

/**
 * Web orders: a retailer's portal user fills the cart from the shop and checks out in the
 * browser; staff approve the order on /dashboard/web-order; it is ready on /order/list.
 */

/** This spec's tag: its vendor, models, TACs, invoice, zone and SKUs never meet another spec's. */
const TAG = 106;
const WORKER: Staff = {
  userName: `grader.${TAG}`,
  name: `Grader ${TAG}`,
  password: 'steady-bench-106',
};
const BUYER = { userName: `buyer.${TAG}`, name: `Bea Buyer ${TAG}`, password: 'corner-buyer-106' };
const RETAILER = `Corner Wireless ${TAG}`;

let sku: string;

test.beforeAll(async ({ playwright }, testInfo) => {
  const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  const admin = await apiAs(request, 'admin', ADMIN_PASSWORD);

  // One grade-B device graded, consolidated and put away: sellable stock.
  const catalogue = await seedReceivingCatalogue(admin, TAG);
  const imei = imeiOf(catalogue.models.main.tac, 1);
  const box = await receiveStagedBox(admin, catalogue, { tag: TAG, imeis: [imei] });
  await locateGradedStock(request, admin, { catalogue, box, worker: WORKER, tag: TAG, grade: 'B' });

  // Its variant on a live listing of the retailer channel.
  sku = await listedVariant(admin, catalogue, {
    skuPrefix: `WEB${TAG}`,
    grade: 'B',
    listing: {
      channel: 'retailer',
      qty_pushed: 1,
      price_cents: 12_500,
    },
  });

  // A retailer on credit with a shipping address, and its portal user.
  const retailer = await admin.post<{ id: number }>('/retailers', {
    name: RETAILER,
    type: 'store',
    credit_terms: 'net30',
    credit_limit_cents: 1_000_000,
    addresses: [
      {
        kind: 'shipping',
        line1: '12 main st',
        city: 'Austin',
        state: 'tx',
        zip: '78701',
        is_default: true,
      },
    ],
    contacts: [],
  });
  const portal = await admin.post<{ temporary_password: string }>(
    `/retailers/${retailer.id}/portal-users`,
    { user_name: BUYER.userName, name: BUYER.name },
  );
  const first = await apiAs(request, BUYER.userName, portal.temporary_password);
  await first.post('/profile/password', {
    new_password: BUYER.password,
    new_password_confirm: BUYER.password,
  });
  await request.dispose();
});

test('a portal user checks the cart out; staff approve it and it is ready', async ({
  page,
  browser,
}) => {
  await signIn(page, BUYER.userName, BUYER.password);
  await expect(page.getByRole('heading', { name: /^Welcome, / })).toBeVisible();

  // The shop, in the cart's drawer: add the one unit and check out.
  await page.getByRole('button', { name: /^Cart, / }).click();
  const drawer = page.getByRole('dialog', { name: 'Cart' });
  const shop = drawer.getByRole('list', { name: 'Shop items' });
  await expect(shop.getByText(`${sku} · $125.00 · 1 available`)).toBeVisible();
  expect(await seriousViolations(page, '.ant-drawer')).toEqual([]);
  await drawer.getByRole('button', { name: `Add ${sku} to the cart` }).click();
  await expect(page.getByRole('button', { name: /^Cart, / })).toHaveAccessibleName('Cart, 1 unit');
  await expect(drawer.getByText(`Total $125.00 for ${RETAILER}`)).toBeVisible();
  await drawer.getByRole('button', { name: 'Check out' }).click();
  const placed = drawer.getByText(/^Order SO-\d+ placed$/);
  await expect(placed).toBeVisible();
  const number = /SO-\d+/.exec((await placed.textContent()) ?? '')![0];
  await expect(page.getByRole('button', { name: /^Cart, / })).toHaveAccessibleName('Cart, 0 units');
  expect(await page.evaluate(() => localStorage.getItem('cart'))).toBeNull();
  // Its unit is held: the shop shows it sold out.
  await expect(drawer.getByText(`${sku} · $125.00 · Sold out`)).toBeVisible();

  // Staff approve it on the web order queue.
  const staffContext = await browser.newContext();
  const staff = await staffContext.newPage();
  await signIn(staff, 'admin', ADMIN_PASSWORD);
  await expect(staff.getByRole('heading', { name: /^Welcome, / })).toBeVisible();
  await staff.goto('/dashboard/web-order');
  await expect(staff.getByRole('heading', { name: 'Web orders', level: 1 })).toBeVisible();
  const row = rowOf(staff, number);
  await expect(row).toContainText(RETAILER);
  await expect(row).toContainText(`by ${BUYER.name}`);
  await expect(row).toContainText('Within limit');
  await expect(row).toContainText('Available');
  expect(await seriousViolations(staff)).toEqual([]);
  await row.getByRole('button', { name: `Approve ${number}` }).click();
  await expect(staff.getByText(`Order ${number} is approved: ready to fulfil.`)).toBeVisible();
  await expect(rowOf(staff, number)).toHaveCount(0);
  await closeNotifications(staff);

  // Ready on the order list.
  await staff.goto('/order/list');
  await searchList(staff, number);
  await expect(rowOf(staff, number)).toContainText('ready');
  await staffContext.close();
});
