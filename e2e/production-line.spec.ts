import { expect, test, type Locator, type Page } from '@playwright/test';
import {
  apiAs,
  createStaff,
  imeiOf,
  receiveStagedBox,
  seedReceivingCatalogue,
  type Staff,
} from './api';
import { ADMIN_PASSWORD, signIn } from './support';
import { rowOf, seriousViolations, wedgeScan } from './ui';

/**
 * Issue 15's journey, as the staff work it, from a received and staged box of ten phones to a
 * located inventory box: the production manager requests ten units, the leader hands them to a
 * worker, the worker grades eight (one fails with an issue code; one turns out blacklisted), the
 * consolidation worker fills a box and has a unit of the wrong grade refused, seals it, and the
 * warehouse manager puts it away; the device lookup then tells every step. Every station is used
 * with the keyboard alone and checked with axe.
 */

/** This spec's tag: its vendor, models, users and locations never meet another spec's. */
const TAG = 92;
const BIN = `Z${TAG}-01`;
const staff = (role: string, first: string): Staff => ({
  userName: `${role}.${TAG}`,
  name: `${first} ${TAG}`,
  password: `${role}-${TAG}-password-2026`,
});
const LEADER = staff('leader', 'Lena');
const WORKER = staff('grader', 'Greta');
const CONSOLIDATOR = staff('boxer', 'Bruno');
const MANAGER = staff('keeper', 'Kai');

type Setup = { imeis: string[]; box: string; model: string };
let setup: Setup;
/** The inventory box the consolidation worker sealed. */
let sealedBox: string;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ playwright }, testInfo) => {
  const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  const admin = await apiAs(request, 'admin', ADMIN_PASSWORD);
  const catalogue = await seedReceivingCatalogue(admin, TAG);
  const imeis = Array.from({ length: 10 }, (_, i) => imeiOf(catalogue.models.main.tac, i + 1));
  // Received as the receiving station does: scanned into a box, closed and staged.
  const box = await receiveStagedBox(admin, catalogue, { tag: TAG, imeis });

  await createStaff(request, admin, LEADER, 'Production Leader');
  await createStaff(request, admin, WORKER, 'Production Worker');
  await createStaff(request, admin, CONSOLIDATOR, 'Consolidation Worker');
  await createStaff(request, admin, MANAGER, 'Warehouse Manager');

  // An active bin for the box: a zone and one bin in it, as the warehouse manager laid them out.
  const zone = await admin.post<{ id: number }>('/locations', {
    kind: 'zone',
    segment: `Z${TAG}`,
    name: `Hall ${TAG}`,
  });
  const bin = await admin.post<{ id: number }>('/locations', {
    kind: 'bin',
    parent_id: zone.id,
    segment: '01',
    capacity_boxes: 4,
  });
  await admin.post('/locations/activation', { ids: [zone.id, bin.id], active: true });

  setup = { imeis, box: box.code, model: catalogue.models.main.name };
  await request.dispose();
});

/** Focuses a control and presses a key, as someone working without a mouse does. */
async function press(page: Page, control: Locator, key = 'Enter') {
  await control.focus();
  await page.keyboard.press(key);
}

/** Types into a field from the keyboard, replacing what it held. */
async function typeInto(page: Page, field: Locator, text: string) {
  await field.focus();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(text);
}

/** Opens a select with the keyboard and walks its options with the arrow keys to `text`. */
async function chooseByKeyboard(page: Page, select: Locator, text: string) {
  await select.focus();
  await page.keyboard.press('ArrowDown');
  const active = page.locator('.ant-select-dropdown:visible .ant-select-item-option-active');
  for (let step = 0; step < 30; step += 1) {
    if ((await active.textContent())?.trim() === text) {
      await page.keyboard.press('Enter');
      return;
    }
    await page.keyboard.press('ArrowDown');
  }
  throw new Error(`No option "${text}" in the select.`);
}

async function signInAs(page: Page, who: Staff | 'admin') {
  if (who === 'admin') {
    await signIn(page, 'admin', ADMIN_PASSWORD);
    await expect(page.getByRole('heading', { name: 'Welcome, Administrator' })).toBeVisible();
  } else {
    await signIn(page, who.userName, who.password);
    await expect(page.getByRole('heading', { name: `Welcome, ${who.name}` })).toBeVisible();
  }
}

async function openStation(page: Page, path: string, heading: string) {
  await page.goto(path);
  await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible({
    timeout: 15_000,
  });
}

