import { readFile } from 'node:fs/promises';
import { luhnCheckDigit } from '@inventory/contract';
import { expect, test, type Download, type Page } from '@playwright/test';
import { apiAs, createStaff } from './api';
import { ADMIN_PASSWORD, signIn } from './support';
import {
  closeNotifications,
  dialog,
  pick,
  rowOf,
  searchList,
  seriousViolations,
  wedgeScan,
  withBadCheckDigit,
} from './ui';

/** This spec's tag: its carrier, location, coordinator and ICCIDs never meet another spec's. */
const TAG = 110;
const STAMP = `${Date.now() % 100_000}`.padStart(5, '0');
const CARRIER = `SIM Carrier ${TAG}-${STAMP}`;
const ZONE = `S${TAG}${STAMP}`;
const COORDINATOR = {
  userName: `sim.coordinator.${TAG}.${STAMP}`,
  name: `Sam Coordinator ${TAG}`,
  password: 'sim-coordinator-110',
};

/** The n-th ICCID of this run's box: AT&T's prefix, the tag, the run's stamp, 3 digits. */
const iccid = (n: number) => {
  const payload = `8901410${TAG}${STAMP}${String(n).padStart(3, '0')}`;
  return `${payload}${luhnCheckDigit(payload)}`;
};

/** A download the page starts, answered as a PDF. */
async function expectPdf(download: Download) {
  expect(download.suggestedFilename()).toMatch(/\.pdf$/);
  const content = await readFile((await download.path())!);
  expect(content.subarray(0, 5).toString('latin1')).toBe('%PDF-');
}

const downloadOf = async (page: Page, click: () => Promise<void>) => {
  const download = page.waitForEvent('download');
  await click();
  return download;
};

test.beforeAll(async ({ playwright, baseURL }) => {
  const request = await playwright.request.newContext({ baseURL });
  const admin = await apiAs(request, 'admin', ADMIN_PASSWORD);
  await admin.post('/vendors', { name: CARRIER, type: 'carrier-client' });
  const zone = await admin.post<{ id: number }>('/locations', {
    kind: 'zone',
    segment: ZONE,
    name: `SIM shelf ${TAG}`,
  });
  await admin.post('/locations/activation', { ids: [zone.id], active: true });
  await createStaff(request, admin, COORDINATOR, 'SIM Coordinator');
  await request.dispose();
});

