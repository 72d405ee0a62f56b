import type { LabelBatch, LabelStepAnswer, PickOrder, ShipScanAnswer } from '@inventory/contract';
import { expect, test } from '@playwright/test';
import { apiAs, createStaff, iccidOf, readyLifelineOrders, type Staff } from './api';
import { ADMIN_PASSWORD, signIn } from './support';
import { closeNotifications, rowOf, seriousViolations } from './ui';

/**
 * Tracking as the shipping clerk works it: two Lifeline orders picked, labelled and scanned out
 * through the API; a carrier's tracking file marks one parcel delivered and the other returned to
 * its sender. The file is checked first (a line with an unknown number is named and nothing is
 * written), then the corrected file goes in; the list, the parcel's events and the orders show it.
 */

const TAG = 137;
const FIRST_SIM = TAG * 1_000_000;
const staff = (role: string, first: string): Staff => ({
  userName: `${role}.${TAG}`,
  name: `${first} ${TAG}`,
  password: `steady-${role}-${TAG}`,
});
const GRADER = staff('grader', 'Grader');
const PICKER = staff('fw', 'Picker');
const CLERK = staff('sh', 'Clerk');

type Shipped = { orderId: number; number: string; tracking: string };
let shipped: Shipped[] = [];

test.beforeAll(async ({ playwright }, testInfo) => {
  const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  const admin = await apiAs(request, 'admin', ADMIN_PASSWORD);
  const ready = await readyLifelineOrders(request, admin, {
    tag: TAG,
    grader: GRADER,
    skuPrefix: `TRK${TAG}`,
    devices: 2,
    orders: 2,
    firstSim: FIRST_SIM,
  });
  const ids = ready.orders.map((order) => order.id);
  const { id: pickerId } = await createStaff(request, admin, PICKER, 'Fulfilment Worker');
  await createStaff(request, admin, CLERK, 'Shipping Clerk');
  await admin.post('/fulfilment/assignments', { assignee_id: pickerId, order_ids: ids });
  const picker = await apiAs(request, PICKER.userName, PICKER.password);
  for (const [n, { number }] of ready.orders.entries()) {
    const order = await picker.get<PickOrder>(`/fulfilment/picks/lookup?number=${number}`);
    await picker.post(`/fulfilment/picks/${order.id}/scans`, { code: order.units[0]!.imei! });
    const sim = await picker.post<{ order: PickOrder }>(`/fulfilment/picks/${order.id}/scans`, {
      code: iccidOf(FIRST_SIM + n),
    });
    expect(sim.order.status).toBe('fulfilled');
  }
  // Labelled in one batch and scanned out at the dock.
  const clerk = await apiAs(request, CLERK.userName, CLERK.password);
  const batch = await clerk.post<LabelBatch>('/label-batches', { format: 'pdf' });
  const labelled = await clerk.post<LabelStepAnswer>(`/label-batches/${batch.id}/labels`, {
    order_ids: ids,
  });
  shipped = [];
  for (const result of labelled.results) {
    const parcel = result.package!;
    const scan = await clerk.post<ShipScanAnswer>('/ship-scans', {
      code: parcel.tracking_number,
      station: 'Dock 1',
    });
    expect(scan.result).toBe('shipped');
    shipped.push({
      orderId: parcel.order_id,
      number: parcel.order_number,
      tracking: parcel.tracking_number,
    });
  }
  await request.dispose();
});

const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString();