test('the production manager requests ten units and approves the proposal', async ({ page }) => {
  await signInAs(page, 'admin');
  await openStation(page, '/invoice/product-request', 'Product requests');
  const form = page.getByRole('form', { name: 'New product request' });
  const model = form.getByRole('combobox', { name: 'Model' });
  await model.focus();
  await page.keyboard.type(`Phone ${TAG}`);
  await expect(
    page.locator('.ant-select-dropdown:visible .ant-select-item-option').first(),
  ).toHaveText(setup.model);
  await page.keyboard.press('Enter');
  await typeInto(page, form.getByRole('spinbutton', { name: 'Quantity' }), '10');
  await press(page, form.getByRole('button', { name: 'Request' }));
  await expect(page.getByRole('alert').filter({ hasText: 'Proposed boxes' })).toContainText(
    `${setup.box} (10)`,
  );
  const request = rowOf(page, setup.model).first();
  await press(page, request.getByRole('button', { name: /^Approve PR-/ }));
  await expect(request.getByTestId('request-status')).toHaveText('approved');
});

test('the leader hands the box to a worker', async ({ page }) => {
  await signInAs(page, LEADER);
  await openStation(page, '/invoice/product-team/leader', 'Production leader');
  const box = rowOf(page, setup.box);
  await chooseByKeyboard(
    page,
    box.getByRole('combobox', { name: `Worker for ${setup.box}` }),
    WORKER.name,
  );
  await press(page, box.getByRole('button', { name: `Assign ${setup.box}` }));
  await expect(page.locator('.ant-notification-notice')).toContainText(
    `10 devices of ${setup.box} handed to ${WORKER.name}.`,
  );
  expect(await seriousViolations(page)).toEqual([]);
});

test('the worker grades eight, fails one with an issue code, and finds one blacklisted', async ({
  page,
  playwright,
}, testInfo) => {
  // The carrier reports the tenth phone lost while it waits in the worker's queue.
  const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  const admin = await apiAs(request, 'admin', ADMIN_PASSWORD);
  await admin.post('/blacklist-entries', {
    imei: setup.imeis[9],
    reason: 'lost',
    source: 'carrier',
  });
  await request.dispose();

  await signInAs(page, WORKER);
  await openStation(page, '/invoice/product-team/worker', 'Production worker');
  const scanField = page.getByRole('textbox', { name: 'Scan an IMEI' });
  await expect(scanField).toBeFocused();
  const answer = page.getByTestId('worker-answer');

  // Seven grade A, the eighth grade B: the consolidation station will refuse it in the A box.
  for (const [i, imei] of setup.imeis.slice(0, 8).entries()) {
    const grade = i === 7 ? 'B' : 'A';
    await wedgeScan(page, imei);
    await expect(answer).toContainText(`${imei}: test, wipe and grade it.`);
    const bench = page.getByRole('region', { name: `Test of ${imei}` });
    if (i === 0) expect(await seriousViolations(page)).toEqual([]);
    await chooseByKeyboard(
      page,
      bench.getByRole('combobox', { name: 'Wipe method' }),
      'nist 800 88',
    );
    await typeInto(
      page,
      bench.getByRole('textbox', { name: 'Wipe certificate id' }),
      `CERT-${TAG}-${i}`,
    );
    await typeInto(page, bench.getByRole('spinbutton', { name: 'Battery health %' }), '91');
    await press(page, bench.getByRole('radio', { name: new RegExp(`^${grade}: `) }), 'Space');
    await press(page, bench.getByRole('button', { name: 'Pass and grade' }));
    await expect(answer).toContainText(`${imei} graded ${grade}: ready for consolidation.`);
    await expect(scanField).toBeFocused();
  }

  const failed = setup.imeis[8]!;
  await wedgeScan(page, failed);
  const failing = page.getByRole('region', { name: `Test of ${failed}` });
  await press(
    page,
    failing.getByRole('radiogroup', { name: 'screen result' }).getByRole('radio', { name: 'Fail' }),
    'Space',
  );
  await typeInto(page, failing.getByRole('spinbutton', { name: 'Battery health %' }), '74');
  await chooseByKeyboard(
    page,
    failing.getByRole('combobox', { name: 'Issue codes (to fail)' }),
    'LCD-CRACK',
  );
  await page.keyboard.press('Escape');
  await press(page, failing.getByRole('button', { name: 'Fail QC' }));
  await expect(answer).toContainText(`${failed} failed QC: LCD-CRACK.`);

  const blacklisted = setup.imeis[9]!;
  await wedgeScan(page, blacklisted);
  await expect(answer).toContainText(`${blacklisted} is on hold (blacklist).`);
  await expect(page.getByRole('table')).toContainText('Nothing in your queue.');
});

