import { expect, test, type Page } from '@playwright/test';
import { apiAs, imeiOf, seedReceivingCatalogue, type ReceivingCatalogue } from './api';
import { ADMIN_PASSWORD, signIn } from './support';
import {
  chooseOption,
  confirmBubble,
  dialog,
  rowOf,
  searchList,
  wedgeScan,
  withBadCheckDigit,
} from './ui';

/**
 * A receiving clerk's day, end to end in the browser: the vendor's invoice and manifest come in
 * as a file, a carton is scanned at the station as a wedge scanner types, the box is closed, the
 * invoice reconciled and closed, and a device looked up with its timeline.
 */

/** This spec's tag: its vendor, models, TACs and invoices never meet another spec's. */
const TAG = 63;
const INVOICE = `INV-${TAG}`;
const OTHER_INVOICE = `SECOND-${TAG}`;
/** The bench the clerk scans at, named at the station. */
const STATION = 'dock-7';

let catalogue: ReceivingCatalogue;
/** On the invoice: three arrive in the carton, the fourth never comes. */
let onInvoice: [string, string, string, string];
/** On the vendor's other invoice. */
let elsewhere: string;
/** The code of the box the clerk fills. */
let boxCode: string;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ playwright }, testInfo) => {
  const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  catalogue = await seedReceivingCatalogue(await apiAs(request, 'admin', ADMIN_PASSWORD), TAG);
  await request.dispose();
  const tac = catalogue.models.main.tac;
  onInvoice = [1, 2, 3, 4].map((serial) => imeiOf(tac, serial)) as typeof onInvoice;
  elsewhere = imeiOf(tac, 5);
});

test.beforeEach(async ({ page }) => {
  await signIn(page, 'admin', ADMIN_PASSWORD);
  await expect(page.getByRole('heading', { name: 'Welcome, Administrator' })).toBeVisible();
});

/** Opens the invoice's drawer from the list. */
async function openInvoice(page: Page) {
  await page.goto('/shipment-management/invoice');
  await searchList(page, INVOICE);
  await rowOf(page, INVOICE).click();
  return dialog(page, `Invoice ${INVOICE}`);
}

