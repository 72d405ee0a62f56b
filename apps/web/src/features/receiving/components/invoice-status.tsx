import type { PurchaseInvoiceStatus } from '@inventory/contract';
import { Tag } from 'antd';

/** The status of a purchase invoice, coloured by how far it has gone. */
const INVOICE_STATUS_COLORS: Record<PurchaseInvoiceStatus, string> = {
  expected: 'default',
  receiving: 'blue',
  received: 'cyan',
  reconciled: 'purple',
  closed: 'green',
};

export function InvoiceStatusTag({ status }: { status: PurchaseInvoiceStatus }) {
  return <Tag color={INVOICE_STATUS_COLORS[status]}>{status}</Tag>;
}
