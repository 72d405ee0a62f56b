import { expect, test } from '@playwright/test';
import {
  apiAs,
  createStaff,
  imeiOf,
  listedVariant,
  locateGradedStock,
  receiveStagedBox,
  seedReceivingCatalogue,
  type Staff,
} from './api';
import { ADMIN_PASSWORD, signIn } from './support';
import { closeNotifications, dialog, rowOf, seriousViolations, wedgeScan } from './ui';

/**
 * A wholesale order as the staff work it (DOMAIN.md 5.2, the retailer variant): a retailer's buyer
 * checks out two phones, staff approve the order and assign it (through the API); the packer
 * opens a carton on /order/box (its OB label opens to print), scans both IMEIs into it by
 * keyboard, closes it with its weight (the order is fulfilled) and opens the packing list; the
 * shipping clerk makes its freight shipment with a BOL on /shipment and checks it, scans the
 * carton at the dock and confirms the carrier's pickup: the shipment is in transit and the order
 * shipped, and the device lookup shows each step on the phone's timeline.
 */

const TAG = 187;
const staff = (role: string, first: string): Staff => ({
  userName: `${role}.${TAG}`,
  name: `${first} ${TAG}`,
  password: `steady-${role}-${TAG}`,
});
const GRADER = staff('grader', 'Grader');
const PACKER = staff('fw', 'Packer');
const CLERK = staff('sh', 'Clerk');
const BUYER = staff('buyer', 'Buyer');

let order = { id: 0, number: '' };
let imeis: string[] = [];

test.beforeAll(async ({ playwright }, testInfo) => {
  test.setTimeout(180_000);
  const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  const admin = await apiAs(request, 'admin', ADMIN_PASSWORD);
  const catalogue = await seedReceivingCatalogue(admin, TAG);
  const box = await receiveStagedBox(admin, catalogue, {
    tag: TAG,
    imeis: [1, 2].map((serial) => imeiOf(catalogue.models.main.tac, serial)),
  });
  await locateGradedStock(request, admin, { catalogue, box, worker: GRADER, tag: TAG, grade: 'A' });
  const sku = await listedVariant(admin, catalogue, {
    skuPrefix: `WHS${TAG}`,
    grade: 'A',
    listing: { channel: 'retailer', qty_pushed: 2, price_cents: 11_900 },
  });
  const retailer = await admin.post<{ id: number }>('/retailers', {
    name: `Phone Shop ${TAG}`,
    type: 'store',
    credit_terms: 'net30',
    credit_limit_cents: 1_000_000,
    addresses: [
      {
        kind: 'shipping',
        line1: '9 Congress Ave',
        city: 'Austin',
        state: 'TX',
        zip: '78701',
        is_default: true,
      },
    ],
  });
  const portal = await admin.post<{ temporary_password: string }>(
    `/retailers/${retailer.id}/portal-users`,
    { user_name: BUYER.userName, name: BUYER.name },
  );
  const first = await apiAs(request, BUYER.userName, portal.temporary_password);
  await first.post('/profile/password', {
    new_password: BUYER.password,
    new_password_confirm: BUYER.password,
  });
  const buyer = await apiAs(request, BUYER.userName, BUYER.password);
  const [listing] = await admin.get<{ id: number }[]>(
    `/orders/listing-options?search=${encodeURIComponent(sku)}`,
  );
  const placed = await buyer.post<{ id: number; number: string }>('/web-orders', {
    items: [{ id: listing!.id, type: 'product', quantity: 2 }],
  });
  await admin.post(`/web-orders/${placed.id}/approval`, {});
  const { id: packerId } = await createStaff(request, admin, PACKER, 'Fulfilment Worker');
  await createStaff(request, admin, CLERK, 'Shipping Clerk');
  await admin.post('/fulfilment/assignments', { assignee_id: packerId, order_ids: [placed.id] });
  order = placed;
  const detail = await admin.get<{ units: { imei: string | null }[] }>(
    `/orders/${placed.id}/detail`,
  );
  imeis = detail.units.map((unit) => unit.imei!);
  expect(imeis).toHaveLength(2);
  await request.dispose();
});

