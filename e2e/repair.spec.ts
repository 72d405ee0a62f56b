import type {
  LabelBatch,
  LabelStepAnswer,
  PickOrder,
  RmaDetail,
  ShipScanAnswer,
} from '@inventory/contract';
import { expect, test, type Page } from '@playwright/test';
import { apiAs, createStaff, iccidOf, readyLifelineOrders, type Staff } from './api';
import { ADMIN_PASSWORD, signIn } from './support';
import { chooseOption, dialog, rowOf, seriousViolations, wedgeScan } from './ui';

/**
 * Issue 19's journey from a customer's defective phone back to the shelf: a Lifeline order ships;
 * the phone comes back under an RMA and receiving routes it to repair. It is sorted, assigned by
 * the leader, repaired with a screen scanned out of parts stock, fails its test once (touch), goes
 * back to the technician, passes with a grade, is approved on the reuse queue, consolidated into
 * an inventory box and put away; the repair history and the device lookup tell the whole story.
 */

/** This spec's tag: its vendor, models, users, part and locations never meet another spec's. */
const TAG = 167;
const FIRST_SIM = TAG * 1_000_000;
const PART = `LCD-${TAG}`;
const BIN = `R${TAG}-01`;
const staff = (role: string, first: string): Staff => ({
  userName: `${role}.${TAG}`,
  name: `${first} ${TAG}`,
  password: `${role}-${TAG}-password-2026`,
});
const SORTER = staff('sorter', 'Sam');
const LEAD = staff('repairlead', 'Rita');
const TECH = staff('tech', 'Theo');
const TESTER = staff('tester', 'Tess');
const CONSOLIDATOR = staff('boxer', 'Bea');
const KEEPER = staff('keeper', 'Kim');

let imei: string;
let rmaNumber: string;
/** The inventory box the repaired phone was consolidated into. */
let boxCode: string;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ playwright }, testInfo) => {
  test.setTimeout(180_000);
  const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  const admin = await apiAs(request, 'admin', ADMIN_PASSWORD);
  const grader = staff('grader', 'Gus');
  const picker = staff('picker', 'Pia');
  const { orders } = await readyLifelineOrders(request, admin, {
    tag: TAG,
    grader,
    skuPrefix: `REP${TAG}`,
    devices: 1,
    orders: 1,
    firstSim: FIRST_SIM,
  });
  const [order] = orders;

  // The order is picked, labelled and scanned out.
  const { id: pickerId } = await createStaff(request, admin, picker, 'Fulfilment Worker');
  await admin.post('/fulfilment/assignments', { assignee_id: pickerId, order_ids: [order!.id] });
  const picking = await apiAs(request, picker.userName, picker.password);
  const pick = await picking.get<PickOrder>(`/fulfilment/picks/lookup?number=${order!.number}`);
  imei = pick.units[0]!.imei!;
  await picking.post(`/fulfilment/picks/${pick.id}/scans`, { code: imei });
  await picking.post(`/fulfilment/picks/${pick.id}/scans`, { code: iccidOf(FIRST_SIM) });
  const batch = await admin.post<LabelBatch>('/label-batches', { format: 'pdf' });
  const labelled = await admin.post<LabelStepAnswer>(`/label-batches/${batch.id}/labels`, {
    order_ids: [order!.id],
  });
  const shipped = await admin.post<ShipScanAnswer>('/ship-scans', {
    code: labelled.results[0]!.package!.tracking_number,
    station: 'Dock 1',
  });
  expect(shipped.result).toBe('shipped');

  // It comes back defective under an RMA, and receiving routes it to repair.
  const opened = await admin.post<RmaDetail>('/rmas', { imei, reason: 'defective' });
  rmaNumber = opened.rma.number;
  await admin.post(`/rmas/${opened.rma.id}/authorize`, {});
  await admin.post(`/rmas/${opened.rma.id}/scans`, { code: imei, station: 'Returns 1' });
  await admin.post(`/rmas/${opened.rma.id}/routes`, {
    device_id: opened.lines[0]!.device_id,
    route: 'repair',
    note: 'Screen cracked',
  });

  // A screen in parts stock, and a bin for the box it is consolidated into, in a zone of its own.
  const zone = await admin.post<{ id: number }>('/locations', {
    kind: 'zone',
    segment: `R${TAG}`,
    name: `Repair hall ${TAG}`,
  });
  const bin = await admin.post<{ id: number }>('/locations', {
    kind: 'bin',
    parent_id: zone.id,
    segment: '01',
  });
  await admin.post('/locations/activation', { ids: [zone.id, bin.id], active: true });
  const part = await admin.post<{ id: number }>('/parts', {
    part_number: PART,
    name: `Screen ${TAG}`,
    category: 'screen',
    cost_cents: 2500,
  });
  const partsVendor = await admin.post<{ id: number }>('/vendors', {
    name: `Parts vendor ${TAG}`,
    type: 'supplier',
  });
  await admin.post('/part-stock/receipts', {
    part_id: part.id,
    location_id: bin.id,
    qty: 3,
    reference: `PO-${TAG}`,
    vendor_id: partsVendor.id,
    unit_cost_cents: 2500,
  });

  await createStaff(request, admin, SORTER, 'Repair Sorting');
  await createStaff(request, admin, LEAD, 'Repair Leader');
  await createStaff(request, admin, TECH, 'Repair Worker');
  await createStaff(request, admin, TESTER, 'Repair Testing');
  await createStaff(request, admin, CONSOLIDATOR, 'Consolidation Worker');
  await createStaff(request, admin, KEEPER, 'Warehouse Manager');
  await request.dispose();
});

