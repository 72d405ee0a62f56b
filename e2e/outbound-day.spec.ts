import { expect, test, type Download, type Page } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import { PDFDocument } from 'pdf-lib';
import {
  apiAs,
  createClientCarrier,
  createStaff,
  iccidOf,
  imeiOf,
  lifelineOrder,
  listedGrades,
  locateGradedStock,
  receiveSimPacks,
  receiveStagedBox,
  seedReceivingCatalogue,
  type Staff,
} from './api';
import { ADMIN_PASSWORD, chooseFromUserMenu, signIn } from './support';
import { chooseOption, closeNotifications, dialog, pick, rowOf, wedgeScan } from './ui';

/**
 * The whole outbound day as the staff work it (DOMAIN.md 5.2 steps 3 to 8), one order set from
 * the morning's backlog to the carrier's tracking file. Three Lifeline orders of one model come in
 * from the client carrier: two new Lifeline kits (one of a grade with no stock, on hold) and an
 * OTA kit. The fulfilment manager substitutes the no-stock order and assigns the three in one
 * batch; the picker picks each device and SIM at the stations, reports the OTA pairing in the
 * carrier's batch file, sees it fail and re-pairs it with another SIM until the carrier says OK;
 * the shipping clerk prints the three labels (the PDF), sorts the parcels into a gaylord, closes
 * it with its SCAN form, scans them out at the dock, and imports the carrier's tracking file:
 * one delivered, one returned to sender. The device lookup shows the delivered phone's order,
 * tracking and every step since it was received.
 */

const TAG = 241;
const FIRST_SIM = TAG * 1_000_000;
const staff = (role: string, first: string): Staff => ({
  userName: `${role}.${TAG}`,
  name: `${first} ${TAG}`,
  password: `steady-${role}-${TAG}`,
});
const GRADER = staff('grader', 'Grader');
const MANAGER = staff('fm', 'Manager');
const PICKER = staff('fw', 'Picker');
const CLERK = staff('sh', 'Clerk');

let gradeA = '';
let gradeB = '';
let carrierName = '';
/** The orders: a new Lifeline kit, an OTA kit, and a new Lifeline kit of grade B (no stock). */
let orders = { kit: '', ota: '', noStock: '' };

test.beforeAll(async ({ playwright }, testInfo) => {
  const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  const admin = await apiAs(request, 'admin', ADMIN_PASSWORD);

  // Three grade-A phones received, graded and put away; the product sells grades A and B.
  const catalogue = await seedReceivingCatalogue(admin, TAG);
  const imeis = [1, 2, 3].map((n) => imeiOf(catalogue.models.main.tac, n));
  const box = await receiveStagedBox(admin, catalogue, { tag: TAG, imeis });
  await locateGradedStock(request, admin, { catalogue, box, worker: GRADER, tag: TAG, grade: 'A' });
  const listed = await listedGrades(admin, catalogue, {
    skuPrefix: `OUT${TAG}`,
    grades: ['A', 'B'],
    listing: { channel: 'carrier', qty_pushed: 5, price_cents: 0, allow_backorder: true },
  });
  gradeA = listed.A!.sku;
  gradeB = listed.B!.sku;

  // The client carrier: its SIMs in stock, its Lifeline substitution rule, its three enrolments.
  const carrier = await createClientCarrier(admin, `Carrier ${TAG}`);
  carrierName = carrier.name;
  await receiveSimPacks(admin, { carrierId: carrier.id, first: FIRST_SIM, qty: 10, size: 10 });
  await admin.post('/substitution-rules', { client_carrier_id: carrier.id, program: 'lifeline' });
  const ofCarrier = { tag: TAG, carrierId: carrier.id };
  const kit = await lifelineOrder(admin, { ...ofCarrier, n: 1, listingId: listed.A!.listingId });
  const ota = await lifelineOrder(admin, {
    ...ofCarrier,
    n: 2,
    listingId: listed.A!.listingId,
    fulfilmentType: 'ota',
  });
  const noStock = await lifelineOrder(admin, {
    ...ofCarrier,
    n: 3,
    listingId: listed.B!.listingId,
  });
  expect([kit.status, ota.status]).toEqual(['ready', 'ready']);
  expect(noStock).toMatchObject({ status: 'on_hold', hold_reason: 'no_stock' });
  orders = { kit: kit.number, ota: ota.number, noStock: noStock.number };

  await createStaff(request, admin, MANAGER, 'Fulfilment Manager');
  await createStaff(request, admin, PICKER, 'Fulfilment Worker');
  await createStaff(request, admin, CLERK, 'Shipping Clerk');
  await request.dispose();
});

