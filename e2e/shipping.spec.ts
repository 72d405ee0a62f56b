import type { PickOrder } from '@inventory/contract';
import { expect, test } from '@playwright/test';
import { apiAs, createStaff, iccidOf, readyLifelineOrders, type Staff } from './api';
import { ADMIN_PASSWORD, signIn } from './support';
import { closeNotifications, rowOf, wedgeScan } from './ui';

/**
 * The outbound path's second half as the shipping clerk works it: two Lifeline orders, picked
 * through the fulfilment API, get their labels in one batch (the PDF downloaded), then leave at
 * the dock: one checked by scanning its device, the other shipped by scanning the parcel twice; a
 * repeat scan is "already shipped". Between the two the clerk closes the dock's day, which refuses
 * the second parcel until a manager reopens it. The packages list shows both scanned out.
 */

const TAG = 131;
const FIRST_SIM = TAG * 1_000_000;
const staff = (role: string, first: string): Staff => ({
  userName: `${role}.${TAG}`,
  name: `${first} ${TAG}`,
  password: `steady-${role}-${TAG}`,
});
const GRADER = staff('grader', 'Grader');
const PICKER = staff('fw', 'Picker');
const CLERK = staff('sh', 'Clerk');
const MANAGER = staff('fm', 'Manager');

/** The orders, fulfilled, with the IMEI each holds. */
let fulfilled: { number: string; imei: string }[] = [];

test.beforeAll(async ({ playwright }, testInfo) => {
  const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  const admin = await apiAs(request, 'admin', ADMIN_PASSWORD);

  const ready = await readyLifelineOrders(request, admin, {
    tag: TAG,
    grader: GRADER,
    skuPrefix: `SHP${TAG}`,
    devices: 2,
    orders: 2,
    firstSim: FIRST_SIM,
  });
  const numbers = ready.orders.map((order) => order.number);
  const ids = ready.orders.map((order) => order.id);

  // Assigned to the picker and picked (device, then SIM) through the fulfilment API.
  const { id: pickerId } = await createStaff(request, admin, PICKER, 'Fulfilment Worker');
  await createStaff(request, admin, CLERK, 'Shipping Clerk');
  await createStaff(request, admin, MANAGER, 'Fulfilment Manager');
  const assigned = await admin.post<{ assigned: { id: number; number: string }[] }>(
    '/fulfilment/assignments',
    { assignee_id: pickerId, order_ids: ids },
  );
  expect(assigned.assigned).toHaveLength(2);
  const picker = await apiAs(request, PICKER.userName, PICKER.password);
  fulfilled = [];
  for (const [n, number] of numbers.entries()) {
    const order = await picker.get<PickOrder>(`/fulfilment/picks/lookup?number=${number}`);
    const imei = order.units[0]!.imei!;
    await picker.post(`/fulfilment/picks/${order.id}/scans`, { code: imei });
    const sim = await picker.post<{ order: PickOrder }>(`/fulfilment/picks/${order.id}/scans`, {
      code: iccidOf(FIRST_SIM + n),
    });
    expect(sim.order.status).toBe('fulfilled');
    fulfilled.push({ number, imei });
  }
  await request.dispose();
});

