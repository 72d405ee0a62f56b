import { expect, test, type Page } from '@playwright/test';
import { apiAs, createStaff, type Staff } from './api';
import { ADMIN_PASSWORD, signIn } from './support';
import { closeNotifications, dialog, pick, rowOf, searchList, seriousViolations } from './ui';

/**
 * Counted stock as the staff work it: a warehouse manager receives chargers into a bin, moves
 * some to another, writes off damaged ones with a reason, is refused taking more than there is,
 * and reads the accessory dashboard; a parts clerk receives screens from a vendor at a unit cost.
 * Then the manager counts a bin's chargers and prints its label, and the clerk counts a whole bin.
 */

/** This spec's tag: its locations, items and users never meet another spec's. */
const TAG = 73;
const ZONE = `K${TAG}`;
const SKU = `E2E-CHG-${TAG}`;
const PART = `E2E-LCD-${TAG}`;
/** A part the books have nowhere, found in a bin by a count. */
const FOUND_PART = `E2E-BAT-${TAG}`;
const VENDOR = `Parts Vendor ${TAG}`;
const MANAGER: Staff = {
  userName: `stock.manager.${TAG}`,
  name: `Manager ${TAG}`,
  password: `stock-manager-${TAG}-pass-2026`,
};
const CLERK: Staff = {
  userName: `parts.clerk.${TAG}`,
  name: `Clerk ${TAG}`,
  password: `parts-clerk-${TAG}-pass-2026`,
};
const CLERK_ROLE = `Parts clerk ${TAG}`;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ playwright }, testInfo) => {
  const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  const admin = await apiAs(request, 'admin', ADMIN_PASSWORD);
  // Two active bins under a zone of this spec's own.
  const zone = await admin.post<{ id: number }>('/locations', { kind: 'zone', segment: ZONE });
  const bins = await Promise.all(
    ['01', '02'].map((segment) =>
      admin.post<{ id: number }>('/locations', { kind: 'bin', parent_id: zone.id, segment }),
    ),
  );
  await admin.post('/locations/activation', {
    ids: [zone.id, ...bins.map((bin) => bin.id)],
    active: true,
  });
  await admin.post('/accessories', {
    sku: SKU,
    name: `Charger ${TAG}`,
    kind: 'charger',
    reorder_point: 50,
  });
  await admin.post('/parts', { part_number: PART, name: `Screen ${TAG}`, category: 'screen' });
  await admin.post('/parts', {
    part_number: FOUND_PART,
    name: `Battery ${TAG}`,
    category: 'battery',
  });
  await admin.post('/vendors', { name: VENDOR, type: 'supplier' });

  await createStaff(request, admin, MANAGER, 'Warehouse Manager');
  await admin.post('/roles', {
    name: CLERK_ROLE,
    permissions: ['part-stock.view-list', 'part-stock.manage'],
  });
  await createStaff(request, admin, CLERK, CLERK_ROLE);
  await request.dispose();
});

async function signInAs(page: Page, account: Staff) {
  await signIn(page, account.userName, account.password);
  await expect(page.getByRole('heading', { name: `Welcome, ${account.name}` })).toBeVisible();
}

/** The Monday of this week, as the dashboard names weeks (UTC days). */
function thisMonday(): string {
  const today = new Date();
  today.setUTCDate(today.getUTCDate() - ((today.getUTCDay() + 6) % 7));
  return today.toISOString().slice(0, 10);
}

