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
/** The pick of one device for an order's unit, which the order box station (wholesale) shares. */
export { pickDevice, type DevicePick } from './pick.service.js';
/** An order's picked units back into their boxes (a cancellation carried out, the reship area). */
export { unpickUnits } from './pick.service.js';
/** The data generator's substitution rules, substitutions and support orders. */
export {
  generateSubstitutions,
  type GenerateSubstitutionsSummary,
} from './generate-substitutions.js';
