import type {
  backlogOrderList,
  orderList,
  packageList,
  pipelineOrderList,
} from '@inventory/contract';
import { linkTo } from './warehouse-links';

/**
 * Where the fulfilment dashboard's figures drill down to: the order lists behind them, filtered
 * as the figure counts, with the lists' own filters and sorts (a wrong name does not compile).
 * Who may open each is `LINK_ACCESS` (warehouse-links).
 */

/** Every order, by status and queue (fulfilment type). */
export const ordersLink = linkTo<typeof orderList>('/order/list');
/** The fulfilment pipeline, by stage and queue. */
export const pipelineLink = linkTo<typeof pipelineOrderList>('/fulfill/order');
/** The orders on hold, by reason. */
export const backlogLink = linkTo<typeof backlogOrderList>('/fulfill/backlog-order');
/** The packages, newest label or scan-out first. */
export const packagesLink = linkTo<typeof packageList>('/shipment-management/package');
/** The ready orders' queue with the demand against stock it assigns from. */
export const ASSIGNMENT_PAGE = '/fulfill/assignment';
