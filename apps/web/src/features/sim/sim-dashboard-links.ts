import type {
  ListDefinition,
  simCardList,
  simRequestList,
  simReturnList,
} from '@inventory/contract';
import type { FilterOf } from '../../toolkit/resource-page-config';

/**
 * Where each figure of the SIM dashboard drills down to: the list behind it, filtered as the
 * figure counts, with the lists' own filter names (a wrong one does not compile), set in the
 * address as the toolkit's list pages read them.
 */

type Filters<L extends ListDefinition> = Partial<Record<FilterOf<L>, string | number>>;

const linkTo =
  <L extends ListDefinition>(path: string) =>
  (filters: Filters<L> = {}): string => {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(filters)) {
      if (value !== undefined) params.set(key, String(value));
    }
    const query = params.toString();
    return query ? `${path}?${query}` : path;
  };

/** The SIM list by status, client carrier and agent. */
export const simsLink = linkTo<typeof simCardList>('/sim');
/** The SIM requests by status and agent. */
export const simRequestsLink = linkTo<typeof simRequestList>('/sim/request');
/** The SIM returns by status and agent. */
export const simReturnsLink = linkTo<typeof simReturnList>('/sim/return');
