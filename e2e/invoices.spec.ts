import { readFile } from 'node:fs/promises';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { apiAs, imeiOf, seedReceivingCatalogue, type ReceivingCatalogue } from './api';
import { ADMIN_PASSWORD, signIn } from './support';
import {
  chooseOption,
  confirmBubble,
  dialog,
  pick,
  rowOf,
  saveDialog,
  searchList,
  seriousViolations,
} from './ui';

/** This spec's tag: its vendor, models, TACs and invoices never meet another spec's. */
const TAG = 61;
const MANIFEST_INVOICE = `INV-${TAG}`;
const HAND_INVOICE = `HAND-${TAG}`;
const TRACKING = `TRK-${TAG}`;

/** One figure of an invoice's reconciliation: its title and value. */
async function expectFigure(drawer: Locator, title: string, value: number) {
  await expect(
    drawer
      .getByTestId('reconciliation')
      .locator('.ant-statistic')
      .filter({ has: drawer.page().getByText(title, { exact: true }) }),
  ).toHaveText(new RegExp(`^${title}\\s*${value}$`));
}

let catalogue: ReceivingCatalogue;

test.beforeAll(async ({ playwright }, testInfo) => {
  const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  catalogue = await seedReceivingCatalogue(await apiAs(request, 'admin', ADMIN_PASSWORD), TAG);
  await request.dispose();
});

test.beforeEach(async ({ page }) => {
  await signIn(page, 'admin', ADMIN_PASSWORD);
  await expect(page.getByRole('heading', { name: 'Welcome, Administrator' })).toBeVisible();
});

// The shipment links the invoice entered by hand in the first test.
test.describe.configure({ mode: 'serial' });

test('enter a purchase invoice by hand with its lines, then correct it', async ({ page }) => {
  const vendor = catalogue.vendor.name;
  const model = catalogue.models.main.name;
  await page.goto('/shipment-management/invoice');
  await expect(page.getByRole('heading', { name: 'Purchase invoices' })).toBeVisible();
  await page.getByRole('button', { name: 'New purchase invoice' }).click();
  const form = dialog(page, 'New purchase invoice');

  // The contract's rules speak before anything is sent.
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toContainText('Please enter the invoice number.');

  await pick(page, form, 'Vendor', vendor, vendor);
  await form.getByLabel('Invoice number').fill(HAND_INVOICE);
  await form.getByLabel('Invoice date').fill('2026-11-03');
  const line = form.getByTestId('invoice-line');
  await pick(page, line, 'Model', `Phone ${TAG}`, model);
  await pick(page, line, 'Colour', catalogue.color, catalogue.color);
  await line.getByLabel('Quantity').fill('5');
  await line.getByLabel('Unit cost').fill('45');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText(`Invoice ${HAND_INVOICE} is saved.`)).toBeVisible();
  await expect(form).toHaveCount(0);

  await searchList(page, HAND_INVOICE);
  const row = rowOf(page, HAND_INVOICE);
  await expect(row).toContainText(vendor);
  await expect(row).toContainText('expected');
  await expect(row).toContainText('$225.00');

  // Add a second line of the other model: the invoice's quantity and total follow.
  await row.getByRole('button', { name: 'Edit' }).click();
  const editing = dialog(page, `Edit invoice ${HAND_INVOICE}`);
  await expect(editing.getByTestId('invoice-line')).toHaveCount(1);
  await editing.getByRole('button', { name: 'Add line' }).click();
  const second = editing.getByTestId('invoice-line').nth(1);
  await pick(page, second, 'Model', `Phone ${TAG} Plus`, catalogue.models.other.name);
  await second.getByLabel('Quantity').fill('2');
  await second.getByLabel('Unit cost').fill('100');
  await editing.getByRole('button', { name: 'Save' }).click();
  await expect(editing).toHaveCount(0);
  await expect(row).toContainText('$425.00');

  // The invoice number is the link that opens the invoice; its drawer lists both lines.
  const key = row.getByRole('link', { name: HAND_INVOICE, exact: true });
  await expect(key).toHaveAttribute('href', /\/shipment-management\/invoice\?.*invoice=\d+/);
  await key.click();
  const drawer = dialog(page, `Invoice ${HAND_INVOICE}`);
  await expect(rowOf(drawer, catalogue.models.other.name)).toContainText('$200.00');
  await expect(rowOf(drawer, catalogue.color)).toContainText(model);
  await expect(page).toHaveURL(/invoice=\d+/);

  // The open invoice is an address: a reload opens the same invoice again.
  await page.reload();
  await expect(rowOf(dialog(page, `Invoice ${HAND_INVOICE}`), catalogue.color)).toContainText(
    model,
  );
});

