import { Alert } from 'antd';
import { useDeferredValue } from 'react';
import { useReshipCandidate } from '../api/reship.queries';

/**
 * What the order entered calls for: an undeliverable parcel's new address, the units that came
 * back, a manager for a second reship. Read once the number stops changing.
 */
export function ReshipCandidateNotice({ orderNumber }: { orderNumber: string | null }) {
  const number = useDeferredValue(orderNumber);
  const candidate = useReshipCandidate(number && number.length >= 6 ? number : null);
  if (!candidate.data) return null;
  const order = candidate.data;
  const facts = [
    `${order.order_number} is ${order.order_status.replace(/_/g, ' ')}` +
      (order.tracking_status ? `; its parcel ${order.tracking_status.replace(/_/g, ' ')}.` : '.'),
    order.undeliverable && 'The parcel came back undeliverable: enter the corrected address.',
    order.returned_units.length > 0 &&
      `Returned units: ${order.returned_units.map((unit) => unit.imei).join(', ')}.`,
    order.earlier_reships > 0 &&
      `Reshipped ${order.earlier_reships}× before: a manager approves this one.`,
  ].filter(Boolean);
  return (
    <Alert
      type={order.undeliverable || order.earlier_reships > 0 ? 'warning' : 'info'}
      message={facts.join(' ')}
    />
  );
}
