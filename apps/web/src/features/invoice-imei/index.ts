/** What other areas use of the invoice IMEI register. */
export { DecisionTag, decisionWords, MatchStatusTag, TacModel } from './components/match-tags';

/** The register opened on one invoice's IMEIs. */
export const invoiceImeisPath = (invoiceId: number) => `/invoice-imei?invoice_id=${invoiceId}`;
