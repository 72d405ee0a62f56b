import type { PaymentStatus } from '@inventory/contract';
import { Tag } from 'antd';

const COLORS: Record<PaymentStatus, string> = {
  authorized: 'gold',
  captured: 'green',
  failed: 'red',
  refunded: 'default',
};

/** A payment status in words. */
export const PAYMENT_WORDS: Record<PaymentStatus, string> = {
  authorized: 'Authorized',
  captured: 'Captured',
  failed: 'Failed',
  refunded: 'Refunded',
};

/** A prepaid order's payment as a tag; "Not reported" when the carrier said nothing yet. */
export function PaymentTag({ status }: { status: PaymentStatus | null }) {
  return (
    <Tag color={status ? COLORS[status] : 'red'} data-testid="payment-status">
      {status ? PAYMENT_WORDS[status] : 'Not reported'}
    </Tag>
  );
}
