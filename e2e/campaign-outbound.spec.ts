import type { PickOrder } from '@inventory/contract';
import { expect, test } from '@playwright/test';
import {
  apiAs,
  createClientCarrier,
  createStaff,
  iccidOf,
  imeiOf,
  listedVariant,
  locateGradedStock,
  receiveSimPacks,
  receiveStagedBox,
  seedReceivingCatalogue,
  type Staff,
} from './api';
import { ADMIN_PASSWORD, signIn } from './support';
import { chooseOption, closeNotifications, rowOf, seriousViolations, wedgeScan } from './ui';

/**
 * A campaign's outbound as the shipping clerk works it: a campaign file's two Lifeline orders,
 * assigned and picked through the fulfilment API, get their labels on the campaign's label desk
 * (the PDF downloaded) and leave on the campaign's scan-out, whose progress bar reaches 100%.
 */

const TAG = 179;
const FIRST_SIM = TAG * 1_000_000;
const CAMPAIGN = `Summer Lifeline ${TAG}`;
const staff = (role: string, first: string): Staff => ({
  userName: `${role}.${TAG}`,
  name: `${first} ${TAG}`,
  password: `steady-${role}-${TAG}`,
});
const GRADER = staff('grader', 'Grader');
const PICKER = staff('fw', 'Picker');
const CLERK = staff('sh', 'Clerk');

/** The campaign's orders, fulfilled. */
let numbers: string[] = [];

test.beforeAll(async ({ playwright }, testInfo) => {
  const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  const admin = await apiAs(request, 'admin', ADMIN_PASSWORD);

  // Two grade-A devices in stock, listed on the campaign channel; the carrier's SIMs.
  const catalogue = await seedReceivingCatalogue(admin, TAG);
  const imeis = [1, 2].map((n) => imeiOf(catalogue.models.main.tac, n));
  const box = await receiveStagedBox(admin, catalogue, { tag: TAG, imeis });
  await locateGradedStock(request, admin, { catalogue, box, worker: GRADER, tag: TAG, grade: 'A' });
  const sku = await listedVariant(admin, catalogue, {
    skuPrefix: `CMO${TAG}`,
    grade: 'A',
    listing: { channel: 'campaign', qty_pushed: 2, price_cents: 0 },
  });
  const carrier = await createClientCarrier(admin, `Carrier ${TAG}`);
  await receiveSimPacks(admin, { carrierId: carrier.id, first: FIRST_SIM, qty: 10, size: 10 });

  // The campaign file, imported whole.
  const csv = [
    'external_ref,name,address,city,state,zip,phone,sku,qty,notes',
    `S${TAG}-1,Maria Lopez,1200 Main St,Houston,TX,77002,,${sku},1,`,
    `S${TAG}-2,Ann Lee,7 Oak St,Dallas,TX,75201,,${sku},1,`,
  ].join('\n');
  const batch = await admin.upload<{ id: number }>(
    '/campaign-orders/imports',
    `summer-${TAG}.csv`,
    csv,
  );
  const checked = await admin.post<{ errors: unknown[] }>(
    `/campaign-orders/imports/${batch.id}/check`,
    {
      options: {
        name: CAMPAIGN,
        client_carrier_id: carrier.id,
        program: 'lifeline',
        fulfilment_type: 'new_lifeline',
      },
    },
  );
  expect(checked.errors).toEqual([]);
  await admin.post(`/campaign-orders/imports/${batch.id}/commit`, { mode: 'all_or_nothing' });
  const campaigns = await admin.get<{ id: number; name: string }[]>('/campaigns?status=open');
  const campaign = campaigns.find((one) => one.name === CAMPAIGN)!;
  const detail = await admin.get<{ orders: { id: number; number: string; status: string }[] }>(
    `/campaigns/${campaign.id}`,
  );
  expect(detail.orders.map((order) => order.status)).toEqual(['ready', 'ready']);

  // Assigned to the picker and picked (device, then SIM) through the fulfilment API.
  const { id: pickerId } = await createStaff(request, admin, PICKER, 'Fulfilment Worker');
  await createStaff(request, admin, CLERK, 'Shipping Clerk');
  const assigned = await admin.post<{ assigned: unknown[] }>('/fulfilment/assignments', {
    assignee_id: pickerId,
    order_ids: detail.orders.map((order) => order.id),
  });
  expect(assigned.assigned).toHaveLength(2);
  const picker = await apiAs(request, PICKER.userName, PICKER.password);
  numbers = [];
  for (const [n, { number }] of detail.orders.entries()) {
    const order = await picker.get<PickOrder>(`/fulfilment/picks/lookup?number=${number}`);
    await picker.post(`/fulfilment/picks/${order.id}/scans`, { code: order.units[0]!.imei! });
    const sim = await picker.post<{ order: PickOrder }>(`/fulfilment/picks/${order.id}/scans`, {
      code: iccidOf(FIRST_SIM + n),
    });
    expect(sim.order.status).toBe('fulfilled');
    numbers.push(number);
  }
  await request.dispose();
});

