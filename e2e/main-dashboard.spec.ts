import { expect, test } from '@playwright/test';
import { apiAs, createStaff, readyLifelineOrders, type Staff } from './api';
import { ADMIN_PASSWORD, signIn } from './support';
import { closeNotifications, pick, seriousViolations } from './ui';

/**
 * The main dashboard (DOMAIN.md 4.1): the administrator reads every widget of the kept figures,
 * narrows them to this spec's client carrier, exports a widget and follows today's orders to the
 * order list; a SIM coordinator, without the order and return permissions, sees no widget of
 * those sources.
 */

const TAG = 223;
const FIRST_SIM = TAG * 1_000_000;
const staff = (role: string, first: string): Staff => ({
  userName: `${role}.${TAG}`,
  name: `${first} ${TAG}`,
  password: `steady-${role}-${TAG}`,
});
const GRADER = staff('grader', 'Grader');
const COORDINATOR = staff('simc', 'Coordinator');
const WIDGETS = ['stock', 'pipeline', 'orders', 'sims', 'rmas', 'unpacks', 'shipped_received'];

test.describe.configure({ mode: 'serial' });

let carrier: { id: number; name: string };

test.beforeAll(async ({ playwright }, testInfo) => {
  test.setTimeout(180_000);
  const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  const admin = await apiAs(request, 'admin', ADMIN_PASSWORD);
  // A new client carrier with one Lifeline order received today, and a device graded into stock.
  ({ carrier } = await readyLifelineOrders(request, admin, {
    tag: TAG,
    grader: GRADER,
    skuPrefix: `DSH${TAG}`,
    devices: 1,
    orders: 1,
    firstSim: FIRST_SIM,
  }));
  await createStaff(request, admin, COORDINATOR, 'SIM Coordinator');
  await request.dispose();
});

test('the administrator reads every widget, filters by carrier, exports and drills down', async ({
  page,
}) => {
  await signIn(page, 'admin', ADMIN_PASSWORD);
  await expect(page.getByRole('heading', { name: /^Welcome, / })).toBeVisible();
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: 'Main dashboard', level: 1 })).toBeVisible();
  await expect(page.getByTestId('figures-age')).toContainText('Figures as of');

  // The figures may have been kept before this spec's order: a refresh reads them again.
  await page.getByRole('button', { name: 'Refresh now' }).click();
  await expect(page.getByText('The figures are read again.')).toBeVisible();
  await closeNotifications(page);
  await expect(page.getByTestId('figures-age')).toContainText('just now, asked for by');
  for (const widget of WIDGETS) await expect(page.getByTestId(`widget-${widget}`)).toBeVisible();
  await expect(page.getByTestId('figure-stock-units')).toContainText(/\d/);
  await expect(page.getByTestId('figure-pipeline-received')).toContainText(/\d/);

  // This spec's carrier: its one order received today, none shipped.
  await pick(page, page.locator('main'), 'Client carrier', carrier.name, carrier.name);
  await expect(page).toHaveURL(new RegExp(`client_carrier_id=${carrier.id}`));
  const received = page.getByTestId('figure-orders-received');
  await expect(received).toContainText('1');
  await expect(page.getByTestId('figure-orders-shipped')).toContainText('0');

  // The chart arrives in its own chunk, beside the table of its figures.
  const chart = page.getByRole('figure', { name: /^Orders shipped against received/ });
  await expect(chart.getByRole('application')).toBeVisible();
  await expect(page.getByTestId('widget-shipped_received').getByRole('row')).not.toHaveCount(0);

  expect(await seriousViolations(page)).toEqual([]);

  // Each widget exports the figures it shows.
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export Orders', exact: true }).click();
  await page.getByRole('menuitem', { name: 'CSV' }).click();
  expect((await downloading).suggestedFilename()).toMatch(/^dashboard-orders-.*\.csv$/);
  await closeNotifications(page);

  // Today's received orders open the order list, filtered to the period and the carrier.
  await received.getByRole('link', { name: '1' }).click();
  await expect(page).toHaveURL(
    new RegExp(
      `/order/list\\?received_from=(\\d{4}-\\d{2}-\\d{2})&received_to=\\1&client_carrier_id=${carrier.id}$`,
    ),
  );
  await expect(page.getByRole('heading', { name: 'All orders', level: 1 })).toBeVisible();
  await expect(page.getByTestId('list-count')).toHaveText(/^1 /);

  // Stock by OS opens the registry's devices in stock of that system's models.
  await page.goBack();
  await page.getByTestId('figure-stock-android').getByRole('link').click();
  await expect(page).toHaveURL(/\/devices\/scan\?status=in_stock&os=android$/);
  await expect(page.getByRole('heading', { name: 'Device lookup', level: 1 })).toBeVisible();
});

test('a SIM coordinator sees no widget of the orders or the returns', async ({ page }) => {
  await signIn(page, COORDINATOR.userName, COORDINATOR.password);
  await expect(page.getByRole('heading', { name: `Welcome, ${COORDINATOR.name}` })).toBeVisible();
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: 'Main dashboard', level: 1 })).toBeVisible();
  for (const widget of ['stock', 'pipeline', 'sims']) {
    await expect(page.getByTestId(`widget-${widget}`)).toBeVisible();
  }
  for (const widget of ['orders', 'rmas', 'unpacks', 'shipped_received']) {
    await expect(page.getByTestId(`widget-${widget}`)).toHaveCount(0);
  }
  expect(await seriousViolations(page)).toEqual([]);
});
