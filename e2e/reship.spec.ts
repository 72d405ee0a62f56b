import type {
  CancelRequest,
  LabelBatch,
  LabelStepAnswer,
  PickOrder,
  Reship,
  ShipScanAnswer,
} from '@inventory/contract';
import { expect, test, type Page } from '@playwright/test';
import { apiAs, createStaff, iccidOf, readyLifelineOrders, type Staff } from './api';
import { ADMIN_PASSWORD, signIn } from './support';
import { chooseOption, closeNotifications, dialog, rowOf, seriousViolations } from './ui';

/**
 * Exceptions on orders as customer support and the fulfilment manager work them: two Lifeline
 * orders picked and labelled through the API; one is cancelled while labelled (its label voided,
 * its phone back in stock), the other is scanned out and comes back undeliverable (the carrier's
 * tracking file), is reshipped to a corrected address, and its child order shows on the reship
 * orders page, in the fulfilment pipeline once assigned, and in the reship statistics.
 */

const TAG = 211;
const FIRST_SIM = TAG * 1_000_000;
const staff = (role: string, first: string): Staff => ({
  userName: `${role}.${TAG}`,
  name: `${first} ${TAG}`,
  password: `steady-${role}-${TAG}`,
});
const GRADER = staff('grader', 'Grader');
const PICKER = staff('fw', 'Picker');
const CLERK = staff('sh', 'Clerk');
const SUPPORT = staff('cs', 'Support');
const MANAGER = staff('fm', 'Manager');

type Labelled = { orderId: number; number: string; tracking: string; packageId: number };
let cancelled: Labelled;
let returned: Labelled;
let pickerId: number;
let imeiOfCancelled: string;

test.beforeAll(async ({ playwright }, testInfo) => {
  const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  const admin = await apiAs(request, 'admin', ADMIN_PASSWORD);
  // Four phones for two orders: the reship's child order finds one in stock.
  const ready = await readyLifelineOrders(request, admin, {
    tag: TAG,
    grader: GRADER,
    skuPrefix: `RSH${TAG}`,
    devices: 4,
    orders: 2,
    firstSim: FIRST_SIM,
  });
  const ids = ready.orders.map((order) => order.id);
  ({ id: pickerId } = await createStaff(request, admin, PICKER, 'Fulfilment Worker'));
  await createStaff(request, admin, CLERK, 'Shipping Clerk');
  await createStaff(request, admin, SUPPORT, 'Customer Support');
  await createStaff(request, admin, MANAGER, 'Fulfilment Manager');
  await admin.post('/fulfilment/assignments', { assignee_id: pickerId, order_ids: ids });
  const picker = await apiAs(request, PICKER.userName, PICKER.password);
  const imeis: string[] = [];
  for (const [n, { number }] of ready.orders.entries()) {
    const order = await picker.get<PickOrder>(`/fulfilment/picks/lookup?number=${number}`);
    imeis.push(order.units[0]!.imei!);
    await picker.post(`/fulfilment/picks/${order.id}/scans`, { code: order.units[0]!.imei! });
    await picker.post(`/fulfilment/picks/${order.id}/scans`, { code: iccidOf(FIRST_SIM + n) });
  }
  const clerk = await apiAs(request, CLERK.userName, CLERK.password);
  const batch = await clerk.post<LabelBatch>('/label-batches', { format: 'pdf' });
  const labelled = await clerk.post<LabelStepAnswer>(`/label-batches/${batch.id}/labels`, {
    order_ids: ids,
  });
  const [first, second] = labelled.results.map(({ package: parcel }) => ({
    orderId: parcel!.order_id,
    number: parcel!.order_number,
    tracking: parcel!.tracking_number,
    packageId: parcel!.id,
  })) as [Labelled, Labelled];
  cancelled = first;
  returned = second;
  imeiOfCancelled = imeis[ready.orders.findIndex((order) => order.id === first.orderId)]!;
  const scan = await clerk.post<ShipScanAnswer>('/ship-scans', {
    code: returned.tracking,
    station: 'Dock 1',
  });
  expect(scan.result).toBe('shipped');
  const csv = [
    'Tracking number,Status,Occurred at,Location,Description',
    `${returned.tracking},Return to Sender,${new Date(Date.now() - 3_600_000).toISOString()},"HOUSTON, TX 77002",Undeliverable`,
  ].join('\n');
  const upload = await clerk.upload<{ id: number }>(
    '/tracking-events/imports',
    `reship-${TAG}.csv`,
    csv,
  );
  await clerk.post(`/tracking-events/imports/${upload.id}/check`, {});
  await clerk.post(`/tracking-events/imports/${upload.id}/commit`, {});
  await request.dispose();
});

async function openAs(page: Page, who: Staff, path: string, heading: string) {
  await signIn(page, who.userName, who.password);
  await expect(page.getByRole('heading', { name: /^Welcome, / })).toBeVisible();
  await page.goto(path);
  await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
}

