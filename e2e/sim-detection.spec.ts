import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import {
  apiAs,
  createAgent,
  createClientCarrier,
  createStaff,
  iccidOf,
  receiveSimPacks,
  simsInTransit,
} from './api';
import { ADMIN_PASSWORD, signIn } from './support';
import { chooseOption, dialog, rowOf, seriousViolations } from './ui';

/**
 * SIM detection: a coordinator uploads the carrier's activation export; the two SIMs on their
 * way to an agent go active and count for the agent, the one still in stock is listed as an
 * anomaly, which the coordinator resolves with a note, and the run's differences are exported.
 */

/** This spec's tag: its carrier, people and ICCIDs never meet another spec's. */
const TAG = 113;
const CARRIER = `Carrier ${TAG}`;
const COORDINATOR = {
  userName: `sim.detect.${TAG}`,
  name: `Detection coordinator ${TAG}`,
  password: `detect-${TAG}-password`,
};
const AGENT = {
  userName: `agent.detect.${TAG}`,
  name: `Detection agent ${TAG}`,
  password: `agent-${TAG}-password`,
};
/** ICCID serials of this spec: 113 million onwards. */
const FIRST = TAG * 1_000_000;
const SHIPPED = [iccidOf(FIRST), iccidOf(FIRST + 1)];
const IN_STOCK = iccidOf(FIRST + 2);

test.beforeAll(async ({ playwright }, testInfo) => {
  const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  const admin = await apiAs(request, 'admin', ADMIN_PASSWORD);
  const carrier = await createClientCarrier(admin, CARRIER);
  await createStaff(request, admin, COORDINATOR, 'SIM Coordinator');
  await createAgent(request, admin, AGENT, 20);
  const coordinator = await apiAs(request, COORDINATOR.userName, COORDINATOR.password);
  const agent = await apiAs(request, AGENT.userName, AGENT.password);
  await receiveSimPacks(coordinator, { carrierId: carrier.id, first: FIRST, qty: 10, size: 10 });
  await simsInTransit(coordinator, agent, { carrierId: carrier.id, iccids: SHIPPED });
  await request.dispose();
});

test('a carrier export marks two SIMs active, lists one anomaly, resolved and exported', async ({
  page,
}) => {
  await signIn(page, COORDINATOR.userName, COORDINATOR.password);
  await expect(page).not.toHaveURL(/\/login/);
  await page.goto('/sim/detection');
  await expect(page.getByRole('heading', { name: 'SIM detection', level: 1 })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  // The export: the carrier's own column names, proposed from its header.
  await page.getByRole('combobox', { name: 'Carrier of the export' }).fill(CARRIER);
  await chooseOption(page, CARRIER);
  const csv = [
    'SIM Number,Line Status,MSISDN,Activated On,IMEI',
    `${SHIPPED[0]},Active,2145550113,2026-11-20,`,
    `${SHIPPED[1]},Active,2145550114,2026-11-21,`,
    `${IN_STOCK},Active,,,`,
  ].join('\n');
  await page.getByLabel('Carrier export file (CSV)').setInputFiles({
    name: `activations-${TAG}.csv`,
    mimeType: 'text/csv',
    buffer: Buffer.from(csv),
  });
  const mapping = page.getByRole('region', { name: 'Column mapping' });
  await expect(mapping.getByRole('combobox', { name: 'ICCID column' })).toBeVisible();
  await expect(mapping.locator('.ant-select').first()).toContainText('SIM Number');
  await expect(mapping.locator('.ant-select').nth(1)).toContainText('Line Status');
  await page.getByRole('button', { name: 'Upload and apply' }).click();

  // The run finishes in the background; its row follows it.
  const runs = page.getByTestId('detection-runs');
  const run = rowOf(runs, `activations-${TAG}.csv`);
  await expect(run.locator('[data-status]')).toHaveAttribute('data-status', 'done', {
    timeout: 30_000,
  });
  const cells = run.getByRole('cell');
  // Rows, matched, newly active, unknown, anomalies.
  await expect(cells.nth(4)).toHaveText('3');
  await expect(cells.nth(5)).toHaveText('3');
  await expect(cells.nth(6)).toHaveText('2');
  await expect(cells.nth(7)).toHaveText('0');
  await expect(cells.nth(8)).toHaveText('1');

  // The run's rows, by outcome.
  await run.getByRole('button', { name: /^Run \d+$/ }).click();
  const drawer = dialog(page, /^Run \d+: activations-113\.csv$/);
  await expect(drawer).toBeVisible();
  const rows = drawer.getByTestId('detection-rows');
  await expect(rowOf(rows, SHIPPED[0]!).locator('[data-outcome]')).toHaveAttribute(
    'data-outcome',
    'newly_active',
  );
  await expect(rowOf(rows, SHIPPED[1]!).locator('[data-outcome]')).toHaveAttribute(
    'data-outcome',
    'newly_active',
  );
  await expect(rowOf(rows, IN_STOCK).locator('[data-outcome]')).toHaveAttribute(
    'data-outcome',
    'anomaly',
  );
  expect(await seriousViolations(page)).toEqual([]);

  // The differences as a file.
  const downloading = page.waitForEvent('download');
  await drawer.getByRole('button', { name: 'Export differences' }).click();
  const file = await readFile((await (await downloading).path())!, 'utf8');
  const lines = file
    .replace(/^\uFEFF/, '')
    .trim()
    .split(/\r?\n/);
  expect(lines[0]).toBe('Line,ICCID,State,MDN,Activation date,IMEI seen,Outcome');
  expect(lines.slice(1).map((line) => line.split(',')[6])).toEqual([
    'newly_active',
    'newly_active',
    'anomaly',
  ]);
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();

  // The anomaly: active while still in stock, resolved with a note.
  const anomalies = page.getByTestId('detection-anomalies');
  const anomaly = rowOf(anomalies, IN_STOCK);
  await expect(anomaly).toContainText('active in stock');
  await anomaly.getByRole('button', { name: `Resolve ${IN_STOCK}` }).click();
  const resolve = dialog(page, `Resolve: ${IN_STOCK}`);
  await resolve.getByRole('button', { name: 'Resolve' }).click();
  await expect(resolve.getByText('Say what was done about it.')).toBeVisible();
  await resolve.getByLabel('Resolution').fill('Box opened for a demo; SIM pulled from stock.');
  await resolve.getByRole('button', { name: 'Resolve' }).click();
  await expect(resolve).toBeHidden();
  await expect(rowOf(anomalies, IN_STOCK)).toHaveCount(0);
  await page.locator('.ant-segmented').getByText('Resolved', { exact: true }).click();
  await expect(rowOf(anomalies, IN_STOCK)).toContainText('SIM pulled from stock');
  expect(await seriousViolations(page)).toEqual([]);
});