test('a warehouse manager receives, moves and adjusts accessories, never below zero', async ({
  page,
}) => {
  await signInAs(page, MANAGER);
  await page.goto('/inventory-box/accessories');
  await expect(page.getByRole('heading', { name: 'Accessory boxes', level: 1 })).toBeVisible();

  // Receive 40 chargers into the first bin; the reference is asked for.
  await page.getByRole('button', { name: 'Receive', exact: true }).click();
  const receiving = dialog(page, 'Receive accessories');
  await pick(page, receiving, 'Accessory', SKU, `${SKU} Charger ${TAG}`);
  await pick(page, receiving, 'Into location', `${ZONE}-01`, `${ZONE}-01`);
  await receiving.getByLabel('Quantity').fill('40');
  await receiving.getByRole('button', { name: 'Receive', exact: true }).click();
  await expect(receiving).toContainText('Please enter the reference.');
  await receiving.getByLabel('Reference').fill(`PO-${TAG}01`);
  await receiving.getByRole('button', { name: 'Receive', exact: true }).click();
  await expect(page.getByText(`Received 40: now 40 at ${ZONE}-01.`)).toBeVisible();
  await expect(receiving).toBeHidden();
  await closeNotifications(page);

  await page.getByRole('searchbox', { name: 'Search' }).fill(SKU);
  await page.getByRole('searchbox', { name: 'Search' }).press('Enter');
  await expect(rowOf(page, `${ZONE}-01`)).toContainText('40');

  // Move 15 to the second bin, from the row.
  await rowOf(page, `${ZONE}-01`).getByRole('button', { name: 'Move' }).click();
  const moving = dialog(page, `Move ${SKU}`);
  await pick(page, moving, 'To location', `${ZONE}-02`, `${ZONE}-02`);
  await moving.getByLabel('Quantity').fill('15');
  await moving.getByRole('button', { name: 'Move', exact: true }).click();
  await expect(
    page.getByText(`Moved 15 × ${SKU}: now 25 at ${ZONE}-01, 15 at ${ZONE}-02.`),
  ).toBeVisible();
  await closeNotifications(page);
  await expect(page.getByTestId('list-count')).toHaveText(/^2 /);

  // Three crushed: an adjustment needs its reason.
  await rowOf(page, `${ZONE}-02`).getByRole('button', { name: 'Adjust' }).click();
  let adjusting = dialog(page, `Adjust ${SKU}`);
  await adjusting.getByLabel('Quantity').fill('-3');
  await adjusting.getByRole('button', { name: 'Adjust', exact: true }).click();
  await expect(adjusting).toContainText('Please enter the reason.');
  await adjusting.getByLabel('Reason').fill('Three chargers crushed by a pallet');
  await adjusting.getByRole('button', { name: 'Adjust', exact: true }).click();
  await expect(page.getByText(`Adjusted 3 × ${SKU} down: now 12 at ${ZONE}-02.`)).toBeVisible();
  await closeNotifications(page);
  await expect(rowOf(page, `${ZONE}-02`)).toContainText('12');

  // Taking more than there is is refused, with what there is.
  await rowOf(page, `${ZONE}-02`).getByRole('button', { name: 'Adjust' }).click();
  adjusting = dialog(page, `Adjust ${SKU}`);
  await adjusting.getByLabel('Quantity').fill('-20');
  await adjusting.getByLabel('Reason').fill('Count was short');
  await adjusting.getByRole('button', { name: 'Adjust', exact: true }).click();
  await expect(adjusting).toContainText(
    `Only 12 of ${SKU} available at ${ZONE}-02: 20 cannot be taken. Stock never goes below zero.`,
  );
  expect(await seriousViolations(page)).toEqual([]);
  await adjusting.getByRole('button', { name: 'Cancel' }).click();
  await expect(rowOf(page, `${ZONE}-02`)).toContainText('12');
});

test('the manager reads the accessory dashboard: the chart, its figures and the reorder flag', async ({
  page,
}) => {
  await signInAs(page, MANAGER);
  await page.goto('/master-data/accessories/dashboard');
  await expect(page.getByRole('heading', { name: 'Accessory stock', level: 1 })).toBeVisible();

  const chart = page.getByRole('figure', { name: 'Units consumed and received per week' });
  await expect(chart.getByRole('application')).toBeVisible();
  // The chart's figures as a table: this week's 40 received.
  const weeks = page.getByRole('table', { name: 'Weekly consumption figures' });
  await expect(rowOf(weeks, thisMonday())).toContainText('40');

  // 37 left against a reorder point of 50.
  const skus = page.getByRole('table', { name: 'Stock per SKU' });
  await expect(rowOf(skus, SKU)).toContainText('Below reorder point');
  await expect(rowOf(skus, SKU)).toContainText('37');
  await page.getByRole('switch', { name: 'At or below reorder point only' }).click();
  await expect(page).toHaveURL(/below=true/);
  await expect(rowOf(skus, SKU)).toBeVisible();

  // The week drills down to what was consumed in it.
  await weeks.getByRole('button', { name: thisMonday() }).click();
  await expect(page).toHaveURL(new RegExp(`week=${thisMonday()}`));
  await expect(page.getByText(`Consumed in the week of ${thisMonday()}`)).toBeVisible();

  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export reorder list' }).click();
  await page.getByRole('menuitem', { name: 'CSV' }).click();
  expect((await downloading).suggestedFilename()).toMatch(/^accessory-reorder-list-.*\.csv$/);
  expect(await seriousViolations(page)).toEqual([]);

  // A SKU's code leads to its bins.
  await rowOf(skus, SKU).getByRole('link', { name: SKU }).click();
  await expect(page).toHaveURL(/\/inventory-box\/accessories\?accessory_id=\d+/);
  await expect(page.getByTestId('list-count')).toHaveText(/^2 /);
});

test('a parts clerk receives screens from a vendor at a unit cost', async ({ page }) => {
  await signInAs(page, CLERK);
  await page.goto('/parts');
  await expect(page.getByRole('heading', { name: 'Repair parts stock', level: 1 })).toBeVisible();

  await page.getByRole('button', { name: 'Receive parts' }).click();
  const receiving = dialog(page, 'Receive parts');
  await pick(page, receiving, 'Part', PART, `${PART} Screen ${TAG}`);
  await pick(page, receiving, 'Into location', `${ZONE}-01`, `${ZONE}-01`);
  await receiving.getByLabel('Quantity').fill('8');
  await pick(page, receiving, 'Vendor', VENDOR, VENDOR);
  await receiving.getByLabel('Unit cost').fill('24.50');
  await receiving.getByLabel('Reference').fill(`INV-${TAG}-P1`);
  await receiving.getByRole('button', { name: 'Receive', exact: true }).click();
  await expect(page.getByText(`Received 8: now 8 at ${ZONE}-01.`)).toBeVisible();
  await closeNotifications(page);

  await page.getByRole('searchbox', { name: 'Search' }).fill(PART);
  await page.getByRole('searchbox', { name: 'Search' }).press('Enter');
  const row = rowOf(page, PART);
  await expect(row).toContainText(`${ZONE}-01 (8)`);
  await expect(row).toContainText('screen');
  expect(await seriousViolations(page)).toEqual([]);
});