test('labels are created in a batch and downloaded as a PDF; parcels are scanned out at the dock', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const [first, second] = fulfilled as [
    { number: string; imei: string },
    { number: string; imei: string },
  ];
  await signIn(page, CLERK.userName, CLERK.password);
  await expect(page.getByRole('heading', { name: /^Welcome, / })).toBeVisible();

  // The label desk: both orders wait under USPS Ground Advantage; one batch labels them.
  await page.goto('/fulfill/print-label');
  await expect(page.getByRole('heading', { name: 'Print labels', level: 1 })).toBeVisible();
  const ground = page.getByRole('region', { name: 'USPS Ground Advantage' });
  for (const { number } of fulfilled) {
    await ground.getByRole('checkbox', { name: `Choose order ${number}` }).check();
  }
  await page.getByRole('button', { name: 'Create 2 labels' }).click();
  await expect(page.getByText(/^2 labels created in batch \d+\.$/)).toBeVisible();
  await closeNotifications(page);
  const batch = page.getByRole('region', { name: /^Batch \d+$/ });
  const trackingOf = async (number: string) => {
    const row = rowOf(batch, number);
    await expect(row.getByTestId('label-result')).toHaveText('Label created');
    return /9\d{21}/.exec((await row.textContent()) ?? '')![0];
  };
  const firstTracking = await trackingOf(first.number);
  const secondTracking = await trackingOf(second.number);
  await expect(rowOf(page, first.number)).toHaveCount(1);

  // The batch as one PDF.
  const downloading = page.waitForEvent('download');
  await batch.getByRole('button', { name: 'Download labels (PDF)' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^labels-batch-\d+\.pdf$/);
  const { readFile } = await import('node:fs/promises');
  const pdf = await readFile((await download.path())!);
  expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');

  // The dock, from the keyboard: the first parcel checked by its device.
  await page.goto('/fulfill/scan-to-ship');
  const scanField = page.getByRole('textbox', { name: 'Scan a parcel or a device' });
  await expect(scanField).toBeFocused();
  // The count once read (a dash until then): other specs of the lane ship parcels today too.
  await expect(page.getByTestId('shipped-today')).toHaveText(/^\d+$/);
  const today = Number(await page.getByTestId('shipped-today').textContent());
  const newest = page.getByTestId('scan-line').first();
  await wedgeScan(page, firstTracking);
  await expect(newest).toHaveAttribute('data-result', 'parcel');
  await expect(page.getByTestId('parcel')).toContainText(first.imei);
  await wedgeScan(page, first.imei);
  await expect(newest).toHaveAttribute('data-result', 'shipped');
  await expect(page.getByTestId('shipped-today')).toHaveText(String(today + 1));
  // A repeat scan of a parcel shipped changes nothing.
  await wedgeScan(page, firstTracking);
  await expect(newest).toHaveAttribute('data-result', 'already_shipped');

  // The end of the day: closed, the second parcel stays (the lane's other parcels with it).
  const endOfDay = page.getByRole('region', { name: /^End of day / });
  await page.getByRole('button', { name: 'Close the day' }).click();
  await page.getByRole('tooltip').getByRole('button', { name: 'Close the day' }).click();
  await expect(page.getByText(/^The dock's day \d{4}-\d{2}-\d{2} is closed: /)).toBeVisible();
  await closeNotifications(page);
  await expect(endOfDay).toContainText('Closed');
  await expect(endOfDay).toContainText('Labelled, still here');
  await page.getByRole('textbox', { name: 'Scan a parcel or a device' }).focus();
  await wedgeScan(page, secondTracking);
  await expect(newest).toHaveAttribute('data-result', 'parcel');
  await wedgeScan(page, secondTracking);
  await expect(newest).toHaveAttribute('data-result', 'day_closed');

  // The manager reopens the day with a reason, at another station.
  const managerPage = await browser.newPage();
  await signIn(managerPage, MANAGER.userName, MANAGER.password);
  await expect(managerPage.getByRole('heading', { name: /^Welcome, / })).toBeVisible();
  await managerPage.goto('/fulfill/scan-to-ship');
  await managerPage.getByRole('button', { name: 'Reopen the day' }).click();
  await managerPage.getByRole('textbox', { name: 'Reason' }).fill('The truck waits for two more');
  await managerPage.getByRole('dialog').getByRole('button', { name: 'Reopen the day' }).click();
  await expect(managerPage.getByText(/ is open again\.$/)).toBeVisible();
  await managerPage.close();

  // The second parcel, still on the station, ships unchecked on its next scan.
  await page.getByRole('textbox', { name: 'Scan a parcel or a device' }).focus();
  await wedgeScan(page, secondTracking);
  await expect(newest).toHaveAttribute('data-result', 'shipped');
  await expect(page.getByTestId('shipped-today')).toHaveText(String(today + 2));
  await expect(scanField).toBeFocused();

  // The packages list: scanned out, with its timeline.
  await page.goto('/shipment-management/package');
  await expect(page.getByRole('heading', { name: 'Packages', level: 1 })).toBeVisible();
  const row = rowOf(page, firstTracking);
  await expect(row.getByTestId('package-status')).toHaveText('scanned out');
  await row.getByText(firstTracking).click();
  const drawer = page.getByRole('dialog', { name: `Package ${firstTracking}` });
  await expect(drawer).toContainText(first.imei);
  await expect(drawer).toContainText('Scanned out');
  await expect(drawer).toContainText('Label printed');
});
