import { expect, test, type Page } from '@playwright/test';
import {
  apiAs,
  createStaff,
  gradeInProduction,
  imeiOf,
  receiveStagedBox,
  seedReceivingCatalogue,
  type Api,
  type Staff,
} from './api';
import { ADMIN_PASSWORD, signIn } from './support';
import { chooseOption, rowOf, seriousViolations, wedgeScan } from './ui';

/**
 * Work jobs (DOMAIN.md 4.11), as the warehouse works them: a manager creates a count job for two
 * boxes on /report/job, which locks them (a scan into one is refused while it is counted); the
 * counter, in a browser of their own, starts it on /report/work, scans each box's devices and
 * finishes it; the manager verifies it on /report/admin.
 */

/** This spec's tag: its vendor, models, TACs and invoices never meet another spec's. */
const TAG = 229;
const GRADER: Staff = {
  userName: `grader.${TAG}`,
  name: `Grader ${TAG}`,
  password: 'steady-bench-229',
};
const MANAGER: Staff = {
  userName: `manager.${TAG}`,
  name: `Manager ${TAG}`,
  password: 'floor-lead-229',
};
const COUNTER: Staff = {
  userName: `counter.${TAG}`,
  name: `Counter ${TAG}`,
  password: 'count-every-229',
};

type Setup = { imeis: string[]; first: string; second: string; loose: string };
let setup: Setup;

test.describe.configure({ mode: 'serial' });

/** Consolidates a graded device into the box the station names; answers the box. */
async function consolidate(api: Api, code: string): Promise<{ id: number; code: string }> {
  const named = await api.post<{ result: string; box: { id: number; code: string } }>(
    '/consolidation/scans',
    { code },
  );
  const placed = await api.post<{ result: string }>('/consolidation/placements', {
    code,
    box_code: named.box.code,
  });
  expect(placed.result).toBe('added');
  return named.box;
}

/**
 * Two sealed boxes of two devices each and a fifth device of another grade in a box of its own,
 * made as the warehouse makes them (received, graded, consolidated); a manager and a counter.
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
    worker: GRADER,
    tag: TAG,
    grade: (imei) =>
      imei === imeis[2] || imei === imeis[3] ? 'B' : imei === imeis[4] ? 'A+' : 'A',
  });
  const first = await consolidate(api, imeis[0]!);
  await consolidate(api, imeis[1]!);
  const second = await consolidate(api, imeis[2]!);
  await consolidate(api, imeis[3]!);
  const loose = await consolidate(api, imeis[4]!);
  for (const sealed of [first, second]) await api.post(`/inventory-boxes/${sealed.id}/seal`, {});
  await createStaff(request, api, MANAGER, 'Warehouse Manager');
  await createStaff(request, api, COUNTER, 'Consolidation Worker');
  setup = { imeis, first: first.code, second: second.code, loose: loose.code };
  await request.dispose();
});

/** Signs in and waits for the home page, so that the next address is opened signed in. */
async function signedIn(page: Page, staff: Staff) {
  await signIn(page, staff.userName, staff.password);
  await expect(page.getByRole('heading', { name: /^Welcome, / })).toBeVisible();
}

/** The newest answered line of a station's log. */
const lastLine = (page: Page) =>
  page.locator('[data-testid="scan-line"]:not([data-result="pending"])').first();

let jobId: number;

