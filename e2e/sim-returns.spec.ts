import { expect, test, type Page } from '@playwright/test';
import {
  apiAs,
  createAgent,
  createClientCarrier,
  createStaff,
  detectActive,
  receiveSimPacks,
  simsWithAgent,
} from './api';
import { ADMIN_PASSWORD, signIn, signInAsAgent } from './support';
import { closeNotifications, searchList, seriousViolations, wedgeScan } from './ui';

/**
 * SIM returns: an agent, on a phone, returns six SIMs (five unused, one the carrier saw active)
 * and prints the label; the coordinator receives them by scanning (a SIM of another agent is set
 * aside, a repeat is already received), restocks the five, is refused the restock of the active
 * one, destroys it and closes the return; the agent sees it done.
 */

/** This spec's tag: its carrier, agents and SIMs never meet another spec's, nor an earlier run's. */
const TAG = 112;
const STAMP = Date.now() % 1_000_000;
const CARRIER = `Carrier ${TAG}-${STAMP}`;
const AGENT = {
  userName: `agent.${TAG}.${STAMP}`,
  name: `Rita Returns ${STAMP}`,
  password: 'field-agent-2026',
};
const OTHER_AGENT = {
  userName: `agent.${TAG}.other.${STAMP}`,
  name: `Omar Other ${STAMP}`,
  password: 'field-agent-2026',
};
const COORDINATOR = {
  userName: `sim.returns.${TAG}.${STAMP}`,
  name: `Cody Coordinator ${STAMP}`,
  password: 'sim-coordinator-2026',
};
/** The first ICCID serial: the tag and the run's stamp, so that ICCIDs never repeat. */
const FIRST_SERIAL = TAG * 100_000_000 + STAMP * 100;

const PHONE = { width: 390, height: 844 };
const DESK = { width: 1280, height: 800 };

/**
 * Forgets the signed-in session of the tab (kept in local storage), as signing out does: a
 * signed-in agent who opens /login is sent home to /agent.
 */
async function forgetSession(page: Page) {
  if (page.url().startsWith('http')) await page.evaluate(() => window.localStorage.clear());
}

async function signInOnPhone(page: Page) {
  await forgetSession(page);
  await page.setViewportSize(PHONE);
  await signInAsAgent(page, AGENT);
}

