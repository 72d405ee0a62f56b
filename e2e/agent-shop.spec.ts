import { expect, test } from '@playwright/test';
import {
  apiAs,
  imeiOf,
  listedVariant,
  locateGradedStock,
  newAgent,
  receiveStagedBox,
  seedReceivingCatalogue,
  type Staff,
} from './api';
import { ADMIN_PASSWORD, signIn, signInAsAgent } from './support';
import { closeNotifications, dialog, pick, rowOf, searchList, seriousViolations } from './ui';

/**
 * The agent's shop (DOMAIN.md 7, decision 0031), the agent on a phone: an agent no one linked sees
 * that their coordinator must link them; staff link the agent to the dealer on the retailer's
 * tab; the agent adds a web listing to the cart with a quantity and checks out; staff see and
 * approve the web order; the agent reads it in History.
 */

/** This spec's tag: its vendor, models, TACs, invoice, zone and SKUs never meet another spec's. */
const TAG = 115;
const STAMP = Date.now() % 1_000_000;
const WORKER: Staff = {
  userName: `grader.${TAG}`,
  name: `Grader ${TAG}`,
  password: 'steady-bench-115',
};
const DEALER = `Field Dealer ${TAG}-${STAMP}`;
const PHONE = { width: 360, height: 740 };

let sku: string;
let agent: Staff;

test.beforeAll(async ({ playwright }, testInfo) => {
  const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  const admin = await apiAs(request, 'admin', ADMIN_PASSWORD);

  // Three grade-A devices graded, consolidated and put away: sellable stock.
  const catalogue = await seedReceivingCatalogue(admin, TAG);
  const imeis = [1, 2, 3].map((serial) => imeiOf(catalogue.models.main.tac, serial));
  const box = await receiveStagedBox(admin, catalogue, { tag: TAG, imeis });
  await locateGradedStock(request, admin, { catalogue, box, worker: WORKER, tag: TAG, grade: 'A' });

  // Their variant on a live listing of the web channel: what agents buy.
  sku = await listedVariant(admin, catalogue, {
    skuPrefix: `AGT${TAG}`,
    grade: 'A',
    listing: { channel: 'web', qty_pushed: 3, price_cents: 4_500 },
  });

  // The dealer the agent works for: on credit, with a shipping address.
  await admin.post('/retailers', {
    name: DEALER,
    type: 'dealer',
    credit_terms: 'net30',
    credit_limit_cents: 1_000_000,
    addresses: [
      {
        kind: 'shipping',
        line1: '40 elm st',
        city: 'Dallas',
        state: 'tx',
        zip: '75201',
        is_default: true,
      },
    ],
    contacts: [],
  });
  agent = await newAgent(request);
  await request.dispose();
});

test('staff link an agent to a dealer; the agent orders from the shop on a phone', async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);
  await page.setViewportSize(PHONE);
  await signInAsAgent(page, agent);

  // Not linked yet: the shop says who must act.
  await page
    .getByRole('navigation', { name: 'Tasks' })
    .getByRole('button', { name: 'Shop' })
    .click();
  await expect(page).toHaveURL(/\/agent\/shop$/);
  await expect(page.getByText('You are not linked to a dealer yet.')).toBeVisible();
  await expect(page.getByText(/Your coordinator must link you to the dealer/)).toBeVisible();

  // Staff link the agent on the dealer's portal users tab.
  const staffContext = await browser.newContext();
  const staff = await staffContext.newPage();
  await signIn(staff, 'admin', ADMIN_PASSWORD);
  // Two browsers on one server: the staff pages' first loads may take a while.
  await expect(staff.getByRole('heading', { name: /^Welcome, / })).toBeVisible({
    timeout: 15_000,
  });
  await staff.goto('/retailer');
  await searchList(staff, DEALER);
  await rowOf(staff, DEALER).getByRole('link', { name: DEALER }).click();
  const drawer = dialog(staff, DEALER);
  await drawer.getByRole('button', { name: 'Link an agent' }).click();
  const linking = dialog(staff, `Link an agent to ${DEALER}`);
  await pick(staff, linking, 'Field agent', agent.name, `${agent.name} (${agent.userName})`);
  expect(await seriousViolations(staff, '.ant-modal')).toEqual([]);
  await linking.getByRole('button', { name: 'Link agent' }).click();
  await expect(staff.getByText(`${agent.name} orders for ${DEALER} now.`)).toBeVisible();
  await expect(rowOf(drawer, agent.userName)).toContainText('Field agent');
  await closeNotifications(staff);

  // The agent's shop now: the dealer's web listing with its price and what is available.
  await page.reload();
  await expect(page.getByText(`You order on the account of ${DEALER}`)).toBeVisible();
  const shop = page.getByRole('list', { name: 'Shop items' });
  await expect(shop.getByText(`${sku} · $45.00 · 3 available`)).toBeVisible();
  await shop.getByRole('spinbutton', { name: `Quantity of ${sku}` }).fill('2');
  await shop.getByRole('button', { name: `Add ${sku} to the cart` }).click();
  await expect(page.getByRole('button', { name: /^Cart, / })).toHaveAccessibleName('Cart, 2 units');
  await expect(page.getByText(`Total $90.00 for ${DEALER}`)).toBeVisible();
  // Nothing wider than the phone.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    PHONE.width,
  );
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole('button', { name: 'Check out' }).click();
  const placed = page.getByText(/^Order SO-\d+ placed$/);
  await expect(placed).toBeVisible();
  const number = /SO-\d+/.exec((await placed.textContent()) ?? '')![0];
  await expect(page.getByRole('button', { name: /^Cart, / })).toHaveAccessibleName('Cart, 0 units');
  await expect(shop.getByText(`${sku} · $45.00 · 1 available`)).toBeVisible();

  // Staff see it on the web order queue, placed by the agent, and approve it.
  await staff.goto('/dashboard/web-order');
  await expect(staff.getByRole('heading', { name: 'Web orders', level: 1 })).toBeVisible({
    timeout: 30_000,
  });
  const row = rowOf(staff, number);
  await expect(row).toContainText(DEALER);
  await expect(row).toContainText(`by ${agent.name}`);
  await row.getByRole('button', { name: `Approve ${number}` }).click();
  await expect(staff.getByText(`Order ${number} is approved: ready to fulfil.`)).toBeVisible();
  await staffContext.close();

  // The agent reads it in History: number, items, total and state, and what happened to it.
  await page.getByRole('button', { name: 'Your orders' }).click();
  await expect(page).toHaveURL(/\/agent\/history$/);
  const order = page.getByTestId('history-order').filter({ hasText: number });
  await expect(order).toContainText('ready');
  await expect(order).toContainText('$90.00');
  await expect(order).toContainText('2 × ');
  await order.getByRole('button', { name: `Details of ${number}` }).click();
  const detail = dialog(page, `Order ${number}`);
  await expect(detail.getByRole('list', { name: 'Order lines' })).toContainText(
    `(${sku}) at $45.00`,
  );
  await expect(detail.getByTestId('order-step').filter({ hasText: 'Approved' })).toHaveCount(1);
  expect(await seriousViolations(page)).toEqual([]);
});
