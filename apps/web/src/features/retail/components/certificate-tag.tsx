import type { Retailer } from '@inventory/contract';
import { Tag } from 'antd';

const LOOKS = {
  valid: ['green', 'Valid'],
  expiring: ['gold', 'Expiring'],
  expired: ['red', 'Expired'],
  missing: ['default', 'None'],
} as const;

/** The resale certificate's state, with its expiry; an expired or expiring one warns. */
export function CertificateTag({ retailer }: { retailer: Retailer }) {
  const [color, word] = LOOKS[retailer.certificate_status];
  const expiry = retailer.resale_certificate_expires_on;
  return (
    <Tag color={color} data-testid="certificate-status">
      {expiry && retailer.certificate_status !== 'missing' ? `${word} · ${expiry}` : word}
    </Tag>
  );
}