test('a retailer order is packed into a carton, shipped under a BOL, scanned out and picked up', async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000);
  const [first, second] = imeis as [string, string];

  // The packer: a carton for the order, both phones scanned in, closed with its weight.
  await signIn(page, PACKER.userName, PACKER.password);
  await expect(page.getByRole('heading', { name: /^Welcome, / })).toBeVisible();
  await page.goto('/order/box');
  await expect(page.getByRole('heading', { name: 'Order boxes', level: 1 })).toBeVisible();
  await rowOf(page, order.number)
    .getByRole('button', { name: `Pack ${order.number}` })
    .click();
  await expect(page.getByTestId('order-status')).toHaveText('assigned');
  const labelTab = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'New carton' }).click();
  const tab = await labelTab;
  await expect(tab).toHaveURL(/\/downloads\//);
  await tab.close();
  const opened = page.getByText(/^OB-\d{6} is open: its label is printing\.$/);
  await expect(opened).toBeVisible();
  const carton = /OB-\d{6}/.exec((await opened.textContent()) ?? '')![0];
  await closeNotifications(page);

  const scanField = page.getByRole('textbox', { name: `Scan into ${carton}` });
  await expect(scanField).toBeFocused();
  const newest = page.getByTestId('scan-line').first();
  await wedgeScan(page, first);
  await expect(newest).toHaveAttribute('data-result', 'packed');
  await wedgeScan(page, first);
  await expect(newest).toHaveAttribute('data-result', 'already_in_box');
  await wedgeScan(page, second);
  await expect(newest).toHaveAttribute('data-result', 'packed');
  await expect(scanField).toBeFocused();
  await expect(page.getByTestId('order-status')).toHaveText('in progress');
  expect(await seriousViolations(page)).toEqual([]);

  await page.getByRole('button', { name: `Close ${carton}` }).click();
  const closing = dialog(page, `Close ${carton}`);
  await closing.getByRole('spinbutton', { name: 'Weight (lb)' }).fill('3.5');
  await closing.getByRole('button', { name: 'Close carton' }).click();
  await expect(page.getByText(`${carton} is closed at 3.5 lb.`)).toBeVisible();
  await closeNotifications(page);
  await expect(page.getByTestId('order-status')).toHaveText('fulfilled');
  const listTab = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Packing list' }).click();
  const list = await listTab;
  await expect(list).toHaveURL(/\/downloads\//);
  await list.close();

  // The clerk: the freight shipment with its BOL, checked.
  const clerkContext = await browser.newContext();
  const clerk = await clerkContext.newPage();
  await signIn(clerk, CLERK.userName, CLERK.password);
  await expect(clerk.getByRole('heading', { name: /^Welcome, / })).toBeVisible();
  await clerk.goto('/shipment');
  await expect(clerk.getByRole('heading', { name: 'Order shipments', level: 1 })).toBeVisible();
  await rowOf(clerk, order.number)
    .getByRole('button', { name: `Create shipment for ${order.number}` })
    .click();
  const creating = dialog(clerk, `Shipment of ${order.number}`);
  await creating.getByLabel('Freight carrier').fill('Estes Express');
  await creating.getByLabel('BOL number').fill(`BOL${TAG}001`);
  await creating.getByRole('button', { name: 'Create shipment' }).click();
  const made = clerk.getByText(new RegExp(`^WS-\\d{6} is made for ${order.number}\\.$`));
  await expect(made).toBeVisible();
  const shipment = /WS-\d{6}/.exec((await made.textContent()) ?? '')![0];
  await closeNotifications(clerk);
  await rowOf(clerk, shipment)
    .getByRole('button', { name: `Check ${shipment}` })
    .click();
  await expect(clerk.getByText(`${shipment} is checked: its contents are verified.`)).toBeVisible();
  await closeNotifications(clerk);
  await expect(rowOf(clerk, shipment)).toContainText(CLERK.name);
  expect(await seriousViolations(clerk)).toEqual([]);

  // At the dock: an unknown label is refused; the carton scanned; the pickup confirmed.
  await clerk.goto('/shipment/scan-out-to-ship');
  await expect(clerk.getByRole('heading', { name: 'Dock scan-out', level: 1 })).toBeVisible();
  const dockField = clerk.getByRole('textbox', { name: 'Scan a carton label' });
  await expect(dockField).toBeFocused();
  const line = clerk.getByTestId('scan-line').first();
  await wedgeScan(clerk, 'OB-999999');
  await expect(line).toHaveAttribute('data-result', 'unknown');
  await wedgeScan(clerk, carton);
  await expect(line).toHaveAttribute('data-result', 'scanned');
  await expect(line).toContainText('1 of 1 cartons');
  await expect(dockField).toBeFocused();
  await clerk.getByRole('button', { name: 'Confirm pickup' }).click();
  const pickup = dialog(clerk, `Pickup of ${shipment}`);
  await pickup.getByLabel('Driver').fill('Sam Driver');
  await pickup.getByRole('button', { name: 'Confirm pickup' }).click();
  await expect(
    clerk.getByText(`${shipment} is on its way: order ${order.number} shipped.`),
  ).toBeVisible();
  await expect(clerk.getByTestId('shipment-status')).toHaveText('in transit');
  const manifestTab = clerk.waitForEvent('popup');
  await clerk.getByRole('button', { name: 'Manifest' }).click();
  await (await manifestTab).close();
  expect(await seriousViolations(clerk)).toEqual([]);

  // The device lookup tells the phone's steps: picked into the carton, packed, shipped.
  await clerk.goto('/devices/scan');
  const lookup = clerk.getByRole('searchbox', { name: 'Look up a device' });
  await expect(lookup).toBeFocused();
  await wedgeScan(clerk, first);
  const card = clerk.getByTestId('device-card');
  await expect(card).toContainText('Shipped');
  await expect(card).toContainText('Packed');
  await expect(card).toContainText('Picked');
  await expect(card).toContainText(carton);
  await clerkContext.close();
});
