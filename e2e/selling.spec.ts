import { expect, test, type APIRequestContext } from '@playwright/test';
import {
  apiAs,
  imeiOf,
  locateGradedStock,
  receiveStagedBox,
  seedReceivingCatalogue,
  type Api,
  type ReceivingCatalogue,
  type Staff,
} from './api';
import { ADMIN_PASSWORD, signIn } from './support';
import {
  chooseOption,
  closeNotifications,
  dialog,
  pick,
  rowOf,
  searchList,
  seriousViolations,
} from './ui';

/**
 * Selling as the staff work it (issue 16): a product and its variant built from a model, listed on
 * the web channel (and the retailer, carrier and campaign channels), a government plan priced for
 * Texas, then an order taken three ways (a
 * retailer's cart checkout approved on /dashboard/web-order, a client carrier's API call with a
 * key made on /users/api-keys, a campaign file with a bad row) and all three found ready on
 * /order/list, the bad row reported by its line number.
 */

const TAG = 108;
const CARRIER = `Carrier ${TAG}`;
const RETAILER = `Retailer ${TAG}`;
const SKU = `BRAND-${TAG}-PHONE-${TAG}-A`;
const WORKER: Staff = {
  userName: `grader.${TAG}`,
  name: `Grader ${TAG}`,
  password: 'steady-bench-108',
};
const BUYER: Staff = {
  userName: `buyer.${TAG}`,
  name: `Buyer ${TAG}`,
  password: 'steady-buyer-108',
};

let request: APIRequestContext;
let admin: Api;
let catalogue: ReceivingCatalogue;

test.describe.configure({ mode: 'serial' });