test('import the vendor invoice with its IMEI manifest, dry run first', async ({ page }) => {
  const { vendor, models, color } = catalogue;
  const row = (invoice: string, imei: string) =>
    `${vendor.name},${invoice},2026-11-20,${imei},${models.main.name},${color},A,120.00`;
  const csv = [
    'Vendor,Invoice no,Invoice date,IMEI,Model,Colour,Grade,Unit cost',
    ...onInvoice.map((imei) => row(INVOICE, imei)),
    row(OTHER_INVOICE, elsewhere),
  ].join('\n');

  await page.goto('/shipment-management/invoice');
  await expect(page.getByRole('heading', { name: 'Purchase invoices' })).toBeVisible();
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  const importing = dialog(page, 'Import invoice IMEIs');
  await importing
    .locator('input[type=file]')
    .setInputFiles({ name: 'manifest.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await importing.getByRole('button', { name: 'Check every row' }).click();
  await expect(importing).toContainText('Every row is right');
  await importing.getByRole('button', { name: 'Import 5 rows' }).click();
  await importing.getByRole('button', { name: 'Done' }).click();

  await searchList(page, INVOICE);
  await expect(rowOf(page, INVOICE)).toContainText(vendor.name);
  await expect(rowOf(page, INVOICE)).toContainText('4 / 0');
});

test('scan a carton at the station as a wedge scanner types, then close the box', async ({
  page,
}) => {
  const [first, second, third] = onInvoice;
  await page.goto('/invoice/warehouse-box');
  await expect(page.getByRole('heading', { name: 'Warehouse boxes' })).toBeVisible();
  await page.getByRole('button', { name: 'New warehouse box' }).click();
  const creating = dialog(page, 'New warehouse box');
  await creating.getByRole('combobox', { name: /Invoice$/ }).fill(INVOICE);
  await chooseOption(page, `${INVOICE} (${catalogue.vendor.name})`);
  await creating.getByLabel('Expected quantity').fill('3');
  await creating.getByRole('button', { name: 'Save' }).click();

  const station = page.getByRole('region', { name: /^Box WB-/ });
  await expect(station).toBeVisible();
  boxCode = /WB-\d+/.exec((await station.getAttribute('aria-label')) ?? '')![0];
  const counts = page.getByTestId('box-counts');
  await expect(counts).toHaveText('0 of 3');
  await expect(page.getByRole('textbox', { name: 'Scan an IMEI' })).toBeFocused();
  // The bench's name, kept by the browser, goes onto each received device's timeline.
  await page.getByRole('textbox', { name: 'Station name' }).fill(STATION);
  await page.getByRole('textbox', { name: 'Station name' }).press('Enter');
  await expect(page.getByRole('textbox', { name: 'Scan an IMEI' })).toBeFocused();

  const newest = page.getByTestId('scan-line').first();
  const expectNewest = async (code: string, result: string) => {
    await expect(newest).toHaveAttribute('data-result', result);
    await expect(newest).toContainText(code);
  };
  await wedgeScan(page, first);
  await expectNewest(first, 'added');
  await wedgeScan(page, withBadCheckDigit(second));
  await expectNewest(withBadCheckDigit(second), 'bad_check_digit');
  await wedgeScan(page, first);
  await expectNewest(first, 'already_in_box');
  await wedgeScan(page, elsewhere);
  await expectNewest(elsewhere, 'other_invoice');
  await expect(newest).toContainText(OTHER_INVOICE);
  await wedgeScan(page, second);
  await expectNewest(second, 'added');
  await wedgeScan(page, third);
  await expectNewest(third, 'added');
  await expect(counts).toHaveText('3 of 3');

  // The counts match: the clerk closes the box without a manager.
  await page.getByRole('button', { name: 'Close box' }).click();
  await expect(page.getByTestId('box-status')).toHaveText('received');
});

test('reconcile the invoice, decide the missing device, close the invoice', async ({ page }) => {
  const missing = onInvoice[3];
  const drawer = await openInvoice(page);
  await drawer.getByRole('button', { name: 'Reconcile' }).click();
  await confirmBubble(page).getByRole('button', { name: 'Reconcile' }).click();
  await expect(rowOf(drawer, missing)).toContainText('missing');

  await rowOf(drawer, missing).getByRole('checkbox').check();
  await drawer.getByRole('combobox', { name: 'Decision', exact: true }).click();
  await chooseOption(page, 'vendor credit');
  await drawer.getByRole('button', { name: 'Decide for 1 chosen' }).click();
  await expect(drawer).toContainText('Every discrepancy has a decision.');

  await drawer.getByRole('button', { name: 'Close invoice' }).click();
  await confirmBubble(page).getByRole('button', { name: 'Close invoice' }).click();
  await expect(drawer.getByText('closed', { exact: true })).toBeVisible();
});

test('look a received device up and read its timeline', async ({ page }) => {
  const [first] = onInvoice;
  await page.goto('/devices/scan');
  const lookup = page.getByRole('searchbox', { name: 'Look up a device' });
  await expect(lookup).toBeFocused();
  await wedgeScan(page, first);
  await expect(page.getByTestId('lookup-result')).toContainText(`${first}: found by its IMEI`);
  const card = page.getByTestId('device-card');
  await expect(card).toContainText(catalogue.models.main.name);
  await expect(card.getByRole('link', { name: boxCode })).toBeVisible();
  await expect(card.getByRole('link', { name: INVOICE })).toBeVisible();
  const events = card.getByTestId('timeline-event');
  await expect(events.first()).toContainText('Received into a warehouse box');
  await expect(events.first()).toContainText(`In box ${boxCode}`);
  await expect(events.first()).toContainText('admin');
  await expect(events.first()).toContainText(`at station ${STATION}`);
});