test('a manager creates a count job for two boxes, which locks them', async ({ page }) => {
  await signedIn(page, MANAGER);
  await page.goto('/report/job');
  await expect(page.getByRole('heading', { name: 'Jobs', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'New job' }).click();
  const drawer = page.getByRole('dialog', { name: 'New job' });
  await drawer.getByRole('combobox', { name: 'Kind' }).click();
  await chooseOption(page, 'Count');
  await drawer.getByRole('textbox', { name: 'Title' }).fill(`Count boxes ${TAG}`);
  await drawer.getByRole('combobox', { name: 'Assignees' }).click();
  await chooseOption(page, COUNTER.name);
  const boxes = drawer.getByRole('combobox', { name: 'Boxes' });
  for (const code of [setup.first, setup.second]) {
    await boxes.fill(code);
    await boxes.press('Enter');
  }
  expect(await seriousViolations(page)).toEqual([]);
  await drawer.getByRole('button', { name: 'Create job' }).click();
  const created = page.locator('.ant-notification-notice').filter({ hasText: /Job #\d+ created/ });
  await expect(created).toContainText(COUNTER.name);
  jobId = Number(/Job #(\d+)/.exec((await created.textContent()) ?? '')![1]);

  const record = page.getByRole('dialog', { name: new RegExp(`Job #${jobId}`) });
  const boxTable = record.getByRole('table', { name: 'Boxes of the job' });
  await expect(rowOf(boxTable, setup.first)).toContainText('Locked by the count');
  await expect(rowOf(boxTable, setup.second)).toContainText('0 of 2');

  // While it is counted, the box station refuses a device going into a box under count.
  await page.goto(`/inventory-box/scan-device?mode=add&box=${setup.first}`);
  await expect(page.getByRole('textbox', { name: 'Scan a box or device' })).toBeFocused();
  await wedgeScan(page, setup.imeis[4]!);
  await expect(page.getByRole('list', { name: 'Scans' })).toContainText(
    `${setup.first} is locked by a count`,
  );
});

test('the counter starts it on My work, scans both boxes and finishes it', async ({ browser }) => {
  const page = await (await browser.newContext()).newPage();
  await signedIn(page, COUNTER);
  await page.goto('/report/work');
  const card = page.getByLabel(`Job ${jobId}`);
  await expect(card).toContainText(`Count boxes ${TAG}`);
  await card.getByRole('button', { name: 'Start' }).click();
  const field = card.getByRole('textbox', { name: 'Scan a device of the box' });
  await expect(field).toBeFocused();
  expect(await seriousViolations(page)).toEqual([]);

  // The first box is chosen; the second box's code switches the count to it.
  const [firstBox, secondBox] = [setup.first, setup.second].sort();
  const devicesOf = (code: string) =>
    code === setup.first ? setup.imeis.slice(0, 2) : setup.imeis.slice(2, 4);
  for (const imei of devicesOf(firstBox!)) {
    await wedgeScan(page, imei);
    await expect(lastLine(page)).toContainText(`${imei} counted`);
  }
  await wedgeScan(page, secondBox!);
  await expect(lastLine(page)).toContainText(`Counting ${secondBox}`);
  for (const imei of devicesOf(secondBox!)) {
    await wedgeScan(page, imei);
    await expect(lastLine(page)).toContainText(`${imei} counted`);
  }
  await expect(card).toContainText('4 of 4');
  await card.getByRole('button', { name: 'Finish' }).click();
  await expect(page.getByText('No jobs assigned to you.')).toBeVisible();
  const today = page.getByRole('table', { name: 'Today by action' });
  await expect(rowOf(today, 'count')).toContainText('4');
  await page.context().close();
});

test('the manager verifies it on Team jobs', async ({ page }) => {
  await signedIn(page, MANAGER);
  await page.goto('/report/admin');
  await expect(page.getByRole('heading', { name: 'Team jobs', level: 1 })).toBeVisible();
  const row = rowOf(page, `Count boxes ${TAG}`);
  await expect(row).toContainText('done');
  await expect(row).toContainText('4 of 4');
  await row.click();
  const record = page.getByRole('dialog', { name: new RegExp(`Job #${jobId}`) });
  const boxTable = record.getByRole('table', { name: 'Boxes of the job' });
  await expect(rowOf(boxTable, setup.first)).toContainText('2 of 2');
  await expect(rowOf(boxTable, setup.first)).not.toContainText('Locked');
  await record.getByRole('button', { name: 'Verify' }).click();
  await expect(record).toContainText('verified');
  await expect(rowOf(page, `Count boxes ${TAG}`)).toContainText('verified');
  expect(await seriousViolations(page)).toEqual([]);
});
