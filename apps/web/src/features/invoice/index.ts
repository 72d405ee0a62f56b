/** The purchase invoices page opened on one invoice: other pages link an invoice here. */
export const invoicePath = (id: number) => `/shipment-management/invoice?invoice=${id}`;
