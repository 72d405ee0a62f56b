import type { PickOrder } from '@inventory/contract';
import { expect, test } from '@playwright/test';
import { apiAs, createStaff, readyLifelineOrders, type Staff } from './api';
import { ADMIN_PASSWORD, signIn } from './support';
import {
  chooseOption,
  closeNotifications,
  dialog,
  rowOf,
  seriousViolations,
  wedgeScan,
} from './ui';

/**
 * Prepaid orders as the staff work them (DOMAIN.md 4.14 /fulfill/prepaid): the carrier's system
 * sends a prepaid order whose card is only authorised; the prepaid station shows its payment, the
 * plan bought and who activates the line, and refuses the pick. Customer support writes down the
 * carrier's capture on the order; the station then picks it.
 */

const TAG = 240;
const staff = (role: string, first: string): Staff => ({
  userName: `${role}.${TAG}`,
  name: `${first} ${TAG}`,
  password: `steady-${role}-${TAG}`,
});
const GRADER = staff('grader', 'Grader');
const PICKER = staff('fw', 'Picker');
const SUPPORT = staff('cs', 'Support');
const PLAN = `Prepaid Unlimited ${TAG}`;

let order = { id: 0, number: '' };

test.beforeAll(async ({ playwright }, testInfo) => {
  test.setTimeout(180_000);
  const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  const admin = await apiAs(request, 'admin', ADMIN_PASSWORD);
  // Stock of a carrier listing and a client carrier, no orders yet.
  const ready = await readyLifelineOrders(request, admin, {
    tag: TAG,
    grader: GRADER,
    skuPrefix: `PRE${TAG}`,
    devices: 2,
    orders: 0,
    firstSim: TAG * 1_000_000,
  });
  const models = await admin.get<{ items: { id: number; name: string }[] }>(
    `/models?search=${encodeURIComponent(`Phone ${TAG}`)}`,
  );
  const model = models.items.find((candidate) => candidate.name === `Phone ${TAG}`)!;
  // The carrier's prepaid plan for the model, from today: plan prices count days in UTC.
  const today = new Date().toISOString().slice(0, 10);
  await admin.post('/gov-plan-prices', {
    carrier_id: ready.carrier.id,
    programme: 'prepaid',
    model_id: model.id,
    device_price_cents: 2999,
    plan_name: PLAN,
    effective_from: today,
  });
  const { secret } = await admin.post<{ secret: string }>('/client-carrier-keys', {
    client_carrier_id: ready.carrier.id,
    name: `Checkout ${TAG}`,
  });
  // The carrier's checkout sends the order with the card authorised, not yet captured.
  const sent = await request.post('/api/v1/carrier/orders', {
    headers: { 'x-api-key': secret, 'idempotency-key': `prepaid-${TAG}` },
    data: {
      external_ref: `PRE-${TAG}`,
      program: 'prepaid',
      payment_status: 'authorized',
      subscriber: {
        external_id: `P${TAG}`,
        first_name: 'Rosa',
        last_name: 'Diaz',
        service_address: { line1: `${TAG} Oak St`, city: 'Houston', state: 'TX', zip: '77002' },
      },
      items: [{ sku: ready.sku, qty: 1 }],
    },
  });
  expect(sent.status(), await sent.text()).toBe(201);
  const { id: pickerId } = await createStaff(request, admin, PICKER, 'Fulfilment Worker');
  await createStaff(request, admin, SUPPORT, 'Customer Support');
  const assigned = await admin.post<{ assigned: { id: number; number: string }[] }>(
    '/fulfilment/auto-assignments',
    { assignee_id: pickerId, count: 1, fulfilment_type: 'prepaid', model_id: model.id },
  );
  expect(assigned.assigned).toHaveLength(1);
  order = assigned.assigned[0]!;
  await request.dispose();
});

test('a prepaid order is refused at the station until its payment is captured, then picked', async ({
  page,
  browser,
  playwright,
}, testInfo) => {
  test.setTimeout(180_000);
  const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  const picker = await apiAs(request, PICKER.userName, PICKER.password);
  const reserved = await picker.get<PickOrder>(
    `/fulfilment/picks/lookup?number=${order.number}&queue=prepaid`,
  );
  const imei = reserved.units[0]!.imei!;
  await request.dispose();

  // The prepaid queue shows the payment, the plan bought and who activates the line.
  await signIn(page, PICKER.userName, PICKER.password);
  await expect(page.getByRole('heading', { name: /^Welcome, / })).toBeVisible();
  await page.goto('/fulfill/prepaid');
  await expect(page.getByRole('heading', { name: 'Prepaid', level: 1 })).toBeVisible();
  const mine = rowOf(page, order.number);
  await expect(mine.getByTestId('payment-status')).toHaveText('Authorized');
  await expect(mine).toContainText(`${PLAN} · Customer activates`);
  expect(await seriousViolations(page)).toEqual([]);

  // Opened and scanned: the pick is refused, saying why.
  await wedgeScan(page, order.number);
  const picking = page.getByRole('region', { name: `Pick ${order.number}` });
  await expect(picking.getByTestId('payment-status')).toHaveText('Authorized');
  await expect(picking).toContainText(PLAN);
  await expect(picking).toContainText('The payment is authorized, not captured');
  await wedgeScan(page, imei);
  await expect(page.getByTestId('scan-line').first()).toContainText(
    `${order.number}'s payment is authorized, not captured`,
  );
  await expect(picking.getByTestId('picked-count')).toContainText('0');
  expect(await seriousViolations(page)).toEqual([]);

  // Customer support writes down the carrier's capture on the order: on its timeline.
  const supportContext = await browser.newContext();
  const support = await supportContext.newPage();
  await signIn(support, SUPPORT.userName, SUPPORT.password);
  await expect(support.getByRole('heading', { name: /^Welcome, / })).toBeVisible();
  await support.goto(`/order/list?order=${order.id}`);
  const drawer = support.getByRole('dialog', { name: `Order ${order.number}` });
  await expect(drawer.getByTestId('payment-status')).toHaveText('Authorized');
  await expect(drawer).toContainText(PLAN);
  await drawer.getByRole('button', { name: 'Change payment' }).click();
  const change = dialog(support, `Payment of ${order.number}`);
  await change.getByRole('combobox', { name: 'Payment status' }).click();
  await chooseOption(support, 'Captured');
  await change.getByLabel('Reference or note').fill('Captured by the carrier, ref 88123');
  await change.getByRole('button', { name: 'Change payment' }).click();
  await expect(change).toBeHidden();
  await expect(drawer.getByTestId('payment-status')).toHaveText('Captured');
  await expect(
    drawer.getByText(
      'payment changed — authorized → captured, by staff; Captured by the carrier, ref 88123',
    ),
  ).toBeVisible();
  expect(await seriousViolations(support, '.ant-drawer')).toEqual([]);
  await closeNotifications(support);
  await supportContext.close();

  // Back at the station: captured, the unit is picked and the order fulfilled.
  await page.reload();
  await expect(picking.getByTestId('payment-status')).toHaveText('Captured');
  await expect(picking).not.toContainText('not captured');
  await wedgeScan(page, imei);
  await expect(page.locator('[data-testid="scan-line"][data-result="picked"]')).toBeVisible();
  await expect(page.getByTestId('pick-order-status')).toHaveText('fulfilled');
});
