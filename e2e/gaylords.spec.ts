import type { LabelBatch, LabelStepAnswer, PickOrder } from '@inventory/contract';
import { expect, test } from '@playwright/test';
import { apiAs, createStaff, iccidOf, readyLifelineOrders, type Staff } from './api';
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
 * Outbound gaylords as the shipping clerk works them: two Lifeline orders, picked and labelled
 * through the API, are sorted by keyboard into a USPS Ground Advantage gaylord opened on the page
 * (its label opens to print); a UPS gaylord refuses a USPS parcel. The gaylord is closed with the
 * count typed (a wrong count is refused, saying the count), put on the day's USPS SCAN form (its
 * PDF opens) and marked picked up: both orders are shipped.
 */

const TAG = 151;
const FIRST_SIM = TAG * 1_000_000;
const staff = (role: string, first: string): Staff => ({
  userName: `${role}.${TAG}`,
  name: `${first} ${TAG}`,
  password: `steady-${role}-${TAG}`,
});
const GRADER = staff('grader', 'Grader');
const PICKER = staff('fw', 'Picker');
const CLERK = staff('sh', 'Clerk');

/** The labelled parcels: their order and tracking number. */
let parcels: { id: number; number: string; tracking: string }[] = [];

test.beforeAll(async ({ playwright }, testInfo) => {
  const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  const admin = await apiAs(request, 'admin', ADMIN_PASSWORD);
  const ready = await readyLifelineOrders(request, admin, {
    tag: TAG,
    grader: GRADER,
    skuPrefix: `GLD${TAG}`,
    devices: 2,
    orders: 2,
    firstSim: FIRST_SIM,
  });
  const { id: pickerId } = await createStaff(request, admin, PICKER, 'Fulfilment Worker');
  await createStaff(request, admin, CLERK, 'Shipping Clerk');
  await admin.post('/fulfilment/assignments', {
    assignee_id: pickerId,
    order_ids: ready.orders.map((order) => order.id),
  });
  const picker = await apiAs(request, PICKER.userName, PICKER.password);
  for (const [n, { number }] of ready.orders.entries()) {
    const order = await picker.get<PickOrder>(`/fulfilment/picks/lookup?number=${number}`);
    await picker.post(`/fulfilment/picks/${order.id}/scans`, { code: order.units[0]!.imei! });
    await picker.post(`/fulfilment/picks/${order.id}/scans`, { code: iccidOf(FIRST_SIM + n) });
  }
  // Labelled at the label desk, through the API.
  const clerk = await apiAs(request, CLERK.userName, CLERK.password);
  const batch = await clerk.post<LabelBatch>('/label-batches', { format: 'pdf' });
  const labelled = await clerk.post<LabelStepAnswer>(`/label-batches/${batch.id}/labels`, {
    order_ids: ready.orders.map((order) => order.id),
  });
  parcels = labelled.results.map((result) => ({
    id: result.order_id,
    number: result.order_number!,
    tracking: result.package!.tracking_number,
  }));
  expect(parcels.map((parcel) => parcel.tracking)).toHaveLength(2);
  await request.dispose();
});