test('an agent returns six SIMs on a phone; five are restocked, the one that was active is refused restock and destroyed', async ({
  page,
  request,
}) => {
  // Setting up two agents' SIMs through the request flow, then two people's journeys.
  test.setTimeout(360_000);
  const admin = await apiAs(request, 'admin', ADMIN_PASSWORD);
  const carrier = await createClientCarrier(admin, CARRIER);
  await createStaff(request, admin, COORDINATOR, 'SIM Coordinator');
  await createAgent(request, admin, AGENT, 20);
  await createAgent(request, admin, OTHER_AGENT, 20);
  const coordinator = await apiAs(request, COORDINATOR.userName, COORDINATOR.password);
  const agentApi = await apiAs(request, AGENT.userName, AGENT.password);
  const otherApi = await apiAs(request, OTHER_AGENT.userName, OTHER_AGENT.password);
  const { packs } = await receiveSimPacks(coordinator, {
    carrierId: carrier.id,
    first: FIRST_SERIAL,
    qty: 10,
    size: 10,
  });
  const iccids = packs[0]!.iccids.slice(0, 6);
  const [unused, active] = [iccids.slice(0, 5), iccids[5]!];
  const othersSim = packs[0]!.iccids[6]!;
  await simsWithAgent(coordinator, agentApi, { carrierId: carrier.id, iccids });
  await simsWithAgent(coordinator, otherApi, { carrierId: carrier.id, iccids: [othersSim] });
  // The carrier's export shows one of the agent's SIMs active.
  await detectActive(request, coordinator, {
    carrierId: carrier.id,
    iccids: [active],
    on: '2026-11-20',
  });

  // The agent, on a phone: their six SIMs, all chosen, returned as unused.
  await signInOnPhone(page);
  await page.goto('/agent/returns');
  await expect(page.getByRole('heading', { name: 'Returns', level: 1 })).toBeVisible();
  await expect(page.getByText('You have made no return yet.')).toBeVisible();
  await page.getByRole('button', { name: 'Return SIMs' }).click();
  await expect(page.getByTestId('returnable-sim')).toHaveCount(6);
  await expect(page.getByTestId('returnable-sim').filter({ hasText: active })).toContainText(
    'Was active',
  );
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole('checkbox', { name: 'All your SIMs (6)' }).check();
  await page.getByText('Unused', { exact: true }).click();
  await expect(page.getByRole('radio', { name: 'Unused' })).toBeChecked();
  await page.getByRole('button', { name: 'Return 6 SIMs' }).click();
  const created = page
    .locator('.ant-notification-notice')
    .filter({ hasText: /SRT-\d+ is created/ });
  await expect(created).toBeVisible();
  const number = /SRT-\d+/.exec((await created.textContent()) ?? '')![0];
  const card = page.getByTestId('agent-return');
  await expect(page.getByLabel('Return label')).toContainText(number);
  await expect(page.getByLabel('Return label')).toContainText('6 SIMs');
  await expect(card.getByTestId('agent-return-status')).toHaveText('Waiting for the warehouse');
  const label = page.waitForEvent('popup');
  await card.getByRole('button', { name: 'Print label' }).click();
  await (await label).close();
  expect(await seriousViolations(page)).toEqual([]);
  // Nothing on the page is wider than the phone.
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(wide).toBeLessThanOrEqual(PHONE.width);

  // The coordinator receives the return by scanning.
  await page.setViewportSize(DESK);
  await forgetSession(page);
  await signIn(page, COORDINATOR.userName, COORDINATOR.password);
  await expect(page.getByRole('heading', { name: `Welcome, ${COORDINATOR.name}` })).toBeVisible();
  await page.goto('/sim/return');
  await expect(page.getByRole('heading', { name: 'SIM returns', level: 1 })).toBeVisible();
  await searchList(page, number);
  const row = page.getByRole('row').filter({ hasText: number });
  await expect(row).toContainText(AGENT.name);
  await expect(row).toContainText('0 of 6');
  await row.getByRole('button', { name: 'Receive' }).click();
  await expect(page.getByRole('heading', { name: `Return ${number}` })).toBeVisible();
  await expect(page.getByTestId('return-received')).toHaveText('0 of 6');
  expect(await seriousViolations(page)).toEqual([]);
  const scanField = page.getByRole('textbox', { name: 'Scan an ICCID' });
  const newest = page.getByTestId('scan-line').first();
  for (const iccid of iccids) {
    await wedgeScan(page, iccid);
    await expect(newest).toHaveAttribute('data-result', 'returned');
    await expect(newest).toContainText(iccid);
  }
  await wedgeScan(page, iccids[0]!);
  await expect(newest).toHaveAttribute('data-result', 'already_received');
  await wedgeScan(page, othersSim);
  await expect(newest).toHaveAttribute('data-result', 'not_agents');
  await expect(scanField).toBeFocused();
  await expect(page.getByTestId('return-received')).toHaveText('6 of 6');
  await expect(page.getByTestId('return-status')).toHaveText('receiving');

  // The five unused SIMs are restocked one by one.
  for (const iccid of unused) {
    await page.getByRole('button', { name: `Restock ${iccid}` }).click();
    await expect(page.getByRole('row').filter({ hasText: iccid })).toContainText('Restocked');
  }
  await closeNotifications(page);
  // The active one is refused, saying when it was active; it is destroyed instead.
  await page.getByRole('button', { name: `Restock ${active}` }).click();
  await expect(page.getByTestId('station-refusal')).toContainText(
    `${active} was active on 2026-11-20: a SIM ever detected active is never restocked`,
  );
  await expect(page.getByRole('row').filter({ hasText: active })).toContainText(
    'Waiting for a disposition',
  );
  await page.getByRole('button', { name: `Destroy ${active}` }).click();
  await expect(page.getByRole('row').filter({ hasText: active })).toContainText('Destroyed');
  await expect(page.getByTestId('return-disposed')).toHaveText('6 of 6');
  await page.getByRole('button', { name: 'Close return' }).click();
  await expect(page.getByTestId('return-status')).toHaveText('closed');

  // The agent sees the return done, and what became of each SIM.
  await signInOnPhone(page);
  await page.goto('/agent/returns');
  const mine = page.getByTestId('agent-return-row').filter({ hasText: number });
  await expect(mine).toContainText('Done');
  await mine.getByRole('button', { name: 'Open' }).click();
  await expect(page.getByTestId('agent-return-status')).toHaveText('Done');
  await expect(page.getByRole('listitem').filter({ hasText: active })).toContainText('Destroyed');
  await expect(page.getByRole('listitem').filter({ hasText: unused[0]! })).toContainText(
    'Restocked',
  );
});
