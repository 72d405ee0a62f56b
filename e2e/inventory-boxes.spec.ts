import { expect, test, type Page } from '@playwright/test';
import {
  apiAs,
  gradeInProduction,
  imeiOf,
  receiveStagedBox,
  seedReceivingCatalogue,
  type Api,
  type Staff,
} from './api';
import { ADMIN_PASSWORD, signIn } from './support';
import { seriousViolations, wedgeScan } from './ui';

/**
 * The device boxes' list and the box scan station (DOMAIN.md 4.2), as staff work them: the
 * warehouse manager finds a box, opens its IMEIs and starts a count; at the station, with the
 * keyboard alone, the count is verified and finished, then the box is reopened and devices are
 * taken out, put back and moved between boxes.
 */

/** This spec's tag: its vendor, models, TACs and invoices never meet another spec's. */
const TAG = 77;
const WORKER: Staff = {
  userName: `grader.${TAG}`,
  name: `Grader ${TAG}`,
  password: 'steady-bench-77',
};

type Setup = {
  /** Five devices: 0-2 in the sealed box, 3 alone in an open box, 4 (grade B) in a third. */
  imeis: string[];
  sealed: string;
  single: string;
  gradeB: string;
  model: string;
};
let setup: Setup;

test.describe.configure({ mode: 'serial' });

/** Consolidates a graded device into the box the station names; answers the box's code. */
async function consolidate(api: Api, code: string): Promise<{ id: number; code: string }> {
  const named = await api.post<{ result: string; box: { id: number; code: string } }>(
    '/consolidation/scans',
    { code },
  );
  expect(named.result).toBe('box_named');
  const placed = await api.post<{ result: string }>('/consolidation/placements', {
    code,
    box_code: named.box.code,
  });
  expect(placed.result).toBe('added');
  return named.box;
}

/**
 * Devices made as the warehouse makes them, through the API: received on a manifest into a
 * warehouse box, requested, graded by a production worker and consolidated into boxes.
 */
test.beforeAll(async ({ playwright }, testInfo) => {
  const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  const api = await apiAs(request, 'admin', ADMIN_PASSWORD);
  const catalogue = await seedReceivingCatalogue(api, TAG);
  const imeis = [1, 2, 3, 4, 5].map((serial) => imeiOf(catalogue.models.main.tac, serial));
  const box = await receiveStagedBox(api, catalogue, { tag: TAG, imeis });
  await gradeInProduction(request, api, {
    catalogue,
    box,
    worker: WORKER,
    tag: TAG,
    grade: (imei) => (imei === imeis[4] ? 'B' : 'A'),
  });

  // Three in a box, sealed; the fourth opens a box of its own; the grade B one a third.
  const sealed = await consolidate(api, imeis[0]!);
  for (const code of imeis.slice(1, 3)) await consolidate(api, code);
  await api.post(`/inventory-boxes/${sealed.id}/seal`, {});
  const single = await consolidate(api, imeis[3]!);
  const gradeB = await consolidate(api, imeis[4]!);
  setup = {
    imeis,
    sealed: sealed.code,
    single: single.code,
    gradeB: gradeB.code,
    model: catalogue.models.main.name,
  };
  await request.dispose();
});

test.beforeEach(async ({ page }) => {
  await signIn(page, 'admin', ADMIN_PASSWORD);
  await expect(page.getByRole('heading', { name: /^Welcome, / })).toBeVisible();
});

/** The newest answered line of the log (a scan that was never made stays above the answers). */
const lastLine = (page: Page) =>
  page.locator('[data-testid="scan-line"]:not([data-result="pending"])').first();

/** Presses a button with the keyboard: its focus, then Enter. */
async function press(page: Page, name: string | RegExp) {
  await page.getByRole('button', { name, exact: true }).focus();
  await page.keyboard.press('Enter');
}

test('the box list shows a box with its IMEIs, and starts its count', async ({ page }) => {
  await page.goto('/inventory-box/device');
  await expect(page.getByRole('heading', { name: 'Device boxes', level: 1 })).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search' }).fill(setup.imeis[1]!);
  await page.getByRole('searchbox', { name: 'Search' }).press('Enter');
  await expect(page.getByTestId('list-count')).toHaveText('1 device box');
  const row = page.getByRole('row').filter({ hasText: setup.sealed });
  await expect(row).toContainText(setup.model);
  await expect(row.getByTestId('box-qty')).toHaveText('3 of 20');
  await expect(row).toContainText('sealed');

  await row.getByRole('button', { name: 'Expand row' }).click();
  const imeis = page.getByRole('region', { name: `IMEIs of ${setup.sealed}` });
  for (const imei of setup.imeis.slice(0, 3)) await expect(imeis).toContainText(imei);
  expect(await seriousViolations(page)).toEqual([]);

  await row.getByRole('button', { name: `Start a count of ${setup.sealed}` }).click();
  await expect(page.locator('.ant-notification-notice')).toContainText(
    `${setup.sealed} is locked for its count`,
  );
  await expect(row).toContainText('locked (count)');
  await row.getByRole('link', { name: `Open ${setup.sealed} in the scan station` }).click();
  await expect(page).toHaveURL(/mode=verify/);
  await expect(
    page.getByRole('heading', { name: 'Scan devices to boxes', level: 1 }),
  ).toBeVisible();
});

