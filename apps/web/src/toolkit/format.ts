/** How the pages write money, moments and counts. */

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** An amount the API holds in cents, in dollars: "$45.00"; a dash when there is none. */
export const dollars = (cents: number | null | undefined): string =>
  cents === null || cents === undefined ? '—' : usd.format(cents / 100);

/** Dollars typed in a form, in cents as the API takes them. */
export const centsOf = (amount: number): number => Math.round(amount * 100);

/** An ISO timestamp in the reader's local time; a dash when there is none. */
export const when = (iso: string | null | undefined): string =>
  iso ? new Date(iso).toLocaleString() : '—';

/**
 * A count with its noun, right in the singular (UX.md): "1 user", "2 users", "1,200 users". The
 * plural is the singular with an s unless given.
 */
export const counted = (count: number, singular: string, plural = `${singular}s`): string =>
  `${count.toLocaleString('en-US')} ${count === 1 ? singular : plural}`;
