import { expect, test, type PlaywrightWorkerArgs } from '@playwright/test';
import {
  apiAs,
  createClientCarrier,
  createStaff,
  imeiOf,
  lifelineOrder,
  listedGrades,
  locateGradedStock,
  receiveStagedBox,
  seedReceivingCatalogue,
  type Staff,
} from './api';
import { ADMIN_PASSWORD, signIn } from './support';
import { chooseOption, closeNotifications, rowOf } from './ui';

/**
 * Substitutions and support orders (DOMAIN.md 4.14): a Lifeline order of a grade B phone without
 * stock is substituted by the fulfilment manager with the grade A phone the carrier's rule allows,
 * and is ready; customer support sends the subscriber a charger with a reason, which goes to the
 * support queue at once, and a goodwill phone, which waits for a manager's approval.
 */

const TAG = 193;
const staff = (role: string, first: string): Staff => ({
  userName: `${role}.${TAG}`,
  name: `${first} ${TAG}`,
  password: `steady-${role}-${TAG}`,
});
const GRADER = staff('grader', 'Grader');
const MANAGER = staff('fm', 'Manager');
const SUPPORT = staff('cs', 'Support');
const ENROLMENT = `ENR-${TAG}-1`;
const OTHER_ENROLMENT = `ENR-${TAG}-2`;
const CHARGER = `CHG-${TAG}`;

let orderNumber = '';
let gradeA = '';
let gradeB = '';

test.beforeAll(async ({ playwright }, testInfo) => {
  const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  const admin = await apiAs(request, 'admin', ADMIN_PASSWORD);

  // Two grade-A phones in stock; the product sells grade A and grade B, B with none in stock.
  const catalogue = await seedReceivingCatalogue(admin, TAG);
  const imeis = [1, 2].map((n) => imeiOf(catalogue.models.main.tac, n));
  const box = await receiveStagedBox(admin, catalogue, { tag: TAG, imeis });
  await locateGradedStock(request, admin, { catalogue, box, worker: GRADER, tag: TAG, grade: 'A' });
  const listed = await listedGrades(admin, catalogue, {
    skuPrefix: `SUB${TAG}`,
    grades: ['A', 'B'],
    listing: { channel: 'carrier', qty_pushed: 5, price_cents: 0, allow_backorder: true },
  });
  gradeA = listed.A!.sku;
  gradeB = listed.B!.sku;

  // The carrier's Lifeline rule, and a subscriber's order of grade B: on hold, no stock.
  const carrier = await createClientCarrier(admin, `Carrier ${TAG}`);
  await admin.post('/substitution-rules', { client_carrier_id: carrier.id, program: 'lifeline' });
  const ofGradeB = { tag: TAG, carrierId: carrier.id, listingId: listed.B!.listingId };
  const order = await lifelineOrder(admin, { ...ofGradeB, n: 1 });
  // Another subscriber's, whom support sends a goodwill phone.
  await lifelineOrder(admin, { ...ofGradeB, n: 2 });
  expect(order).toMatchObject({ status: 'on_hold', hold_reason: 'no_stock' });
  orderNumber = order.number;

  await admin.post('/accessories', { sku: CHARGER, name: `Charger ${TAG}`, kind: 'charger' });
  await createStaff(request, admin, MANAGER, 'Fulfilment Manager');
  await createStaff(request, admin, SUPPORT, 'Customer Support');
  await request.dispose();
});

/** The API as the administrator, for checking what the page did; disposed by the caller. */
async function adminApi(
  playwright: PlaywrightWorkerArgs['playwright'],
  baseURL: string | undefined,
) {
  const request = await playwright.request.newContext({ baseURL });
  return { request, admin: await apiAs(request, 'admin', ADMIN_PASSWORD) };
}