test('the station verifies the count, with the keyboard alone', async ({ page }) => {
  await page.goto(`/inventory-box/scan-device?mode=verify&box=${setup.sealed}`);
  const field = page.getByRole('textbox', { name: 'Scan a box or device' });
  await expect(field).toBeFocused();
  await expect(page.getByTestId('box-code')).toHaveText(setup.sealed);
  await expect(page.getByTestId('count-counted')).toHaveText('0 of 3');

  await wedgeScan(page, setup.imeis[0]!);
  await expect(lastLine(page)).toHaveAttribute('data-result', 'counted');
  await wedgeScan(page, setup.imeis[0]!);
  await expect(lastLine(page)).toHaveAttribute('data-result', 'duplicate');
  await expect(lastLine(page)).toContainText('Duplicate');
  await wedgeScan(page, setup.imeis[3]!);
  await expect(lastLine(page)).toHaveAttribute('data-result', 'extra');
  await expect(lastLine(page)).toContainText(`(it is in ${setup.single})`);
  await wedgeScan(page, setup.imeis[1]!);
  await expect(page.getByTestId('count-counted')).toHaveText('2 of 3');
  await expect(page.getByTestId('count-missing')).toHaveText(setup.imeis[2]!);
  await expect(field).toBeFocused();
  expect(await seriousViolations(page)).toEqual([]);

  await press(page, `Finish count of ${setup.sealed}`);
  await expect(page.getByTestId('count-report')).toContainText(
    `Count of ${setup.sealed} finished: 2 of 3 found, 1 missing, 1 extra.`,
  );
  await expect(page.getByTestId('count-report')).toContainText(`Missing: ${setup.imeis[2]}`);
});

test('the station reopens the sealed box, takes a device out, puts it back and moves one in', async ({
  page,
}) => {
  await page.goto('/inventory-box/scan-device');
  const field = page.getByRole('textbox', { name: 'Scan a box or device' });
  await expect(field).toBeFocused();

  await press(page, 'Remove');
  await expect(field).toBeFocused();
  await wedgeScan(page, setup.sealed);
  await expect(lastLine(page)).toHaveAttribute('data-result', 'box_chosen');
  // Sealed: a device scanned now is refused; someone with box.reopen reopens it here.
  await wedgeScan(page, setup.imeis[2]!);
  const refused = page.getByTestId('scan-line').filter({ hasText: 'Not scanned' });
  await expect(refused).toContainText('box.reopen');
  await press(page, `Reopen ${setup.sealed}`);
  await expect(page.getByRole('region', { name: 'Box', exact: true })).toContainText('open');
  await expect(field).toBeFocused();

  await wedgeScan(page, setup.imeis[2]!);
  await expect(lastLine(page)).toHaveAttribute('data-result', 'removed');
  await expect(page.getByTestId('box-code-fill')).toHaveText('2 of 20');
  await wedgeScan(page, setup.imeis[2]!);
  await expect(lastLine(page)).toHaveAttribute('data-result', 'duplicate');

  await press(page, 'Add');
  await wedgeScan(page, setup.imeis[2]!);
  await expect(lastLine(page)).toHaveAttribute('data-result', 'added');
  await expect(page.getByTestId('box-code-fill')).toHaveText('3 of 20');

  // Move: from the single device's box into the first; then the grade B device is refused.
  await press(page, 'Move box → box');
  await press(page, 'Start over');
  await wedgeScan(page, setup.single);
  await wedgeScan(page, setup.sealed);
  await expect(page.getByTestId('from-box-code')).toHaveText(setup.single);
  await expect(page.getByTestId('box-code')).toHaveText(setup.sealed);
  await wedgeScan(page, setup.imeis[3]!);
  await expect(lastLine(page)).toHaveAttribute('data-result', 'moved');
  await expect(page.getByTestId('box-code-fill')).toHaveText('4 of 20');
  await wedgeScan(page, setup.imeis[4]!);
  await expect(lastLine(page)).toHaveAttribute('data-result', 'not_in_box');

  await press(page, 'Start over');
  await wedgeScan(page, setup.gradeB);
  await wedgeScan(page, setup.sealed);
  await wedgeScan(page, setup.imeis[4]!);
  await expect(lastLine(page)).toHaveAttribute('data-result', 'mismatch');
  await expect(lastLine(page)).toContainText('Attribute mismatch');
  await expect(lastLine(page)).toContainText('grade B, the box holds grade A');
  await expect(field).toBeFocused();
  expect(await seriousViolations(page)).toEqual([]);
});
