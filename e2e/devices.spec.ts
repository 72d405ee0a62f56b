import { expect, test, type Page } from '@playwright/test';
import { apiAs, imeiOf, importManifest, seedReceivingCatalogue, type Api } from './api';
import { ADMIN_PASSWORD, signIn } from './support';
import { chooseOption, closeNotifications, confirmBubble, rowOf, searchList } from './ui';

/** This spec's tag: its vendor, models, TACs and invoice never meet another spec's. */
const TAG = 53;
/** A TAC no model maps to: scanning an IMEI of it puts it on the unknown-TAC list. */
const UNKNOWN_TAC = String(90_000_000 + TAG * 10 + 9);

const drawer = (page: Page) => page.getByRole('dialog');
const modal = (page: Page, title: string) => page.getByRole('dialog', { name: title });

type Setup = { imeis: [string, string, string]; box: string; model: string };

/** Received devices: a manifest, a warehouse box, three scans and one of an unknown TAC. */
async function receiveDevices(api: Api): Promise<Setup> {
  const catalogue = await seedReceivingCatalogue(api, TAG);
  const imeis = [1, 2, 3].map((serial) =>
    imeiOf(catalogue.models.main.tac, serial),
  ) as Setup['imeis'];
  const invoiceIds = await importManifest(
    api,
    catalogue,
    imeis.map((imei) => [`INV-${TAG}`, imei] as const),
  );
  const box = await api.post<{ id: number; code: string }>('/warehouse-boxes', {
    invoice_id: invoiceIds[`INV-${TAG}`],
  });
  for (const code of imeis) {
    const scan = await api.post<{ result: string }>(`/warehouse-boxes/${box.id}/scans`, { code });
    expect(scan.result).toBe('added');
  }
  const unknown = await api.post<{ result: string }>(`/warehouse-boxes/${box.id}/scans`, {
    code: imeiOf(UNKNOWN_TAC, 1),
  });
  expect(unknown.result).toBe('unknown_tac');
  return { imeis, box: box.code, model: catalogue.models.main.name };
}

// One journey in steps: each step starts where the one before left the devices.
test.describe.configure({ mode: 'serial' });

let setup: Setup;

test.beforeAll(async ({ playwright }, testInfo) => {
  const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  const api = await apiAs(request, 'admin', ADMIN_PASSWORD);
  setup = await receiveDevices(api);
  // A listing made elsewhere (a carrier's report), to be cleared on the page.
  await api.post('/blacklist-entries', { imei: setup.imeis[1], reason: 'lost', source: 'carrier' });
  await request.dispose();
});

test.beforeEach(async ({ page }) => {
  await signIn(page, 'admin', ADMIN_PASSWORD);
  await expect(page.getByRole('heading', { name: 'Welcome, Administrator' })).toBeVisible();
});

test('look a device up by its IMEI, read its timeline, put it on the blacklist from its card', async ({
  page,
}) => {
  const { imeis, box, model } = setup;
  const [first, second] = imeis;
  // Look the first device up by its IMEI: the card and the timeline of its receipt.
  await page.goto('/devices/scan');
  await expect(page.getByRole('heading', { name: 'Device lookup' })).toBeVisible();
  const lookup = page.getByRole('searchbox', { name: 'Look up a device' });
  await expect(lookup).toBeFocused();
  await lookup.fill(first);
  await lookup.press('Enter');
  await expect(page).toHaveURL(new RegExp(`code=${first}`));
  await expect(page.getByTestId('lookup-result')).toContainText(`${first}: found by its IMEI`);
  const card = page.getByTestId('device-card');
  await expect(card).toContainText(model);
  await expect(card.getByRole('link', { name: box })).toBeVisible();
  await expect(card.getByRole('link', { name: `INV-${TAG}` })).toHaveAttribute(
    'href',
    /\/shipment-management\/invoice\?invoice=\d+/,
  );
  const events = card.getByTestId('timeline-event');
  await expect(events).toHaveCount(1);
  await expect(events.first()).toContainText('Received into a warehouse box');
  await expect(events.first()).toContainText(`In box ${box}`);

  // A bad check digit is said as such.
  await lookup.fill(`${first.slice(0, 14)}${(Number(first.at(-1)) + 1) % 10}`);
  await lookup.press('Enter');
  await expect(page.getByTestId('lookup-result')).toContainText("The IMEI's check digit is wrong");

  // Blacklist the first device from its card: it is held, and the timeline says so.
  await page.goto(`/devices/scan?code=${first}`);
  await card.getByRole('button', { name: 'Put on blacklist' }).click();
  await drawer(page).getByRole('button', { name: 'Put on blacklist' }).click();
  await expect(drawer(page)).toContainText('Choose the reason.');
  await drawer(page)
    .getByRole('combobox', { name: /Reason$/ })
    .click();
  await chooseOption(page, 'stolen');
  await drawer(page).getByLabel('Reference').fill(`GSMA-${TAG}`);
  await drawer(page).getByRole('button', { name: 'Put on blacklist' }).click();
  await expect(
    page.getByText(`${first} is on the blacklist and its device is on hold.`),
  ).toBeVisible();
  await expect(card.getByRole('button', { name: 'Put on blacklist' })).toHaveCount(0);
  await expect(events).toHaveCount(2);
  await expect(events.first()).toContainText('Put on hold');
  await expect(events.first()).toContainText('Blacklist reason: stolen');
  await expect(card).toContainText('from internal');
  await closeNotifications(page);

  // The registry below lists the box's devices; an IMEI opens its card, at an address of its own.
  await searchList(page, second);
  await rowOf(page, second).getByRole('link', { name: second, exact: true }).click();
  await expect(drawer(page)).toContainText(`Device ${second}`);
  await expect(page).toHaveURL(/[?&]device=\d+/);
  await expect(drawer(page).getByTestId('device-card')).toContainText('lost');
  await drawer(page).getByRole('button', { name: 'Close' }).click();
});