test('a manager substitutes a no-stock order with a variant the rule allows: it is ready', async ({
  page,
  playwright,
}, testInfo) => {
  await signIn(page, MANAGER.userName, MANAGER.password);
  await expect(page.getByRole('heading', { name: /^Welcome, / })).toBeVisible();
  await page.goto('/fulfill/substitute');
  await expect(page.getByRole('heading', { name: 'Substitutions', level: 1 })).toBeVisible();
  const row = rowOf(page, orderNumber);
  await expect(row).toContainText(gradeB);
  await expect(row).toContainText(`${gradeA} · 2 in stock · $0.00`);
  await row.getByRole('checkbox', { name: `Choose ${orderNumber} ${gradeB}` }).check();
  await page.getByRole('combobox', { name: 'Substitute' }).click();
  await chooseOption(page, `${gradeA} · 2 in stock · $0.00`);
  await page.getByRole('button', { name: 'Substitute now' }).click();
  await expect(
    page.getByText(`1 order substituted and ready: ${orderNumber}`, { exact: false }),
  ).toBeVisible();
  await expect(rowOf(page, orderNumber)).toHaveCount(0);

  const { request, admin } = await adminApi(playwright, testInfo.project.use.baseURL);
  const found = await admin.get<{ items: { status: string; items_text: string }[] }>(
    `/orders?search=${orderNumber}`,
  );
  await request.dispose();
  expect(found.items[0]).toMatchObject({ status: 'ready', items_text: `1 × ${gradeA}` });
});

test('support sends a charger to the support queue at once, and a phone waits for approval', async ({
  page,
  playwright,
}, testInfo) => {
  await signIn(page, SUPPORT.userName, SUPPORT.password);
  await expect(page.getByRole('heading', { name: /^Welcome, / })).toBeVisible();
  await page.goto('/fulfill/support-order');
  await expect(page.getByRole('heading', { name: 'Support orders', level: 1 })).toBeVisible();

  const chooseSubscriber = async (enrolment: string) => {
    await page.getByRole('combobox', { name: 'Subscriber' }).fill(enrolment);
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option')
      .filter({ hasText: enrolment })
      .click();
  };
  const chooseItem = async (search: string, text: string | RegExp) => {
    await page.getByRole('combobox', { name: 'Item 1' }).fill(search);
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option')
      .filter({ hasText: text })
      .click();
  };
  const chooseReason = async (reason: string) => {
    await page.getByRole('combobox', { name: 'Reason' }).click();
    await chooseOption(page, reason);
  };

  // A charger, with its reason: straight to the queue.
  await chooseSubscriber(ENROLMENT);
  await chooseItem(CHARGER, CHARGER);
  await chooseReason('Defective charger or accessory');
  await page.getByRole('button', { name: 'Submit to the queue' }).click();
  const charger = page.getByText(/^SO-\d+ is in the support queue\.$/);
  await expect(charger).toBeVisible();
  const chargerOrder = (await charger.textContent())!.split(' ')[0]!;
  await expect(rowOf(page, chargerOrder)).toContainText('ready');
  await expect(rowOf(page, chargerOrder)).toContainText('Defective charger or accessory');
  const { request, admin } = await adminApi(playwright, testInfo.project.use.baseURL);
  const queue = await admin.get<{ items: { number: string }[] }>(
    '/fulfilment-ready-orders?fulfilment_type=support&limit=200',
  );
  await request.dispose();
  expect(queue.items.map((order) => order.number)).toContain(chargerOrder);

  // The phone the first subscriber's order now ships, again within 30 days: refused.
  await chooseSubscriber(ENROLMENT);
  // The search finds other phones of the lane's catalogue too: this one, a device to approve.
  await chooseItem(gradeA, new RegExp(`^${gradeA} · .*\\(device: needs approval\\)`));
  await chooseReason('Goodwill');
  await page.getByRole('button', { name: 'Submit to the queue' }).click();
  await expect(
    page.getByText(/had the same item within 30 days: .* A manager may override\./),
  ).toBeVisible();
  await closeNotifications(page);

  // A goodwill phone for another subscriber: it waits for a manager's approval.
  await chooseSubscriber(OTHER_ENROLMENT);
  await page.getByRole('button', { name: 'Submit to the queue' }).click();
  const phone = page.getByText(/^SO-\d+ waits for a manager's approval \(a device\)\.$/);
  await expect(phone).toBeVisible();
  const phoneOrder = (await phone.textContent())!.split(' ')[0]!;
  await expect(rowOf(page, phoneOrder).first()).toContainText('awaiting approval');
});
