/** What the order area offers other areas: the one intake every channel creates orders with. */
export {
  createOrder,
  type IntakeActor,
  type IntakeLine,
  type OrderIntake,
  type Sellable,
  type SubscriberIntake,
} from './intake.js';
export { orderStore, writeOrderEvent } from './order-lifecycle.js';
export { releaseReservedUnits } from './order-units.js';
export {
  generateOrders,
  type GenerateOrdersOptions,
  type GenerateOrdersSummary,
} from './generate-orders.js';
/** The ZIP/state and service-address checks intake validates with (a campaign file's preview). */
export { serviceAddressProblems, zipProblems } from './us-zip.js';
/** The client carriers' picker (a campaign file chooses its carrier). */
export { ORDER_PICKERS } from './orders.routes.js';
/** An order's row as the order list shows it (customer masked), over `orders o`. */
export { ORDER_ROW_COLUMNS, ORDER_ROW_FROM } from './order-list.store.js';
