import { expect, test } from '@playwright/test';
import { apiAs, createStaff, iccidOf, readyLifelineOrders, type Staff } from './api';
import { ADMIN_PASSWORD, signIn } from './support';
import { chooseOption, closeNotifications, pick, rowOf, seriousViolations, wedgeScan } from './ui';

/**
 * A SIM-only replacement (DOMAIN.md 4.14 /fulfill/support-order, decision 0055): customer support
 * sends a subscriber a SIM kit, which becomes their client carrier's SIM kit without anyone making
 * the product; a manager assigns the order, and the picker fulfils it at the station by scanning
 * an ICCID of that carrier, no device.
 */

const TAG = 243;
const staff = (role: string, first: string): Staff => ({
  userName: `${role}.${TAG}`,
  name: `${first} ${TAG}`,
  password: `steady-${role}-${TAG}`,
});
const GRADER = staff('grader', 'Grader');
const MANAGER = staff('fm', 'Manager');
const PICKER = staff('fw', 'Picker');
const SUPPORT = staff('cs', 'Support');
const ENROLMENT = `ENR-${TAG}-1`;
const FIRST_SIM = TAG * 1_000_000;

test.beforeAll(async ({ playwright }, testInfo) => {
  test.setTimeout(180_000);
  const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  const admin = await apiAs(request, 'admin', ADMIN_PASSWORD);
  // A subscriber of a client carrier (their first order, with a phone), and the carrier's SIMs.
  await readyLifelineOrders(request, admin, {
    tag: TAG,
    grader: GRADER,
    skuPrefix: `SIMR${TAG}`,
    devices: 1,
    orders: 1,
    firstSim: FIRST_SIM,
  });
  await createStaff(request, admin, MANAGER, 'Fulfilment Manager');
  await createStaff(request, admin, PICKER, 'Fulfilment Worker');
  await createStaff(request, admin, SUPPORT, 'Customer Support');
  await request.dispose();
});

test('support sends a SIM-only replacement, a manager assigns it, the station picks it by ICCID', async ({
  page,
  browser,
  playwright,
}, testInfo) => {
  test.setTimeout(180_000);

  // Customer support: the subscriber, the SIM kit and the reason; to the queue at once.
  const support = await browser.newContext({ baseURL: testInfo.project.use.baseURL });
  const desk = await support.newPage();
  await signIn(desk, SUPPORT.userName, SUPPORT.password);
  await expect(desk.getByRole('heading', { name: /^Welcome, / })).toBeVisible();
  await desk.goto('/fulfill/support-order');
  await expect(desk.getByRole('heading', { name: 'Support orders', level: 1 })).toBeVisible();
  await desk.getByRole('combobox', { name: 'Subscriber' }).fill(ENROLMENT);
  await desk
    .locator('.ant-select-dropdown:visible .ant-select-item-option')
    .filter({ hasText: ENROLMENT })
    .click();
  await desk.getByRole('combobox', { name: 'Item 1' }).fill('SIM kit');
  await chooseOption(desk, "SIM kit · the subscriber's carrier");
  await desk.getByRole('combobox', { name: 'Reason' }).click();
  await chooseOption(desk, 'SIM-only replacement');
  await desk.getByRole('button', { name: 'Submit to the queue' }).click();
  const sent = desk.getByText(/^SO-\d+ is in the support queue\.$/);
  await expect(sent).toBeVisible();
  const number = (await sent.textContent())!.split(' ')[0]!;
  // The carrier's own SIM kit, put in the catalogue by this first order.
  await expect(rowOf(desk, number)).toContainText(`1 × SIM-CARRIER-${TAG}`);
  await expect(rowOf(desk, number)).toContainText('SIM-only replacement');
  await support.close();

  // The manager assigns it to the picker: no device to reserve.
  await signIn(page, MANAGER.userName, MANAGER.password);
  await expect(page.getByRole('heading', { name: /^Welcome, / })).toBeVisible();
  await page.goto('/fulfill/assignment');
  await expect(page.getByRole('heading', { name: 'Assignment', level: 1 })).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search' }).fill(number);
  await page.getByRole('searchbox', { name: 'Search' }).press('Enter');
  await page.getByRole('checkbox', { name: `Choose ${number}` }).check();
  await pick(page, page.locator('main'), 'Worker', PICKER.name, `${PICKER.name} (0 open, 0 units)`);
  await page.getByRole('button', { name: 'Assign 1 chosen order' }).click();
  await expect(
    page.getByText(`1 order assigned to ${PICKER.name} (0 units reserved).`),
  ).toBeVisible();
  await closeNotifications(page);

  // The picker scans the order, then an ICCID of the subscriber's carrier: fulfilled.
  const station = await browser.newContext({
    baseURL: testInfo.project.use.baseURL,
    reducedMotion: 'reduce',
  });
  const bench = await station.newPage();
  await signIn(bench, PICKER.userName, PICKER.password);
  await expect(bench.getByRole('heading', { name: /^Welcome, / })).toBeVisible();
  await bench.goto('/fulfill/need-to-fulfill');
  await expect(bench.getByRole('textbox', { name: 'Scan an order, IMEI or ICCID' })).toBeFocused();
  await wedgeScan(bench, number);
  const picking = bench.getByRole('region', { name: `Pick ${number}` });
  await expect(picking).toBeVisible();
  await expect(picking).toContainText('SIM only');
  expect(await seriousViolations(bench)).toEqual([]);
  const iccid = iccidOf(FIRST_SIM);
  await wedgeScan(bench, iccid);
  await expect(bench.getByTestId('scan-line').first()).toHaveAttribute('data-result', 'picked');
  await expect(bench.getByTestId('pick-order-status')).toHaveText('fulfilled');
  await expect(picking).toContainText(iccid);
  await station.close();

  // The SIM is the order's now.
  const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  const admin = await apiAs(request, 'admin', ADMIN_PASSWORD);
  const sentOrders = await admin.get<{ order_id: number; number: string }[]>('/support-orders');
  const { order_id: orderId } = sentOrders.find((row) => row.number === number)!;
  const order = await admin.get<{ status: string; units: { iccid: string | null }[] }>(
    `/orders/${orderId}/detail`,
  );
  await request.dispose();
  expect(order.status).toBe('fulfilled');
  expect(order.units.map((unit) => unit.iccid)).toEqual([iccid]);
});
