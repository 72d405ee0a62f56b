/** What other areas use of pricing: the price an order snapshots when it is created. */
export { effectivePlanPrice, type PlanPriceKey } from './plan-prices.js';
