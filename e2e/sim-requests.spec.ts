import { expect, test } from '@playwright/test';
import {
  apiAs,
  createAgent,
  createClientCarrier,
  createStaff,
  receiveSimPacks,
  setSimCap,
} from './api';
import { ADMIN_PASSWORD, signIn, signInAsAgent } from './support';
import {
  chooseOption,
  closeNotifications,
  confirmBubble,
  dialog,
  searchList,
  seriousViolations,
  wedgeScan,
} from './ui';

/** This spec's tag: its carrier, agent and SIMs never meet another spec's, nor an earlier run's. */
const TAG = 111;
const STAMP = Date.now() % 1_000_000;
const CARRIER = `Carrier ${TAG}-${STAMP}`;
const AGENT = {
  userName: `agent.${TAG}.${STAMP}`,
  name: `Dana Field ${STAMP}`,
  password: 'field-agent-2026',
};
const COORDINATOR = {
  userName: `sim.coord.${TAG}.${STAMP}`,
  name: `Sam Coordinator ${STAMP}`,
  password: 'sim-coordinator-2026',
};
/** The first ICCID serial: the tag and the run's stamp, so that ICCIDs never repeat. */
const FIRST_SERIAL = TAG * 100_000_000 + STAMP * 100;

/** The agent works on a phone. */
const PHONE = { width: 390, height: 844 };