test('the consolidation worker fills a box, has the grade B unit refused, and seals it', async ({
  page,
}) => {
  await signInAs(page, CONSOLIDATOR);
  await openStation(page, '/consolidation/worker', 'Consolidation worker');
  const field = page.getByRole('textbox', { name: 'Scan a device or box' });
  await expect(field).toBeFocused();
  const lines = page.getByTestId('scan-line');

  // The first unit names the box the server opens for model, colour, capacity and grade A.
  const [first, ...others] = setup.imeis.slice(0, 7);
  await wedgeScan(page, first!);
  await expect(lines.first()).toHaveAttribute('data-result', 'box_named');
  const boxCode = /IB-\d+/.exec((await lines.first().textContent()) ?? '')![0];
  await wedgeScan(page, boxCode);
  await expect(lines.first()).toHaveAttribute('data-result', 'added');
  for (const imei of others) {
    await wedgeScan(page, imei);
    await expect(lines.first()).toContainText(boxCode);
    await wedgeScan(page, boxCode);
    await expect(lines.first()).toHaveAttribute('data-result', 'added');
    await expect(lines.first()).toContainText(imei);
  }

  // The grade B unit scanned into the grade A box is refused, with the reason.
  const gradeB = setup.imeis[7]!;
  await wedgeScan(page, gradeB);
  await expect(lines.first()).toContainText(gradeB);
  await wedgeScan(page, boxCode);
  await expect(lines.first()).toHaveAttribute('data-result', 'mismatch');
  await expect(lines.first()).toContainText('grade B, the box holds grade A');
  expect(await seriousViolations(page)).toEqual([]);

  // Sealing prints the box's IB label in a new tab.
  const label = page.context().waitForEvent('page');
  await press(page, page.getByRole('button', { name: `Seal ${boxCode} now` }));
  await expect(page.getByText(`${boxCode} is sealed: its label prints now.`)).toBeVisible();
  await (await label).close();
  sealedBox = boxCode;
});

test('the warehouse manager puts the sealed box away by scanning it and its bin', async ({
  page,
}) => {
  await signInAs(page, MANAGER);
  await openStation(page, '/inventory-box/location/assign-location', 'Putaway');
  const field = page.getByRole('textbox', { name: 'Scan a box or location' });
  await expect(field).toBeFocused();
  await expect(page.getByRole('table').filter({ hasText: sealedBox })).toBeVisible();
  await wedgeScan(page, sealedBox);
  await expect(page.getByTestId('suggestion')).toContainText(sealedBox);
  await wedgeScan(page, BIN);
  const lines = page.getByTestId('scan-line');
  await expect(lines.first()).toHaveAttribute('data-result', 'located');
  await expect(lines.first()).toContainText(BIN);
  expect(await seriousViolations(page)).toEqual([]);
});

test('the device lookup shows every step: tests, wipe, grade, box and location', async ({
  page,
}) => {
  const imei = setup.imeis[0]!;
  await signInAs(page, 'admin');
  await openStation(page, '/devices/scan', 'Device lookup');
  await expect(page.getByRole('searchbox', { name: 'Look up a device' })).toBeFocused();
  await wedgeScan(page, imei);
  await expect(page.getByTestId('lookup-result')).toContainText(`${imei}: found by its IMEI`);
  const card = page.getByTestId('device-card');
  // Where it is: the sealed box, put away in the bin.
  await expect(card.getByRole('link', { name: sealedBox })).toBeVisible();
  await expect(card.getByRole('link', { name: BIN })).toBeVisible();
  // What production recorded: the grade's definition, the wipe, the worker and the test.
  const production = card.getByTestId('device-production');
  await expect(production).toContainText('NIST 800-88');
  await expect(production).toContainText(`Certificate CERT-${TAG}-0`);
  await expect(production).toContainText('91%');
  await expect(production).toContainText(WORKER.name);
  await expect(card.getByRole('table', { name: `Tests of ${imei}` })).toContainText('passed');
  // Every step on the timeline, newest first.
  const events = card.getByTestId('timeline-event');
  await expect(events.nth(0)).toContainText('Put into an inventory box');
  await expect(events.nth(0)).toContainText(`In box ${sealedBox}`);
  await expect(events.nth(1)).toContainText('Tested, wiped and graded');
  await expect(events.nth(1)).toContainText('Grade: A');
  await expect(events.nth(2)).toContainText('Handed to a production worker');
  await expect(events.last()).toContainText('Received into a warehouse box');
  expect(await seriousViolations(page)).toEqual([]);
});
