import { expect, test, type Page } from '@playwright/test';
import {
  apiAs,
  createStaff,
  imeiOf,
  importManifest,
  seedReceivingCatalogue,
  type Staff,
} from './api';
import { ADMIN_PASSWORD, signIn } from './support';
import {
  chooseOption,
  closeNotifications,
  confirmBubble,
  seriousViolations,
  wedgeScan,
  withBadCheckDigit,
} from './ui';

/** This spec's tag: its vendor, models, TACs and invoices never meet another spec's. */
const TAG = 62;
const INVOICE = `INV-${TAG}`;
const OTHER_INVOICE = `INV-${TAG}-B`;
/** A TAC no model maps to until the station learns it. */
const UNKNOWN_TAC = String(90_000_000 + TAG * 10 + 9);
/** The station that scans this spec's box. */
const BENCH = `bench-${TAG}`;
/** The truck the invoice's cartons came on. */
const TRACKING = `1Z-${TAG}-0001`;

type Setup = {
  /**
   * On the invoice: two are scanned at the station, the third into another box beforehand, the
   * fourth is on the blacklist (it goes to quarantine, not into the box).
   */
  imeis: [string, string, string, string];
  /** On the other invoice of the same vendor. */
  elsewhere: string;
  otherBox: string;
  invoiceId: number;
  tac: string;
  model: string;
  vendor: string;
};

const station = (page: Page) => page.getByRole('region', { name: /^Box WB-/ });
const scanInput = (page: Page) => page.getByRole('textbox', { name: 'Scan an IMEI' });
const scanLines = (page: Page) => page.getByTestId('scan-line');

/** The newest scan line answers this result for this code. */
async function expectNewestScan(page: Page, code: string, result: string, text: string | RegExp) {
  const newest = scanLines(page).first();
  await expect(newest).toHaveAttribute('data-result', result);
  await expect(newest).toContainText(code);
  await expect(newest).toContainText(text);
}

test.describe.configure({ mode: 'serial' });

let setup: Setup;
/** The station of the box the first test opens, for the next to close. */
let boxUrl: string;

test.beforeAll(async ({ playwright }, testInfo) => {
  const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  const api = await apiAs(request, 'admin', ADMIN_PASSWORD);
  const catalogue = await seedReceivingCatalogue(api, TAG);
  const tac = catalogue.models.main.tac;
  const base = {
    imeis: [1, 2, 3, 5].map((serial) => imeiOf(tac, serial)) as Setup['imeis'],
    elsewhere: imeiOf(tac, 4),
    tac,
    model: catalogue.models.main.name,
    vendor: catalogue.vendor.name,
  };
  const invoiceIds = await importManifest(api, catalogue, [
    ...base.imeis.map((imei) => [INVOICE, imei] as const),
    [OTHER_INVOICE, base.elsewhere] as const,
  ]);
  const invoiceId = invoiceIds[INVOICE]!;
  // Another carton of the invoice, where the third device was received already.
  const other = await api.post<{ id: number; code: string }>('/warehouse-boxes', {
    invoice_id: invoiceId,
  });
  const scan = await api.post<{ result: string }>(`/warehouse-boxes/${other.id}/scans`, {
    code: base.imeis[2],
  });
  expect(scan.result).toBe('added');
  await api.post('/blacklist-entries', {
    imei: base.imeis[3],
    reason: 'stolen',
    source: 'carrier',
  });
  await api.post('/inbound-shipments', {
    vendor_id: catalogue.vendor.id,
    invoice_id: invoiceId,
    carrier: 'UPS',
    tracking: TRACKING,
  });
  setup = { ...base, otherBox: other.code, invoiceId };
  await request.dispose();
});

test.beforeEach(async ({ page }) => {
  await signIn(page, 'admin', ADMIN_PASSWORD);
  await expect(page.getByRole('heading', { name: 'Welcome, Administrator' })).toBeVisible();
});

