import type { LabelBatch, LabelStepAnswer, PickOrder, ShipScanAnswer } from '@inventory/contract';
import { expect, test } from '@playwright/test';
import { apiAs, createStaff, iccidOf, readyLifelineOrders, type Staff } from './api';
import { ADMIN_PASSWORD, signIn } from './support';
import { rowOf, seriousViolations, wedgeScan } from './ui';

/**
 * A returned parcel as the returns bench works it: a Lifeline order (a phone and its SIM) is
 * picked, labelled and scanned out through the API, and the carrier's tracking file sends it back
 * to its sender. At the unpack station the parcel is scanned, its device and SIM found and the
 * parcel recorded; the SIM waits on /RMA/sim and the statistics count the return.
 */

const TAG = 197;
const FIRST_SIM = TAG * 1_000_000;
const staff = (role: string, first: string): Staff => ({
  userName: `${role}.${TAG}`,
  name: `${first} ${TAG}`,
  password: `steady-${role}-${TAG}`,
});
const GRADER = staff('grader', 'Grader');
const PICKER = staff('fw', 'Picker');
const CLERK = staff('sh', 'Clerk');
const SORTER = staff('ws', 'Sorter');
const COORDINATOR = staff('sc', 'Coordinator');

let parcel: { tracking: string; number: string; imei: string; iccid: string };

test.beforeAll(async ({ playwright }, testInfo) => {
  const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  const admin = await apiAs(request, 'admin', ADMIN_PASSWORD);
  const ready = await readyLifelineOrders(request, admin, {
    tag: TAG,
    grader: GRADER,
    skuPrefix: `UNP${TAG}`,
    devices: 1,
    orders: 1,
    firstSim: FIRST_SIM,
  });
  const [order] = ready.orders;
  const { id: pickerId } = await createStaff(request, admin, PICKER, 'Fulfilment Worker');
  await createStaff(request, admin, CLERK, 'Shipping Clerk');
  await createStaff(request, admin, SORTER, 'Warehouse Sorting');
  await createStaff(request, admin, COORDINATOR, 'SIM Coordinator');
  await admin.post('/fulfilment/assignments', { assignee_id: pickerId, order_ids: [order!.id] });
  const picker = await apiAs(request, PICKER.userName, PICKER.password);
  const pick = await picker.get<PickOrder>(`/fulfilment/picks/lookup?number=${order!.number}`);
  const imei = pick.units[0]!.imei!;
  await picker.post(`/fulfilment/picks/${pick.id}/scans`, { code: imei });
  const iccid = iccidOf(FIRST_SIM);
  const picked = await picker.post<{ order: PickOrder }>(`/fulfilment/picks/${pick.id}/scans`, {
    code: iccid,
  });
  expect(picked.order.status).toBe('fulfilled');

  const clerk = await apiAs(request, CLERK.userName, CLERK.password);
  const batch = await clerk.post<LabelBatch>('/label-batches', { format: 'pdf' });
  const labelled = await clerk.post<LabelStepAnswer>(`/label-batches/${batch.id}/labels`, {
    order_ids: [order!.id],
  });
  const tracking = labelled.results[0]!.package!.tracking_number;
  const scan = await clerk.post<ShipScanAnswer>('/ship-scans', {
    code: tracking,
    station: 'Dock 1',
  });
  expect(scan.result).toBe('shipped');
  // The carrier sends it back: undeliverable.
  const csv = [
    'Tracking number,Status,Occurred at,Location,Description',
    `${tracking},Return to Sender,${new Date(Date.now() - 3_600_000).toISOString()},"HOUSTON, TX 77002",Undeliverable`,
  ].join('\n');
  const upload = await clerk.upload<{ id: number }>(
    '/tracking-events/imports',
    `returns-${TAG}.csv`,
    csv,
  );
  await clerk.post(`/tracking-events/imports/${upload.id}/check`, {});
  await clerk.post(`/tracking-events/imports/${upload.id}/commit`, {});
  parcel = { tracking, number: order!.number, imei, iccid };
  await request.dispose();
});

test('an undeliverable parcel is unpacked; its SIM waits on /RMA/sim and the statistics count it', async ({
  page,
  browser,
}) => {
  await signIn(page, SORTER.userName, SORTER.password);
  await expect(page.getByRole('heading', { name: /^Welcome, / })).toBeVisible();
  await page.goto('/shipment-management/unpack');
  await expect(page.getByRole('heading', { name: 'Unpack', level: 1 })).toBeVisible();
  const scanField = page.getByRole('textbox', { name: 'Scan a parcel or what is inside' });

  await wedgeScan(page, parcel.tracking);
  const card = page.getByTestId('returned-parcel');
  await expect(card).toContainText(parcel.number);
  await expect(card).toContainText('Undeliverable (returned to sender)');
  await expect(page.getByTestId('found-devices')).toHaveText('0 of 1');

  await wedgeScan(page, parcel.imei);
  await wedgeScan(page, parcel.iccid);
  await expect(page.getByTestId('found-devices')).toHaveText('1 of 1');
  await expect(page.getByTestId('found-sims')).toHaveText('1 of 1');
  await expect(scanField).toBeFocused();
  expect(await seriousViolations(page)).toEqual([]);

  // The parcel scanned again records it.
  await wedgeScan(page, parcel.tracking);
  await expect(page.getByTestId('unpack-outcome')).toContainText('Unpacked: match');
  await expect(page.getByTestId('scan-line').first()).toHaveAttribute('data-result', 'unpacked');

  // The SIM waits for a decision on /RMA/sim.
  const coordinator = await (await browser.newContext()).newPage();
  await signIn(coordinator, COORDINATOR.userName, COORDINATOR.password);
  await expect(coordinator.getByRole('heading', { name: /^Welcome, / })).toBeVisible();
  await coordinator.goto('/RMA/sim');
  await expect(coordinator.getByRole('heading', { name: 'RMA SIMs', level: 1 })).toBeVisible();
  const simRow = rowOf(coordinator.getByTestId('returned-sims'), parcel.iccid);
  await expect(simRow).toContainText(`Parcel ${parcel.tracking}`);
  await expect(simRow).toContainText(parcel.number);
  expect(await seriousViolations(coordinator)).toEqual([]);
  await coordinator.close();

  // The statistics count the return today.
  const manager = await (await browser.newContext()).newPage();
  await signIn(manager, 'admin', ADMIN_PASSWORD);
  await expect(manager.getByRole('heading', { name: /^Welcome, / })).toBeVisible();
  await manager.goto('/shipment-management/unpack/statistics');
  await expect(manager.getByRole('heading', { name: 'Unpack statistics', level: 1 })).toBeVisible();
  await expect(manager.getByTestId('total-returns')).not.toHaveText('0');
  await expect(
    rowOf(manager.locator('.ant-card', { hasText: 'Returns by reason' }), 'Undeliverable'),
  ).toBeVisible();
  expect(await seriousViolations(manager)).toEqual([]);
  await manager.close();
});