test('parcels are sorted into a gaylord by keyboard, closed with their count, manifested and picked up', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const [first, second] = parcels as [(typeof parcels)[0], (typeof parcels)[0]];
  await signIn(page, CLERK.userName, CLERK.password);
  await expect(page.getByRole('heading', { name: /^Welcome, / })).toBeVisible();

  await page.goto('/fulfill/gaylord');
  await expect(page.getByRole('heading', { name: 'Gaylords', level: 1 })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  /** Opens a gaylord for a service: its label opens in a new tab, its station on the page. */
  const openGaylord = async (service: string) => {
    await page.getByRole('button', { name: 'Open a gaylord' }).click();
    const drawer = dialog(page, 'Open a gaylord');
    await drawer.getByRole('combobox', { name: 'Carrier service' }).click();
    await chooseOption(page, service);
    const labelTab = page.waitForEvent('popup');
    await drawer.getByRole('button', { name: 'Open gaylord' }).click();
    const tab = await labelTab;
    await expect(tab).toHaveURL(/\/downloads\//);
    await tab.close();
    await expect(page.getByText(/^Gaylord GL-\d{6} is open for /)).toBeVisible();
    await closeNotifications(page);
    const title = page.getByRole('heading', {
      level: 2,
      name: new RegExp(`^GL-\\d{6} · ${service}$`),
    });
    await expect(title).toBeVisible();
    return /GL-\d{6}/.exec((await title.textContent()) ?? '')![0];
  };

  // A UPS gaylord refuses a USPS parcel, saying where it goes.
  await openGaylord('UPS Next Day Air');
  const scanField = page.getByRole('textbox', { name: /^Scan a parcel into GL-/ });
  await expect(scanField).toBeFocused();
  const newest = page.getByTestId('scan-line').first();
  await wedgeScan(page, first.tracking);
  await expect(newest).toHaveAttribute('data-result', 'wrong_carrier');
  await expect(newest).toContainText('Put it with the USPS parcels');
  await expect(page.getByTestId('gaylord-count')).toHaveText('0');

  // The USPS Ground Advantage gaylord takes both, by keyboard; a repeat changes nothing.
  await page.getByRole('link', { name: 'All gaylords' }).click();
  const code = await openGaylord('USPS Ground Advantage');
  await expect(scanField).toBeFocused();
  await wedgeScan(page, first.tracking);
  await expect(newest).toHaveAttribute('data-result', 'sorted');
  await expect(page.getByTestId('gaylord-count')).toHaveText('1');
  await wedgeScan(page, second.tracking);
  await expect(newest).toHaveAttribute('data-result', 'sorted');
  await expect(page.getByTestId('gaylord-count')).toHaveText('2');
  await wedgeScan(page, second.tracking);
  await expect(newest).toHaveAttribute('data-result', 'already_in_gaylord');
  await expect(page.getByTestId('gaylord-count')).toHaveText('2');
  await expect(scanField).toBeFocused();
  await expect(rowOf(page, first.tracking)).toContainText('in gaylord');
  expect(await seriousViolations(page)).toEqual([]);

  // Closed with the count typed: a wrong count is refused, saying the count.
  await page.getByRole('button', { name: 'Close gaylord' }).click();
  const closing = dialog(page, `Close ${code}`);
  const count = closing.getByRole('spinbutton', { name: 'Parcels counted' });
  await count.fill('3');
  await closing.getByRole('button', { name: 'Close gaylord' }).click();
  await expect(closing.getByText(`Gaylord ${code} holds 2 parcels, not 3`)).toBeVisible();
  await count.fill('2');
  await closing.getByRole('button', { name: 'Close gaylord' }).click();
  await expect(page.getByText(`Gaylord ${code} is closed with 2 parcels.`)).toBeVisible();
  await closeNotifications(page);
  await expect(page.getByTestId('gaylord-status')).toHaveText('closed');

  // On the board: closed, awaiting pickup; the USPS SCAN form opens as a PDF.
  await page.getByRole('link', { name: 'All gaylords' }).click();
  const awaiting = page.getByRole('region', { name: /^Closed, awaiting pickup/ });
  await expect(rowOf(awaiting, code)).toContainText('None yet');
  await page.getByRole('button', { name: /^USPS SCAN form \(1 gaylord waiting\)$/ }).click();
  const forming = dialog(page, 'USPS SCAN form');
  const formTab = page.waitForEvent('popup');
  await forming.getByRole('button', { name: 'Make SCAN form' }).click();
  const tab = await formTab;
  await expect(tab).toHaveURL(/\/downloads\//);
  await tab.close();
  await expect(
    page.getByText(new RegExp(`^${code} on the new SCAN form SF-\\d{6} \\(2 parcels\\)\\.$`)),
  ).toBeVisible();
  await closeNotifications(page);
  await expect(rowOf(awaiting, code)).toContainText(/SF-\d{6}/);

  // Picked up: the parcels ship.
  await rowOf(awaiting, code)
    .getByRole('button', { name: `Picked up ${code}` })
    .click();
  await page.getByRole('tooltip').getByRole('button', { name: 'Picked up' }).click();
  await expect(page.getByText(`Gaylord ${code} is picked up: its parcels shipped.`)).toBeVisible();
  const today = page.getByRole('region', { name: /^Picked up today/ });
  await expect(rowOf(today, code)).toBeVisible();
  const admin = await apiAs(request, 'admin', ADMIN_PASSWORD);
  for (const parcel of parcels) {
    const order = await admin.get<{ status: string }>(`/orders/${parcel.id}/detail`);
    expect(order.status).toBe('shipped');
  }
});