test('a coordinator receives a box of 500 by range, splits it, prints, moves it and reads its ICCIDs; a SIM is marked lost and tells its story', async ({
  page,
}) => {
  test.setTimeout(360_000);
  await signIn(page, COORDINATOR.userName, COORDINATOR.password);
  // Signed in fully before going on: a navigation under way would abort the sign-in.
  await expect(page.getByRole('heading', { name: `Welcome, ${COORDINATOR.name}` })).toBeVisible();
  await page.goto('/sim/box');
  await expect(page.getByRole('heading', { name: 'SIM boxes' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  // Receive by range: the first ICCID's bad check digit is caught before anything is sent.
  await page.getByRole('button', { name: 'Receive by range' }).click();
  const receive = dialog(page, 'Receive a SIM box by range');
  await receive.getByLabel('First ICCID').fill(withBadCheckDigit(iccid(0)));
  await receive.getByLabel('First ICCID').press('Enter');
  await expect(receive.getByText("The ICCID's check digit is wrong: rescan it.")).toBeVisible();
  await receive.getByLabel('First ICCID').fill(iccid(0));
  await receive.getByLabel('First ICCID').press('Enter');
  await expect(receive.getByLabel('Last ICCID')).toBeFocused();
  await receive.getByLabel('Last ICCID').fill(iccid(499));
  await receive.getByLabel('Last ICCID').press('Enter');
  await receive.getByLabel('Quantity on the box').fill('499');
  await expect(receive.getByTestId('range-count')).toContainText(
    'The range holds 500 SIMs of AT&T. The box says 499.',
  );
  await pick(page, receive, 'Client carrier', CARRIER, CARRIER);
  expect(await seriousViolations(page, '.ant-drawer')).toEqual([]);
  await receive.getByRole('button', { name: 'Receive' }).click();
  // The server counts too: the quantity must be the range's.
  await expect(receive.getByText(/holds 500 SIMs, not 499/)).toBeVisible();
  await receive.getByLabel('Quantity on the box').fill('500');
  const boxLabel = await downloadOf(page, () =>
    receive.getByRole('button', { name: 'Receive' }).click(),
  );
  await expectPdf(boxLabel);
  await expect(page.getByText(/SB-\d{6} received: 500 SIMs in stock\./)).toBeVisible();
  await closeNotifications(page);

  const row = rowOf(page, iccid(0));
  await expect(row).toContainText(CARRIER);
  await expect(row.getByTestId('box-available')).toHaveText('500');
  const code = (await row.textContent())!.match(/SB-\d{6}/)![0];

  // Split into packs of 50: the pack labels print as one PDF.
  await row.getByRole('button', { name: `Split ${code} into packs` }).click();
  const split = dialog(page, `Split ${code} into packs`);
  const packLabels = await downloadOf(page, () =>
    split.getByRole('button', { name: 'Split and print the labels' }).click(),
  );
  await expectPdf(packLabels);
  await expect(page.getByText(`${code} split into 10 packs.`)).toBeVisible();
  await closeNotifications(page);
  await expect(row.getByTestId('box-status')).toHaveText('split (10 packs)');

  // Move it to the SIM shelf.
  await row.getByRole('button', { name: `Move ${code}` }).click();
  const move = dialog(page, `Move ${code}`);
  await pick(page, move, 'Location', ZONE, `${ZONE} (SIM shelf ${TAG})`);
  await move.getByRole('button', { name: 'Move' }).click();
  await expect(page.getByText(`${code} is at ${ZONE}.`)).toBeVisible();
  await closeNotifications(page);
  await expect(row).toContainText(ZONE);

  // Its ICCIDs and packs, with one pack's label.
  await row.getByRole('link', { name: code }).click();
  const drawer = dialog(page, `${code}: ${CARRIER}`);
  const iccids = drawer.getByTestId('box-iccids');
  await expect(rowOf(iccids, iccid(0))).toContainText('in stock');
  const packs = drawer.getByRole('region', { name: `Packs of ${code}` });
  const firstPack = packs.getByRole('row').nth(1);
  await expect(firstPack).toContainText(iccid(0));
  const packCode = (await firstPack.textContent())!.match(/SP-\d{6}/)![0];
  await expect(rowOf(iccids, iccid(0))).toContainText(packCode);
  const packLabel = await downloadOf(page, () =>
    firstPack.getByRole('button', { name: `Print the label of ${packCode}` }).click(),
  );
  await expectPdf(packLabel);
  // Off the button just pressed: its hover colours are no resting state.
  await page.mouse.move(0, 0);
  expect(await seriousViolations(page, '.ant-drawer')).toEqual([]);
  await page.keyboard.press('Escape');

  // The SIM list: one SIM found by its ICCID and marked lost with a reason.
  await page.goto('/sim');
  await expect(page.getByRole('heading', { name: 'SIM list' })).toBeVisible();
  await searchList(page, iccid(7));
  const sim = rowOf(page, iccid(7));
  await expect(sim.getByTestId('sim-status')).toHaveText('in stock');
  await expect(sim).toContainText(code);
  expect(await seriousViolations(page)).toEqual([]);
  await sim.getByRole('button', { name: `Mark lost: ${iccid(7)}` }).click();
  const lost = dialog(page, `Mark lost: ${iccid(7)}`);
  await lost.getByRole('button', { name: 'Mark lost' }).click();
  await expect(lost.getByText('Say why.')).toBeVisible();
  await lost.getByLabel('Reason').fill('Dropped behind the dock shelf');
  await lost.getByRole('button', { name: 'Mark lost' }).click();
  await expect(page.getByText(`${iccid(7)} is lost.`)).toBeVisible();
  await closeNotifications(page);
  await expect(sim.getByTestId('sim-status')).toHaveText('lost');
  await expect(sim.getByRole('button', { name: `Mark lost: ${iccid(7)}` })).toHaveCount(0);

  // Its story, from the ICCID's link: received, packed, lost, each step linked.
  await sim.getByRole('link', { name: iccid(7) }).click();
  await expect(page.getByRole('heading', { name: 'SIM lookup' })).toBeVisible();
  await expect(page.getByTestId('sim-story-status')).toHaveText('lost');
  const steps = page.getByTestId('sim-step');
  await expect(steps).toHaveCount(3);
  await expect(steps.nth(0)).toContainText('Received in a box');
  await expect(steps.nth(1)).toContainText('Put in a pack');
  await expect(steps.nth(2)).toContainText('Marked lost');
  await expect(steps.nth(2)).toContainText('Dropped behind the dock shelf');
  expect(await seriousViolations(page)).toEqual([]);

  // Scanning: an unknown ICCID and a misread one say so; a known one tells its story.
  await wedgeScan(page, iccid(999));
  await expect(page.getByTestId('sim-inquiry-problem')).toHaveText(
    `No SIM has ICCID ${iccid(999)}.`,
  );
  await wedgeScan(page, withBadCheckDigit(iccid(8)));
  await expect(page.getByTestId('sim-inquiry-problem')).toHaveText(
    "The ICCID's check digit is wrong: rescan it.",
  );
  await wedgeScan(page, iccid(8));
  await expect(page.getByTestId('sim-story-status')).toHaveText('in stock');
  await expect(page.getByRole('textbox', { name: 'Scan an ICCID' })).toBeFocused();
  await steps.nth(0).getByRole('link', { name: code }).click();
  await expect(page.getByRole('heading', { name: 'SIM boxes' })).toBeVisible();
  await expect(rowOf(page, iccid(0))).toContainText(code);
});
