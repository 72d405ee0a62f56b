/** What the order area offers other areas: the one intake every channel creates orders with. */
export {
  createOrder,
  type IntakeActor,
  type IntakeLine,
  type OrderIntake,
  type Sellable,
  type SubscriberIntake,
} from './intake.js';
/** Validation as intake and release run it (substitutions and support orders validate too). */
export { settleValidation, validateOrder } from './intake.js';
export { orderStore, writeOrderEvent } from './order-lifecycle.js';
/** An order's cancellation as the order page asks for it (the cancel requests carry it out). */
export { cancelOrder, orderDetail } from './orders.service.js';
export { releaseReservedUnits } from './order-units.js';
export {
  generateOrders,
  type GenerateOrdersOptions,
  type GenerateOrdersSummary,
} from './generate-orders.js';
/** The reships' and RMA replacements' child orders, for the data generator. */
export { generateChildOrders, type GenerateChildOrdersOptions } from './generate-child-orders.js';
/** The ZIP/state and service-address checks intake validates with (a campaign file's preview). */
export { serviceAddressProblems, zipProblems } from './us-zip.js';
/** The client carriers' picker (a campaign file chooses its carrier). */
export { ORDER_PICKERS } from './orders.routes.js';
/** An order's row as the order list shows it (customer masked), over `orders o`. */
export { ORDER_ROW_COLUMNS, ORDER_ROW_FROM } from './order-list.store.js';
/** A name masked in SQL as the order list shows customers ("J*** D***"). */
export { masked } from './order-list.store.js';
