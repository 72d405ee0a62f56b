import { expect, test, type Page } from '@playwright/test';
import { apiAs, imeiOf, importManifest, seedReceivingCatalogue } from './api';
import { ADMIN_PASSWORD, signIn } from './support';
import { seriousViolations, wedgeScan } from './ui';

/**
 * The consolidation and putaway stations, used with the keyboard alone. No API grades a device
 * yet (production's worker station does), so the journey here is a received device refused at
 * consolidation with its reason, and a box code putaway does not know; filling and sealing are
 * covered by the API tests (apps/api/src/modules/inventory), putaway's modes by putaway.spec.ts.
 */

/** This spec's tag: its vendor, models and invoices never meet another spec's. */
const TAG = 75;

const scanLines = (page: Page) => page.getByTestId('scan-line');

let received: string;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ playwright }, testInfo) => {
  const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  const api = await apiAs(request, 'admin', ADMIN_PASSWORD);
  const catalogue = await seedReceivingCatalogue(api, TAG);
  received = imeiOf(catalogue.models.main.tac, 1);
  const invoices = await importManifest(api, catalogue, [[`INV-${TAG}`, received]]);
  const box = await api.post<{ id: number }>('/warehouse-boxes', {
    invoice_id: invoices[`INV-${TAG}`],
  });
  const scan = await api.post<{ result: string }>(`/warehouse-boxes/${box.id}/scans`, {
    code: received,
  });
  expect(scan.result).toBe('added');
  await request.dispose();
});

test.beforeEach(async ({ page }) => {
  await signIn(page, 'admin', ADMIN_PASSWORD);
  // Signed in before going on: a navigation under way would abort the sign-in's request.
  await expect(page.getByRole('heading', { name: /^Welcome, / })).toBeVisible();
});

test('the consolidation station refuses a device not graded yet, saying why', async ({ page }) => {
  await page.goto('/consolidation/worker');
  await expect(page.getByRole('heading', { name: 'Consolidation worker', level: 1 })).toBeVisible();
  const field = page.getByRole('textbox', { name: 'Scan a device or box' });
  await expect(field).toBeFocused();

  // A box scanned before any device: the station asks for the device first.
  await wedgeScan(page, 'IB-000001');
  await expect(scanLines(page).first()).toContainText('Scan a device first');

  await wedgeScan(page, received);
  // The box scan that was never sent stays on top, as "Not scanned"; the answer comes below it.
  const answered = scanLines(page).filter({ hasText: received });
  await expect(answered).toHaveAttribute('data-result', 'not_ready');
  await expect(answered).toContainText('only graded or reuse devices are consolidated');
  await expect(field).toBeFocused();
  expect(await seriousViolations(page)).toEqual([]);
});

test('putaway names a box it does not know', async ({ page }) => {
  await page.goto('/inventory-box/location/assign-location');
  await expect(page.getByRole('heading', { name: 'Putaway', level: 1 })).toBeVisible();
  const field = page.getByRole('textbox', { name: 'Scan a box or location' });
  await expect(field).toBeFocused();
  await expect(page.getByRole('heading', { name: 'Waiting for putaway' })).toBeVisible();

  await wedgeScan(page, 'IB-999999');
  await expect(scanLines(page).first()).toContainText('No inventory box has the code IB-999999');
  // A location scanned with no box waiting: the station asks for the box first.
  await wedgeScan(page, 'A-01');
  await expect(scanLines(page).first()).toContainText('Scan a sealed box first');
  await expect(field).toBeFocused();
  expect(await seriousViolations(page)).toEqual([]);
});
