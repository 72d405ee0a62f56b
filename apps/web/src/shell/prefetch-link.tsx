import { useEffect, useRef } from 'react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

/** Link prefetch root margin of spec section 9. */
export const PREFETCH_ROOT_MARGIN = '200px';

/** A link that loads its page's code once it comes within 200px of the viewport. */
export function PrefetchLink({
  to,
  prefetch,
  children,
  'aria-current': ariaCurrent,
}: {
  to: string;
  prefetch: () => unknown;
  children: ReactNode;
  'aria-current'?: 'page';
}) {
  const ref = useRef<HTMLAnchorElement>(null);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) {
          observer.disconnect();
          void prefetch();
        }
      },
      { rootMargin: PREFETCH_ROOT_MARGIN },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [prefetch]);
  return (
    <Link ref={ref} to={to} aria-current={ariaCurrent}>
      {children}
    </Link>
  );
}
