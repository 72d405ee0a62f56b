import { expect, test, type Page } from '@playwright/test';
import { apiAs, createStaff, imeiOf, receiveStagedBox, seedReceivingCatalogue } from './api';
import { ADMIN_PASSWORD, signIn } from './support';
import {
  chooseFile,
  chooseOption,
  closeNotifications,
  dialog,
  rowOf,
  seriousViolations,
  wedgeScan,
} from './ui';

/** This spec's tag: its vendor, models, TACs and invoices never meet another spec's. */
const TAG = 81;
const WORKER = { userName: `worker.${TAG}`, name: `Worker ${TAG}`, password: 'steady-bench-81' };
/** A second worker, who gets devices only by reassignment. */
const SECOND_WORKER = { userName: `worker.${TAG}b`, name: `Worker ${TAG}B` };
/** A PNG's first bytes: the server knows a picture by its content. */
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);

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
  const box = await receiveStagedBox(api, catalogue, { tag: TAG, imeis });

  await createStaff(request, api, WORKER, 'Production Worker');
  const roles = await api.get<{ items: { id: number; name: string }[] }>('/roles?limit=200');
  const workerRole = roles.items.find((role) => role.name === 'Production Worker')!;
  await api.post('/users', {
    user_name: SECOND_WORKER.userName,
    name: SECOND_WORKER.name,
    type: 'staff',
    role_ids: [workerRole.id],
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

test('the leader reviews the failure, sends it back for a re-grade and moves it between workers', async ({
  page,
}) => {
  const failed = setup.imeis[1];
  await signIn(page, 'admin', ADMIN_PASSWORD);
  await expect(page.getByRole('heading', { name: 'Welcome, Administrator' })).toBeVisible();
  await page.goto('/invoice/product-team/leader');
  await expect(page.getByRole('heading', { name: 'Production leader' })).toBeVisible({
    timeout: 15_000,
  });
  const failures = page.getByRole('table', { name: 'Failures to review' });
  const failure = rowOf(failures, failed);
  await expect(failure).toContainText('LCD-CRACK');
  await expect(failure).toContainText(WORKER.name);
  expect(await seriousViolations(page)).toEqual([]);

  await failure.getByRole('button', { name: `Re-grade ${failed}` }).click();
  const regrade = dialog(page, `Re-grade ${failed}`);
  // The drawer's first field takes the focus; the reason is required before anything is sent.
  await expect(regrade.getByRole('textbox', { name: 'IMEI' })).toBeFocused();
  await regrade.getByRole('button', { name: 'Send back' }).click();
  await expect(regrade).toContainText('Say why you send back for a re-grade.');
  await regrade.getByRole('textbox', { name: 'Reason' }).fill('The crack is on the protector film');
  expect(await seriousViolations(page, '.ant-drawer')).toEqual([]);
  await regrade.getByRole('button', { name: 'Send back' }).click();
  await expect(page.locator('.ant-notification-notice')).toContainText(
    `${failed} is back in ${WORKER.name}'s queue for a re-grade.`,
  );
  await expect(failures).not.toContainText(failed);
  await closeNotifications(page);

  // The box's one device in production goes to the second worker, the whole of the first's…
  const boxRow = rowOf(page, setup.box);
  await boxRow.getByRole('button', { name: `Reassign ${setup.box}` }).click();
  const reassign = dialog(page, `Reassign ${setup.box}`);
  await expect(reassign.getByRole('table')).toContainText(failed);
  await reassign.getByRole('combobox', { name: 'To worker' }).click();
  await chooseOption(page, SECOND_WORKER.name);
  expect(await seriousViolations(page, '.ant-drawer')).toEqual([]);
  await reassign.getByRole('button', { name: `Move all 1 of ${WORKER.name}’s devices` }).click();
  await expect(page.locator('.ant-notification-notice')).toContainText(
    `1 device of ${setup.box} moved to ${SECOND_WORKER.name}.`,
  );
  await expect(boxRow).toContainText(`${SECOND_WORKER.name}: 1`);
  await closeNotifications(page);

  // …and back, chosen by its checkbox, with the keyboard.
  await boxRow.getByRole('button', { name: `Reassign ${setup.box}` }).click();
  const back = dialog(page, `Reassign ${setup.box}`);
  await back.getByRole('combobox', { name: 'To worker' }).click();
  await chooseOption(page, WORKER.name);
  await back.getByRole('checkbox', { name: `Choose ${failed}` }).focus();
  await page.keyboard.press('Space');
  await back.getByRole('button', { name: 'Move the 1 chosen' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.locator('.ant-notification-notice')).toContainText(
    `1 device of ${setup.box} moved to ${WORKER.name}.`,
  );
  await expect(boxRow).toContainText(`${WORKER.name}: 1`);
});

test('the worker fills the checklist from a diagnostic file and grades C with a photo, by keyboard', async ({
  page,
}) => {
  const regraded = setup.imeis[1];
  await signIn(page, WORKER.userName, WORKER.password);
  await expect(page.getByRole('heading', { name: `Welcome, ${WORKER.name}` })).toBeVisible();
  await page.goto('/invoice/product-team/worker');
  await expect(page.getByRole('heading', { name: 'Production worker' })).toBeVisible({
    timeout: 15_000,
  });
  const scanField = page.getByRole('textbox', { name: 'Scan an IMEI' });
  await expect(scanField).toBeFocused();
  await wedgeScan(page, regraded);
  await expect(answer(page)).toContainText(`${regraded}: test, wipe and grade it.`);
  const test = page.getByRole('region', { name: `Test of ${regraded}` });

  // The tool's file, chosen from the keyboard: its results fill this device's checklist.
  await chooseFile(
    page,
    async () => {
      await page.getByRole('button', { name: 'Diagnostic file' }).focus();
      await page.keyboard.press('Enter');
    },
    {
      name: `diag-${TAG}.csv`,
      mimeType: 'text/csv',
      buffer: Buffer.from(`IMEI,Display,Touch,Speaker,Battery %\n${regraded},PASS,PASS,PASS,84%\n`),
    },
  );
  await expect(test.getByTestId('diagnostics-filled')).toContainText(
    `Checklist filled from diag-${TAG}.csv: 3 of 10 items, battery 84%.`,
  );
  await expect(test.getByRole('spinbutton', { name: 'Battery health %' })).toHaveValue('84');
  await expect(scanField).toBeFocused();

  await test.getByRole('combobox', { name: 'Wipe method' }).click();
  await chooseOption(page, 'factory reset');
  await test.getByRole('textbox', { name: 'Wipe certificate id' }).fill(`CERT-${TAG}-2`);
  // Grade C by the arrow keys from B; C needs a photo first.
  await test.getByRole('radio', { name: /^B: / }).focus();
  await page.keyboard.press('Space');
  await page.keyboard.press('ArrowDown');
  await expect(test.getByRole('radio', { name: /^C: / })).toBeChecked();
  await test.getByRole('button', { name: 'Pass and grade' }).focus();
  await page.keyboard.press('Enter');
  await expect(test.getByTestId('photo-problem')).toContainText(
    'Attach a photo of the device before you grade it C.',
  );
  const photos = test.getByRole('region', { name: `Photos of ${regraded}` });
  await photos.locator('input[type=file]').setInputFiles({
    name: 'back-cover.png',
    mimeType: 'image/png',
    buffer: PNG,
  });
  await expect(page.getByText('back-cover.png is attached.')).toBeVisible();
  await expect(photos.getByRole('table', { name: 'Attachments' })).toContainText('back-cover.png');
  expect(await seriousViolations(page)).toEqual([]);
  await test.getByRole('button', { name: 'Pass and grade' }).focus();
  await page.keyboard.press('Enter');
  await expect(answer(page)).toContainText(`${regraded} graded C: ready for consolidation.`);
  await expect(scanField).toBeFocused();
});

test('corrections by file: the errors by line first, then every row at once', async ({ page }) => {
  const graded = setup.imeis[0];
  await signIn(page, 'admin', ADMIN_PASSWORD);
  await expect(page.getByRole('heading', { name: 'Welcome, Administrator' })).toBeVisible();
  await page.goto('/invoice/product-team/update-device');
  await expect(page.getByRole('heading', { name: 'Correct device' })).toBeVisible({
    timeout: 15_000,
  });
  await page.getByRole('button', { name: 'Import corrections' }).click();
  const importing = dialog(page, 'Import device corrections');
  const upload = (rows: string[]) =>
    importing.locator('input[type=file]').setInputFiles({
      name: 'fixes.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(['IMEI,Field,New value,Reason', ...rows].join('\n')),
    });
  await upload([`${graded},grade,B,`, `${graded},capacity,256,Storage checked`]);
  await importing.getByRole('button', { name: 'Check every row' }).click();
  await expect(importing).toContainText('1 error in fixes.csv: nothing has been written.');
  await expect(rowOf(importing, 'Say why you correct the device.')).toContainText('2');
  expect(await seriousViolations(page, '.ant-drawer')).toEqual([]);
  await importing.getByRole('button', { name: 'Upload a corrected file' }).click();
  await upload([
    `${graded},grade,B,Scratch under the camera`,
    `${graded},capacity,256,Storage checked`,
  ]);
  await importing.getByRole('button', { name: 'Check every row' }).click();
  await expect(importing).toContainText('Every row is right: 0 to create, 2 to update.');
  await importing.getByRole('button', { name: 'Import 2 rows' }).click();
  await expect(importing).toContainText('0 created, 2 updated.');
  await importing.getByRole('button', { name: 'Done' }).click();

  await wedgeScan(page, graded);
  const correction = page.getByRole('region', { name: `Correct ${graded}` });
  await expect(correction.getByRole('spinbutton', { name: 'Capacity GB' })).toHaveValue('256');
  await expect(correction.locator('.ant-select').filter({ hasText: /^B$/ })).toBeVisible();
});
