import type { CreditTerms, RetailerStatus } from '@inventory/contract';
import type { Transaction } from '../../db/db.js';
import { NotFoundError } from '../../http/errors.js';

/**
 * A retailer's credit against an order (DOMAIN.md 4.8: credit terms and limit). The orders slice
 * calls `checkCredit` inside the transaction that places or releases a retailer's order, giving
 * the value of the retailer's open orders (its exposure) and of the order at hand; this area does
 * not read the orders table.
 */

/** What the credit check decides: within the limit, over it, prepaid, or no account to sell to. */
export type CreditDecision = 'within_limit' | 'over_limit' | 'prepaid' | 'inactive';

export type CreditStanding = {
  readonly retailerId: number;
  readonly terms: CreditTerms;
  readonly limitCents: number;
  /** The open orders' value, as the caller counted it. */
  readonly exposureCents: number;
  readonly orderCents: number;
  /** What the limit leaves before this order; negative when already over it. */
  readonly availableCents: number;
  readonly decision: CreditDecision;
  /** In the business's words, for a hold reason or a 409. */
  readonly reason: string;
};

export type CreditAccount = {
  readonly id: number;
  readonly name: string;
  readonly status: RetailerStatus;
  readonly credit_terms: CreditTerms;
  readonly credit_limit_cents: number;
};

const dollars = (cents: number) =>
  `$${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** The rule itself: an order fits when the open orders and it stay within the credit limit. */
export function assessCredit(
  account: CreditAccount,
  exposureCents: number,
  orderCents: number,
): CreditStanding {
  const availableCents = account.credit_limit_cents - exposureCents;
  const standing = {
    retailerId: account.id,
    terms: account.credit_terms,
    limitCents: account.credit_limit_cents,
    exposureCents,
    orderCents,
    availableCents,
  };
  if (account.status !== 'active') {
    return {
      ...standing,
      decision: 'inactive',
      reason: `${account.name} is deactivated: nothing is sold to it.`,
    };
  }
  if (account.credit_terms === 'prepaid') {
    return {
      ...standing,
      decision: 'prepaid',
      reason: `${account.name} is prepaid: the order ships once it is paid.`,
    };
  }
  if (exposureCents + orderCents > account.credit_limit_cents) {
    return {
      ...standing,
      decision: 'over_limit',
      reason: `${account.name} would owe ${dollars(exposureCents + orderCents)} against a credit limit of ${dollars(account.credit_limit_cents)}.`,
    };
  }
  return {
    ...standing,
    decision: 'within_limit',
    reason: `${dollars(availableCents - orderCents)} of ${account.name}'s credit is left after this order.`,
  };
}

/**
 * The credit check of one order, in the caller's transaction. The retailer's row is locked until
 * the transaction ends, so two orders of one retailer are checked one after the other and cannot
 * both pass on the same room under the limit. 404 when there is no such retailer.
 */
export async function checkCredit(
  tx: Transaction,
  retailerId: number,
  amounts: { readonly openExposureCents: number; readonly orderCents: number },
): Promise<CreditStanding> {
  const [account] = await tx.query<CreditAccount>(
    `SELECT id, name, status, credit_terms, credit_limit_cents FROM retailers
     WHERE id = $1 FOR UPDATE`,
    [retailerId],
  );
  if (!account) throw new NotFoundError(`There is no retailer with id ${retailerId}.`);
  return assessCredit(account, amounts.openExposureCents, amounts.orderCents);
}
