import type {
  LabelBatch,
  LabelStepAnswer,
  PickOrder,
  RmaDetail,
  ShipScanAnswer,
} from '@inventory/contract';
import { expect, test } from '@playwright/test';
import { apiAs, createStaff, iccidOf, imeiOf, readyLifelineOrders, type Staff } from './api';
import { ADMIN_PASSWORD, signIn } from './support';
import { chooseOption, dialog, rowOf, searchList, seriousViolations, wedgeScan } from './ui';

/**
 * A defective phone comes back under an RMA, as the staff work it: a Lifeline order is picked,
 * labelled and scanned out through the API. Customer support opens the RMA from the device and
 * authorises it with a return label; receiving scans the label and the IMEI, ticks what came
 * back and sends the phone to reuse, and scans a second phone the RMA does not expect, which
 * flags it; the repair leader, its supervisor, clears the flag saying what was found; support
 * resolves the RMA with a replacement order, which the replacement pick queue shows with its
 * original order; the reuse queue approves the phone.
 */

const TAG = 199;
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
const SORTER = staff('ws', 'Sorter');
const LEADER = staff('rl', 'Leader');
/** A phone in the parcel that the RMA does not expect, of a TAC no model has. */
const STRANGER_IMEI = imeiOf(String(90_000_000 + TAG * 10 + 9), 1);

let pickerId: number;
let shipped: { number: string; imei: string };

test.beforeAll(async ({ playwright }, testInfo) => {
  const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  const admin = await apiAs(request, 'admin', ADMIN_PASSWORD);
  // Two units in stock: one ships, the other is there for the replacement.
  const ready = await readyLifelineOrders(request, admin, {
    tag: TAG,
    grader: GRADER,
    skuPrefix: `RMA${TAG}`,
    devices: 2,
    orders: 1,
    firstSim: FIRST_SIM,
  });
  const [order] = ready.orders;
  ({ id: pickerId } = await createStaff(request, admin, PICKER, 'Fulfilment Worker'));
  await createStaff(request, admin, CLERK, 'Shipping Clerk');
  await createStaff(request, admin, SUPPORT, 'Customer Support');
  await createStaff(request, admin, SORTER, 'Warehouse Sorting');
  await createStaff(request, admin, LEADER, 'Repair Leader');
  await admin.post('/fulfilment/assignments', { assignee_id: pickerId, order_ids: [order!.id] });
  const picker = await apiAs(request, PICKER.userName, PICKER.password);
  const pick = await picker.get<PickOrder>(`/fulfilment/picks/lookup?number=${order!.number}`);
  const imei = pick.units[0]!.imei!;
  await picker.post(`/fulfilment/picks/${pick.id}/scans`, { code: imei });
  await picker.post(`/fulfilment/picks/${pick.id}/scans`, { code: iccidOf(FIRST_SIM) });
  const clerk = await apiAs(request, CLERK.userName, CLERK.password);
  const batch = await clerk.post<LabelBatch>('/label-batches', { format: 'pdf' });
  const labelled = await clerk.post<LabelStepAnswer>(`/label-batches/${batch.id}/labels`, {
    order_ids: [order!.id],
  });
  const scan = await clerk.post<ShipScanAnswer>('/ship-scans', {
    code: labelled.results[0]!.package!.tracking_number,
    station: 'Dock 1',
  });
  expect(scan.result).toBe('shipped');
  shipped = { number: order!.number, imei };
  await request.dispose();
});

