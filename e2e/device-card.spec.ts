import { expect, test } from '@playwright/test';
import {
  apiAs,
  gradeInProduction,
  imeiOf,
  receiveStagedBox,
  seedReceivingCatalogue,
  type Staff,
} from './api';
import { ADMIN_PASSWORD, signIn } from './support';
import { seriousViolations } from './ui';

/**
 * A device's card after the production line: graded at the worker station, consolidated into an
 * inventory box, the box sealed and put away. The card shows the grade with its meaning, the wipe,
 * the locks, the battery, the request and the worker, the tests with their checklist, the box and
 * its location, and the steps on the timeline in words.
 */

/** This spec's tag: its vendor, models, TACs, invoice and zone never meet another spec's. */
const TAG = 57;
const ZONE = `Z${TAG}`;
const WORKER: Staff = {
  userName: `grader.${TAG}`,
  name: `Grader ${TAG}`,
  password: 'steady-bench-57',
};

type Setup = { imei: string; boxCode: string; requestNumber: string };
let setup: Setup;

test.beforeAll(async ({ playwright }, testInfo) => {
  const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  const admin = await apiAs(request, 'admin', ADMIN_PASSWORD);

  // Received into a warehouse box, closed and staged.
  const catalogue = await seedReceivingCatalogue(admin, TAG);
  const imei = imeiOf(catalogue.models.main.tac, 1);
  const box = await receiveStagedBox(admin, catalogue, { tag: TAG, imeis: [imei] });

  // Requested, approved, handed to a production worker, graded B with its wipe at her bench.
  const { requestNumber } = await gradeInProduction(request, admin, {
    catalogue,
    box,
    worker: WORKER,
    tag: TAG,
    grade: 'B',
    batteryHealth: 88,
  });

  // Consolidated into an inventory box, sealed and put away in a bin of this spec's zone.
  const named = await admin.post<{ box: { id: number; code: string } }>('/consolidation/scans', {
    code: imei,
    station: `cons-${TAG}`,
  });
  const placed = await admin.post<{ result: string }>('/consolidation/placements', {
    code: imei,
    box_code: named.box.code,
    station: `cons-${TAG}`,
  });
  expect(placed.result).toBe('added');
  await admin.post(`/inventory-boxes/${named.box.id}/seal`, {});
  const zone = await admin.post<{ id: number }>('/locations', { kind: 'zone', segment: ZONE });
  const bin = await admin.post<{ id: number }>('/locations', {
    kind: 'bin',
    parent_id: zone.id,
    segment: '01',
  });
  await admin.post('/locations/activation', { ids: [zone.id, bin.id], active: true });
  await admin.post('/putaway', { box_code: named.box.code, location_code: `${ZONE}-01` });

  setup = { imei, boxCode: named.box.code, requestNumber };
  await request.dispose();
});

test('a graded, consolidated and located device shows its grade, wipe, tests, box and location', async ({
  page,
}) => {
  const { imei, boxCode, requestNumber } = setup;
  await signIn(page, 'admin', ADMIN_PASSWORD);
  await expect(page.getByRole('heading', { name: 'Welcome, Administrator' })).toBeVisible();
  await page.goto(`/devices/scan?code=${imei}`);
  // The lane's first page of the devices area loads its code cold, while the other lanes start.
  await expect(page.getByTestId('lookup-result')).toContainText(`${imei}: found by its IMEI`, {
    timeout: 30_000,
  });
  const card = page.getByTestId('device-card');

  // Where it is: the inventory box, located, and the bin it is put away in.
  await expect(card.getByRole('link', { name: boxCode })).toHaveAttribute(
    'href',
    '/consolidation/box',
  );
  await expect(card).toContainText('located');
  await expect(card).toContainText('1 of 20');
  const location = card.getByRole('link', { name: `${ZONE}-01` });
  await expect(location).toHaveAttribute(
    'href',
    /\/inventory-box\/location\/update-location\?location=\d+/,
  );

  // What production recorded.
  const production = card.getByTestId('device-production');
  await expect(card.getByRole('heading', { name: 'Production' })).toBeVisible();
  await expect(production).toContainText('Visible wear or light scratches');
  await expect(production).toContainText('NIST 800-88');
  await expect(production).toContainText(`Certificate CERT-${TAG}`);
  await expect(production).toContainText('88%');
  await expect(production).toContainText(WORKER.name);
  await expect(production.getByRole('link', { name: requestNumber })).toBeVisible();
  const lock = production.getByRole('row').filter({ hasText: 'FRP / activation lock' });
  await expect(lock).toContainText('Off');
  const tests = card.getByRole('table', { name: `Tests of ${imei}` });
  await expect(tests.getByRole('row')).toHaveCount(2);
  await expect(tests).toContainText('passed');
  await expect(tests).toContainText('screen passed');
  await expect(tests).toContainText(WORKER.name);

  // The production line's steps on the timeline, in words, newest first.
  const events = card.getByTestId('timeline-event');
  await expect(events).toHaveCount(4);
  await expect(events.nth(0)).toContainText('Put into an inventory box');
  await expect(events.nth(0)).toContainText(`at station cons-${TAG}`);
  await expect(events.nth(0)).toContainText(`In box ${boxCode}`);
  await expect(events.nth(1)).toContainText('Tested, wiped and graded');
  await expect(events.nth(1)).toContainText('Grade: B');
  await expect(events.nth(2)).toContainText('Handed to a production worker');
  await expect(events.nth(2)).toContainText(`Worker: ${WORKER.name}`);
  await expect(events.nth(3)).toContainText('Received into a warehouse box');
  expect(await seriousViolations(page, '[data-testid="device-card"]')).toEqual([]);

  // The location opens the bin's record on the locations page.
  await location.click();
  await expect(page).toHaveURL(/\/inventory-box\/location\/update-location\?location=\d+/);
  await expect(page.getByRole('dialog')).toContainText(`${ZONE}-01`);
});
