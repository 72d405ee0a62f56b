import { expect, test, type Page } from '@playwright/test';
import { apiAs, imeiOf, importManifest, seedReceivingCatalogue } from './api';
import { ADMIN_PASSWORD, signIn } from './support';
import { chooseOption, closeNotifications, seriousViolations, wedgeScan } from './ui';

/** This spec's tag: its vendor, models, TACs and invoices never meet another spec's. */
const TAG = 81;
const INVOICE = `INV-${TAG}`;
const WORKER = { userName: `worker.${TAG}`, name: `Worker ${TAG}`, password: 'steady-bench-81' };

type Setup = { imeis: [string, string, string]; box: string; model: string };
let setup: Setup;

test.describe.configure({ mode: 'serial' });

/**
 * What production starts from, made as receiving makes it: a manifest of three devices, a box
 * they are scanned into, closed and staged; and a production worker with a password of her own.
 */
test.beforeAll(async ({ playwright }, testInfo) => {
  const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  const api = await apiAs(request, 'admin', ADMIN_PASSWORD);
  const catalogue = await seedReceivingCatalogue(api, TAG);
  const imeis = [1, 2, 3].map((serial) =>
    imeiOf(catalogue.models.main.tac, serial),
  ) as Setup['imeis'];
  const invoiceIds = await importManifest(
    api,
    catalogue,
    imeis.map((imei) => [INVOICE, imei] as const),
  );
  const box = await api.post<{ id: number; code: string }>('/warehouse-boxes', {
    invoice_id: invoiceIds[INVOICE],
  });
  for (const code of imeis) {
    const scan = await api.post<{ result: string }>(`/warehouse-boxes/${box.id}/scans`, { code });
    expect(scan.result).toBe('added');
  }
  await api.post(`/warehouse-boxes/${box.id}/close`, {});
  await api.post(`/warehouse-boxes/${box.id}/stage`, { location: `STG-${TAG}` });

  const roles = await api.get<{ items: { id: number; name: string }[] }>('/roles?limit=200');
  const workerRole = roles.items.find((role) => role.name === 'Production Worker')!;
  const created = await api.post<{ temporary_password: string }>('/users', {
    user_name: WORKER.userName,
    name: WORKER.name,
    type: 'staff',
    role_ids: [workerRole.id],
  });
  const worker = await apiAs(request, WORKER.userName, created.temporary_password);
  await worker.post('/profile/password', {
    new_password: WORKER.password,
    new_password_confirm: WORKER.password,
  });
  setup = { imeis, box: box.code, model: catalogue.models.main.name };
  await request.dispose();
});

const answer = (page: Page) => page.getByTestId('worker-answer');

test('request units, approve, and the leader hands the box to a worker', async ({ page }) => {
  await signIn(page, 'admin', ADMIN_PASSWORD);
  await expect(page.getByRole('heading', { name: 'Welcome, Administrator' })).toBeVisible();
  await page.goto('/invoice/product-request');
  await expect(page.getByRole('heading', { name: 'Product requests' })).toBeVisible({
    timeout: 15_000,
  });
  const form = page.getByRole('form', { name: 'New product request' });
  await form.getByRole('combobox', { name: 'Model' }).click();
  await form.getByRole('combobox', { name: 'Model' }).fill(`Phone ${TAG}`);
  await chooseOption(page, setup.model);
  await form.getByRole('spinbutton', { name: 'Quantity' }).fill('3');
  await form.getByRole('button', { name: 'Request' }).click();
  // The server proposes the staged box of the model.
  await expect(page.getByRole('alert').filter({ hasText: 'Proposed boxes' })).toContainText(
    `${setup.box} (3)`,
  );
  const row = page.getByRole('row').filter({ hasText: setup.model }).first();
  await row.getByRole('button', { name: /^Approve PR-/ }).click();
  await expect(row.getByTestId('request-status')).toHaveText('approved');
  await expect(row).toContainText(setup.box);

  await closeNotifications(page);
  await page.goto('/invoice/product-team/leader');
  const boxRow = page.getByRole('row').filter({ hasText: setup.box });
  await boxRow.getByRole('combobox', { name: `Worker for ${setup.box}` }).click();
  await chooseOption(page, WORKER.name);
  await boxRow.getByRole('button', { name: `Assign ${setup.box}` }).click();
  await expect(page.locator('.ant-notification-notice')).toContainText(
    `3 devices of ${setup.box} handed to ${WORKER.name}.`,
  );
});

test('the worker grades one, fails one with an issue code, and one with FRP on goes on hold', async ({
  page,
}) => {
  const [graded, failed, locked] = setup.imeis;
  await signIn(page, WORKER.userName, WORKER.password);
  await expect(page.getByRole('heading', { name: `Welcome, ${WORKER.name}` })).toBeVisible();
  await page.goto('/invoice/product-team/worker');
  await expect(page.getByRole('heading', { name: 'Production worker' })).toBeVisible({
    timeout: 15_000,
  });
  await expect(page.getByRole('table')).toContainText(graded);
  const scanField = page.getByRole('textbox', { name: 'Scan an IMEI' });
  await expect(scanField).toBeFocused();

  await wedgeScan(page, graded);
  await expect(answer(page)).toContainText(`${graded}: test, wipe and grade it.`);
  const test = page.getByRole('region', { name: `Test of ${graded}` });
  await expect(test).toContainText(setup.model);
  expect(await seriousViolations(page)).toEqual([]);
  await test.getByRole('combobox', { name: 'Wipe method' }).click();
  await chooseOption(page, 'nist 800 88');
  await test.getByRole('textbox', { name: 'Wipe certificate id' }).fill('CERT-81-1');
  await test.getByRole('spinbutton', { name: 'Battery health %' }).fill('92');
  await test.getByRole('radio', { name: /^A: / }).check();
  await test.getByRole('button', { name: 'Pass and grade' }).click();
  await expect(answer(page)).toContainText(`${graded} graded A: ready for consolidation.`);
  await expect(scanField).toBeFocused();

  await wedgeScan(page, failed);
  const failing = page.getByRole('region', { name: `Test of ${failed}` });
  await failing
    .getByRole('radiogroup', { name: 'screen result' })
    .getByRole('radio', { name: 'Fail' })
    .check();
  await failing.getByRole('spinbutton', { name: 'Battery health %' }).fill('75');
  await failing.getByRole('combobox', { name: 'Issue codes (to fail)' }).click();
  await chooseOption(page, 'LCD-CRACK');
  await page.keyboard.press('Escape');
  await failing.getByRole('button', { name: 'Fail QC' }).click();
  await expect(answer(page)).toContainText(`${failed} failed QC: LCD-CRACK.`);

  await wedgeScan(page, locked);
  const lockedTest = page.getByRole('region', { name: `Test of ${locked}` });
  await lockedTest.getByRole('switch', { name: 'FRP / activation lock on' }).click();
  await lockedTest.getByRole('spinbutton', { name: 'Battery health %' }).fill('88');
  await lockedTest.getByRole('button', { name: 'Pass and grade' }).click();
  await expect(answer(page)).toContainText(`${locked} has FRP on: on hold until it is removed.`);

  // A repeated scan of the graded device says so; the queue is empty.
  await wedgeScan(page, graded);
  await expect(answer(page)).toContainText(`${graded} is graded A already.`);
  await expect(page.getByRole('table')).toContainText('Nothing in your queue.');
});
