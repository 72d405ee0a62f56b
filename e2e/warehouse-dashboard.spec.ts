import { expect, test } from '@playwright/test';
import { apiAs, createStaff, type Staff } from './api';
import { ADMIN_PASSWORD, signIn } from './support';
import { closeNotifications, rowOf, seriousViolations } from './ui';

/**
 * The warehouse manager reads the warehouse dashboard: refreshes the kept figures, finds a zone of
 * this spec's own with its room and an accessory below its reorder point, reads a chart's figures
 * as a table, and follows a figure to the list behind it.
 */

/** This spec's tag: its locations, items and users never meet another spec's. */
const TAG = 29;
const ZONE = `W${TAG}`;
const SKU = `E2E-WH-${TAG}`;
const MANAGER: Staff = {
  userName: `wh.manager.${TAG}`,
  name: `Manager ${TAG}`,
  password: `wh-manager-${TAG}-pass-2026`,
};

test.describe.configure({ mode: 'serial' });

let zoneId: number;
let accessoryId: number;

test.beforeAll(async ({ playwright }, testInfo) => {
  const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  const admin = await apiAs(request, 'admin', ADMIN_PASSWORD);
  // A zone of two active bins holding three boxes each: six box places, none used.
  const zone = await admin.post<{ id: number }>('/locations', { kind: 'zone', segment: ZONE });
  zoneId = zone.id;
  const bins = await Promise.all(
    ['01', '02'].map((segment) =>
      admin.post<{ id: number }>('/locations', {
        kind: 'bin',
        parent_id: zone.id,
        segment,
        capacity_boxes: 3,
      }),
    ),
  );
  await admin.post('/locations/activation', {
    ids: [zone.id, ...bins.map((bin) => bin.id)],
    active: true,
  });
  // Reorder at 40, none in stock: below its reorder point.
  accessoryId = (
    await admin.post<{ id: number }>('/accessories', {
      sku: SKU,
      name: `Case ${TAG}`,
      kind: 'case',
      reorder_point: 40,
    })
  ).id;

  await createStaff(request, admin, MANAGER, 'Warehouse Manager');
  await request.dispose();
});

test('the warehouse manager refreshes the figures, reads them as tables and drills down', async ({
  page,
}) => {
  await signIn(page, MANAGER.userName, MANAGER.password);
  await expect(page.getByRole('heading', { name: `Welcome, ${MANAGER.name}` })).toBeVisible();
  await page.goto('/warehouse/dashboard');
  await expect(page.getByRole('heading', { name: 'Warehouse dashboard', level: 1 })).toBeVisible();
  await expect(page.getByTestId('figures-age')).toContainText('Figures as of');

  // The figures were kept before this spec made its zone: a refresh reads them again.
  await page.getByRole('button', { name: 'Refresh now' }).click();
  await expect(page.getByText('The figures are read again.')).toBeVisible();
  await closeNotifications(page);
  await expect(page.getByTestId('figures-age')).toContainText(
    `just now, asked for by ${MANAGER.name}`,
  );
  for (const figure of ['rts', 'boxes', 'utilisation', 'on-hold', 'in-repair', 'audits']) {
    await expect(page.getByTestId(`figure-${figure}`)).toBeVisible();
  }

  // The chart arrives in its own chunk; its figures are the table beside it.
  const zoneChart = page.getByRole('figure', { name: 'Boxes by zone' });
  await expect(zoneChart.getByRole('application')).toBeVisible();
  const zones = page.getByRole('table', { name: 'Boxes by zone, figures' });
  const zoneRow = rowOf(zones, ZONE);
  await expect(zoneRow.getByRole('cell')).toHaveText([ZONE, '0', '0', '6', '0.0 %']);

  await expect(
    page.getByRole('table', { name: 'Stock age, figures' }).getByRole('row'),
  ).toHaveCount(6);
  const accessories = page.getByRole('table', { name: 'Accessories below reorder' });
  await expect(rowOf(accessories, SKU).getByRole('cell')).toHaveText([
    SKU,
    `Case ${TAG}`,
    '0',
    '40',
  ]);

  expect(await seriousViolations(page)).toEqual([]);

  // Each widget exports the figures it shows.
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export Boxes by zone' }).click();
  await page.getByRole('menuitem', { name: 'CSV' }).click();
  expect((await downloading).suggestedFilename()).toMatch(/^warehouse-zones-.*\.csv$/);
  await closeNotifications(page);

  // A figure opens the list behind it: the zone's locations, then the accessory's bins.
  await zoneRow.getByRole('link', { name: '0.0 %' }).click();
  await expect(page).toHaveURL(
    new RegExp(`/inventory-box/location/update-location\\?zone_id=${zoneId}&active=true$`),
  );
  await expect(page.getByRole('heading', { name: 'Locations', level: 1 })).toBeVisible();
  await expect(page.getByTestId('list-count')).toHaveText(/^3 /);

  await page.goBack();
  await rowOf(page.getByRole('table', { name: 'Accessories below reorder' }), SKU)
    .getByRole('link', { name: SKU })
    .click();
  await expect(page).toHaveURL(
    new RegExp(`/inventory-box/accessories\\?accessory_id=${accessoryId}$`),
  );
  await expect(page.getByRole('heading', { name: 'Accessory boxes', level: 1 })).toBeVisible();
});
