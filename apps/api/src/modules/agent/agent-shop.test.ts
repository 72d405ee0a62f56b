import type {
  AgentOrder,
  AgentOrderDetail,
  PickerOption,
  PortalUser,
  ShopCatalogue,
  WebOrderPlaced,
} from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, dataOf, refusalOf, type ApiClient } from '../../test/api-client.js';
import { createRole, createTestApp, createUser, login, type TestApp } from '../../test/test-app.js';
import { seedListing, seedRetailer } from '../../test/web-order-fixtures.js';
import { signedIn } from './agent-portal.test-support.js';

/**
 * The agent's shop (DOMAIN.md 7, decision 0031): staff link a field agent to the dealer they work
 * for on the retailer's tab (only agents, one dealer each, audited); the linked agent checks out
 * from the web channel on the dealer's account; the agent's history lists their own orders only.
 */

let t: TestApp;
let sales: ApiClient;
let clerk: ApiClient;

async function staff(userName: string, permissions: string[]) {
  await createRole(t.db, `role of ${userName}`, permissions);
  const password = `${userName}-password-1`;
  await createUser(t.db, { userName, password, roles: [`role of ${userName}`] });
  return apiClient(t, await login(t.app, userName, password));
}

const link = (retailerId: number, userId: number) =>
  sales.post(`/retailers/${retailerId}/agents`, { user_id: userId });

const auditActions = async (retailerId: number) =>
  (
    await t.db.query<{ action: string }>(
      `SELECT action FROM audit_events WHERE entity_type = 'retailer' AND entity_id = $1
       ORDER BY id`,
      [String(retailerId)],
    )
  ).map((row) => row.action);

beforeAll(async () => {
  t = await createTestApp();
  sales = await staff('sales', ['customer.management', 'web-order.view-list']);
  clerk = await staff('clerk', ['web-order.view-list']);
});
afterAll(() => t.close());

describe('linking an agent to a dealer', () => {
  it('links an active agent, lists them as an agent, offers them no more, and audits it', async () => {
    const retailerId = await seedRetailer(t.db);
    const agent = await signedIn(t, 'link.agent', ['Agent'], 'agent');
    const offered = await dataOf<PickerOption[]>(
      sales.get('/retailers/agent-options?search=link.agent'),
    );
    expect(offered).toEqual([{ id: agent.id, label: 'Name of link.agent (link.agent)' }]);

    const linked = await dataOf<PortalUser>(link(retailerId, agent.id), 201);
    expect(linked).toMatchObject({ id: agent.id, user_name: 'link.agent', type: 'agent' });
    const users = await dataOf<PortalUser[]>(sales.get(`/retailers/${retailerId}/portal-users`));
    expect(users.map((user) => [user.user_name, user.type])).toEqual([['link.agent', 'agent']]);
    expect(await dataOf(sales.get('/retailers/agent-options?search=link.agent'))).toEqual([]);
    expect(await auditActions(retailerId)).toContain('retailer.agent_linked');

    // The agent's shop is the dealer's web channel now.
    const shop = await dataOf<ShopCatalogue>(agent.client.get('/web-orders/catalogue'));
    expect(shop.customer).toMatchObject({ retailer_id: retailerId, channel: 'web' });
  });

  it('refuses a staff user, a disabled agent, a second dealer and a deactivated dealer', async () => {
    const first = await seedRetailer(t.db);
    const second = await seedRetailer(t.db);
    const staffId = await createUser(t.db, { userName: 'not.an.agent', password: 'x-password-1' });
    const disabled = await createUser(t.db, {
      userName: 'gone.agent',
      password: 'x-password-1',
      type: 'agent',
      status: 'disabled',
    });
    const agent = await signedIn(t, 'busy.agent', ['Agent'], 'agent');

    expect(
      await sales.fieldErrors('POST', `/retailers/${first}/agents`, { user_id: staffId }),
    ).toEqual({ user_id: ['Choose a field agent.'] });
    expect(
      await sales.fieldErrors('POST', `/retailers/${first}/agents`, { user_id: disabled }),
    ).toEqual({ user_id: ['Name of gone.agent is disabled.'] });
    expect(await sales.fieldErrors('POST', `/retailers/${first}/agents`, {})).toHaveProperty(
      'user_id',
    );

    await dataOf(link(first, agent.id), 201);
    expect(await refusalOf(link(second, agent.id), 409)).toMatch(
      /Name of busy.agent works for Corner Phones .*: unlink them there first\./,
    );
    expect(await refusalOf(link(first, agent.id), 409)).toMatch(/is linked to .* already/);

    await dataOf(sales.post(`/retailers/${second}/deactivate`));
    const other = await signedIn(t, 'late.agent', ['Agent'], 'agent');
    expect(await refusalOf(link(second, other.id), 409)).toMatch(/deactivated/);
    expect((await link(999_999, other.id)).statusCode).toBe(404);
  });

  it('answers 403 without customer.management', async () => {
    const retailerId = await seedRetailer(t.db);
    const agent = await signedIn(t, 'guarded.agent', ['Agent'], 'agent');
    for (const answer of [
      clerk.get('/retailers/agent-options'),
      clerk.post(`/retailers/${retailerId}/agents`, { user_id: agent.id }),
      clerk.delete(`/retailers/${retailerId}/agents/${agent.id}`),
      agent.client.post(`/retailers/${retailerId}/agents`, { user_id: agent.id }),
    ]) {
      expect((await answer).statusCode).toBe(403);
    }
  });

  it('unlinks an agent, who then has no shop; a portal user is not unlinked this way', async () => {
    const retailerId = await seedRetailer(t.db);
    const agent = await signedIn(t, 'moving.agent', ['Agent'], 'agent');
    await dataOf(link(retailerId, agent.id), 201);
    const portal = await dataOf<{ user: { id: number } }>(
      sales.post(`/retailers/${retailerId}/portal-users`, {
        user_name: 'shop.front',
        name: 'Shop',
      }),
      201,
    );
    expect(
      await refusalOf(sales.delete(`/retailers/${retailerId}/agents/${portal.user.id}`), 404),
    ).toMatch(/no field agent/);

    const answer = await sales.delete(`/retailers/${retailerId}/agents/${agent.id}`);
    expect(answer.statusCode, answer.body).toBe(200);
    expect((answer.json() as { message: string }).message).toMatch(
      /^Name of moving.agent no longer orders for /,
    );
    const users = await dataOf<PortalUser[]>(sales.get(`/retailers/${retailerId}/portal-users`));
    expect(users.map((user) => user.type)).toEqual(['staff']);
    expect(await auditActions(retailerId)).toEqual(
      expect.arrayContaining(['retailer.agent_linked', 'retailer.agent_unlinked']),
    );
    expect(await dataOf<ShopCatalogue>(agent.client.get('/web-orders/catalogue'))).toEqual({
      customer: null,
      items: [],
    });
    expect((await sales.delete(`/retailers/${retailerId}/agents/${agent.id}`)).statusCode).toBe(
      404,
    );
  });
});

