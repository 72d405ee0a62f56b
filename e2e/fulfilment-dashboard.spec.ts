import type { FulfilmentDashboard } from '@inventory/contract';
import { expect, test } from '@playwright/test';
import {
  apiAs,
  createClientCarrier,
  createStaff,
  listedVariant,
  seedReceivingCatalogue,
  type Staff,
} from './api';
import { ADMIN_PASSWORD, signIn } from './support';
import { closeNotifications, rowOf, seriousViolations } from './ui';

/**
 * The warehouse manager who also runs fulfilment reads the fulfilment dashboard: refreshes the
 * kept figures, sees the day's figures and the cut-off countdown, finds this spec's orders on hold
 * in the backlog by reason, reads that chart's figures as a table, exports it and follows a
 * reason to the backlog list behind it.
 */

/** This spec's tag: its catalogue, carrier, orders and users never meet another spec's. */
const TAG = 143;
const MANAGER: Staff = {
  userName: `fd.manager.${TAG}`,
  name: `Manager ${TAG}`,
  password: `fd-manager-${TAG}-pass-2026`,
};

test.describe.configure({ mode: 'serial' });

/** The spec's orders, on hold without stock. */
const held: string[] = [];

test.beforeAll(async ({ playwright }, testInfo) => {
  const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  const admin = await apiAs(request, 'admin', ADMIN_PASSWORD);
  // A live carrier listing that may sell ahead of stock, and no device in stock: the orders go to
  // the backlog as "no stock" at intake.
  const catalogue = await seedReceivingCatalogue(admin, TAG);
  const sku = await listedVariant(admin, catalogue, {
    skuPrefix: `FDB${TAG}`,
    grade: 'A',
    listing: { channel: 'carrier', qty_pushed: 5, price_cents: 0, allow_backorder: true },
  });
  const carrier = await createClientCarrier(admin, `Carrier ${TAG}`);
  const [listing] = await admin.get<{ id: number }[]>(
    `/orders/listing-options?search=${encodeURIComponent(sku)}`,
  );
  for (const n of [1, 2]) {
    const order = await admin.post<{ number: string; status: string; hold_reason: string }>(
      '/orders',
      {
        client_carrier_id: carrier.id,
        program: 'lifeline',
        fulfilment_type: 'new_lifeline',
        external_id: `ENR-${TAG}-${n}`,
        first_name: 'Ana',
        last_name: `Subscriber${n}`,
        service_address: {
          line1: `${TAG}${n} Main St`,
          city: 'Houston',
          state: 'TX',
          zip: '77002',
        },
        lines: [{ listing_id: listing!.id, qty: 1 }],
      },
    );
    expect(order).toMatchObject({ status: 'on_hold', hold_reason: 'no_stock' });
    held.push(order.number);
  }
  await createStaff(request, admin, MANAGER, ['Warehouse Manager', 'Fulfilment Manager']);
  await request.dispose();
});

test('the manager refreshes the day’s figures, reads the backlog as a table and drills down', async ({
  page,
  playwright,
}, testInfo) => {
  await signIn(page, MANAGER.userName, MANAGER.password);
  await expect(page.getByRole('heading', { name: `Welcome, ${MANAGER.name}` })).toBeVisible();
  await page.goto('/warehouse/dashboard-fulfill');
  await expect(page.getByRole('heading', { name: 'Fulfilment dashboard', level: 1 })).toBeVisible();
  await expect(page.getByTestId('figures-age')).toContainText('America/Chicago');

  // The figures may have been kept before this spec's orders came: a refresh reads them again.
  await page.getByRole('button', { name: 'Refresh now' }).click();
  await expect(page.getByText('The figures are read again.')).toBeVisible();
  await closeNotifications(page);
  await expect(page.getByTestId('figures-age')).toContainText(
    `just now, asked for by ${MANAGER.name}`,
  );
  await expect(page.getByTestId('figure-cutoff')).toContainText(/ left|passed .* ago/);
  for (const figure of ['ready', 'assigned', 'picked', 'labelled', 'shipped', 'sla']) {
    await expect(page.getByTestId(`figure-${figure}`)).toBeVisible();
  }

  // What the page shows are the kept figures the server answers.
  const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  const manager = await apiAs(request, MANAGER.userName, MANAGER.password);
  const { figures } = await manager.get<FulfilmentDashboard>('/warehouse/dashboard-fulfill');
  await request.dispose();
  const noStock = figures.backlog.find((row) => row.hold_reason === 'no_stock')!;
  expect(noStock.orders).toBeGreaterThanOrEqual(held.length);
  const onHold = figures.backlog.reduce((sum, row) => sum + row.orders, 0);
  await expect(page.getByTestId('figure-backlog')).toContainText(onHold.toLocaleString('en-US'));

  // The chart arrives in its own chunk; its figures are the table beside it.
  const backlogChart = page.getByRole('figure', { name: 'Backlog by reason' });
  await expect(backlogChart.getByRole('application')).toBeVisible();
  const backlog = page.getByRole('table', { name: 'Backlog by reason, figures' });
  await expect(rowOf(backlog, 'No stock').getByRole('cell')).toHaveText([
    'No stock',
    noStock.orders.toLocaleString('en-US'),
    noStock.sla_breached.toLocaleString('en-US'),
  ]);
  await expect(
    page.getByRole('table', { name: 'Throughput per hour, figures' }).getByRole('columnheader'),
  ).toHaveText(['Hour', 'Units picked', 'Labels', 'Scanned out']);

  expect(await seriousViolations(page)).toEqual([]);

  // Each widget exports the figures it shows.
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export Backlog by reason' }).click();
  await page.getByRole('menuitem', { name: 'CSV' }).click();
  expect((await downloading).suggestedFilename()).toMatch(/^fulfilment-backlog-.*\.csv$/);
  await closeNotifications(page);

  // A reason opens the backlog behind it, where this spec's orders wait.
  await rowOf(backlog, 'No stock').getByRole('link', { name: 'No stock' }).click();
  await expect(page).toHaveURL(/\/fulfill\/backlog-order\?hold_reason=no_stock$/);
  await expect(page.getByRole('heading', { name: 'Backlog', level: 1 })).toBeVisible();
  for (const number of held) await expect(rowOf(page, number)).toBeVisible();
});
