import { expect, test, type Page } from '@playwright/test';
import {
  apiAs,
  createAgent,
  createClientCarrier,
  createStaff,
  iccidOf,
  receiveSimPacks,
  simsWithAgent,
  type Api,
} from './api';
import { ADMIN_PASSWORD, signIn, signInAsAgent } from './support';
import { seriousViolations, withBadCheckDigit } from './ui';

/** This spec's tag: its carrier, agents and SIMs never meet another spec's, nor an earlier run's. */
const TAG = 114;
const STAMP = Date.now() % 1_000_000;
const CARRIER = `Carrier ${TAG}-${STAMP}`;
const AGENT = {
  userName: `agent.${TAG}.${STAMP}`,
  name: `Robin Field ${STAMP}`,
  password: 'field-agent-2026',
};
const OTHER_AGENT = {
  userName: `agent2.${TAG}.${STAMP}`,
  name: `Kim Other ${STAMP}`,
  password: 'other-agent-2026',
};
const COORDINATOR = {
  userName: `sim.coord.${TAG}.${STAMP}`,
  name: `Lee Coordinator ${STAMP}`,
  password: 'sim-coordinator-2026',
};
/** The first ICCID serial: the tag and the run's stamp, so that ICCIDs never repeat. */
const FIRST_SERIAL = TAG * 100_000_000 + STAMP * 100;
const HELD = Array.from({ length: 5 }, (_, n) => iccidOf(FIRST_SERIAL + n));

const PHONE = { width: 390, height: 844 };
const DESK = { width: 1280, height: 800 };

let carrierId: number;

async function signInOnPhone(page: Page, agent: typeof AGENT) {
  await page.setViewportSize(PHONE);
  await signInAsAgent(page, agent);
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ request }) => {
  const admin = await apiAs(request, 'admin', ADMIN_PASSWORD);
  const carrier = await createClientCarrier(admin, CARRIER);
  carrierId = carrier.id;
  await createStaff(request, admin, COORDINATOR, 'SIM Coordinator');
  await createAgent(request, admin, AGENT, 50);
  await createAgent(request, admin, OTHER_AGENT, 50);
  await receiveSimPacks(admin, { carrierId, first: FIRST_SERIAL, qty: 10, size: 10 });
  const coordinator = await apiAs(request, COORDINATOR.userName, COORDINATOR.password);
  const agent: Api = await apiAs(request, AGENT.userName, AGENT.password);
  await simsWithAgent(coordinator, agent, { carrierId, iccids: HELD });
});

test('an agent on a phone sees the home figures, records three activations by typing, and finds them in My SIMs and History', async ({
  page,
}) => {
  // Four pages, each checked for accessibility, on a phone.
  test.setTimeout(300_000);
  await signInOnPhone(page, AGENT);
  await expect(page.getByRole('heading', { name: 'Home', level: 1 })).toBeVisible();
  await expect(page.getByTestId('home-on-hand').locator('.ant-statistic-content')).toHaveText('5');
  await expect(page.getByTestId('home-requests').locator('.ant-statistic-content')).toHaveText('0');
  await expect(page.getByTestId('home-rate').locator('.ant-statistic-content')).toHaveText('0%');
  await expect(page.getByTestId('home-carrier')).toContainText(CARRIER);
  for (const task of ['Request SIMs', 'Receive', 'Returns', 'My SIMs', 'History', 'Profile']) {
    await expect(page.getByRole('button', { name: task, exact: true })).toBeVisible();
  }
  expect(await seriousViolations(page)).toEqual([]);

  await page.getByRole('button', { name: 'Record activation' }).click();
  await expect(page).toHaveURL(/\/agent\/activate$/);
  await expect(page.getByRole('heading', { name: 'Record activation', level: 1 })).toBeVisible();

  // The camera: a headless browser has none, so the dialog says to type, and typing works.
  await page.getByRole('button', { name: 'Scan ICCID with camera' }).click();
  const camera = page.getByRole('dialog', { name: 'Scan ICCID with camera' });
  await expect(camera.getByTestId('camera-unavailable')).toBeVisible();
  await camera.getByRole('button', { name: 'Close' }).first().click();
  await expect(camera).toBeHidden();

  // A typing slip is caught by the check digit before anything is sent.
  await page.getByLabel('ICCID').fill(withBadCheckDigit(HELD[0]!));
  await page.getByLabel('Carrier enrolment reference').fill('NV-SLIP');
  await page.getByRole('button', { name: 'Record activation' }).click();
  await expect(page.getByText(/check digit/i)).toBeVisible();
  await expect(page.getByTestId('scan-line')).toHaveCount(0);

  for (const [n, iccid] of HELD.slice(0, 3).entries()) {
    await page.getByLabel('ICCID').fill(iccid);
    await page.getByLabel('Carrier enrolment reference').fill(`NV-${STAMP}-${n}`);
    if (n === 0) await page.getByLabel('IMEI of the phone handed out').fill('356938035643809');
    await page.getByRole('button', { name: 'Record activation' }).click();
    await expect(page.getByTestId('scan-line').first()).toHaveAttribute('data-result', 'recorded');
    await expect(page.getByTestId('scan-line').first()).toContainText(iccid);
  }
  await expect(page.getByTestId('scan-line')).toHaveCount(3);
  // The same SIM again is no error: it was recorded already.
  await page.getByLabel('ICCID').fill(HELD[0]!);
  await page.getByLabel('Carrier enrolment reference').fill(`NV-${STAMP}-0`);
  await page.getByRole('button', { name: 'Record activation' }).click();
  await expect(page.getByTestId('scan-line').first()).toHaveAttribute(
    'data-result',
    'already_recorded',
  );
  // Off the button just pressed: a hovered button's lighter blue is no resting state.
  await page.mouse.move(0, 0);
  expect(await seriousViolations(page)).toEqual([]);

  await page.goto('/agent/sims');
  await expect(page.getByRole('heading', { name: 'My SIMs', level: 1 })).toBeVisible();
  await expect(page.getByTestId('agent-sim')).toHaveCount(5);
  await expect(page.getByTestId('agent-sim').filter({ hasText: 'assigned' })).toHaveCount(3);
  await page.getByRole('button', { name: `Open SIM ${HELD[0]}` }).click();
  await expect(page.getByText(`Enrolment reference NV-${STAMP}-0`)).toBeVisible();
  await page.keyboard.press('Escape');
  await page.mouse.move(0, 0);
  expect(await seriousViolations(page)).toEqual([]);

  await page.goto('/agent/history');
  await expect(page.getByRole('heading', { name: 'History', level: 1 })).toBeVisible();
  await expect(
    page.getByTestId('history-entry').filter({ hasText: 'Activation recorded' }),
  ).toHaveCount(3);
  await expect(page.getByTestId('history-entry').filter({ hasText: 'Received' })).toHaveCount(5);
  await expect(page.getByTestId('history-request')).toHaveCount(1);
  expect(await seriousViolations(page)).toEqual([]);

  await page.goto('/agent');
  await expect(page.getByTestId('home-carrier')).toContainText('2 not yet assigned · 3 assigned');
});

