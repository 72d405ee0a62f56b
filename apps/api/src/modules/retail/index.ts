/** What other areas use of retail customers: the credit check of a retailer's order. */
export {
  assessCredit,
  checkCredit,
  type CreditAccount,
  type CreditDecision,
  type CreditStanding,
} from './credit.js';
export { GENERATED_PLACES, generatedPlaceSql, generateRetailers } from './generate-retailers.js';
