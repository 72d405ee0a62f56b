/**
 * The shipment area's test helpers for other areas' tests (reships, cancellations): fulfilled
 * orders ready for labels, parcels shipped, and the carrier's tracking file that moves them.
 */
export {
  seedFulfilledOrders,
  type FulfilledOrder,
} from '../modules/shipment/shipment.test-support.js';
export {
  hoursAgo,
  shippedParcels,
  trackingCsv,
  type ShippedParcel,
} from '../modules/shipment/tracking.test-support.js';
