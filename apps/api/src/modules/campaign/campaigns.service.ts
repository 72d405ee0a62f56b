import {
  CAMPAIGNS_SHOWN,
  type Campaign,
  type CampaignDetail,
  type CampaignStatus,
  type OrderRow,
} from '@inventory/contract';
import type { Queryable, Transaction } from '../../db/db.js';
import { ConflictError, NotFoundError } from '../../http/errors.js';
import type { Principal, RequestMeta } from '../../http/principal.js';
import { isoTextSql } from '../../http/sql.js';
import { auditActor, recordAudit } from '../audit/index.js';
import { ORDER_ROW_COLUMNS, ORDER_ROW_FROM } from '../order/index.js';

/**
 * Campaigns and where their orders are (DOMAIN.md 4.15, `/order/express-orders/order`). Progress
 * is counted from the orders' statuses, never kept: picked is fulfilled or further, labelled is
 * labelled or further, scanned is shipped or further, so the figures move as fulfilment moves the
 * orders.
 */

const PICKED = ['fulfilled', 'labeled', 'shipped', 'delivered', 'closed'];
const LABELED = ['labeled', 'shipped', 'delivered', 'closed'];
const SCANNED = ['shipped', 'delivered', 'closed'];

const CAMPAIGN_SQL = `
  SELECT c.id::int AS id, c.name, c.client_carrier_id::int AS client_carrier_id,
    v.name AS client_carrier, c.program, c.fulfilment_type, c.channel, c.status,
    c.import_batch_id::int AS import_batch_id, b.file_name, c.order_count,
    COALESCE(b.error_count, 0) AS rows_left_out, ${isoTextSql('c.created_at')} AS created_at,
    u.name AS created_by_name, ${isoTextSql('c.closed_at')} AS closed_at,
    json_build_object(
      'orders', count(o.id)::int,
      'units', COALESCE(sum((SELECT sum(l.qty) FROM order_lines l WHERE l.order_id = o.id)), 0)::int,
      'total_cents', COALESCE(sum(o.total_cents), 0)::int,
      'waiting', count(*) FILTER (WHERE o.status IN ('pending', 'ready', 'assigned', 'in_progress'))::int,
      'on_hold', count(*) FILTER (WHERE o.status = 'on_hold')::int,
      'picked', count(*) FILTER (WHERE o.status = ANY ($1::text[]))::int,
      'labeled', count(*) FILTER (WHERE o.status = ANY ($2::text[]))::int,
      'scanned', count(*) FILTER (WHERE o.status = ANY ($3::text[]))::int,
      'cancelled', count(*) FILTER (WHERE o.status IN ('cancelled', 'cancel_requested'))::int
    ) AS progress
  FROM campaigns c
  JOIN vendors v ON v.id = c.client_carrier_id
  LEFT JOIN import_batches b ON b.id = c.import_batch_id
  LEFT JOIN users u ON u.id = c.created_by
  LEFT JOIN orders o ON o.campaign_id = c.id`;

const GROUP = `GROUP BY c.id, v.name, b.file_name, b.error_count, u.name`;

/** The newest campaigns, of one status or all, with their progress. */
export function listCampaigns(db: Queryable, status: CampaignStatus | undefined) {
  return db.query<Campaign>(
    `${CAMPAIGN_SQL} WHERE ($4::text IS NULL OR c.status = $4) ${GROUP}
     ORDER BY c.created_at DESC, c.id DESC LIMIT ${CAMPAIGNS_SHOWN}`,
    [PICKED, LABELED, SCANNED, status ?? null],
  );
}

/**
 * The campaigns the label desk and the dock work for (`/order/express-orders/print-label` and
 * `/scan`): every open one, and a closed one while orders of it are still to ship.
 */
export function outboundCampaigns(db: Queryable) {
  return db.query<Campaign>(
    `${CAMPAIGN_SQL} ${GROUP}
     HAVING c.status = 'open' OR count(*) FILTER (
       WHERE o.status <> ALL ($3::text[]) AND o.status NOT IN ('cancelled', 'cancel_requested')) > 0
     ORDER BY c.created_at DESC, c.id DESC LIMIT ${CAMPAIGNS_SHOWN}`,
    [PICKED, LABELED, SCANNED],
  );
}

async function findCampaign(db: Queryable, id: number): Promise<Campaign> {
  const [campaign] = await db.query<Campaign>(`${CAMPAIGN_SQL} WHERE c.id = $4 ${GROUP}`, [
    PICKED,
    LABELED,
    SCANNED,
    id,
  ]);
  if (!campaign) throw new NotFoundError(`There is no campaign ${id}.`);
  return campaign;
}

/** A campaign with every order of it (a file holds at most CAMPAIGN_MAX_ROWS), customers masked. */
export async function campaignDetail(db: Queryable, id: number): Promise<CampaignDetail> {
  const campaign = await findCampaign(db, id);
  const orders = await db.query<OrderRow>(
    `SELECT ${ORDER_ROW_COLUMNS} FROM ${ORDER_ROW_FROM} WHERE o.campaign_id = $1 ORDER BY o.id`,
    [id],
  );
  return { campaign, orders };
}

/** Closes an open campaign; its orders go on as they are. Audited. */
export async function closeCampaign(
  tx: Transaction,
  { actor, meta }: { actor: Principal; meta: RequestMeta },
  id: number,
): Promise<Campaign> {
  const [found] = await tx.query<{ status: CampaignStatus; name: string }>(
    'SELECT status, name FROM campaigns WHERE id = $1 FOR UPDATE',
    [id],
  );
  if (!found) throw new NotFoundError(`There is no campaign ${id}.`);
  if (found.status === 'closed')
    throw new ConflictError(`Campaign ${found.name} is closed already.`);
  await tx.query(
    `UPDATE campaigns SET status = 'closed', closed_at = now(), closed_by = $2 WHERE id = $1`,
    [id, actor.userId],
  );
  await recordAudit(tx, {
    ...auditActor(actor, meta),
    action: 'campaign.closed',
    entityType: 'campaign',
    entityId: id,
    before: { status: 'open' },
    after: { status: 'closed' },
  });
  return findCampaign(tx, id);
}
