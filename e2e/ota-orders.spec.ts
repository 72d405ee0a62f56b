import type { PickOrder } from '@inventory/contract';
import { expect, test, type Page } from '@playwright/test';
import { apiAs, createStaff, iccidOf, readyLifelineOrders, type Staff } from './api';
import { ADMIN_PASSWORD, signIn } from './support';
import { closeNotifications, rowOf, seriousViolations, wedgeScan } from './ui';

/**
 * OTA orders as the staff work them (DOMAIN.md 4.14 /fulfill/ota-orders): an OTA order assigned
 * to the picker is picked at the OTA station from the keyboard (order, IMEI, ICCID); its pairing
 * goes to the carrier in a batch file, the carrier's answer file says it failed, the pairing is
 * retried and sent in the next file, answered OK, and only then does the label desk label it.
 */

const TAG = 163;
const FIRST_SIM = TAG * 1_000_000;
const staff = (role: string, first: string): Staff => ({
  userName: `${role}.${TAG}`,
  name: `${first} ${TAG}`,
  password: `steady-${role}-${TAG}`,
});
const GRADER = staff('grader', 'Grader');
const PICKER = staff('fw', 'Picker');

let order = { id: 0, number: '' };
let carrierName = '';

test.beforeAll(async ({ playwright }, testInfo) => {
  const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  const admin = await apiAs(request, 'admin', ADMIN_PASSWORD);
  // One OTA order of one unit, ready, with the carrier's SIMs in stock; assigned to the picker.
  const ready = await readyLifelineOrders(request, admin, {
    tag: TAG,
    grader: GRADER,
    skuPrefix: `OTA${TAG}`,
    devices: 2,
    orders: 1,
    firstSim: FIRST_SIM,
    fulfilmentType: 'ota',
  });
  order = ready.orders[0]!;
  carrierName = ready.carrier.name;
  const { id: pickerId } = await createStaff(request, admin, PICKER, 'Fulfilment Worker');
  const assigned = await admin.post<{ assigned: { id: number }[] }>('/fulfilment/assignments', {
    assignee_id: pickerId,
    order_ids: [order.id],
  });
  expect(assigned.assigned).toHaveLength(1);
  await request.dispose();
});

/** The carrier's answer file through the import drawer: checked, then imported. */
async function importAnswer(page: Page, result: 'ok' | 'failed', message: string) {
  await page.getByRole('button', { name: "Import the carrier's answers" }).click();
  const drawer = page.getByRole('dialog', { name: /^Import carrier answers$/i });
  await drawer.locator('input[type=file]').setInputFiles({
    name: `answers-${result}.csv`,
    mimeType: 'text/csv',
    buffer: Buffer.from(`Order,Result,Message\n${order.number},${result},${message}\n`),
  });
  await drawer.getByRole('button', { name: 'Check every row' }).click();
  await expect(drawer).toContainText('Every row is right: 1 update to settle.');
  await drawer.getByRole('button', { name: 'Import 1 row' }).click();
  await expect(drawer).toContainText('1 update settled.');
  await drawer.getByRole('button', { name: 'Done' }).click();
}

/** Exports the pending pairing: the CSV downloads, naming the order, IMEI and ICCID. */
async function exportPairing(page: Page, imei: string, iccid: string) {
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: `Export 1 pending pairing of ${carrierName}` }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^carrier-updates-\d+\.csv$/);
  const { readFile } = await import('node:fs/promises');
  const csv = (await readFile((await download.path())!)).toString('utf8');
  expect(csv).toContain(`${order.number},${imei},${iccid},pairing`);
  await expect(page.getByText(`1 pairing of ${carrierName} exported and submitted.`)).toBeVisible();
  await closeNotifications(page);
}