describe("the agent's orders", () => {
  it("lists the agent's own web orders with their lines; another agent's is not found", async () => {
    const retailerId = await seedRetailer(t.db);
    const buyer = await signedIn(t, 'buying.agent', ['Agent'], 'agent');
    const other = await signedIn(t, 'other.agent', ['Agent'], 'agent');
    await dataOf(link(retailerId, buyer.id), 201);
    await dataOf(link(retailerId, other.id), 201);
    const kit = await seedListing(t.db, { stock: 5, pushed: 5, priceCents: 2_500, channel: 'web' });

    const placed = await dataOf<WebOrderPlaced>(
      buyer.client.post('/web-orders', {
        items: [{ id: kit.listingId, type: 'product', quantity: 2, unit_price_cents: 2_500 }],
      }),
      201,
    );
    const theirs = await dataOf<WebOrderPlaced>(
      other.client.post('/web-orders', {
        items: [{ id: kit.listingId, type: 'product', quantity: 1 }],
      }),
      201,
    );

    const mine = await dataOf<{ items: AgentOrder[] }>(buyer.client.get('/agent/orders'));
    expect(mine.items).toEqual([
      expect.objectContaining({
        id: placed.id,
        number: placed.number,
        status: 'pending',
        total_cents: 5_000,
        units: 2,
        lines: [expect.objectContaining({ sku: kit.sku, qty: 2, unit_price_cents: 2_500 })],
      }),
    ]);
    expect(await dataOf(buyer.client.get('/agent/orders/count'))).toMatchObject({ total: 1 });

    const detail = await dataOf<AgentOrderDetail>(
      buyer.client.get(`/agent/orders/${placed.id}/detail`),
    );
    expect(detail.order.number).toBe(placed.number);
    expect(detail.held_until).toBe(placed.expires_at);
    expect(detail.steps.map((step) => step.type)).toContain('awaiting_approval');

    for (const path of [`/agent/orders/${theirs.id}`, `/agent/orders/${theirs.id}/detail`]) {
      expect(await refusalOf(buyer.client.get(path), 404)).toMatch(/no order with id/);
    }
    expect((await buyer.client.get('/agent/orders/999999/detail')).statusCode).toBe(404);

    // A rejection's reason reaches the agent; the order stays theirs after they are unlinked.
    await createRole(t.db, 'web order decider', ['web-order.view-list', 'order.management']);
    await createUser(t.db, {
      userName: 'decider',
      password: 'decider-password-1',
      roles: ['web order decider'],
    });
    const decider = apiClient(t, await login(t.app, 'decider', 'decider-password-1'));
    await dataOf(
      decider.post(`/web-orders/${placed.id}/rejection`, { reason: 'Order SIM kits instead.' }),
    );
    await dataOf(sales.delete(`/retailers/${retailerId}/agents/${buyer.id}`));
    const rejected = await dataOf<AgentOrderDetail>(
      buyer.client.get(`/agent/orders/${placed.id}/detail`),
    );
    expect(rejected.order.status).toBe('cancelled');
    expect(rejected.held_until).toBeNull();
    expect(rejected.steps.at(-1)).toMatchObject({
      type: 'rejected',
      to_status: 'cancelled',
      reason: 'Order SIM kits instead.',
    });
  });

  it('is for agents only: staff without the agent portal get 403', async () => {
    expect((await sales.get('/agent/orders')).statusCode).toBe(403);
    expect((await sales.get('/agent/orders/1/detail')).statusCode).toBe(403);
  });
});
