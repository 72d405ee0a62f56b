import { Spin } from 'antd';
import { useEffect, useState } from 'react';

/** Lazy-loading delay of spec section 9: fast loads never flash a spinner. */
export const LAZY_LOADING_DELAY_MS = 200;

export function DelayedFallback({ delayMs = LAZY_LOADING_DELAY_MS }: { delayMs?: number }) {
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setVisible(true), delayMs);
    return () => clearTimeout(timer);
  }, [delayMs]);
  return visible ? (
    <div style={{ display: 'flex', justifyContent: 'center', padding: 48 }}>
      <Spin aria-label="Loading" />
    </div>
  ) : null;
}
