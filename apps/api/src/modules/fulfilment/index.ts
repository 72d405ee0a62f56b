/**
 * What the fulfilment area offers other areas and their tests: a fulfilled order made through
 * the real assignment and pick (the shipping half starts from it).
 */
export {
  makeFulfilledOrder,
  type FulfilledOrder,
  type FulfilledOrderOptions,
} from './fulfilled-order.js';
