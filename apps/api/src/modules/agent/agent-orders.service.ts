import { agentOrderList, type AgentOrderDetail } from '@inventory/contract';
import type { Queryable } from '../../db/db.js';
import type { Principal } from '../../http/principal.js';
import { isoTextSql } from '../../http/sql.js';
import type { ListSql } from '../../toolkit/list.js';
import { findItem, type ListQueryOf, type ListStore } from '../../toolkit/resource.js';

/**
 * The agent's own orders (DOMAIN.md 7 History): the web orders the signed-in agent placed from the
 * shop (`web_orders.placed_by`), scoped on the server so that another agent's order is not found.
 */

const agentOrderSql: ListSql<ListQueryOf<typeof agentOrderList>> = {
  from: `orders o
    JOIN web_orders w ON w.order_id = o.id
    JOIN retailers r ON r.id = o.retailer_id`,
  id: 'o.id',
  columns: `o.id::int AS id, o.number, o.status, r.name AS customer,
    ${isoTextSql('o.created_at')} AS created_at, o.total_cents::int AS total_cents,
    (SELECT COALESCE(sum(l.qty), 0)::int FROM order_lines l WHERE l.order_id = o.id) AS units,
    (SELECT COALESCE(json_agg(json_build_object('sku', l.sku, 'description', l.description,
        'qty', l.qty, 'unit_price_cents', l.unit_price_cents::int) ORDER BY l.position), '[]')
     FROM order_lines l WHERE l.order_id = o.id) AS lines`,
  sorts: { placed: { sql: 'o.id', type: 'bigint' } },
  search: (pattern) => ['o.number ILIKE ?', pattern],
  filters: (query) => [query.status !== undefined && ['o.status = ?', query.status]],
};

/** The orders the agent checked out, whichever dealer they were linked to then. */
export const agentOrderStore: ListStore<typeof agentOrderList> = {
  contract: agentOrderList,
  list: agentOrderSql,
  scope: (asker) => ['w.placed_by = ?', asker.userId],
};

/**
 * One of the agent's orders with its steps (placed, approved, rejected with the reason, expired);
 * another agent's order, or an id that is no order of theirs, is not found (404).
 */
export async function agentOrderDetail(
  db: Queryable,
  agent: Principal,
  id: number,
): Promise<AgentOrderDetail> {
  const order = await findItem(agentOrderStore, db, id, agent);
  const [held] = await db.query<{ held_until: string | null }>(
    `SELECT CASE WHEN o.status = 'pending' THEN ${isoTextSql('w.expires_at')} END AS held_until
     FROM orders o JOIN web_orders w ON w.order_id = o.id WHERE o.id = $1`,
    [id],
  );
  const steps = await db.query<AgentOrderDetail['steps'][number]>(
    `SELECT ${isoTextSql('e.at')} AS at, e.type, e.to_status, e.data->>'reason' AS reason
     FROM order_events e WHERE e.order_id = $1 ORDER BY e.id`,
    [id],
  );
  return { order, held_until: held!.held_until, steps };
}