test("a second agent cannot see the first agent's SIM: the API answers 404 and the page says not found", async ({
  page,
  request,
}) => {
  const other = await apiAs(request, OTHER_AGENT.userName, OTHER_AGENT.password);
  const answer = await request.get(`/api/v1/agent/sims/iccid/${HELD[0]}`, {
    headers: { authorization: `Bearer ${other.token}` },
  });
  expect(answer.status()).toBe(404);
  expect(await answer.text()).not.toContain(CARRIER);
  const recorded = await request.post('/api/v1/agent/activations', {
    headers: { authorization: `Bearer ${other.token}` },
    // Two days back: a day of every time zone's calendar.
    data: {
      iccid: HELD[3],
      enrolment_ref: 'NV-NOT-MINE',
      enrolled_on: new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10),
    },
  });
  expect(recorded.status()).toBe(404);

  await signInOnPhone(page, OTHER_AGENT);
  await page.goto(`/agent/sims?iccid=${HELD[0]}`);
  await expect(page.getByTestId('sim-not-found')).toContainText('not found');
  await expect(page.getByText('You hold no SIMs yet')).toBeVisible();
});

test('staff see the SIM dashboard with its charts and drill down to the SIM list filtered', async ({
  page,
}) => {
  await page.setViewportSize(DESK);
  await signIn(page, COORDINATOR.userName, COORDINATOR.password);
  await expect(page.getByRole('heading', { name: `Welcome, ${COORDINATOR.name}` })).toBeVisible();
  await page.goto('/sim/dashboard');
  await expect(page.getByRole('heading', { name: 'SIM dashboard', level: 1 })).toBeVisible();
  await expect(
    page.getByTestId('sim-chart').first().locator('.recharts-surface').first(),
  ).toBeVisible();
  const agentRow = page.getByRole('row', { name: new RegExp(AGENT.name) });
  await expect(agentRow).toContainText('5 / 50');
  expect(await seriousViolations(page)).toEqual([]);

  const statusTable = page
    .locator('.ant-card')
    .filter({ has: page.getByRole('heading', { name: 'SIMs by status and carrier' }) });
  const assignedRow = statusTable
    .getByRole('row')
    .filter({ hasText: CARRIER })
    .filter({ hasText: 'assigned' });
  await assignedRow.getByRole('link', { name: '3' }).click();
  await expect(page).toHaveURL(
    new RegExp(
      `/sim\\?(status=assigned&client_carrier_id=${carrierId}|client_carrier_id=${carrierId}&status=assigned)$`,
    ),
  );
  await expect(page.getByRole('heading', { name: 'SIM list', level: 1 })).toBeVisible();
  await expect(page.getByText(HELD[0]!)).toBeVisible();
});