async function signInAs(page: Page, account: Staff) {
  await signIn(page, account.userName, account.password);
  await expect(page.getByRole('heading', { name: `Welcome, ${account.name}` })).toBeVisible();
}

async function openStation(page: Page, path: string, heading: string) {
  await page.goto(path);
  await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible({
    timeout: 30_000,
  });
}

/** The technician opens the ticket, starts the clock, and completes the repair. */
async function repair(page: Page, withPart: boolean) {
  await signInAs(page, TECH);
  await openStation(page, '/repair-process/worker', 'Technician');
  await rowOf(page, imei)
    .getByRole('button', { name: /^Open RT-/ })
    .click();
  await page.getByRole('button', { name: 'Start clock' }).click();
  await expect(page.getByRole('button', { name: 'Stop clock' })).toBeVisible();
  if (withPart) {
    const form = page.getByRole('form', { name: 'Issue a part' });
    await form.getByLabel('Part number or barcode').fill(PART);
    await form.getByRole('combobox', { name: 'From' }).click();
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option')
      .filter({ hasText: BIN })
      .click();
    await form.getByRole('button', { name: 'Issue part' }).click();
    await expect(rowOf(page.getByTestId('repair-ticket'), `${PART} Screen ${TAG}`)).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  }
  await page.getByRole('button', { name: 'Complete repair' }).click();
  await expect(page.getByText(/is repaired: it goes to testing/)).toBeVisible();
}

/** The tester opens the ticket's test. */
async function openTest(page: Page) {
  await signInAs(page, TESTER);
  await openStation(page, '/repair-process/testing', 'Testing');
  await rowOf(page, imei)
    .getByRole('button', { name: /^Test RT-/ })
    .click();
  return page.getByRole('form', { name: 'Repair test' });
}

test('the returned phone waits in sorting with its RMA, and is sorted', async ({ page }) => {
  await signInAs(page, SORTER);
  await openStation(page, '/repair-process/sorting', 'Sorting');
  await expect(rowOf(page, imei)).toContainText(rmaNumber);
  expect(await seriousViolations(page)).toEqual([]);
  await rowOf(page, imei)
    .getByRole('button', { name: /^Sort RT-/ })
    .click();
  const sorting = dialog(page, /^Sort RT-/);
  await sorting.getByLabel('Estimated repair cost ($)').fill('40');
  await sorting.getByLabel('Resale value ($)').fill('180');
  await sorting.getByRole('button', { name: 'Save sorting' }).click();
  await expect(page.getByText(/RT-\d{6} is sorted/)).toBeVisible();
});