/**
 * A colleague takes the shared workstation over: the one before signs out, the colleague signs in
 * and the home page greets them.
 */
async function takeOver(page: Page, who: Staff, before?: Staff) {
  if (before) {
    await chooseFromUserMenu(page, before.name, 'Logout', () =>
      expect(page).toHaveURL(/\/login$/, { timeout: 2_000 }),
    );
  }
  await signIn(page, who.userName, who.password);
  await expect(page.getByRole('heading', { name: `Welcome, ${who.name}` })).toBeVisible();
}

/** A downloaded file's text. */
const contentOf = async (download: Download) =>
  (await readFile((await download.path())!)).toString('utf8');

test('the outbound day: substitute, assign, pick, pair, label, gaylord, scan out, tracking, lookup', async ({
  page,
}) => {
  test.setTimeout(180_000);
  /** The device each order holds, read off the pick station; the parcels' tracking numbers. */
  const imeiOfOrder: Record<string, string> = {};
  const trackingOf: Record<string, string> = {};

  await test.step('the manager substitutes the no-stock order with the grade the rule allows', async () => {
    await takeOver(page, MANAGER);
    await page.goto('/fulfill/substitute');
    await expect(page.getByRole('heading', { name: 'Substitutions', level: 1 })).toBeVisible();
    const row = rowOf(page, orders.noStock);
    await expect(row).toContainText(gradeB);
    await row.getByRole('checkbox', { name: `Choose ${orders.noStock} ${gradeB}` }).check();
    await page.getByRole('combobox', { name: 'Substitute' }).click();
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option')
      .filter({ hasText: new RegExp(`^${gradeA} · \\d+ in stock · \\$0\\.00$`) })
      .click();
    await page.getByRole('button', { name: 'Substitute now' }).click();
    await expect(
      page.getByText(`1 order substituted and ready: ${orders.noStock}`, { exact: false }),
    ).toBeVisible();
    await expect(rowOf(page, orders.noStock)).toHaveCount(0);
    await closeNotifications(page);
  });

  await test.step('the manager assigns the model’s three orders to the picker in one batch', async () => {
    await page.goto('/fulfill/assignment');
    await expect(page.getByRole('heading', { name: 'Assignment', level: 1 })).toBeVisible();
    // The substituted order waits with the others, shipping the grade A phone now.
    await expect(rowOf(page, orders.noStock)).toContainText(`1 × ${gradeA}`);
    await pick(
      page,
      page.locator('main'),
      'Worker',
      PICKER.name,
      `${PICKER.name} (0 open, 0 units)`,
    );
    await page.getByRole('spinbutton', { name: 'Orders in the batch' }).fill('3');
    // Batch picking: the model's orders, whichever queue; other specs' ready orders wait too.
    await rowOf(page, gradeA)
      .getByRole('button', { name: /^Assign 3 orders of / })
      .click();
    await expect(
      page.getByText(`3 orders assigned to ${PICKER.name} (3 units reserved).`),
    ).toBeVisible();
    await closeNotifications(page);
  });

  /**
   * At a pick station, from the keyboard: the order, the device its row names (the reserved
   * unit), then a SIM of the carrier.
   */
  const pickKit = async (number: string, iccid: string) => {
    const scanField = page.getByRole('textbox', { name: 'Scan an order, IMEI or ICCID' });
    await expect(scanField).toBeFocused();
    const newest = page.getByTestId('scan-line').first();
    await wedgeScan(page, number);
    const picking = page.getByRole('region', { name: `Pick ${number}` });
    await expect(picking.getByTestId('picked-count')).toHaveText('0 of 1');
    // The unit's row: variant, where to pick it from, the IMEI reserved, SIM, status.
    const reserved = picking.getByRole('row').filter({ hasText: 'To pick' }).getByRole('cell');
    await expect(reserved.nth(2)).toHaveText(/^\d{15}$/);
    const imei = (await reserved.nth(2).textContent())!;
    imeiOfOrder[number] = imei;
    await wedgeScan(page, imei);
    await expect(newest).toHaveAttribute('data-result', 'picked');
    await wedgeScan(page, iccid);
    await expect(newest).toHaveAttribute('data-result', 'sim_paired');
    await expect(picking.getByTestId('pick-order-status')).toHaveText('fulfilled');
    await expect(scanField).toBeFocused();
    return picking;
  };

  await test.step('the picker picks a device and a SIM for each new Lifeline kit', async () => {
    await takeOver(page, PICKER, MANAGER);
    await page.goto('/fulfill/need-to-fulfill');
    await pickKit(orders.kit, iccidOf(FIRST_SIM));
    await pickKit(orders.noStock, iccidOf(FIRST_SIM + 1));
  });

  const pairings = page.getByRole('region', { name: 'Carrier pairings' });
  /** The pending pairing goes to the carrier in its batch file, naming the order, IMEI, ICCID. */
  const exportPairing = async (iccid: string) => {
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: `Export 1 pending pairing of ${carrierName}` }).click();
    const csv = await contentOf(await downloading);
    expect(csv).toContain(`${orders.ota},${imeiOfOrder[orders.ota]},${iccid},pairing`);
    await expect(
      page.getByText(`1 pairing of ${carrierName} exported and submitted.`),
    ).toBeVisible();
    await closeNotifications(page);
    await expect(rowOf(pairings, orders.ota)).toContainText('Submitted');
  };
  /** The carrier's answer file, checked and imported. */
  const importAnswer = async (result: 'ok' | 'failed', message: string) => {
    await page.getByRole('button', { name: "Import the carrier's answers" }).click();
    const drawer = page.getByRole('dialog', { name: /^Import carrier answers$/i });
    await drawer.locator('input[type=file]').setInputFiles({
      name: `answers-${result}.csv`,
      mimeType: 'text/csv',
      buffer: Buffer.from(`Order,Result,Message\n${orders.ota},${result},${message}\n`),
    });
    await drawer.getByRole('button', { name: 'Check every row' }).click();
    await expect(drawer).toContainText('Every row is right: 1 update to settle.');
    await drawer.getByRole('button', { name: 'Import 1 row' }).click();
    await expect(drawer).toContainText('1 update settled.');
    await drawer.getByRole('button', { name: 'Done' }).click();
  };

  await test.step('the OTA kit is picked, its pairing fails at the carrier and is re-paired', async () => {
    await page.goto('/fulfill/ota-orders');
    await expect(page.getByRole('heading', { name: 'OTA orders', level: 1 })).toBeVisible();
    const picking = await pickKit(orders.ota, iccidOf(FIRST_SIM + 2));
    await expect(picking.getByTestId('carrier-update-status')).toHaveText('Pending');
    await exportPairing(iccidOf(FIRST_SIM + 2));

    // The carrier cannot provision that SIM: the picker pairs the phone with another one.
    await importAnswer('failed', 'ICCID not provisioned');
    await expect(rowOf(pairings, orders.ota)).toContainText('Failed');
    await expect(rowOf(pairings, orders.ota)).toContainText('ICCID not provisioned');
    await rowOf(pairings, orders.ota)
      .getByRole('button', { name: `Re-pair ${orders.ota} with another SIM` })
      .click();
    await expect(
      page.getByText(`${orders.ota} waits for another SIM at ${PICKER.name}'s station.`),
    ).toBeVisible();
    await closeNotifications(page);
    const scanField = page.getByRole('textbox', { name: 'Scan an order, IMEI or ICCID' });
    await scanField.focus();
    const newest = page.getByTestId('scan-line').first();
    await wedgeScan(page, orders.ota);
    await expect(picking.getByTestId('paired-count')).toHaveText('0 of 1');
    await wedgeScan(page, iccidOf(FIRST_SIM + 3));
    await expect(newest).toHaveAttribute('data-result', 'sim_paired');
    await expect(picking.getByTestId('pick-order-status')).toHaveText('fulfilled');
    await expect(rowOf(pairings, orders.ota)).toContainText('Pending');

    // The next file carries the new SIM; the carrier says OK, and the label is free.
    await exportPairing(iccidOf(FIRST_SIM + 3));
    await importAnswer('ok', 'Paired');
    await expect(rowOf(pairings, orders.ota)).toContainText('OK');
  });

  const all = [orders.kit, orders.ota, orders.noStock];

  await test.step('the clerk prints the three labels in one batch and gets the PDF', async () => {
    await takeOver(page, CLERK, PICKER);
    await page.goto('/fulfill/print-label');
    await expect(page.getByRole('heading', { name: 'Print labels', level: 1 })).toBeVisible();
    const ground = page.getByRole('region', { name: 'USPS Ground Advantage' });
    for (const number of all) {
      await ground.getByRole('checkbox', { name: `Choose order ${number}` }).check();
    }
    await page.getByRole('button', { name: 'Create 3 labels' }).click();
    await expect(page.getByText(/^3 labels created in batch \d+\.$/)).toBeVisible();
    await closeNotifications(page);
    const batch = page.getByRole('region', { name: /^Batch \d+$/ });
    for (const number of all) {
      const row = rowOf(batch, number);
      await expect(row.getByTestId('label-result')).toHaveText('Label created');
      trackingOf[number] = /9\d{21}/.exec((await row.textContent()) ?? '')![0];
    }
    const downloading = page.waitForEvent('download');
    await batch.getByRole('button', { name: 'Download labels (PDF)' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^labels-batch-\d+\.pdf$/);
    // One 4×6 page (288 × 432 points) per label.
    const pdf = await PDFDocument.load(await readFile((await download.path())!));
    expect(pdf.getPages().map((one) => [one.getWidth(), one.getHeight()])).toEqual([
      [288, 432],
      [288, 432],
      [288, 432],
    ]);
  });

  let gaylord = '';
  await test.step('the clerk sorts the parcels into a gaylord, closes it and makes the SCAN form', async () => {
    await page.goto('/fulfill/gaylord');
    await expect(page.getByRole('heading', { name: 'Gaylords', level: 1 })).toBeVisible();
    await page.getByRole('button', { name: 'Open a gaylord' }).click();
    const opening = dialog(page, 'Open a gaylord');
    await opening.getByRole('combobox', { name: 'Carrier service' }).click();
    await chooseOption(page, 'USPS Ground Advantage');
    const labelTab = page.waitForEvent('popup');
    await opening.getByRole('button', { name: 'Open gaylord' }).click();
    await (await labelTab).close();
    await closeNotifications(page);
    const title = page.getByRole('heading', {
      level: 2,
      name: /^GL-\d{6} · USPS Ground Advantage$/,
    });
    gaylord = /GL-\d{6}/.exec((await title.textContent()) ?? '')![0];

    const newest = page.getByTestId('scan-line').first();
    for (const [n, number] of all.entries()) {
      await wedgeScan(page, trackingOf[number]!);
      await expect(newest).toHaveAttribute('data-result', 'sorted');
      await expect(page.getByTestId('gaylord-count')).toHaveText(String(n + 1));
    }
    await page.getByRole('button', { name: 'Close gaylord' }).click();
    const closing = dialog(page, `Close ${gaylord}`);
    await closing.getByRole('spinbutton', { name: 'Parcels counted' }).fill('3');
    await closing.getByRole('button', { name: 'Close gaylord' }).click();
    await expect(page.getByText(`Gaylord ${gaylord} is closed with 3 parcels.`)).toBeVisible();
    await closeNotifications(page);

    // A SCAN form is one per ship date, and it goes with the truck: the journey manifests for a
    // later day of its own, so that the gaylords spec, which may share this lane, still finds
    // today's form open.
    await page.getByRole('link', { name: 'All gaylords' }).click();
    await page.getByRole('button', { name: /^USPS SCAN form \(\d+ gaylords? waiting\)$/ }).click();
    const forming = dialog(page, 'USPS SCAN form');
    await forming
      .getByLabel('Ship date (YYYY-MM-DD)')
      .fill(new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10));
    const formTab = page.waitForEvent('popup');
    await forming.getByRole('button', { name: 'Make SCAN form' }).click();
    const tab = await formTab;
    await expect(tab).toHaveURL(/\/downloads\//);
    await tab.close();
    await expect(page.getByText(new RegExp(`${gaylord}.* SCAN form SF-\\d{6} `))).toBeVisible();
    await closeNotifications(page);
    const awaiting = page.getByRole('region', { name: /^Closed, awaiting pickup/ });
    await expect(rowOf(awaiting, gaylord)).toContainText(/SF-\d{6}/);
  });

  await test.step('the clerk scans the parcels out at the dock; the truck takes the gaylord', async () => {
    await page.goto('/fulfill/scan-to-ship');
    const scanField = page.getByRole('textbox', { name: 'Scan a parcel or a device' });
    await expect(scanField).toBeFocused();
    const newest = page.getByTestId('scan-line').first();
    // The first parcel checked against its phone, the others shipped on a second scan.
    await wedgeScan(page, trackingOf[orders.kit]!);
    await expect(newest).toHaveAttribute('data-result', 'parcel');
    await wedgeScan(page, imeiOfOrder[orders.kit]!);
    await expect(newest).toHaveAttribute('data-result', 'shipped');
    for (const number of [orders.ota, orders.noStock]) {
      await wedgeScan(page, trackingOf[number]!);
      await expect(newest).toHaveAttribute('data-result', 'parcel');
      await wedgeScan(page, trackingOf[number]!);
      await expect(newest).toHaveAttribute('data-result', 'shipped');
    }

    await page.goto('/fulfill/gaylord');
    const awaiting = page.getByRole('region', { name: /^Closed, awaiting pickup/ });
    await rowOf(awaiting, gaylord)
      .getByRole('button', { name: `Picked up ${gaylord}` })
      .click();
    await page.getByRole('tooltip').getByRole('button', { name: 'Picked up' }).click();
    await expect(
      page.getByText(`Gaylord ${gaylord} is picked up: its parcels shipped.`),
    ).toBeVisible();
    await closeNotifications(page);
  });

  await test.step('the carrier’s tracking file: one parcel delivered, one returned to sender', async () => {
    await page.goto('/shipment-management/shipment');
    await expect(page.getByRole('heading', { name: 'Parcel shipments', level: 1 })).toBeVisible();
    const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString();
    const [home, away] = [trackingOf[orders.kit]!, trackingOf[orders.noStock]!];
    const file = [
      'Tracking number,Status,Occurred at,Location,Description',
      `${home},Accepted at USPS Origin Facility,${hoursAgo(3)},"DALLAS, TX 75260",`,
      `${home},Delivered,${hoursAgo(1)},"HOUSTON, TX 77002","Delivered, In/At Mailbox"`,
      `${away},Out for Delivery,${hoursAgo(2)},"HOUSTON, TX 77002",`,
      `${away},Return to Sender,${hoursAgo(1)},"HOUSTON, TX 77002",Refused`,
    ].join('\n');
    await page.getByRole('button', { name: 'Import' }).click();
    const importing = page.getByRole('dialog', { name: 'Import tracking events' });
    await importing.locator('input[type=file]').setInputFiles({
      name: `tracking-${TAG}.csv`,
      mimeType: 'text/csv',
      buffer: Buffer.from(file),
    });
    await importing.getByRole('button', { name: 'Check every row' }).click();
    await expect(importing).toContainText(
      'Every row is right: 4 new events to record, 0 events recorded already.',
    );
    await importing.getByRole('button', { name: 'Import 4 rows' }).click();
    await expect(importing).toContainText('4 new events recorded; 2 parcels moved.');
    await importing.getByRole('button', { name: 'Done' }).click();

    await expect(rowOf(page, home).getByTestId('package-status')).toHaveText('delivered');
    await expect(rowOf(page, away).getByTestId('package-status')).toHaveText('return to sender');
    await expect(rowOf(page, trackingOf[orders.ota]!).getByTestId('package-status')).toHaveText(
      'scanned out',
    );
    await rowOf(page, away).getByText(away).click();
    const returned = page.getByRole('dialog', { name: `Parcel ${away}` });
    await expect(returned.getByTestId('parcel-order')).toHaveText(`${orders.noStock} (returned)`);
    await returned.getByRole('button', { name: 'Close' }).click();
  });

  await test.step('the device lookup shows the delivered phone’s order, tracking and every step', async () => {
    const imei = imeiOfOrder[orders.kit]!;
    await page.goto('/devices/scan');
    const lookup = page.getByRole('searchbox', { name: 'Look up a device' });
    await lookup.fill(imei);
    await lookup.press('Enter');
    await expect(page.getByTestId('lookup-result')).toContainText(`${imei}: found by its IMEI`);
    const card = page.getByTestId('device-card');
    await expect(card.getByText('delivered').first()).toBeVisible();
    const steps = card.getByTestId('timeline-event');
    const said = [
      ['Delivered'],
      ['Shipped', `Order: ${orders.kit}`, `Tracking: ${trackingOf[orders.kit]}`],
      ['Packed'],
      ['Picked', `Order: ${orders.kit}`],
      ['Reserved'],
      ['Put into an inventory box'],
      ['Tested, wiped and graded', 'Grade: A'],
      ['Handed to a production worker'],
      ['Received into a warehouse box'],
    ];
    await expect(steps).toHaveCount(said.length);
    for (const [n, words] of said.entries()) {
      for (const text of words) await expect(steps.nth(n)).toContainText(text);
    }
  });
});