test('add the blacklisted device to a new return to its vendor, pack it and ship it', async ({
  page,
}) => {
  const [first, second] = setup.imeis;
  // On the blacklist page: add the first device to a new return to its vendor.
  await page.goto('/devices/blacklist');
  await expect(page.getByRole('heading', { name: 'Blacklisted devices' })).toBeVisible();
  await searchList(page, first);
  await rowOf(page, first).getByRole('button', { name: 'Add to return' }).click();
  const returning = modal(page, `Return ${first} to Vendor ${TAG}`);
  await returning.getByRole('radio', { name: 'A new return (blacklisted)' }).check();
  await returning.getByRole('button', { name: 'Add to the return' }).click();
  await expect(page.getByText(new RegExp(`${first} is on RTV-\\d+`))).toBeVisible();
  const transferLink = rowOf(page, first).getByRole('link', { name: /^RTV-\d+$/ });
  await expect(transferLink).toBeVisible();
  const code = (await transferLink.textContent())!;
  await closeNotifications(page);

  // Pack it and ship it with a tracking number: the device leaves, status rtv.
  await transferLink.click();
  await expect(page).toHaveURL(/\/transfer\/vendor\?tab=returns/);
  await expect(page.getByRole('tab', { name: 'Returns to vendor' })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await rowOf(page, code).getByRole('link', { name: code, exact: true }).click();
  const transfer = page.getByRole('dialog', { name: `Return ${code}` });
  await expect(transfer.getByRole('row').filter({ hasText: first })).toBeVisible();

  // A scan the server refuses is named; one it takes joins the return, and comes off again.
  const scanInput = transfer.getByRole('searchbox', { name: 'Scan a device onto this return' });
  const nobody = imeiOf(UNKNOWN_TAC, 2);
  await scanInput.fill(`${nobody} ${second}`);
  await scanInput.press('Enter');
  await expect(transfer.getByRole('alert')).toContainText(`${nobody}: no such device.`);
  await scanInput.fill(second);
  await scanInput.press('Enter');
  await expect(transfer.getByRole('row').filter({ hasText: second })).toBeVisible();
  await transfer.getByRole('button', { name: `Remove ${second}` }).click();
  await expect(transfer.getByRole('row').filter({ hasText: second })).toHaveCount(0);

  await transfer.getByRole('button', { name: 'Pack' }).click();
  await confirmBubble(page).getByRole('button', { name: 'Pack' }).click();
  await expect(transfer.getByText('packed', { exact: true })).toBeVisible();
  await transfer.getByRole('button', { name: 'Ship' }).click();
  const shipping = modal(page, `Ship ${code}`);
  await shipping.getByRole('button', { name: 'Ship' }).click();
  await expect(shipping).toContainText('Enter the carrier.');
  await shipping.getByLabel('Carrier').fill('UPS');
  await shipping.getByLabel('Tracking number').fill(`1Z${TAG}000111`);
  await shipping.getByRole('button', { name: 'Ship' }).click();
  await expect(transfer.getByText('shipped', { exact: true })).toBeVisible();
  await expect(transfer).toContainText(`1Z${TAG}000111`);
  await expect(transfer.getByRole('row').filter({ hasText: first })).toContainText('rtv');
  await expect(transfer.getByRole('button', { name: 'Record credit' })).toBeVisible();
  await expect(transfer.getByRole('button', { name: 'Pack' })).toHaveCount(0);
});

test('clear a listing with evidence: its device is received again', async ({ page }) => {
  const second = setup.imeis[1];
  await page.goto('/devices/blacklist');

  // Listed already: the server's answer lands on the IMEI field.
  await page.getByRole('button', { name: 'Add IMEI' }).click();
  await drawer(page).getByLabel('IMEI').fill(second);
  await drawer(page)
    .getByRole('combobox', { name: /Reason$/ })
    .click();
  await chooseOption(page, 'lost');
  await drawer(page).getByRole('button', { name: 'Put on blacklist' }).click();
  await expect(drawer(page)).toContainText('This IMEI is on the blacklist already.');
  await drawer(page).getByRole('button', { name: 'Cancel' }).click();

  await searchList(page, second);
  await rowOf(page, second).getByRole('button', { name: 'Clear' }).click();
  const clearing = modal(page, `Clear ${second} from the blacklist`);
  await clearing.getByRole('button', { name: 'Clear the listing' }).click();
  await expect(clearing).toContainText('Please enter the evidence');
  await clearing.getByLabel('Evidence').fill('Carrier letter: the loss report was withdrawn');
  await clearing.getByRole('button', { name: 'Clear the listing' }).click();
  await expect(rowOf(page, second)).toContainText('cleared');
  await expect(rowOf(page, second)).toContainText('received');
});

test('import provider results: a clean result for a listed IMEI is refused, the fixed file goes in', async ({
  page,
}) => {
  const [first, , third] = setup.imeis;
  await page.goto('/devices/blacklist');
  const stranger = imeiOf(String(90_000_000 + TAG * 10 + 8), 7);
  const results = (rows: string[]) => ['IMEI,Result,Source,Reason,Reference', ...rows].join('\n');
  await page.getByRole('button', { name: 'Import' }).click();
  const upload = (content: string) =>
    drawer(page)
      .locator('input[type=file]')
      .setInputFiles({ name: 'results.csv', mimeType: 'text/csv', buffer: Buffer.from(content) });
  await upload(
    results([`${stranger},blocked,gsma,stolen,R-1`, `${first},clean,checker,other,R-2`]),
  );
  await drawer(page).getByRole('button', { name: 'Check every row' }).click();
  await expect(drawer(page)).toContainText('1 error in results.csv: nothing has been written.');
  await expect(drawer(page)).toContainText('clear it on the page, with this result as evidence');
  await drawer(page).getByRole('button', { name: 'Upload a corrected file' }).click();
  await upload(results([`${stranger},blocked,gsma,stolen,R-1`, `${third},blocked,gsma,fraud,R-3`]));
  await drawer(page).getByRole('button', { name: 'Check every row' }).click();
  await expect(drawer(page)).toContainText('Every row is right: 2 to create, 0 to update.');
  await drawer(page).getByRole('button', { name: 'Import 2 rows' }).click();
  await expect(drawer(page)).toContainText('2 created, 0 updated.');
  await drawer(page).getByRole('button', { name: 'Done' }).click();
  await searchList(page, third);
  await expect(rowOf(page, third)).toContainText('hold');
  await expect(rowOf(page, third)).toContainText('fraud');
});

test('map the unknown TAC met at scanning to a model on the TAC page', async ({ page }) => {
  const { model } = setup;
  await page.goto('/master-data/tac-number');
  await page.getByRole('button', { name: /Unknown TACs met at scanning/ }).click();
  const unknownRow = page
    .getByRole('region', { name: 'Unknown TACs' })
    .getByRole('row')
    .filter({ hasText: UNKNOWN_TAC });
  await expect(unknownRow).toContainText(imeiOf(UNKNOWN_TAC, 1));
  await expect(unknownRow).toContainText(`INV-${TAG}`);
  await unknownRow.getByRole('button', { name: `Map ${UNKNOWN_TAC} to a model` }).click();
  const mapping = modal(page, `Map TAC ${UNKNOWN_TAC} to a model`);
  await mapping.getByRole('combobox', { name: /Model$/ }).fill(`Phone ${TAG}`);
  await chooseOption(page, model);
  await mapping.getByRole('button', { name: 'Map' }).click();
  await expect(page.getByText(`TAC ${UNKNOWN_TAC} is a ${model} from now on.`)).toBeVisible();
  await expect(unknownRow).toHaveCount(0);
  await searchList(page, UNKNOWN_TAC);
  await expect(rowOf(page, UNKNOWN_TAC)).toContainText('learned');
});
