import type { LabelBatch, LabelStepAnswer, PickOrder, ShipScanAnswer } from '@inventory/contract';
import { expect, test } from '@playwright/test';
import { apiAs, createStaff, iccidOf, imeiOf, readyLifelineOrders, type Staff } from './api';
import { ADMIN_PASSWORD, signIn } from './support';
import { chooseFile, chooseOption, dialog, rowOf } from './ui';

/**
 * A lost parcel's claim and a trade-in, as customer support and the returns desk work them. A
 * Lifeline order is picked, labelled and scanned out through the API, and the shipping clerk flags
 * its parcel lost. On /shipment-management/claim a manager opens USPS's filing terms, the claim is
 * drafted from the parcel's tracking number with its values prefilled, its proof attached, filed,
 * reviewed and paid: its device is written off as lost. On /shipment-management/trade-in a
 * customer's phone is expected, received by IMEI, inspected, revalued and the offer accepted: the
 * customer is credited.
 */

const TAG = 239;
const FIRST_SIM = TAG * 1_000_000;
const staff = (role: string, first: string): Staff => ({
  userName: `${role}.${TAG}`,
  name: `${first} ${TAG}`,
  password: `steady-${role}-${TAG}`,
});
const GRADER = staff('grader', 'Grader');
const PICKER = staff('fw', 'Picker');
const CLERK = staff('sh', 'Clerk');
/** The catalogue's second model (seedReceivingCatalogue): the traded-in phone's TAC. */
const TRADE_IN_IMEI = imeiOf(String(90_000_000 + TAG * 10 + 2), 41);
const CUSTOMER = `Customer ${TAG}`;

let parcel: { tracking: string; imei: string };

/** A small PDF: the claim's proof of value. */
const proofPdf = Buffer.from(
  '%PDF-1.4\n1 0 obj <</Type /Catalog>> endobj\ntrailer <</Root 1 0 R>>\n%%EOF\n',
);

test.beforeAll(async ({ playwright }, testInfo) => {
  test.setTimeout(180_000);
  const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  const admin = await apiAs(request, 'admin', ADMIN_PASSWORD);
  const ready = await readyLifelineOrders(request, admin, {
    tag: TAG,
    grader: GRADER,
    skuPrefix: `CLM${TAG}`,
    devices: 1,
    orders: 1,
    firstSim: FIRST_SIM,
  });
  const [order] = ready.orders;
  const { id: pickerId } = await createStaff(request, admin, PICKER, 'Fulfilment Worker');
  await createStaff(request, admin, CLERK, 'Shipping Clerk');
  await admin.post('/fulfilment/assignments', { assignee_id: pickerId, order_ids: [order!.id] });
  const picker = await apiAs(request, PICKER.userName, PICKER.password);
  const pick = await picker.get<PickOrder>(`/fulfilment/picks/lookup?number=${order!.number}`);
  const imei = pick.units[0]!.imei!;
  await picker.post(`/fulfilment/picks/${pick.id}/scans`, { code: imei });
  const picked = await picker.post<{ order: PickOrder }>(`/fulfilment/picks/${pick.id}/scans`, {
    code: iccidOf(FIRST_SIM),
  });
  expect(picked.order.status).toBe('fulfilled');

  const clerk = await apiAs(request, CLERK.userName, CLERK.password);
  const batch = await clerk.post<LabelBatch>('/label-batches', { format: 'pdf' });
  const labelled = await clerk.post<LabelStepAnswer>(`/label-batches/${batch.id}/labels`, {
    order_ids: [order!.id],
  });
  const shipped = labelled.results[0]!.package!;
  const scan = await clerk.post<ShipScanAnswer>('/ship-scans', {
    code: shipped.tracking_number,
    station: 'Dock 1',
  });
  expect(scan.result).toBe('shipped');
  await clerk.post(`/parcel-shipments/${shipped.id}/lost`, { reason: 'No scan for three weeks' });
  parcel = { tracking: shipped.tracking_number, imei };
  await request.dispose();
});