test('an OTA order is picked by keyboard, paired through batch files, failed, retried, OK, then labelled', async ({
  page,
  playwright,
}, testInfo) => {
  test.setTimeout(180_000);
  // Which device the order holds, as the station will show it.
  const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  const picker = await apiAs(request, PICKER.userName, PICKER.password);
  const reserved = await picker.get<PickOrder>(
    `/fulfilment/picks/lookup?number=${order.number}&queue=ota`,
  );
  const imei = reserved.units[0]!.imei!;
  await request.dispose();
  const iccid = iccidOf(FIRST_SIM);

  // The OTA station, from the keyboard alone: order number, IMEI, ICCID.
  await signIn(page, PICKER.userName, PICKER.password);
  await expect(page.getByRole('heading', { name: /^Welcome, / })).toBeVisible();
  await page.goto('/fulfill/ota-orders');
  await expect(page.getByRole('heading', { name: 'OTA orders', level: 1 })).toBeVisible();
  const scanField = page.getByRole('textbox', { name: 'Scan an order, IMEI or ICCID' });
  await expect(scanField).toBeFocused();
  const newest = page.getByTestId('scan-line').first();
  await wedgeScan(page, order.number);
  const picked = page.getByRole('region', { name: `Pick ${order.number}` });
  await expect(picked).toBeVisible();
  await wedgeScan(page, imei);
  await expect(newest).toHaveAttribute('data-result', 'picked');
  await wedgeScan(page, iccid);
  await expect(newest).toHaveAttribute('data-result', 'sim_paired');
  await expect(page.getByTestId('pick-order-status')).toHaveText('fulfilled');
  await expect(picked.getByTestId('carrier-update-status')).toHaveText('Pending');
  await expect(scanField).toBeFocused();

  // The pairing waits on the board; exported in a batch file, it is submitted.
  const pairings = page.getByRole('region', { name: 'Carrier pairings' });
  await expect(rowOf(pairings, order.number)).toContainText('Pending');
  expect(await seriousViolations(page)).toEqual([]);
  await exportPairing(page, imei, iccid);
  await expect(rowOf(pairings, order.number)).toContainText('Submitted');

  // The label desk shows it waiting for the carrier: it cannot be chosen.
  await page.goto('/fulfill/print-label');
  await expect(page.getByRole('heading', { name: 'Print labels', level: 1 })).toBeVisible();
  await expect(rowOf(page, order.number).getByTestId('label-waiting')).toContainText(
    "waits for the carrier's answer",
  );
  await expect(page.getByRole('checkbox', { name: `Choose order ${order.number}` })).toBeDisabled();

  // The carrier's answer file: failed, with its words. Retried, it goes in the next file.
  await page.goto('/fulfill/ota-orders');
  await importAnswer(page, 'failed', 'ICCID not provisioned');
  await expect(rowOf(pairings, order.number)).toContainText('Failed');
  await expect(rowOf(pairings, order.number)).toContainText('ICCID not provisioned');
  await rowOf(pairings, order.number)
    .getByRole('button', { name: `Retry ${order.number}` })
    .click();
  await expect(page.getByText(`The pairing of ${order.number} is sent again.`)).toBeVisible();
  await closeNotifications(page);
  await expect(rowOf(pairings, order.number)).toContainText('Pending');
  await exportPairing(page, imei, iccid);

  // Answered OK: the order is labelled at the label desk.
  await importAnswer(page, 'ok', 'Paired');
  await expect(rowOf(pairings, order.number)).toContainText('OK');
  await page.goto('/fulfill/print-label');
  await expect(page.getByRole('heading', { name: 'Print labels', level: 1 })).toBeVisible();
  await page.getByRole('checkbox', { name: `Choose order ${order.number}` }).check();
  await page.getByRole('button', { name: 'Create 1 label' }).click();
  await expect(page.getByText(/^1 label created in batch \d+\.$/)).toBeVisible();
  const batch = page.getByRole('region', { name: /^Batch \d+$/ });
  await expect(rowOf(batch, order.number).getByTestId('label-result')).toHaveText('Label created');

  // The other queues are the same station with their own facts.
  for (const [path, name] of [
    ['/fulfill/prepaid', 'Prepaid'],
    ['/fulfill/existing-customer', 'Existing customers'],
    ['/fulfill/replacement', 'Replacements'],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Scan an order, IMEI or ICCID' })).toBeFocused();
    expect(await seriousViolations(page), path).toEqual([]);
  }
});