/** The manifest's devices: the first claimed as the other model, a stray off the manifest. */
const manifestImeis = () =>
  [1, 2, 3, 4].map((serial) => imeiOf(catalogue.models.main.tac, serial)) as [
    string,
    string,
    string,
    string,
  ];

/** Opens the manifest invoice's drawer from the list, by its number. */
async function openManifestInvoice(page: Page) {
  await page.goto('/shipment-management/invoice');
  await searchList(page, MANIFEST_INVOICE);
  await rowOf(page, MANIFEST_INVOICE)
    .getByRole('link', { name: MANIFEST_INVOICE, exact: true })
    .click();
  return dialog(page, `Invoice ${MANIFEST_INVOICE}`);
}

test('import a vendor manifest with its dry run; the reconciliation shows what arrived', async ({
  page,
  request,
}) => {
  const { vendor, models } = catalogue;
  const [mismatched, missingOne, missingTwo, stray] = manifestImeis();

  // The vendor's file: header, lines and IMEIs; the first device claimed as the other model.
  const csv = [
    'Vendor,Invoice no,Invoice date,IMEI,Model,Colour,Grade,Unit cost',
    ...[
      [mismatched, models.other.name],
      [missingOne, models.main.name],
      [missingTwo, models.main.name],
    ].map(
      ([imei, model]) =>
        `${vendor.name},${MANIFEST_INVOICE},2026-11-02,${imei},${model},${catalogue.color},B,45.00`,
    ),
  ].join('\n');
  await page.goto('/shipment-management/invoice');
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  const importing = dialog(page, 'Import invoice IMEIs');
  await importing
    .locator('input[type=file]')
    .setInputFiles({ name: 'manifest.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await importing.getByRole('button', { name: 'Check every row' }).click();
  await expect(importing).toContainText('Every row is right');
  await importing.getByRole('button', { name: 'Import 3 rows' }).click();
  await importing.getByRole('button', { name: 'Done' }).click();
  await searchList(page, MANIFEST_INVOICE);
  await expect(rowOf(page, MANIFEST_INVOICE)).toContainText('3 / 0');
  // The expected / received figures lead to the register, and say so.
  const imeisLink = rowOf(page, MANIFEST_INVOICE).getByRole('link', {
    name: `IMEIs of invoice ${MANIFEST_INVOICE} in the register`,
  });
  await expect(imeisLink).toHaveText('3 / 0');
  await expect(imeisLink).toHaveAttribute('href', /^\/invoice-imei\?invoice_id=\d+$/);

  // At the dock, by the API: one manifest device and one stray are scanned into a box.
  const api = await apiAs(request, 'admin', ADMIN_PASSWORD);
  const invoiceId = (
    await api.get<{ items: { id: number }[] }>(`/purchase-invoices?search=${MANIFEST_INVOICE}`)
  ).items[0]!.id;
  const box = await api.post<{ id: number }>('/warehouse-boxes', { invoice_id: invoiceId });
  for (const code of [mismatched, stray]) {
    await api.post(`/warehouse-boxes/${box.id}/scans`, { code });
  }
  await api.post(`/warehouse-boxes/${box.id}/close`, {});

  const drawer = await openManifestInvoice(page);
  await expectFigure(drawer, 'On the manifest', 3);
  await expectFigure(drawer, 'Received', 1);
  await expectFigure(drawer, 'Expected', 2);
  await expectFigure(drawer, 'Unexpected', 1);
  await expectFigure(drawer, 'Model mismatch', 1);
  // The TAC's model against the vendor's claim.
  await expect(rowOf(drawer, mismatched)).toContainText(models.other.name);
  await expect(rowOf(drawer, mismatched)).toContainText(`${models.main.name} ≠ vendor`);
  await expect(rowOf(drawer, stray)).toContainText('unexpected');

  // The drawer, which the page-by-page accessibility check never opens, reads well too.
  expect(await seriousViolations(page, '.ant-drawer-section')).toEqual([]);
});

test('reconcile the invoice: closing waits for decisions; the discrepancy report', async ({
  page,
}) => {
  const [mismatched, missingOne, missingTwo, stray] = manifestImeis();
  const drawer = await openManifestInvoice(page);

  // Reconcile: what never came is missing.
  await drawer.getByRole('button', { name: 'Reconcile' }).click();
  await confirmBubble(page).getByRole('button', { name: 'Reconcile' }).click();
  await expectFigure(drawer, 'Missing', 2);
  await expectFigure(drawer, 'Needing a decision', 4);
  await expect(rowOf(drawer, missingOne)).toContainText('missing');

  // Closing is refused while discrepancies wait: the server says how many.
  await drawer.getByRole('button', { name: 'Close invoice' }).click();
  await confirmBubble(page).getByRole('button', { name: 'Close invoice' }).click();
  await expect(drawer.getByTestId('invoice-refusal')).toContainText(
    '4 discrepancies have no decision yet',
  );

  // The discrepancy report for the vendor's credit.
  const downloading = page.waitForEvent('download');
  await drawer.getByRole('button', { name: 'Export discrepancy report' }).click();
  await page.getByRole('menuitem', { name: 'CSV' }).click();
  const report = await readFile((await (await downloading).path())!, 'utf8');
  for (const imei of [mismatched, missingOne, missingTwo, stray]) expect(report).toContain(imei);
  expect(report).toContain('missing');
});

test('decide each discrepancy, close the invoice, find its IMEIs on the register', async ({
  page,
}) => {
  const [, missingOne, missingTwo, stray] = manifestImeis();
  const drawer = await openManifestInvoice(page);
  const invoiceId = Number(new URL(page.url()).searchParams.get('invoice'));

  // The stray goes back to the vendor; the rest is credited.
  await rowOf(drawer, stray).getByRole('checkbox').check();
  await drawer.getByRole('combobox', { name: 'Decision', exact: true }).click();
  await chooseOption(page, 'return to vendor');
  await drawer.getByRole('button', { name: 'Decide for 1 chosen' }).click();
  await expect(rowOf(drawer, stray)).toHaveCount(0);
  await expectFigure(drawer, 'Needing a decision', 3);
  await drawer.locator('.ant-table-thead').getByRole('checkbox').check();
  await drawer.getByRole('combobox', { name: 'Decision', exact: true }).click();
  await chooseOption(page, 'vendor credit');
  await drawer.getByLabel('Decision note').fill(`Credit memo CM-${TAG}`);
  await drawer.getByRole('button', { name: 'Decide for 3 chosen' }).click();
  await expect(drawer).toContainText('Every discrepancy has a decision.');
  await expectFigure(drawer, 'Needing a decision', 0);
  await drawer.getByText('All discrepancies', { exact: true }).click();
  await expect(rowOf(drawer, missingTwo)).toContainText('vendor credit');
  await expect(rowOf(drawer, stray)).toContainText('return to vendor');

  // Now it closes.
  await drawer.getByRole('button', { name: 'Close invoice' }).click();
  await confirmBubble(page).getByRole('button', { name: 'Close invoice' }).click();
  await expect(drawer.getByText('closed', { exact: true })).toBeVisible();
  await expect(drawer.getByRole('button', { name: 'Reconcile' })).toHaveCount(0);

  // Its IMEIs on the register, filtered by status.
  await drawer.getByRole('link', { name: 'All IMEIs of this invoice' }).click();
  await expect(page).toHaveURL(new RegExp(`/invoice-imei\\?invoice_id=${invoiceId}`));
  // The filter the link set names its invoice, not its id.
  await expect(
    page.locator('.ant-select').filter({ has: page.getByRole('combobox', { name: 'Invoice' }) }),
  ).toContainText(`${MANIFEST_INVOICE} (${catalogue.vendor.name})`);
  await expect(page.getByRole('heading', { name: 'Invoice IMEI register' })).toBeVisible();
  await expect(page.getByTestId('list-count')).toHaveText('4 invoice IMEIs');
  await page.getByRole('combobox', { name: 'Status' }).click();
  await chooseOption(page, 'missing');
  await expect(page.getByTestId('list-count')).toHaveText('2 invoice IMEIs');
  await expect(rowOf(page, missingOne)).toContainText(MANIFEST_INVOICE);
});

test('register an inbound shipment, check it in at the dock with damage, receive it', async ({
  page,
}) => {
  const vendor = catalogue.vendor.name;
  await page.goto('/shipment-management/invoice/shipment');
  await expect(page.getByRole('heading', { name: 'Inbound shipments' })).toBeVisible();
  await page.getByRole('button', { name: 'New inbound shipment' }).click();
  const form = dialog(page, 'New inbound shipment');
  await pick(page, form, 'Vendor', vendor, vendor);
  await pick(page, form, 'Invoice', HAND_INVOICE, `${HAND_INVOICE} (${vendor})`);
  await form.getByLabel('Carrier').fill('FedEx Freight');
  await form.getByLabel('Tracking number').fill(TRACKING);
  await form.getByLabel('Pallets expected').fill('2');
  await form.getByLabel('Boxes expected').fill('10');
  await form.getByLabel('Expected arrival').fill('2026-11-05');
  await saveDialog(page, form);
  await searchList(page, TRACKING);
  const row = rowOf(page, TRACKING);
  await expect(row).toContainText('expected');
  await expect(row).toContainText(HAND_INVOICE);

  // At the dock: one box short and a crushed pallet.
  await row.getByRole('button', { name: 'Check in' }).click();
  const checkIn = dialog(page, `Check in ${TRACKING}`);
  await checkIn.getByLabel('Boxes received').fill('9');
  await checkIn.getByRole('switch', { name: 'Damaged' }).click();
  await checkIn.getByRole('button', { name: 'Check in' }).click();
  await expect(checkIn).toContainText('Say what is damaged.');
  await checkIn.getByLabel('Damage notes').fill('Pallet 2 crushed, one carton wet');
  await checkIn.getByRole('button', { name: 'Check in' }).click();
  await expect(checkIn).toHaveCount(0);
  await expect(row).toContainText('arrived');
  await expect(row).toContainText('damaged');
  await expect(row).toContainText('9 / 10');
  await expect(row).toContainText('2 / 2');

  // Its invoice is receiving now.
  await row.getByRole('link', { name: HAND_INVOICE }).click();
  await expect(dialog(page, `Invoice ${HAND_INVOICE}`).getByText('receiving')).toBeVisible();
  await page.goBack();

  await row.getByRole('button', { name: 'Mark received' }).click();
  await confirmBubble(page).getByRole('button', { name: 'Received' }).click();
  await expect(row.getByText('received', { exact: true })).toBeVisible();
  await expect(row.getByRole('button', { name: 'Check in' })).toHaveCount(0);
});