test('open a box for an invoice, scan as a wedge scanner does, reload mid-box', async ({
  page,
}) => {
  const [first, second, third] = setup.imeis;
  await page.goto('/invoice/warehouse-box');
  // The first visit loads the page's code: slow on a busy machine.
  await expect(page.getByRole('heading', { name: 'Warehouse boxes' })).toBeVisible({
    timeout: 15_000,
  });

  // A new box for the invoice, expecting three devices: it opens at its scan station.
  await page.getByRole('button', { name: 'New warehouse box' }).click();
  const drawer = page.getByRole('dialog', { name: 'New warehouse box' });
  await drawer.getByRole('combobox', { name: /Invoice$/ }).fill(INVOICE);
  await page
    .locator('.ant-select-item-option')
    .filter({ hasText: new RegExp(`^${INVOICE} \\(`) })
    .click();
  await drawer.getByRole('combobox', { name: /Inbound shipment$/ }).fill(TRACKING);
  await chooseOption(page, `${TRACKING} (UPS), ${setup.vendor}, invoice ${INVOICE}`);
  await drawer.getByLabel('Vendor label').fill(`CARTON ${TAG}/1`);
  await drawer.getByLabel('Expected quantity').fill('5');
  await drawer.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/[?&]box=\d+/);
  await expect(station(page)).toBeVisible();
  await expect(page.getByTestId('box-counts')).toHaveText('0 of 5');
  await expect(station(page)).toContainText(`${TRACKING} (UPS)`);
  await expect(scanInput(page)).toBeFocused();
  // The bench's name, kept by the browser, goes with every scan into the box's log.
  await page.getByRole('textbox', { name: 'Station name' }).fill(BENCH);
  await page.getByRole('textbox', { name: 'Station name' }).press('Enter');
  await expect(scanInput(page)).toBeFocused();

  // Each answer shows at once, in its colour, and the input keeps the focus.
  await wedgeScan(page, first);
  await expectNewestScan(page, first, 'added', 'Added');
  await expect(page.getByTestId('box-counts')).toHaveText('1 of 5');
  const badDigit = withBadCheckDigit(second);
  await wedgeScan(page, badDigit);
  await expectNewestScan(page, badDigit, 'bad_check_digit', 'Bad check digit');
  await wedgeScan(page, first);
  await expectNewestScan(page, first, 'already_in_box', 'Already in this box');
  await wedgeScan(page, setup.elsewhere);
  await expectNewestScan(page, setup.elsewhere, 'other_invoice', `On invoice ${OTHER_INVOICE}`);
  await wedgeScan(page, third);
  await expectNewestScan(page, third, 'in_other_box', `Already received in ${setup.otherBox}`);
  await wedgeScan(page, second);
  await expectNewestScan(page, second, 'added', 'Added');
  await expect(page.getByTestId('box-counts')).toHaveText('2 of 5');
  await expect(scanInput(page)).toBeFocused();

  // A reload in the middle of the box: the counts, the devices and the answers are all there,
  // read from the box's scan log on the server, refusals included, each with its station.
  const answers = [
    'added',
    'in_other_box',
    'other_invoice',
    'already_in_box',
    'bad_check_digit',
    'added',
  ];
  await page.reload();
  await expect(page.getByTestId('box-counts')).toHaveText('2 of 5');
  const inBox = page.getByRole('table', { name: 'Devices in the box' });
  await expect(inBox.getByRole('row').filter({ hasText: first })).toBeVisible();
  await expect(inBox.getByRole('row').filter({ hasText: second })).toBeVisible();
  await expect(scanLines(page)).toHaveCount(6);
  await expect(scanLines(page).first()).toHaveAttribute('data-result', 'added');
  await expectNewestScan(page, second, 'added', 'Added');
  await expect(scanLines(page).nth(2)).toContainText(`On invoice ${OTHER_INVOICE}`);
  await expect(scanLines(page).getByTestId('scan-station')).toHaveText(answers.map(() => BENCH));
  boxUrl = page.url();

  // Another tab at the same box reads the same log.
  const otherTab = await page.context().newPage();
  await otherTab.goto(boxUrl);
  await expect(scanLines(otherTab)).toHaveCount(6);
  for (const [index, result] of answers.entries()) {
    await expect(scanLines(otherTab).nth(index)).toHaveAttribute('data-result', result);
  }
  await otherTab.close();
});

