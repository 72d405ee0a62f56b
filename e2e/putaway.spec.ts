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
 * The putaway station's modes (DOMAIN.md 4.2), with the keyboard alone: a sealed box put away to
 * a bin, moved to another and taken off its location for a count; a pallet of boxes put in one
 * bin, refused while the bin has no room for all of them.
 */

/** This spec's tag: its vendor, models, TACs, invoices and zone never meet another spec's. */
const TAG = 88;
const ZONE = `PW${TAG}`;
const bin = (n: number) => `${ZONE}-0${n}`;
const WORKER: Staff = {
  userName: `grader.${TAG}`,
  name: `Grader ${TAG}`,
  password: 'steady-bench-88',
};

/** Four sealed boxes of one device each: the first for one box's journey, three for a pallet. */
let boxes: string[];

test.describe.configure({ mode: 'serial' });

/** Consolidates a graded device into a box of its own and seals it; answers the box's code. */
async function sealedBoxOf(api: Api, code: string): Promise<string> {
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
  await api.post(`/inventory-boxes/${named.box.id}/seal`, {});
  return named.box.code;
}

/**
 * Devices made as the warehouse makes them, through the API: received on a manifest, requested,
 * graded by a production worker and consolidated into boxes, each sealed; and a zone of three
 * active bins holding two boxes each.
 */
test.beforeAll(async ({ playwright }, testInfo) => {
  const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  const api = await apiAs(request, 'admin', ADMIN_PASSWORD);
  const catalogue = await seedReceivingCatalogue(api, TAG);
  const imeis = [1, 2, 3, 4].map((serial) => imeiOf(catalogue.models.main.tac, serial));
  const box = await receiveStagedBox(api, catalogue, { tag: TAG, imeis });
  await gradeInProduction(request, api, { catalogue, box, worker: WORKER, tag: TAG, grade: 'A' });
  boxes = [];
  for (const code of imeis) boxes.push(await sealedBoxOf(api, code));

  const zone = await api.post<{ id: number }>('/locations', { kind: 'zone', segment: ZONE });
  await api.post('/locations/ranges', {
    parent_id: zone.id,
    levels: [{ kind: 'bin', from: '01', to: '03' }],
    capacity_boxes: 2,
  });
  await api.post('/locations/activation', { ids: [zone.id], active: true });
  await request.dispose();
});

test.beforeEach(async ({ page }) => {
  await signIn(page, 'admin', ADMIN_PASSWORD);
  await expect(page.getByRole('heading', { name: /^Welcome, / })).toBeVisible();
});

/** The newest answered line of the log (a scan that was never made stays above the answers). */
const lastLine = (page: Page) =>
  page.locator('[data-testid="scan-line"]:not([data-result="pending"])').first();

/** The lines of scans refused before they were made, newest first. */
const refusedLines = (page: Page) =>
  page.getByTestId('scan-line').filter({ hasText: 'Not scanned' });

/** Presses a button with the keyboard: its focus, then Enter. */
async function press(page: Page, name: string | RegExp) {
  await page.getByRole('button', { name, exact: true }).focus();
  await page.keyboard.press('Enter');
}

test('a box put away, moved X → Y and taken off its location, with the keyboard alone', async ({
  page,
}) => {
  const [box] = boxes as [string];
  await page.goto('/inventory-box/location/assign-location');
  await expect(page.getByRole('heading', { name: 'Putaway', level: 1 })).toBeVisible();
  const field = page.getByRole('textbox', { name: 'Scan a box or location' });
  await expect(field).toBeFocused();
  await expect(page.getByRole('button', { name: 'Put away', exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );

  await wedgeScan(page, box);
  await expect(lastLine(page)).toHaveAttribute('data-result', 'suggested');
  await wedgeScan(page, bin(1));
  await expect(lastLine(page)).toHaveAttribute('data-result', 'located');
  await expect(lastLine(page)).toContainText(`${box} is in ${bin(1)}.`);

  await press(page, 'Move box X → Y');
  await expect(field).toBeFocused();
  await expect(page).toHaveURL(/mode=move/);
  await wedgeScan(page, box);
  await expect(lastLine(page)).toHaveAttribute('data-result', 'box_chosen');
  await expect(page.getByTestId('station-prompt')).toHaveText(
    `Scan the location to move ${box} to (it is in ${bin(1)}).`,
  );
  await wedgeScan(page, bin(2));
  await expect(lastLine(page)).toHaveAttribute('data-result', 'moved');
  await expect(lastLine(page)).toContainText(`${box} moved from ${bin(1)} to ${bin(2)}.`);
  // The same scans again: it is there already.
  await wedgeScan(page, box);
  await wedgeScan(page, bin(2));
  await expect(lastLine(page)).toHaveAttribute('data-result', 'already');
  await expect(lastLine(page)).toContainText(`${box} is in ${bin(2)} already.`);

  await press(page, 'Unassign');
  await expect(field).toBeFocused();
  // No reason chosen yet: the scan is refused, saying what to do.
  await wedgeScan(page, box);
  await expect(refusedLines(page).first()).toContainText(
    'Choose why the box comes off its location first.',
  );
  await press(page, 'Taken off for a count');
  await expect(field).toBeFocused();
  await wedgeScan(page, box);
  await expect(lastLine(page)).toHaveAttribute('data-result', 'unassigned');
  await expect(lastLine(page)).toContainText(`${box} is off ${bin(2)}`);
  // Back in the queue, waiting for putaway.
  await expect(page.getByRole('row').filter({ hasText: box })).toBeVisible();
  await expect(field).toBeFocused();
  expect(await seriousViolations(page)).toEqual([]);
});

test('a pallet goes to one bin, all or none', async ({ page }) => {
  const pallet = boxes.slice(1);
  await page.goto('/inventory-box/location/assign-location?mode=pallet');
  const field = page.getByRole('textbox', { name: 'Scan a box or location' });
  await expect(field).toBeFocused();
  await expect(page.getByRole('button', { name: 'Pallet', exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  for (const box of pallet) {
    await wedgeScan(page, box);
    await expect(lastLine(page)).toContainText(box);
    await expect(lastLine(page)).toHaveAttribute('data-result', 'on_pallet');
  }
  await expect(page.getByTestId('pallet-count')).toHaveText('On the pallet: 3 of 50');
  await wedgeScan(page, pallet[0]!);
  await expect(refusedLines(page).first()).toContainText(`${pallet[0]} is on the pallet already.`);

  // Three boxes for a bin holding two: none goes, and the answer says why.
  await wedgeScan(page, bin(3));
  await expect(refusedLines(page).first()).toContainText(
    `Nothing was put away in ${bin(3)}: ${bin(3)} has room for 2 more, not 3 boxes (it holds 0 of 2).`,
  );
  await expect(page.getByTestId('pallet-count')).toHaveText('On the pallet: 3 of 50');

  await press(page, `Take ${pallet[2]} off the pallet`);
  await expect(field).toBeFocused();
  await expect(page.getByTestId('pallet-count')).toHaveText('On the pallet: 2 of 50');
  await wedgeScan(page, bin(3));
  await expect(lastLine(page)).toHaveAttribute('data-result', 'pallet_located');
  await expect(lastLine(page)).toContainText(
    `2 boxes put away in ${bin(3)}: ${pallet[0]}, ${pallet[1]}.`,
  );
  await expect(page.getByTestId('pallet-count')).toHaveText('On the pallet: 0 of 50');
  await expect(field).toBeFocused();
  expect(await seriousViolations(page)).toEqual([]);
});
