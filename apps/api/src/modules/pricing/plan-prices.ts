import type { GovProgramme, PlanPrice } from '@inventory/contract';
import type { Queryable } from '../../db/db.js';
import { PLAN_PRICE_COLUMNS } from './plan-prices.store.js';

/** What an order is priced by: its carrier, programme, state, model and variant. */
export type PlanPriceKey = {
  readonly carrierId: number;
  readonly programme: GovProgramme;
  /** The subscriber's state, two letters. */
  readonly state: string;
  readonly modelId: number;
  /** The variant ordered; null when the order names the model only. */
  readonly variantId: number | null;
};

/**
 * The government-plan price in effect on a day (YYYY-MM-DD), for an order to snapshot when it is
 * created: the variant's own version before the model's, the state's own before the every-state
 * version (SQL `effective_plan_price`, migration 0036). Null when no version is in effect: the
 * order has no price and should not be taken. Call it inside the order's transaction, so the
 * snapshot and the order are one.
 */
export async function effectivePlanPrice(
  db: Queryable,
  key: PlanPriceKey,
  day: string,
): Promise<PlanPrice | null> {
  const [price] = await db.query<PlanPrice>(
    `SELECT ${PLAN_PRICE_COLUMNS}
     FROM effective_plan_price($1, $2, $3, $4, $5, $6::date) p`,
    [key.carrierId, key.programme, key.state, key.modelId, key.variantId, day],
  );
  return price ?? null;
}
