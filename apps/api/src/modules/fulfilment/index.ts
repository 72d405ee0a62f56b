/**
 * What the fulfilment area offers other areas and their tests: a fulfilled order made through
 * the real assignment and pick (the shipping half starts from it), and the ready orders' demand
 * against stock (the fulfilment dashboard shows it as the assignment page does).
 */
export { readyDemand } from './assignment.service.js';
export {
  makeFulfilledOrder,
  type FulfilledOrder,
  type FulfilledOrderOptions,
} from './fulfilled-order.js';