test('a claim is filed for a lost parcel with its proof and paid: its device is lost', async ({
  page,
}) => {
  await signIn(page, 'admin', ADMIN_PASSWORD);
  await expect(page.getByRole('heading', { name: /^Welcome, / })).toBeVisible();
  await page.goto('/shipment-management/claim');
  await expect(page.getByRole('heading', { name: 'Claims', level: 1 })).toBeVisible();

  // The parcel shipped today: a manager lets USPS lost claims be filed at once.
  await page.getByRole('button', { name: 'Change USPS terms' }).click();
  const terms = dialog(page, 'USPS claim terms');
  await terms.getByLabel('Lost parcels: days before filing').fill('0');
  await terms.getByRole('button', { name: 'Save terms' }).click();
  await expect(page.getByText("USPS's claim terms are saved.")).toBeVisible();

  await page.getByLabel('Tracking number').fill(parcel.tracking);
  await page.getByRole('button', { name: 'Look up parcel' }).click();
  await expect(page.getByText(parcel.imei)).toBeVisible();
  await page.getByRole('button', { name: `Draft a claim for ${parcel.tracking}` }).click();
  const draft = dialog(page, `Claim for ${parcel.tracking}`);
  await draft.getByLabel('Claimed (cents)').fill('15000');
  await draft.getByRole('button', { name: 'Draft claim' }).click();
  await expect(page.getByText(/is drafted: attach the proof/)).toBeVisible();

  const claim = dialog(page, /^Claim CL-/);
  await chooseFile(page, () => claim.getByRole('button', { name: 'Attach a file' }).click(), {
    name: `proof-${TAG}.pdf`,
    mimeType: 'application/pdf',
    buffer: proofPdf,
  });
  await expect(page.getByText(`proof-${TAG}.pdf is attached.`)).toBeVisible();

  await claim.getByRole('button', { name: 'File with the carrier' }).click();
  const filing = dialog(page, /^File CL-.* with USPS$/);
  await filing.getByLabel("Carrier's claim number").fill(`USPS-${TAG}`);
  await filing.getByRole('button', { name: 'File claim' }).click();
  await expect(page.getByText(/is filed\./)).toBeVisible();
  await claim.getByRole('button', { name: 'Carrier is reviewing' }).click();
  await expect(page.getByText(/is in review\./)).toBeVisible();
  await claim.getByRole('button', { name: 'Record payment' }).click();
  const payment = dialog(page, /^Payment of CL-/);
  await expect(payment.getByLabel('Amount paid (cents)')).toHaveValue('15000');
  await payment.getByRole('button', { name: 'Record payment' }).click();
  await expect(page.getByText(/is paid\./)).toBeVisible();
  await expect(rowOf(claim, parcel.imei)).toContainText('lost');
  await expect(claim.getByText(`proof-${TAG}.pdf`)).toBeVisible();
});

test('a trade-in is received, inspected, revalued and the offer accepted', async ({ page }) => {
  await signIn(page, 'admin', ADMIN_PASSWORD);
  await expect(page.getByRole('heading', { name: /^Welcome, / })).toBeVisible();
  await page.goto('/shipment-management/trade-in');
  await expect(page.getByRole('heading', { name: 'Trade-ins', level: 1 })).toBeVisible();

  await page.getByRole('button', { name: 'Expect a trade-in' }).click();
  const expecting = dialog(page, 'Expect a trade-in');
  await expecting.getByLabel("Customer's name").fill(CUSTOMER);
  await expecting.getByLabel('Street address').fill('5 Pine St');
  await expecting.getByLabel('City').fill('Austin');
  await expecting.getByLabel('State').fill('TX');
  await expecting.getByLabel('ZIP code').fill('78701');
  await expecting.getByLabel('Declared model').fill(`Phone ${TAG} Plus, like new`);
  await expecting.getByLabel('Quoted value (cents)').fill('6000');
  await expecting.getByRole('button', { name: 'Expect trade-in' }).click();
  await expect(page.getByText(/TI-\d+ is expected\./)).toBeVisible();

  const row = rowOf(page, CUSTOMER);
  await row.getByRole('button', { name: /^Receive TI-/ }).click();
  const receiving = dialog(page, /^Receive TI-/);
  await receiving.getByLabel('IMEI').fill(TRADE_IN_IMEI);
  await receiving.getByRole('button', { name: 'Receive' }).click();
  await expect(row).toContainText(TRADE_IN_IMEI);
  await expect(row.getByTestId('trade-in-status')).toHaveText('received');

  await row.getByRole('button', { name: /^Inspect TI-/ }).click();
  const inspecting = dialog(page, /^Inspect TI-/);
  for (const item of [
    'Powers on',
    'Erased',
    'Activation lock off',
    'Functions work',
    'Body good',
  ]) {
    await inspecting.getByRole('switch', { name: item }).click();
  }
  await inspecting.getByRole('combobox', { name: 'Grade' }).click();
  await chooseOption(page, 'C');
  await inspecting.getByRole('button', { name: 'Record inspection' }).click();
  await expect(row.getByTestId('trade-in-status')).toHaveText('inspected');
  await expect(row).toContainText('not: screen good');

  await row.getByRole('button', { name: /^Revalue TI-/ }).click();
  const revaluing = dialog(page, /^Revalue TI-/);
  await revaluing.getByLabel('Revised offer (cents)').fill('4500');
  await revaluing.getByRole('button', { name: 'Make offer' }).click();
  await expect(row.getByTestId('trade-in-status')).toHaveText('revalued');
  await expect(row).toContainText('$45.00 until');

  await row.getByRole('button', { name: /^Accept TI-/ }).click();
  await expect(page.getByText(/is accepted: \$45\.00 credited/)).toBeVisible();
  const finished = rowOf(page.getByRole('table').nth(1), CUSTOMER);
  await expect(finished.getByTestId('trade-in-status')).toHaveText('accepted');
  await expect(finished).toContainText('credit $45.00');
});
