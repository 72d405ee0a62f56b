import { expect, test } from '@playwright/test';
import { apiAs, listedVariant, seedReceivingCatalogue } from './api';
import { ADMIN_PASSWORD, signIn } from './support';
import { chooseOption, pick, rowOf, seriousViolations } from './ui';

/**
 * Campaigns: a campaign file with one bad row, its line reported in the preview with the demand
 * per SKU, the valid rows committed as the campaign's orders, found on the express orders page
 * and on the order list by the campaign's filter.
 */

/** This spec's tag: its carrier, models and SKUs never meet another spec's. */
const TAG = 107;
const CARRIER = `Carrier ${TAG}`;
const CAMPAIGN = `Back to school ${TAG}`;

let sku: string;

test.beforeAll(async ({ playwright }, testInfo) => {
  const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  const admin = await apiAs(request, 'admin', ADMIN_PASSWORD);
  // A variant on a live campaign listing on backorder (no stock: its orders wait on hold), and
  // the client carrier.
  const catalogue = await seedReceivingCatalogue(admin, TAG);
  sku = await listedVariant(admin, catalogue, {
    skuPrefix: `CMP${TAG}`,
    grade: 'A',
    listing: {
      channel: 'campaign',
      qty_pushed: 10,
      price_cents: 2500,
      allow_backorder: true,
    },
  });
  await admin.post('/vendors', { name: CARRIER, type: 'carrier-client' });
  await request.dispose();
});

test('a campaign file: the bad row by its line, the valid rows committed and found', async ({
  page,
}) => {
  await signIn(page, 'admin', ADMIN_PASSWORD);
  await expect(page).not.toHaveURL(/\/login/);
  await page.goto('/order/express-orders/import-file-campaign');
  await expect(page.getByRole('heading', { name: 'Import campaign', level: 1 })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  const form = page.getByRole('form', { name: 'Campaign' });
  await form.getByLabel('Campaign name').fill(CAMPAIGN);
  await pick(page, form, 'Client carrier', CARRIER, CARRIER);
  await form.getByRole('combobox', { name: 'Programme' }).click();
  await chooseOption(page, 'lifeline');

  const csv = [
    'external_ref,name,address,city,state,zip,phone,sku,qty,notes',
    `C${TAG}-1,Maria Lopez,1200 Main St,Houston,TX,77002,713-555-0107,${sku},1,`,
    `C${TAG}-2,John Smith,5 Elm St,Houston,TX,10001,,${sku},1,`,
    `C${TAG}-3,Ann Lee,7 Oak St,Dallas,TX,75201,,${sku},2,leave at door`,
  ].join('\n');
  await page.locator('input[type=file]').setInputFiles({
    name: `campaign-${TAG}.csv`,
    mimeType: 'text/csv',
    buffer: Buffer.from(csv),
  });

  // The preview: the bad row by its line in the file, the demand against listing and stock.
  const preview = page.getByRole('region', { name: 'Preview' });
  await expect(
    preview.getByText(/2 rows of 3 right: 2 orders to create\. 1 error\./),
  ).toBeVisible();
  const bad = rowOf(preview.getByTestId('campaign-errors'), 'ZIP 10001 is in NY');
  await expect(bad.getByRole('cell').first()).toHaveText('3');
  await expect(bad).toContainText('zip');
  const demand = rowOf(preview.getByTestId('campaign-demand'), sku);
  await expect(demand).toContainText('$25.00');
  await expect(demand).toContainText('3 will wait on hold');
  expect(await seriousViolations(page)).toEqual([]);

  // Valid rows only (the default): the two right rows become the campaign's orders.
  await expect(preview.getByRole('radio', { name: /Valid rows only/ })).toBeChecked();
  await preview.getByRole('button', { name: 'Create the campaign with 2 orders' }).click();
  await expect(page.getByText(`Campaign created from campaign-${TAG}.csv`)).toBeVisible();
  await expect(page.getByText(/2 orders created; 1 error left out/)).toBeVisible();
  await expect(
    rowOf(page.getByRole('region', { name: 'Import history' }), `campaign-${TAG}.csv`),
  ).toContainText('committed');

  // The express orders page: the campaign and its two orders.
  await page.getByRole('link', { name: 'See the campaign’s orders' }).click();
  await expect(page.getByRole('heading', { name: 'Express orders', level: 1 })).toBeVisible();
  await expect(rowOf(page.getByTestId('campaigns'), CAMPAIGN)).toContainText(CARRIER);
  const section = page.getByRole('region', { name: `Campaign ${CAMPAIGN}` });
  const orders = section.getByTestId('campaign-orders');
  await expect(rowOf(orders, `C${TAG}-1`)).toContainText('M*** L***');
  await expect(rowOf(orders, `C${TAG}-3`)).toContainText(`2 × ${sku}`);
  await expect(orders.locator('tbody tr')).toHaveCount(2);
  expect(await seriousViolations(page)).toEqual([]);

  // The order list, filtered by the campaign.
  await section.getByRole('link', { name: 'Open in All orders' }).click();
  await expect(page).toHaveURL(/\/order\/list\?campaign_id=\d+/);
  await expect(page.getByTestId('list-count')).toHaveText(/^2 /);
  await expect(page.getByRole('row').filter({ hasText: 'campaign' })).toHaveCount(2);
  expect(await seriousViolations(page)).toEqual([]);
});