test('an agent requests 50 SIMs; the coordinator approves 40 within the cap, allocates packs by scanning, prints and ships; the agent receives them with one missing', async ({
  browser,
  page,
  request,
}) => {
  // Two people's journeys, four sign-ins, a station on each side.
  test.setTimeout(360_000);
  const admin = await apiAs(request, 'admin', ADMIN_PASSWORD);
  const carrier = await createClientCarrier(admin, CARRIER);
  await createStaff(request, admin, COORDINATOR, 'SIM Coordinator');
  const agent = await createAgent(request, admin, AGENT, 50);
  const { packs } = await receiveSimPacks(admin, {
    carrierId: carrier.id,
    first: FIRST_SERIAL,
    qty: 50,
    size: 10,
  });

  // The agent, on a phone: the cap and what may be asked for, then the request.
  const phone = await browser.newContext({ viewport: PHONE, reducedMotion: 'reduce' });
  const agentPage = await phone.newPage();
  await signInAsAgent(agentPage, AGENT);
  await agentPage.goto('/agent/request');
  await expect(agentPage.getByRole('heading', { name: 'Request SIMs', level: 1 })).toBeVisible();
  await expect(agentPage.getByTestId('available')).toHaveText('50');
  await expect(agentPage.getByText('You have no requests yet')).toBeVisible();
  expect(await seriousViolations(agentPage)).toEqual([]);
  await agentPage.getByRole('combobox', { name: 'Carrier' }).click();
  await chooseOption(agentPage, CARRIER);
  await agentPage.getByLabel('Quantity').fill('50');
  await agentPage.getByRole('button', { name: 'Send request' }).click();
  // Shipped needs an address: the contract says so on the field.
  await expect(
    agentPage.getByText('Enter the address to ship to, or choose pickup.'),
  ).toBeVisible();
  await agentPage.getByLabel('Ship to', { exact: true }).fill('12 Main St, Austin, TX 78701');
  await agentPage.getByRole('button', { name: 'Send request' }).click();
  const sent = agentPage.locator('.ant-notification-notice').filter({ hasText: /SR-\d+ is sent/ });
  await expect(sent).toBeVisible();
  const number = /SR-\d+/.exec((await sent.textContent()) ?? '')![0];
  const mine = agentPage.getByTestId('agent-request').filter({ hasText: number });
  await expect(mine.getByTestId('sim-request-status')).toHaveText('submitted');
  await expect(agentPage.getByTestId('available')).toHaveText('0');
  // A second request of the carrier while this one is open: refused with the reason.
  await closeNotifications(agentPage);
  await agentPage.getByLabel('Quantity').fill('1');
  await agentPage.getByRole('button', { name: 'Send request' }).click();
  await expect(agentPage.getByText(/you may request at most 0/)).toBeVisible();

  // The coordinator's review lowered the agent's cap to 40 meanwhile.
  await setSimCap(request, admin, agent.id, 40);

  // The coordinator: the queue, the request with the agent's figures, an approval within the cap.
  await signIn(page, COORDINATOR.userName, COORDINATOR.password);
  await expect(page.getByRole('heading', { name: `Welcome, ${COORDINATOR.name}` })).toBeVisible();
  await page.goto('/sim/request');
  await expect(page.getByRole('heading', { name: 'SIM requests', level: 1 })).toBeVisible();
  await searchList(page, number);
  const row = page.getByRole('row').filter({ hasText: number });
  await expect(row).toContainText(AGENT.name);
  await expect(row).toContainText('50 / —');
  await expect(row).toContainText('0 / 40');
  expect(await seriousViolations(page)).toEqual([]);
  await row.getByRole('link', { name: number }).click();
  const drawer = dialog(page, `SIM request ${number}`);
  await expect(drawer.getByTestId('sim-request-status')).toHaveText('submitted');
  await drawer.getByRole('button', { name: 'Approve' }).click();
  const approval = dialog(page, `Approve ${number}`);
  await expect(approval.getByLabel('Quantity to approve')).toHaveValue('40');
  await approval.getByLabel('Quantity to approve').fill('50');
  await approval.getByRole('button', { name: 'Approve' }).click();
  await expect(approval.getByText(/the cap is 40: at most 40 can be approved/)).toBeVisible();
  await approval.getByLabel('Quantity to approve').fill('40');
  await approval.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByText(`${number} is approved for 40 SIMs.`)).toBeVisible();
  await closeNotifications(page);
  await expect(drawer.getByTestId('sim-request-status')).toHaveText('approved');

  // Allocation by scanning pack labels: a repeat is already done, the fifth pack would pass 40.
  // A scan typed anywhere reaches the scan field, which keeps the focus from then on.
  const scanField = drawer.getByLabel('Scan a pack or ICCID');
  expect(await seriousViolations(page, '.ant-drawer')).toEqual([]);
  const newest = drawer.getByTestId('scan-line').first();
  for (const pack of packs.slice(0, 4)) {
    await wedgeScan(page, pack.code);
    await expect(newest).toHaveAttribute('data-result', 'allocated');
    await expect(newest).toContainText(pack.code);
  }
  await expect(scanField).toBeFocused();
  await expect(drawer.getByTestId('allocated-count')).toHaveText('40 of 40');
  await wedgeScan(page, packs[0]!.code);
  await expect(newest).toHaveAttribute('data-result', 'already_allocated');
  await wedgeScan(page, packs[4]!.code);
  await expect(newest).toHaveAttribute('data-result', 'over_approved');
  await expect(scanField).toBeFocused();
  await drawer.getByRole('button', { name: 'Mark packed' }).click();
  await expect(drawer.getByTestId('sim-request-status')).toHaveText('packed');
  await closeNotifications(page);

  // The packing slip and label, then the shipment with its tracking number.
  const slip = page.waitForEvent('popup');
  await drawer.getByRole('button', { name: 'Print packing slip' }).click();
  await (await slip).close();
  const label = page.waitForEvent('popup');
  await drawer.getByRole('button', { name: 'Print label' }).click();
  await (await label).close();
  await drawer.getByRole('button', { name: 'Ship' }).click();
  const shipping = dialog(page, `Ship ${number}`);
  await shipping.getByLabel('Tracking number (optional)').fill(`1Z${TAG}${STAMP}`);
  await shipping.getByRole('button', { name: 'Ship' }).click();
  await expect(page.getByText(`${number} is shipped.`)).toBeVisible();
  await expect(drawer.getByTestId('sim-request-status')).toHaveText('shipped');

  // The agent receives three packs and nine SIMs of the fourth: one is missing.
  await agentPage.goto('/agent/receive');
  await expect(
    agentPage.getByRole('heading', { name: 'Receive shipment', level: 1 }),
  ).toBeVisible();
  const incoming = agentPage.locator('.ant-card').filter({ hasText: number });
  await incoming.getByRole('button', { name: 'Receive' }).click();
  await expect(agentPage.getByTestId('received-count')).toHaveText('0 of 40');
  expect(await seriousViolations(agentPage)).toEqual([]);
  const line = agentPage.getByTestId('scan-line').first();
  for (const pack of packs.slice(0, 3)) {
    await wedgeScan(agentPage, pack.code);
    await expect(line).toHaveAttribute('data-result', 'received');
  }
  const fourth = packs[3]!.iccids;
  for (const iccid of fourth.slice(0, 9)) {
    await wedgeScan(agentPage, iccid);
    await expect(line).toHaveAttribute('data-result', 'received');
    await expect(line).toContainText(iccid);
  }
  await wedgeScan(agentPage, fourth[0]!);
  await expect(line).toHaveAttribute('data-result', 'already_received');
  // A SIM still in the warehouse is not the agent's.
  await wedgeScan(agentPage, packs[4]!.iccids[0]!);
  await expect(line).toHaveAttribute('data-result', 'not_yours');
  await expect(agentPage.getByTestId('received-count')).toHaveText('39 of 40');
  await agentPage.getByRole('button', { name: 'Finish receiving' }).click();
  await confirmBubble(agentPage).getByRole('button', { name: 'Finish receiving' }).click();
  await expect(agentPage.getByTestId('receipt-done')).toContainText('39 SIMs, 1 reported missing');

  await phone.close();

  // The coordinator sees the missing SIM on the request.
  await page.goto('/sim/request?status=received');
  await searchList(page, number);
  await page
    .getByRole('row')
    .filter({ hasText: number })
    .getByRole('link', { name: number })
    .click();
  const received = dialog(page, `SIM request ${number}`);
  await expect(received.getByTestId('sim-request-status')).toHaveText('received');
  await expect(received.getByTestId('missing-reported')).toContainText(fourth[9]!);
});
