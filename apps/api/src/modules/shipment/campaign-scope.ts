import type { Queryable } from '../../db/db.js';
import { NotFoundError } from '../../http/errors.js';

/**
 * The campaign a label desk or a dock works for (DOMAIN.md 4.15 `/order/express-orders/print-label`
 * and `/order/express-orders/scan`): the same desk and dock, showing and taking that campaign's
 * orders only.
 */
export type CampaignScope = { readonly id: number; readonly name: string };

/** The campaign of a request's `campaign_id`, null when the request is not scoped; 404 unknown. */
export async function campaignScope(
  db: Queryable,
  campaignId: number | undefined,
): Promise<CampaignScope | null> {
  if (campaignId === undefined) return null;
  const [campaign] = await db.query<CampaignScope>(
    'SELECT id::int AS id, name FROM campaigns WHERE id = $1',
    [campaignId],
  );
  if (!campaign) throw new NotFoundError(`There is no campaign ${campaignId}.`);
  return campaign;
}

/** Whether an order (by its campaign) is outside the scope: never when there is none. */
export const outsideScope = (scope: CampaignScope | null, orderCampaignId: number | null) =>
  scope !== null && orderCampaignId !== scope.id;