test('a defective phone comes back under an RMA, is replaced and approved for reuse', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  // The set-up's request context is gone with it: the test reads records with its own.
  const admin = await apiAs(request, 'admin', ADMIN_PASSWORD);
  // Customer support opens the RMA from the device and authorises it.
  await signIn(page, SUPPORT.userName, SUPPORT.password);
  await expect(page.getByRole('heading', { name: /^Welcome, / })).toBeVisible();
  await page.goto('/RMA');
  // The first page of the RMA area loads its code cold.
  await expect(page.getByRole('heading', { name: 'RMA list', level: 1 })).toBeVisible({
    timeout: 30_000,
  });
  await page.getByRole('button', { name: 'New RMA' }).click();
  const form = dialog(page, 'New RMA');
  await form.getByRole('textbox', { name: 'IMEI' }).fill(shipped.imei);
  await form.getByRole('combobox', { name: 'Reason' }).click();
  await chooseOption(page, 'Defective');
  await form.getByRole('button', { name: 'Open RMA' }).click();
  const record = dialog(page, /^RMA RMA-\d+$/);
  await expect(record).toContainText(shipped.number);
  const rmaId = Number(new URL(page.url()).searchParams.get('rma'));
  await record.getByRole('button', { name: 'Authorise' }).click();
  await expect(record.getByText('Authorised with a return label')).toBeVisible();
  await expect(record.getByRole('button', { name: 'Print return label' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  const rma = await admin.get<RmaDetail>(`/rmas/${rmaId}/detail`);
  const tracking = rma.label!.tracking_number;

  // Receiving scans the return label, then the phone; ticks what came with it; routes it.
  const bench = await (await browser.newContext()).newPage();
  await signIn(bench, SORTER.userName, SORTER.password);
  await expect(bench.getByRole('heading', { name: /^Welcome, / })).toBeVisible();
  await bench.goto('/RMA/scan');
  await expect(bench.getByRole('heading', { name: 'RMA receiving', level: 1 })).toBeVisible();
  const scanField = bench.getByRole('textbox', {
    name: 'Scan a return label, an RMA number or an IMEI',
  });
  await expect(scanField).toBeFocused();
  await wedgeScan(bench, tracking);
  const station = bench.getByTestId('rma-on-station');
  await expect(station).toContainText(shipped.number);
  await expect(bench.getByTestId('rma-received-count')).toHaveText('0 of 1');
  await wedgeScan(bench, shipped.imei);
  await expect(bench.getByTestId('scan-line').first()).toHaveAttribute('data-result', 'received');
  await expect(bench.getByTestId('rma-received-count')).toHaveText('1 of 1');
  await expect(scanField).toBeFocused();
  await station.getByRole('checkbox', { name: 'Charger' }).check();
  await station.getByRole('textbox', { name: 'Damage seen' }).fill('No sound from the speaker');
  await station.getByRole('button', { name: 'Save checklist' }).click();
  await expect(bench.getByText('Checklist saved.')).toBeVisible();
  await station.getByRole('button', { name: `Send ${shipped.imei} to reuse` }).click();
  await expect(rowOf(station, shipped.imei)).toContainText('Reuse');
  await wedgeScan(bench, STRANGER_IMEI);
  await expect(bench.getByTestId('scan-line').first()).toHaveAttribute('data-result', 'mismatch');
  expect(await seriousViolations(bench)).toEqual([]);

  // The repair leader supervises returns: sees what was scanned and clears the flag.
  const reuse = await (await browser.newContext()).newPage();
  await signIn(reuse, LEADER.userName, LEADER.password);
  await expect(reuse.getByRole('heading', { name: /^Welcome, / })).toBeVisible();
  await reuse.goto(`/RMA?rma=${rmaId}`);
  const flagged = dialog(reuse, /^RMA RMA-\d+$/);
  await expect(flagged.getByRole('list', { name: 'Mismatched scans' })).toContainText(
    STRANGER_IMEI,
  );
  await flagged.getByRole('button', { name: 'Clear mismatch' }).click();
  const clearance = dialog(reuse, /^Clear the mismatch of RMA-\d+$/);
  await clearance
    .getByRole('textbox', { name: 'What was found' })
    .fill('The customer’s old phone: set aside to send back');
  await clearance.getByRole('button', { name: 'Clear mismatch' }).click();
  await expect(reuse.getByText(/^RMA-\d+: mismatch cleared\.$/)).toBeVisible();
  await expect(
    flagged.getByText(/^Mismatch cleared, found: The customer’s old phone/),
  ).toBeVisible();
  expect(await seriousViolations(reuse)).toEqual([]);

  // Support resolves it with a replacement order.
  await page.reload();
  const inspected = dialog(page, /^RMA RMA-\d+$/);
  await inspected.getByRole('button', { name: 'Resolve' }).click();
  const resolve = dialog(page, /^Resolve RMA-\d+$/);
  await resolve.getByRole('button', { name: 'Resolve' }).click();
  await expect(page.getByText(/replacement order SO-\d+ created/)).toBeVisible();
  const resolved = await admin.get<RmaDetail>(`/rmas/${rmaId}/detail`);
  const replacement = resolved.rma.replacement_order_number!;
  expect(resolved.rma.status).toBe('replacement_sent');

  // The replacement waits on /fulfill/replacement with its original order.
  await admin.post('/fulfilment/assignments', {
    assignee_id: pickerId,
    order_ids: [resolved.rma.replacement_order_id],
  });
  const picking = await (await browser.newContext()).newPage();
  await signIn(picking, PICKER.userName, PICKER.password);
  await expect(picking.getByRole('heading', { name: /^Welcome, / })).toBeVisible();
  await picking.goto('/fulfill/replacement');
  await expect(picking.getByRole('heading', { name: 'Replacements', level: 1 })).toBeVisible();
  await expect(rowOf(picking, replacement)).toContainText(shipped.number);

  // The reuse queue re-inspects the phone and approves it into consolidation.
  await reuse.goto('/RMA/reuse');
  await expect(reuse.getByRole('heading', { name: 'Reuse queue', level: 1 })).toBeVisible();
  await searchList(reuse, shipped.imei);
  await expect(rowOf(reuse, shipped.imei)).toContainText(rma.rma.number);
  expect(await seriousViolations(reuse)).toEqual([]);
  await reuse.getByRole('button', { name: `Re-inspect ${shipped.imei}` }).click();
  const inspect = dialog(reuse, `Re-inspect ${shipped.imei}`);
  await inspect.getByRole('combobox', { name: 'Grade' }).click();
  await chooseOption(reuse, 'B');
  await inspect.getByRole('button', { name: 'Decide' }).click();
  await expect(reuse.getByText(`${shipped.imei} is approved for reuse.`)).toBeVisible();

  // The device lookup lists the RMA.
  await reuse.goto(`/devices/scan?code=${shipped.imei}`);
  await expect(rowOf(reuse, rma.rma.number)).toContainText('replacement sent');
  // The lane's browser outlives the test: a station left open would go on polling.
  for (const station of [bench, picking, reuse]) await station.context().close();
});