test('a labelled order is cancelled; a returned one is reshipped to a corrected address', async ({
  page,
  browser,
  playwright,
}, testInfo) => {
  test.setTimeout(180_000);
  const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  const admin = await apiAs(request, 'admin', ADMIN_PASSWORD);

  // Support asks for the labelled order's cancellation.
  await openAs(page, SUPPORT, '/shipment-management/cancel', 'Cancellations');
  await page.getByRole('button', { name: 'Request cancellation' }).click();
  const asking = dialog(page, 'Request a cancellation');
  await asking.getByLabel('Order number').fill(cancelled.number);
  await asking.getByLabel('Reason').fill('The subscriber moved away');
  expect(await seriousViolations(page, '.ant-drawer')).toEqual([]);
  await asking.getByRole('button', { name: 'Request' }).click();
  await expect(
    page.getByText(`The cancellation of ${cancelled.number} is requested.`),
  ).toBeVisible();
  await expect(rowOf(page, cancelled.number)).toContainText('Labelled');
  await expect(rowOf(page, cancelled.number)).toContainText('requested');
  expect(await seriousViolations(page)).toEqual([]);

  // The manager approves it: the label is voided and the phone is back in stock.
  const managerPage = await (await browser.newContext()).newPage();
  await openAs(managerPage, MANAGER, '/shipment-management/cancel', 'Cancellations');
  await rowOf(managerPage, cancelled.number)
    .getByRole('button', { name: `Approve the cancellation of ${cancelled.number}` })
    .click();
  await expect(
    managerPage.getByText(`Order ${cancelled.number}: the request is cancelled.`),
  ).toBeVisible();
  await managerPage.getByText('Closed', { exact: true }).click();
  await expect(rowOf(managerPage, cancelled.number)).toContainText(cancelled.tracking);
  const requests = await admin.get<{ requests: CancelRequest[] }>('/cancel-requests?view=closed');
  const done = requests.requests.find((row) => row.order_number === cancelled.number)!;
  expect(done.events.map((event) => event.type)).toContain('label_voided');
  const found = await admin.get<{ card: { device: { status: string } } | null }>(
    `/devices/lookup?code=${imeiOfCancelled}`,
  );
  expect(found.card?.device.status).toBe('in_stock');

  // Support asks for the returned order's reship: the parcel was undeliverable.
  await page.goto('/shipment-management/reship');
  await expect(page.getByRole('heading', { name: 'Reship requests', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Request reship' }).click();
  const reshipping = dialog(page, 'Request a reship');
  await reshipping.getByLabel('Order number').fill(returned.number);
  await expect(reshipping.getByRole('alert')).toContainText('enter the corrected address');
  await reshipping.getByRole('combobox', { name: 'Who bears the cost' }).click();
  await chooseOption(page, 'Shipping carrier');
  await reshipping.getByLabel('Ship to (name)').fill(`Jane Reship ${TAG}`);
  await reshipping.getByLabel('Address line 1').fill('14 Oak Ave');
  await reshipping.getByLabel('City').fill('Houston');
  await reshipping.getByLabel('State (2 letters)').fill('TX');
  await reshipping.getByLabel('ZIP').fill('77002');
  expect(await seriousViolations(page, '.ant-drawer')).toEqual([]);
  await reshipping.getByRole('button', { name: 'Request' }).click();
  await expect(page.getByText(`The reship of ${returned.number} is requested.`)).toBeVisible();
  await expect(rowOf(page, returned.number)).toContainText('New address: HOUSTON, TX');
  expect(await seriousViolations(page)).toEqual([]);
  await closeNotifications(page);
  await rowOf(page, returned.number)
    .getByRole('button', { name: `Approve the reship of ${returned.number}` })
    .click();
  await expect(page.getByText(new RegExp(`^${returned.number} ships again as SO-`))).toBeVisible();
  const reships = await admin.get<{ reships: Reship[] }>('/reships?view=closed');
  const reship = reships.reships.find((row) => row.original_order_number === returned.number)!;
  const child = reship.new_order_number!;
  expect(reship.original_order_status).toBe('reshipped');

  // The child order on the reship orders page, with its parent.
  await page.goto('/shipment-management/reship/order');
  await expect(page.getByRole('heading', { name: 'Reship orders', level: 1 })).toBeVisible();
  await expect(rowOf(page, child)).toContainText(returned.number);
  await expect(rowOf(page, child)).toContainText('ready');
  expect(await seriousViolations(page)).toEqual([]);

  // It goes through the normal queues: assigned, it is in the fulfilment pipeline.
  const manager = await apiAs(request, MANAGER.userName, MANAGER.password);
  await manager.post('/fulfilment/assignments', {
    assignee_id: pickerId,
    order_ids: [reship.new_order_id],
  });
  await managerPage.goto(`/fulfill/order?assignee_id=${pickerId}`);
  await expect(
    managerPage.getByRole('heading', { name: 'Fulfilment orders', level: 1 }),
  ).toBeVisible();
  await expect(rowOf(managerPage, child)).toContainText('assigned');

  // The statistics count it.
  await managerPage.goto('/shipment-management/reship-statistics');
  await expect(
    managerPage.getByRole('heading', { name: 'Reship statistics', level: 1 }),
  ).toBeVisible();
  await expect(managerPage.getByTestId('reship-totals')).toContainText(/: [1-9]\d* reships of/);
  await expect(rowOf(managerPage, 'Returned to sender')).toBeVisible();
  await expect(rowOf(managerPage, 'Shipping carrier')).toBeVisible();
  expect(await seriousViolations(managerPage)).toEqual([]);
  await managerPage.close();
  await request.dispose();
});
