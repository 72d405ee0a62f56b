/** What other areas use of receiving. */
export { DecisionTag, decisionWords, MatchStatusTag, TacModel } from './components/match-tags';

/** The purchase invoices page opened on one invoice: other pages link an invoice here. */
export const invoicePath = (id: number) => `/shipment-management/invoice?invoice=${id}`;

/** The register opened on one invoice's IMEIs. */
export const invoiceImeisPath = (invoiceId: number) => `/invoice-imei?invoice_id=${invoiceId}`;