/** Three A-grade phones on the shelf, the client carrier, and a retailer with its portal user. */
test.beforeAll(async ({ playwright }, testInfo) => {
  request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  admin = await apiAs(request, 'admin', ADMIN_PASSWORD);
  catalogue = await seedReceivingCatalogue(admin, TAG);
  const imeis = [1, 2, 3].map((serial) => imeiOf(catalogue.models.main.tac, serial));
  const box = await receiveStagedBox(admin, catalogue, { tag: TAG, imeis });
  await locateGradedStock(request, admin, { catalogue, box, worker: WORKER, tag: TAG, grade: 'A' });
  await admin.post('/vendors', { name: CARRIER, type: 'carrier-client' });
  const retailer = await admin.post<{ id: number }>('/retailers', {
    name: RETAILER,
    type: 'store',
    credit_terms: 'net30',
    credit_limit_cents: 1_000_000,
    addresses: [
      {
        kind: 'shipping',
        line1: '9 Congress Ave',
        city: 'Austin',
        state: 'TX',
        zip: '78701',
        is_default: true,
      },
    ],
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
});
test.afterAll(() => request.dispose());

test('a product from the model, listed on the web, and a Texas plan priced', async ({ page }) => {
  await signIn(page, 'admin', ADMIN_PASSWORD);
  await expect(page.getByRole('heading', { name: /^Welcome, / })).toBeVisible();

  await page.goto('/pts-management/products');
  await page.getByRole('button', { name: 'New product' }).click();
  const product = dialog(page, 'New product from a model');
  await pick(page, product, 'Model', `Phone ${TAG}`, catalogue.models.main.name);
  await product.getByRole('combobox', { name: 'Grades' }).click();
  await chooseOption(page, 'A');
  await page.keyboard.press('Escape');
  await product.getByRole('button', { name: 'Create product' }).click();
  const variants = dialog(page, catalogue.models.main.name).getByRole('region', {
    name: `Variants of ${catalogue.models.main.name}`,
  });
  await expect(rowOf(variants, SKU)).toContainText('3');
  await closeNotifications(page);

  await page.goto('/pts-management/list');
  await page.getByRole('button', { name: 'New listing' }).click();
  const listing = dialog(page, 'New listing');
  await listing.getByLabel('SKU').fill(SKU);
  await listing.getByLabel('Quantity pushed').fill('1');
  await listing.getByLabel('Price ($)', { exact: true }).fill('125');
  await listing.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByText(`Listing ${SKU} on web created as a draft.`)).toBeVisible();
  await searchList(page, SKU);
  await rowOf(page, SKU).getByRole('button', { name: 'Publish' }).click();
  await expect(rowOf(page, SKU).getByTestId('listing-status')).toHaveText('live');
  await closeNotifications(page);

  await page.goto('/push-to-sale/price/air-talk');
  await page.getByRole('button', { name: 'Add price' }).click();
  const price = dialog(page, 'Add a price');
  await pick(page, price, 'Client carrier', CARRIER, CARRIER);
  await pick(page, price, 'State', 'T', 'TX');
  await pick(page, price, 'Model', `Phone ${TAG}`, catalogue.models.main.name);
  await price.getByLabel('Device price (co-pay)').fill('5');
  await price.getByLabel('Plan', { exact: true }).fill(`Unlimited ${TAG}`);
  await price.getByLabel('Data (GB a month)').fill('10');
  await price.getByRole('button', { name: 'Add price' }).click();
  await expect(
    page.getByText(`Version 1 of the TX price of ${catalogue.models.main.name} is added.`),
  ).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

test('an order three ways in, all three ready on the order list', async ({ page, browser }) => {
  test.setTimeout(240_000);
  // The retailers' shop, the carriers and the campaigns each sell a unit as well (the web
  // channel is the agents' shop).
  for (const channel of ['retailer', 'carrier', 'campaign']) {
    const listing = await admin.post<{ id: number }>('/pts-listings', {
      sellable_type: 'variant',
      sku: SKU,
      channel,
      qty_pushed: 1,
      price_cents: { retailer: 11_900, carrier: 0, campaign: 2500 }[channel],
    });
    await admin.post(`/pts-listings/${listing.id}/publish`, {});
  }

  // 1. The retailer's buyer checks the cart out; staff approve the web order.
  const buyerContext = await browser.newContext();
  const buyer = await buyerContext.newPage();
  await signIn(buyer, BUYER.userName, BUYER.password);
  await buyer.getByRole('button', { name: /^Cart, / }).click();
  const cart = buyer.getByRole('dialog', { name: 'Cart' });
  await cart.getByRole('button', { name: `Add ${SKU} to the cart` }).click();
  await cart.getByRole('button', { name: 'Check out' }).click();
  const placed = cart.getByText(/^Order SO-\d+ placed$/);
  await expect(placed).toBeVisible();
  const webOrder = /SO-\d+/.exec((await placed.textContent()) ?? '')![0];
  await buyerContext.close();

  await signIn(page, 'admin', ADMIN_PASSWORD);
  await expect(page.getByRole('heading', { name: /^Welcome, / })).toBeVisible();
  await page.goto('/dashboard/web-order');
  await rowOf(page, webOrder)
    .getByRole('button', { name: `Approve ${webOrder}` })
    .click();
  await expect(page.getByText(`Order ${webOrder} is approved: ready to fulfil.`)).toBeVisible();
  await closeNotifications(page);

  // 2. The carrier's system, with a key made for it on the users page.
  await page.goto('/users');
  await page.getByRole('link', { name: 'Carrier API keys' }).click();
  await expect(page.getByRole('heading', { name: 'Carrier API keys', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'New API key' }).click();
  const newKey = dialog(page, 'New API key');
  await pick(page, newKey, 'Client carrier', CARRIER, CARRIER);
  await newKey.getByLabel('Name').fill(`Enrolment ${TAG}`);
  await newKey.getByRole('button', { name: 'Create key' }).click();
  const shown = page.getByRole('dialog', { name: 'Copy the API key now' });
  const secret = (await shown.locator('code').innerText()).trim();
  expect(secret).toMatch(/^ck_[A-Za-z0-9_-]{43}$/);
  expect(await seriousViolations(page, '.ant-modal')).toEqual([]);
  await shown.getByRole('button', { name: 'I have copied it' }).click();
  await expect(rowOf(page, `Enrolment ${TAG}`)).toContainText('active');
  expect(await seriousViolations(page)).toEqual([]);

  const enrolment = {
    external_ref: `ENR-${TAG}`,
    program: 'lifeline',
    subscriber: {
      external_id: `E${TAG}`,
      first_name: 'Maria',
      last_name: 'Lopez',
      service_address: { line1: '12 Elm St', city: 'Dallas', state: 'TX', zip: '75201' },
    },
    items: [{ sku: SKU, qty: 1 }],
  };
  const call = () =>
    request.post('/api/v1/carrier/orders', {
      headers: { 'x-api-key': secret, 'idempotency-key': `order-${TAG}` },
      data: enrolment,
    });
  const sent = await call();
  expect(sent.status(), await sent.text()).toBe(201);
  const carrierOrder = ((await sent.json()) as { data: { number: string; status: string } }).data;
  expect(carrierOrder.status).toBe('ready');
  // A retry after a lost answer gets the same order.
  const retried = await call();
  expect(retried.headers()['idempotent-replayed']).toBe('true');
  expect(((await retried.json()) as { data: { number: string } }).data.number).toBe(
    carrierOrder.number,
  );

  // 3. A campaign file with a bad row: the row is named by its line, the good one committed.
  await page.goto('/order/express-orders/import-file-campaign');
  const form = page.getByRole('form', { name: 'Campaign' });
  await form.getByLabel('Campaign name').fill(`Spring ${TAG}`);
  await pick(page, form, 'Client carrier', CARRIER, CARRIER);
  await form.getByRole('combobox', { name: 'Programme' }).click();
  await chooseOption(page, 'lifeline');
  await page.locator('input[type=file]').setInputFiles({
    name: `spring-${TAG}.csv`,
    mimeType: 'text/csv',
    buffer: Buffer.from(
      [
        'external_ref,name,address,city,state,zip,phone,sku,qty,notes',
        `S${TAG}-1,Ann Lee,7 Oak St,Houston,TX,77002,,${SKU},1,`,
        `S${TAG}-2,John Smith,5 Elm St,Houston,TX,10001,,${SKU},1,`,
      ].join('\n'),
    ),
  });
  const preview = page.getByRole('region', { name: 'Preview' });
  const bad = rowOf(preview.getByTestId('campaign-errors'), 'ZIP 10001 is in NY');
  await expect(bad.getByRole('cell').first()).toHaveText('3');
  await preview.getByRole('button', { name: 'Create the campaign with 1 order' }).click();
  await expect(page.getByText(/1 order created; 1 error left out/)).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  // All three wait, ready, on the order list.
  await page.goto('/order/list');
  for (const order of [webOrder, carrierOrder.number]) {
    await searchList(page, order);
    await expect(rowOf(page, order)).toContainText('ready');
  }
  // The campaign's order, by the reference of its row in the file.
  await searchList(page, `S${TAG}-1`);
  await expect(page.getByRole('row').filter({ hasText: 'campaign' })).toContainText('ready');
  expect(await seriousViolations(page)).toEqual([]);
});
