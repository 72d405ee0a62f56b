import type { PickOrder } from '@inventory/contract';
import { expect, test } from '@playwright/test';
import { apiAs, createStaff, iccidOf, readyLifelineOrders, type Staff } from './api';
import { ADMIN_PASSWORD, signIn } from './support';
import { chooseOption, closeNotifications, dialog, pick, rowOf, wedgeScan } from './ui';

/**
 * Fulfilment as the staff work it: the manager assigns a batch of ready Lifeline orders (a device
 * reserved per unit), the worker picks one at the station from the keyboard alone (order number,
 * IMEI, ICCID) and sees it fulfilled, prints its packing slip; the manager pushes another order
 * to the backlog with a problem and releases it from there.
 */

const TAG = 121;
const FIRST_SIM = TAG * 1_000_000;
const staff = (role: string, first: string): Staff => ({
  userName: `${role}.${TAG}`,
  name: `${first} ${TAG}`,
  password: `steady-${role}-${TAG}`,
});
const GRADER = staff('grader', 'Grader');
const MANAGER = staff('fm', 'Manager');
const PICKER = staff('fw', 'Picker');

let orderNumbers: string[] = [];
/** The spec's variant: other specs leave ready orders too, so the batch is this model's. */
let variantSku = '';

test.beforeAll(async ({ playwright }, testInfo) => {
  const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  const admin = await apiAs(request, 'admin', ADMIN_PASSWORD);

  // Three grade-A devices of the spec's model in stock; two Lifeline orders of one unit each,
  // ready, waiting for assignment.
  const ready = await readyLifelineOrders(request, admin, {
    tag: TAG,
    grader: GRADER,
    skuPrefix: `FUL${TAG}`,
    devices: 3,
    orders: 2,
    firstSim: FIRST_SIM,
  });
  variantSku = ready.sku;
  orderNumbers = ready.orders.map((order) => order.number);
  await createStaff(request, admin, MANAGER, 'Fulfilment Manager');
  await createStaff(request, admin, PICKER, 'Fulfilment Worker');
  await request.dispose();
});

test('a batch is assigned, picked at the station by keyboard, fulfilled; a problem goes to the backlog and back', async ({
  page,
  browser,
  playwright,
}, testInfo) => {
  test.setTimeout(180_000);
  const [first, second] = orderNumbers as [string, string];

  // The manager assigns the next two ready orders to the picker.
  await signIn(page, MANAGER.userName, MANAGER.password);
  await expect(page.getByRole('heading', { name: /^Welcome, / })).toBeVisible();
  await page.goto('/fulfill/assignment');
  await expect(page.getByRole('heading', { name: 'Assignment', level: 1 })).toBeVisible();
  await pick(page, page.locator('main'), 'Worker', PICKER.name, `${PICKER.name} (0 open, 0 units)`);
  await page.getByRole('spinbutton', { name: 'Orders in the batch' }).fill('2');
  // A batch of the spec's model (batch picking): other specs' ready orders wait in the queue too.
  await rowOf(page, variantSku)
    .getByRole('button', { name: /^Assign 2 orders of / })
    .click();
  await expect(
    page.getByText(`2 orders assigned to ${PICKER.name} (2 units reserved).`),
  ).toBeVisible();
  await closeNotifications(page);

  // Which device the first order holds, as the station will show it.
  const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  const picker = await apiAs(request, PICKER.userName, PICKER.password);
  const reserved = await picker.get<PickOrder>(`/fulfilment/picks/lookup?number=${first}`);
  const imei = reserved.units[0]!.imei!;
  await request.dispose();

  // The picker, at a station of their own, from the keyboard alone: order number, IMEI, ICCID.
  const station = await browser.newContext({
    baseURL: testInfo.project.use.baseURL,
    reducedMotion: 'reduce',
  });
  const bench = await station.newPage();
  await signIn(bench, PICKER.userName, PICKER.password);
  await expect(bench.getByRole('heading', { name: /^Welcome, / })).toBeVisible();
  await bench.goto('/fulfill/need-to-fulfill');
  const scanField = bench.getByRole('textbox', { name: 'Scan an order, IMEI or ICCID' });
  await expect(scanField).toBeFocused();
  const newest = bench.getByTestId('scan-line').first();
  await wedgeScan(bench, first);
  await expect(bench.getByRole('region', { name: `Pick ${first}` })).toBeVisible();
  await expect(bench.getByTestId('picked-count')).toHaveText('0 of 1');
  await wedgeScan(bench, imei);
  await expect(newest).toHaveAttribute('data-result', 'picked');
  await expect(bench.getByTestId('picked-count')).toHaveText('1 of 1');
  await wedgeScan(bench, imei);
  await expect(newest).toHaveAttribute('data-result', 'already_done');
  await wedgeScan(bench, iccidOf(FIRST_SIM));
  await expect(newest).toHaveAttribute('data-result', 'sim_paired');
  await expect(bench.getByTestId('paired-count')).toHaveText('1 of 1');
  await expect(bench.getByTestId('pick-order-status')).toHaveText('fulfilled');
  await expect(scanField).toBeFocused();

  // The packing slip, as a PDF in a new tab, from the keyboard.
  const slip = bench.waitForEvent('popup');
  await bench.getByRole('button', { name: 'Print packing slip' }).press('Enter');
  const tab = await slip;
  await expect(tab).toHaveURL(/\/downloads\//);
  await tab.close();
  await station.close();

  // The manager finds the second order still assigned and pushes it to the backlog: damaged.
  await page.goto('/fulfill/order');
  await expect(page.getByRole('heading', { name: 'Fulfilment orders', level: 1 })).toBeVisible();
  await expect(rowOf(page, first)).toContainText('fulfilled');
  await rowOf(page, second).getByRole('button', { name: 'Push to backlog' }).click();
  const problem = dialog(page, `Push ${second} to the backlog`);
  await problem.getByRole('combobox', { name: 'Problem' }).click();
  await chooseOption(page, 'Damaged unit');
  await problem.getByLabel('Note').fill('Cracked screen');
  await problem.getByRole('button', { name: 'Push to backlog' }).click();
  await expect(page.getByText(`${second} is in the backlog.`)).toBeVisible();
  await closeNotifications(page);

  // In the backlog with its reason; released, it waits for assignment again.
  await page.goto('/fulfill/backlog-order');
  await expect(page.getByRole('heading', { name: 'Backlog', level: 1 })).toBeVisible();
  const held = rowOf(page, second);
  await expect(held).toContainText('Damaged unit');
  await held.getByRole('button', { name: 'Release' }).click();
  await expect(
    page.getByText(`${second} is released: it waits in the assignment queue.`),
  ).toBeVisible();
  await expect(rowOf(page, second)).toHaveCount(0);
  await page.goto('/fulfill/assignment');
  await expect(rowOf(page, second)).toBeVisible();
});