test('a campaign’s labels are printed on its desk and its parcels scanned out to 100%', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signIn(page, CLERK.userName, CLERK.password);
  await expect(page.getByRole('heading', { name: /^Welcome, / })).toBeVisible();

  // The campaign's label desk: choose the campaign, its two orders wait; one batch labels them.
  await page.goto('/order/express-orders/print-label');
  await expect(page.getByRole('heading', { name: 'Campaign labels', level: 1 })).toBeVisible();
  await page.getByRole('combobox', { name: 'Campaign' }).fill(CAMPAIGN);
  await chooseOption(page, `${CAMPAIGN} · Carrier ${TAG} (0/2)`);
  await expect(page).toHaveURL(/campaign=\d+/);
  await expect(page.getByText('Labelled: 0 of 2 orders')).toBeVisible();
  const ground = page.getByRole('region', { name: 'USPS Ground Advantage' });
  await expect(ground.getByRole('checkbox', { name: /^Choose order / })).toHaveCount(2);
  for (const number of numbers) {
    await ground.getByRole('checkbox', { name: `Choose order ${number}` }).check();
  }
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole('button', { name: 'Create 2 labels' }).click();
  await expect(page.getByText(/^2 labels created in batch \d+\.$/)).toBeVisible();
  await closeNotifications(page);
  await expect(page.getByText('Labelled: 2 of 2 orders')).toBeVisible();
  const batch = page.getByRole('region', { name: /^Batch \d+$/ });
  const tracking: string[] = [];
  for (const number of numbers) {
    const row = rowOf(batch, number);
    await expect(row.getByTestId('label-result')).toHaveText('Label created');
    tracking.push(/9\d{21}/.exec((await row.textContent()) ?? '')![0]);
  }

  // The batch as one PDF.
  const downloading = page.waitForEvent('download');
  await batch.getByRole('button', { name: 'Download labels (PDF)' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^labels-batch-\d+\.pdf$/);
  const { readFile } = await import('node:fs/promises');
  const pdf = await readFile((await download.path())!);
  expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');

  // The campaign's scan-out, the same campaign kept in the address: each parcel scanned twice.
  const campaignId = new URL(page.url()).searchParams.get('campaign');
  await page.goto(`/order/express-orders/scan?campaign=${campaignId}`);
  await expect(page.getByRole('heading', { name: 'Campaign scan-out', level: 1 })).toBeVisible();
  const bar = page.getByTestId('campaign-progress');
  await expect(page.getByText('Scanned out: 0 of 2 orders')).toBeVisible();
  await expect(bar).toContainText('0%');
  const scanField = page.getByRole('textbox', { name: 'Scan a parcel or a device' });
  await expect(scanField).toBeFocused();
  const newest = page.getByTestId('scan-line').first();
  for (const [n, code] of tracking.entries()) {
    await wedgeScan(page, code);
    await expect(newest).toHaveAttribute('data-result', 'parcel');
    await wedgeScan(page, code);
    await expect(newest).toHaveAttribute('data-result', 'shipped');
    await expect(page.getByText(`Scanned out: ${n + 1} of 2 orders`)).toBeVisible();
  }
  await expect(bar).toContainText('100%');
  expect(await seriousViolations(page)).toEqual([]);
});