test('the manager counts the chargers of a bin, sees the count date and prints its label', async ({
  page,
}) => {
  await signInAs(page, MANAGER);
  await page.goto(`/inventory-box/accessories?search=${SKU}`);
  await expect(page.getByTestId('list-count')).toHaveText(/^2 /);
  await expect(rowOf(page, `${ZONE}-02`)).toContainText('Never counted');

  // 12 on the books; 10 on the shelf.
  await rowOf(page, `${ZONE}-02`).getByRole('button', { name: 'Count', exact: true }).click();
  const counting = dialog(page, `Count ${SKU}`);
  await expect(counting.getByRole('combobox', { name: 'Location' })).toBeVisible();
  await counting.getByLabel('Quantity counted').fill('10');
  await counting.getByLabel('Note').fill('Cycle count');
  await counting.getByRole('button', { name: 'Count', exact: true }).click();
  await expect(
    page.getByText(`Counted 10 × ${SKU} at ${ZONE}-02: 2 fewer than the books (12).`),
  ).toBeVisible();
  await expect(counting).toBeHidden();
  await closeNotifications(page);
  await expect(rowOf(page, `${ZONE}-02`)).not.toContainText('Never counted');
  await expect(rowOf(page, `${ZONE}-02`)).toContainText('10');

  // The same count again: the books are right now, and no move is written.
  await rowOf(page, `${ZONE}-02`).getByRole('button', { name: 'Count', exact: true }).click();
  const again = dialog(page, `Count ${SKU}`);
  await again.getByLabel('Quantity counted').fill('10');
  await again.getByRole('button', { name: 'Count', exact: true }).click();
  await expect(
    page.getByText(`Counted 10 × ${SKU} at ${ZONE}-02: as the books said.`),
  ).toBeVisible();
  await closeNotifications(page);

  // The bin's label, from the row and for the rows chosen: a PDF in a new tab.
  const label = page.waitForEvent('popup');
  await rowOf(page, `${ZONE}-02`).getByRole('button', { name: 'Bin label' }).click();
  await (await label).waitForURL(/\/api\/v1\/downloads\//);
  for (const bin of ['01', '02']) {
    await page.getByRole('checkbox', { name: `Choose ${SKU} at ${ZONE}-${bin}` }).check();
  }
  await expect(page.getByText('2 accessory bins chosen:')).toBeVisible();
  const labels = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Print bin labels' }).click();
  await (await labels).waitForURL(/\/api\/v1\/downloads\//);
  expect(await seriousViolations(page)).toEqual([]);
});

test('the parts clerk counts a whole bin, adding a part found there', async ({ page }) => {
  await signInAs(page, CLERK);
  await page.goto('/parts');
  await expect(page.getByRole('heading', { name: 'Repair parts stock', level: 1 })).toBeVisible();

  await page.getByRole('button', { name: 'Count a bin' }).click();
  const counting = dialog(page, 'Count a bin of parts');
  await pick(page, counting, 'Bin', `${ZONE}-01`, `${ZONE}-01`);
  // The books have the screens there: their line is named by the part.
  const screens = counting.getByLabel(`${PART} Screen ${TAG}`);
  await expect(screens).toBeVisible();
  await screens.fill('7');
  await counting.getByRole('button', { name: 'Add part found' }).click();
  await pick(page, counting, 'Part found', FOUND_PART, `${FOUND_PART} Battery ${TAG}`);
  await counting.getByLabel('Counted', { exact: true }).fill('2');
  await counting.getByRole('button', { name: 'Record count' }).click();
  await expect(
    page.getByText(
      `Counted 2 items at ${ZONE}-01. Counted 7 × ${PART} at ${ZONE}-01: 1 fewer than the ` +
        `books (8). Counted 2 × ${FOUND_PART} at ${ZONE}-01: 2 more than the books (0).`,
    ),
  ).toBeVisible();
  await closeNotifications(page);

  await searchList(page, FOUND_PART);
  await expect(rowOf(page, FOUND_PART)).toContainText(`${ZONE}-01 (2)`);
  await searchList(page, PART);
  const row = rowOf(page, PART);
  await expect(row).toContainText(`${ZONE}-01 (7)`);
  await expect(row).not.toContainText('Never counted');
  expect(await seriousViolations(page)).toEqual([]);
});