test('the leader assigns it to a technician by load', async ({ page }) => {
  await signInAs(page, LEAD);
  await openStation(page, '/repair-process/leader', 'Repair leader');
  await rowOf(page, imei)
    .getByRole('button', { name: /^Assign RT-/ })
    .click();
  const assigning = dialog(page, /^Assign RT-/);
  await assigning.getByRole('combobox', { name: 'Technician' }).click();
  await chooseOption(page, `${TECH.name} (0 open)`);
  await assigning.getByRole('button', { name: 'Assign', exact: true }).click();
  await expect(page.getByText(new RegExp(`is assigned to ${TECH.name}`))).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

test('the technician repairs it with a part from stock', async ({ page }) => {
  await repair(page, true);
});

test('it fails its test on touch and goes back to the technician', async ({ page }) => {
  const failing = await openTest(page);
  await failing
    .getByRole('radiogroup', { name: 'touch result' })
    .getByText('Fail', { exact: true })
    .click();
  await failing.getByRole('button', { name: 'Fail: touch' }).click();
  await expect(page.getByText(new RegExp(`failed: back to ${TECH.name}`))).toBeVisible();
});

test('the technician repairs it again', async ({ page }) => {
  await repair(page, false);
});

test('it passes its test with a grade and is released', async ({ page }) => {
  const passing = await openTest(page);
  await passing.getByText(/^B: /).click();
  await passing.getByRole('button', { name: 'Pass and release' }).click();
  await expect(page.getByText(new RegExp(`${imei} is repaired, grade B`))).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

test('the repair history shows the ticket, its part and both tests', async ({ page }) => {
  await signInAs(page, SORTER);
  await openStation(page, '/repair-process/inquire-device', 'Repair history');
  await page.getByRole('searchbox', { name: 'Scan an IMEI' }).fill(imei);
  await page.getByRole('button', { name: 'Look up' }).click();
  const ticket = page.getByTestId('repair-ticket');
  // The state's tag (the timeline says "released" too).
  await expect(ticket.locator('.ant-tag', { hasText: /^released$/ })).toBeVisible();
  await expect(rowOf(ticket, `${PART} Screen ${TAG}`)).toBeVisible();
  await expect(ticket.getByText('failed', { exact: true })).toBeVisible();
  await expect(ticket.getByText('passed, grade B')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

test('the reuse queue approves it, and it is consolidated into a box and put away', async ({
  page,
  browser,
}) => {
  await signInAs(page, LEAD);
  await openStation(page, '/RMA/reuse', 'Reuse queue');
  await expect(rowOf(page, imei)).toContainText(rmaNumber);
  await page.getByRole('button', { name: `Re-inspect ${imei}` }).click();
  const inspect = dialog(page, `Re-inspect ${imei}`);
  await inspect.getByRole('combobox', { name: 'Grade' }).click();
  await chooseOption(page, 'B');
  await inspect.getByRole('button', { name: 'Decide' }).click();
  await expect(page.getByText(`${imei} is approved for reuse.`)).toBeVisible();

  const boxing = await (await browser.newContext()).newPage();
  await signInAs(boxing, CONSOLIDATOR);
  await openStation(boxing, '/consolidation/worker', 'Consolidation worker');
  const lines = boxing.getByTestId('scan-line');
  await wedgeScan(boxing, imei);
  await expect(lines.first()).toHaveAttribute('data-result', 'box_named');
  boxCode = /IB-\d+/.exec((await lines.first().textContent()) ?? '')![0];
  await wedgeScan(boxing, boxCode);
  await expect(lines.first()).toHaveAttribute('data-result', 'added');
  const label = boxing.context().waitForEvent('page');
  await boxing.getByRole('button', { name: `Seal ${boxCode} now` }).click();
  await expect(boxing.getByText(`${boxCode} is sealed: its label prints now.`)).toBeVisible();
  await (await label).close();

  const putaway = await (await browser.newContext()).newPage();
  await signInAs(putaway, KEEPER);
  await openStation(putaway, '/inventory-box/location/assign-location', 'Putaway');
  await wedgeScan(putaway, boxCode);
  await expect(putaway.getByTestId('suggestion')).toContainText(boxCode);
  await wedgeScan(putaway, BIN);
  await expect(putaway.getByTestId('scan-line').first()).toHaveAttribute('data-result', 'located');
  // The lane's browser outlives the test: a station left open would go on polling.
  await boxing.context().close();
  await putaway.context().close();
});

test('the device lookup tells the whole story: order, RMA, repair, box and bin', async ({
  page,
}) => {
  await signInAs(page, SORTER);
  await openStation(page, '/devices/scan', 'Device lookup');
  await wedgeScan(page, imei);
  const card = page.getByTestId('device-card');
  // Where it is now: in the box, put away in the bin, graded again.
  const where = rowOf(card, boxCode);
  await expect(where).toContainText('located');
  await expect(where).toContainText(BIN);
  await expect(rowOf(card, rmaNumber)).toBeVisible();
  const events = card.getByTestId('timeline-event');
  await expect(events.nth(0)).toContainText(`In box ${boxCode}`);
  await expect(events.nth(1)).toContainText('Reuse approved');
  await expect(events.filter({ hasText: 'Part fitted from stock' })).toContainText(PART);
  await expect(events.filter({ hasText: 'Failed its repair test' })).toContainText('touch');
  await expect(events.filter({ hasText: 'RMA opened' })).toContainText(rmaNumber);
  await expect(events.filter({ hasText: 'at station Dock 1' })).toContainText('Shipped');
  expect(await seriousViolations(page)).toEqual([]);
});
