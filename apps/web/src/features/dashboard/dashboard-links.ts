import {
  RMA_INDEX_ACCESS,
  SIM_ACCESS,
  UNPACK_STATISTICS_ACCESS,
  type rmaList,
  type simCardList,
} from '@inventory/contract';
import { linkTo, LINK_ACCESS } from '../warehouse';

/**
 * Where the main dashboard's figures drill down to: the lists behind them, filtered as the figure
 * counts (the lists' own filter names: a wrong one does not compile).
 */

export { boxesLink, devicesLink, ordersLink, backlogLink } from '../warehouse';

/** The SIM list, by status and client carrier. */
export const simsLink = linkTo<typeof simCardList>('/sim');
/** The RMAs, by the days they were opened. */
export const rmasLink = linkTo<typeof rmaList>('/RMA');
/** The unpack statistics (its own dates, from its page). */
export const UNPACK_STATISTICS_PAGE = '/shipment-management/unpack/statistics';

/** Who may open each list: the guards of their pages. */
export const DRILL_ACCESS = {
  ...LINK_ACCESS,
  sims: SIM_ACCESS,
  rmas: RMA_INDEX_ACCESS,
  unpacks: UNPACK_STATISTICS_ACCESS,
} as const;
