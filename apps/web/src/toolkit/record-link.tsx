import { useCallback, type MouseEvent, type ReactNode } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router';

/** The address key of the row whose form the toolkit's drawer has open (`?id=12`). */
export const FORM_PARAM = 'id';

/** A link on a row is not also a click on the row, which opens the row's own record. */
const keepToItself = (event: MouseEvent) => event.stopPropagation();

/**
 * The address of this page, its list where it is, with one record open (`?invoice=12`): a
 * record opened in a drawer or a view of the page has a link of its own.
 */
export function useRecordHref() {
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  return useCallback(
    (param: string, id: number) => {
      const next = new URLSearchParams(params);
      next.set(param, String(id));
      return `${pathname}?${next.toString()}`;
    },
    [pathname, params],
  );
}

/**
 * A row's key (an invoice number, an IMEI, a name) as the link that opens its record. A drawer
 * opened from it replaces the address rather than adding a step to the browser's history, as
 * its close does; a record shown instead of the list (a box's station) is a step Back undoes.
 */
export function KeyLink({
  to,
  title,
  replace = false,
  children,
}: {
  to: string;
  /** Where the link leads, as its tooltip: "Open purchase invoice INV-1001". */
  title: string;
  replace?: boolean;
  children: ReactNode;
}) {
  return (
    <Link to={to} replace={replace} title={title} onClick={keepToItself}>
      {children}
    </Link>
  );
}

/**
 * Any other link on a row: its tooltip says where it leads ("Invoice INV-1001 in purchase
 * invoices"). Where its text says nothing alone (figures such as "3 / 2"), that is its name too.
 */
export function RowLink({
  to,
  where,
  named = false,
  children,
}: {
  to: string;
  where: string;
  named?: boolean;
  children: ReactNode;
}) {
  return (
    <Link to={to} title={where} aria-label={named ? where : undefined} onClick={keepToItself}>
      {children}
    </Link>
  );
}