test('a tracking file marks one parcel delivered and one returned to sender; their orders follow', async ({
  page,
  playwright,
}, testInfo) => {
  const [home, away] = shipped as [Shipped, Shipped];
  await signIn(page, CLERK.userName, CLERK.password);
  await expect(page.getByRole('heading', { name: /^Welcome, / })).toBeVisible();

  await page.goto('/shipment-management/shipment');
  await expect(page.getByRole('heading', { name: 'Parcel shipments', level: 1 })).toBeVisible();
  for (const { tracking } of shipped) {
    await expect(rowOf(page, tracking).getByTestId('package-status')).toHaveText('scanned out');
  }
  expect(await seriousViolations(page)).toEqual([]);

  // The carrier's export, checked first: a number of nobody's parcel is named by its line.
  const header = 'Tracking number,Status,Occurred at,Location,Description';
  const events = [
    `${home.tracking},Accepted at USPS Origin Facility,${hoursAgo(30)},"DALLAS, TX 75260",`,
    `${home.tracking},Delivered,${hoursAgo(2)},"HOUSTON, TX 77002","Delivered, In/At Mailbox"`,
    `${away.tracking},Out for Delivery,${hoursAgo(50)},"HOUSTON, TX 77002",`,
    `${away.tracking},Return to Sender,${hoursAgo(1)},"HOUSTON, TX 77002",Refused`,
  ];
  const upload = (rows: string[]) =>
    page
      .getByRole('dialog', { name: 'Import tracking events' })
      .locator('input[type=file]')
      .setInputFiles({
        name: `tracking-${TAG}.csv`,
        mimeType: 'text/csv',
        buffer: Buffer.from([header, ...rows].join('\n')),
      });
  await page.getByRole('button', { name: 'Import' }).click();
  const importing = page.getByRole('dialog', { name: 'Import tracking events' });
  await upload([...events, `9400111111111111111111,Delivered,${hoursAgo(1)},,`]);
  await importing.getByRole('button', { name: 'Check every row' }).click();
  await expect(importing).toContainText(
    `1 error in tracking-${TAG}.csv: nothing has been written.`,
  );
  await expect(rowOf(importing, 'No parcel has the tracking number')).toContainText('6');
  await importing.getByRole('button', { name: 'Upload a corrected file' }).click();
  await upload(events);
  await importing.getByRole('button', { name: 'Check every row' }).click();
  await expect(importing).toContainText(
    'Every row is right: 4 new events to record, 0 events recorded already.',
  );
  expect(await seriousViolations(page, '.ant-drawer')).toEqual([]);
  await importing.getByRole('button', { name: 'Import 4 rows' }).click();
  await expect(importing).toContainText('4 new events recorded; 2 parcels moved.');
  await importing.getByRole('button', { name: 'Done' }).click();

  // The list: one delivered, one on its way back.
  await expect(rowOf(page, home.tracking).getByTestId('package-status')).toHaveText('delivered');
  await expect(rowOf(page, home.tracking).getByTestId('tracking-status')).toHaveText('Delivered');
  await expect(rowOf(page, away.tracking).getByTestId('package-status')).toHaveText(
    'return to sender',
  );

  // The delivered parcel's drawer: its events, newest first, and its order delivered.
  await rowOf(page, home.tracking).getByText(home.tracking).click();
  const drawer = page.getByRole('dialog', { name: `Parcel ${home.tracking}` });
  const timeline = drawer.getByTestId('tracking-event');
  await expect(timeline).toHaveCount(2);
  await expect(timeline.first()).toHaveAttribute('data-status', 'delivered');
  await expect(timeline.first()).toContainText('Delivered, In/At Mailbox');
  await expect(timeline.first()).toContainText('moved the parcel to delivered');
  await expect(drawer.getByTestId('parcel-order')).toHaveText(`${home.number} (delivered)`);
  expect(await seriousViolations(page, '.ant-drawer')).toEqual([]);
  await drawer.getByRole('button', { name: 'Close' }).click();
  await closeNotifications(page);

  // The returned parcel: its order is returned.
  await rowOf(page, away.tracking).getByText(away.tracking).click();
  const returned = page.getByRole('dialog', { name: `Parcel ${away.tracking}` });
  await expect(returned.getByTestId('parcel-order')).toHaveText(`${away.number} (returned)`);
  await expect(returned.getByTestId('tracking-event').first()).toHaveAttribute(
    'data-status',
    'return_to_sender',
  );

  // The orders as the order desk reads them.
  const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  const admin = await apiAs(request, 'admin', ADMIN_PASSWORD);
  expect((await admin.get<{ status: string }>(`/orders/${home.orderId}`)).status).toBe('delivered');
  expect((await admin.get<{ status: string }>(`/orders/${away.orderId}`)).status).toBe('returned');
  await request.dispose();
});