test('undo a scan; learn an unknown TAC at the station; a blacklisted IMEI goes to quarantine', async ({
  page,
}) => {
  const second = setup.imeis[1];
  await page.goto(boxUrl);
  await expect(page.getByTestId('box-counts')).toHaveText('2 of 5');
  expect(await seriousViolations(page)).toEqual([]);

  // Undo the last scan, then scan it again.
  const inBox = page.getByRole('table', { name: 'Devices in the box' });
  await page.getByRole('button', { name: 'Undo last scan' }).click();
  await confirmBubble(page).getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByTestId('box-counts')).toHaveText('1 of 5');
  await expect(inBox.getByRole('row').filter({ hasText: second })).toHaveCount(0);
  await wedgeScan(page, second);
  await expectNewestScan(page, second, 'added', 'Added');
  await expect(page.getByTestId('box-counts')).toHaveText('2 of 5');

  const stranger = imeiOf(UNKNOWN_TAC, 1);
  await wedgeScan(page, stranger);
  await expectNewestScan(page, stranger, 'unknown_tac', `TAC ${UNKNOWN_TAC} maps to no model yet`);
  await scanLines(page)
    .first()
    .getByRole('button', { name: `Learn TAC ${UNKNOWN_TAC}` })
    .click();
  const learning = page.getByRole('dialog', { name: `Map TAC ${UNKNOWN_TAC} to a model` });
  // The picker searches as it is typed into; on a busy machine a late answer can redraw its
  // options under the pointer, so the choice is made again until the modal shows it.
  await expect(async () => {
    await learning.getByRole('combobox', { name: /Model$/ }).fill(`Phone ${TAG}`);
    await page
      .locator('.ant-select-item-option')
      .filter({ hasText: new RegExp(`^${setup.model}$`) })
      .click({ timeout: 3_000 });
    await expect(learning).toContainText(setup.model, { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  await learning.getByRole('button', { name: 'Map' }).click();
  // Learned, the device is scanned again: received, flagged as off the invoice.
  await expectNewestScan(page, stranger, 'unexpected', 'not on the invoice');
  await expect(page.getByTestId('box-counts')).toHaveText('3 of 5');

  // A blacklisted device is received on hold into the quarantine tote: the box neither counts
  // nor lists it, and shows it apart.
  const listed = setup.imeis[3];
  await wedgeScan(page, listed);
  await expectNewestScan(page, listed, 'blacklisted', 'Put it in the quarantine tote');
  const quarantine = page.getByRole('table', { name: 'Sent to quarantine' });
  await expect(quarantine.getByRole('row').filter({ hasText: listed })).toBeVisible();
  await expect(page.getByTestId('box-counts')).toHaveText('3 of 5');
  await expect(inBox.getByRole('row').filter({ hasText: listed })).toHaveCount(0);
  await wedgeScan(page, listed);
  await expectNewestScan(page, listed, 'quarantined', 'put it back in the quarantine tote');
  await expect(page.getByTestId('box-counts')).toHaveText('3 of 5');
});

test('close the short box with a manager override, stage it, print its label', async ({ page }) => {
  await page.goto(boxUrl);
  await expect(page.getByTestId('box-counts')).toHaveText('3 of 5');

  // Three of five: closing needs a manager's reason.
  const closeWithOverride = async (reason: string) => {
    await page.getByRole('button', { name: 'Close box' }).click();
    const override = page.getByRole('dialog', { name: /with a manager override$/ });
    // Reduced motion (playwright.config.ts): the modal stands at once, no zoom to wait out.
    await expect(override).toBeVisible();
    expect(await override.getAttribute('class')).not.toMatch(/ant-zoom/);
    await override.getByRole('button', { name: 'Close the box' }).click();
    await expect(override).toContainText('Say why the box is closed.');
    await override.getByLabel('Reason').fill(reason);
    await override.getByRole('button', { name: 'Close the box' }).click();
    await expect(page.getByTestId('box-status')).toHaveText('received');
    await expect(station(page)).toContainText(reason);
    await expect(scanInput(page)).toHaveCount(0);
  };
  await closeWithOverride('The fifth device never came');

  // A manager reopens it; closed again, the new reason stands.
  await page.getByRole('button', { name: 'Reopen' }).click();
  await confirmBubble(page).getByRole('button', { name: 'Reopen' }).click();
  await expect(page.getByTestId('box-status')).toHaveText('receiving');
  await expect(scanInput(page)).toBeVisible();
  await closeWithOverride(`The third device went to ${setup.otherBox}, the fourth to quarantine`);
  await expect(station(page)).not.toContainText('The fifth device never came');

  // Staged at a location; the list shows the box there.
  await page.getByRole('searchbox', { name: 'Staging location' }).fill(`stg-${TAG}`);
  await page.getByRole('searchbox', { name: 'Staging location' }).press('Enter');
  await expect(page.getByTestId('box-status')).toHaveText('staged');
  await expect(station(page)).toContainText(`STG-${TAG}`);
  await page.getByRole('button', { name: 'All boxes' }).click();
  await page.getByRole('searchbox', { name: 'Search' }).fill(`CARTON ${TAG}/1`);
  await page.getByRole('searchbox', { name: 'Search' }).press('Enter');
  await expect(page.getByTestId('list-count')).toHaveText(/^1 /);
  const row = page.getByRole('row').filter({ hasText: `CARTON ${TAG}/1` });
  await expect(row).toContainText('3 of 5');
  await expect(row).toContainText(`STG-${TAG}`);
  // Its code is the link to its station.
  await expect(row.getByRole('link', { name: /^WB-\d+$/ })).toHaveAttribute('href', /[?&]box=\d+/);

  // Its label opens in a new tab: the server's PDF. The close, reopen and stage notices sit over
  // the row's buttons until they go.
  await closeNotifications(page);
  const label = page.waitForEvent('popup');
  await row.getByRole('button', { name: 'Label' }).click();
  await (await label).waitForURL(/\/api\/v1\/downloads\//);
  // And its content list, the sheet that travels with the carton.
  const contentList = page.waitForEvent('popup');
  await row.getByRole('button', { name: 'Content list' }).click();
  await (await contentList).waitForURL(/\/api\/v1\/downloads\//);
});

test('the dashboards count what was received, per vendor, invoice and model', async ({ page }) => {
  await page.goto('/invoice/warehouse-box/dashboard');
  await expect(page.getByRole('heading', { name: 'Warehouse box dashboard' })).toBeVisible();
  await expect(page.getByTestId('figure-today')).not.toContainText(/\b0\b/);
  const byInvoice = page.getByRole('table', { name: 'Waiting for production, by invoice' });
  await expect(byInvoice.getByRole('row').filter({ hasText: `${INVOICE} (` })).toContainText('4');
  const byVendor = page.getByRole('table', { name: 'Waiting for production, by vendor' });
  await expect(byVendor.getByRole('row').filter({ hasText: setup.vendor })).toContainText('4');
  const staged = page
    .getByRole('table', { name: 'Boxes by status' })
    .getByRole('row')
    .filter({ hasText: 'staged' });
  await expect(staged).toBeVisible();

  expect(await seriousViolations(page)).toEqual([]);

  // Per model, for the vendor: four waiting, one held, none processed yet; the export downloads.
  await page.getByRole('link', { name: 'By model', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Warehouse boxes by model' })).toBeVisible();
  await page.getByRole('combobox', { name: 'Vendor' }).fill(setup.vendor);
  await chooseOption(page, setup.vendor);
  await expect(page).toHaveURL(/vendor_id=\d+/);
  const figures = page.getByRole('table', { name: 'Figures per model' });
  await expect(figures.getByRole('row')).toHaveCount(2);
  const modelRow = figures.getByRole('row').filter({ hasText: setup.model });
  await expect(modelRow.getByRole('cell').nth(1)).toHaveText('4');
  await expect(modelRow.getByRole('cell').nth(6)).toHaveText('1');
  await expect(modelRow.getByRole('cell').last()).toHaveText('—');
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export' }).click();
  await page.getByRole('menuitem', { name: 'CSV' }).click();
  expect((await download).suggestedFilename()).toMatch(/\.csv$/);
});

test('a sorter without the override is told who closes a short box', async ({
  browser,
  playwright,
}, testInfo) => {
  const baseURL = testInfo.project.use.baseURL;
  const staff: Staff = {
    userName: `sorter.${TAG}`,
    name: `Sorter ${TAG}`,
    password: `sorter-${TAG}-password-2026`,
  };
  // A warehouse sorter as the default role makes one, with a box of one device of two.
  const request = await playwright.request.newContext({ baseURL });
  const admin = await apiAs(request, 'admin', ADMIN_PASSWORD);
  await createStaff(request, admin, staff, 'Warehouse Sorting');
  const sorter = await apiAs(request, staff.userName, staff.password);
  const box = await sorter.post<{ id: number }>('/warehouse-boxes', {
    invoice_id: setup.invoiceId,
    qty_expected: 2,
  });
  await sorter.post(`/warehouse-boxes/${box.id}/scans`, { code: imeiOf(setup.tac, 6) });
  await request.dispose();

  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await signIn(page, staff.userName, staff.password);
  await expect(page.getByRole('heading', { name: `Welcome, ${staff.name}` })).toBeVisible();
  await page.goto(`/invoice/warehouse-box?box=${box.id}`);
  await expect(page.getByTestId('box-counts')).toHaveText('1 of 2');
  await page.getByRole('button', { name: 'Close box' }).click();
  await expect(page.getByTestId('close-refusal')).toContainText(
    '1 scanned of 2 expected: a manager closes this box, with a reason.',
  );
  await expect(page.getByTestId('box-status')).toHaveText('receiving');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await context.close();
});
