import { LAST_PAGE_CURSOR } from '@inventory/contract';
import { fieldError } from '../http/errors.js';

/** Where a keyset page starts: after a row, before a row, or at the end of the list. */
export type CursorPosition =
  | { readonly kind: 'first' }
  | { readonly kind: 'last' }
  | { readonly kind: 'after' | 'before'; readonly key: string; readonly id: number };

/** An opaque cursor: the sort key and id of the row a page starts from, base64url JSON. */
export const encodeCursor = (kind: 'after' | 'before', key: string, id: number): string =>
  Buffer.from(JSON.stringify([kind === 'after' ? 'a' : 'b', key, id])).toString('base64url');

export function decodeCursor(cursor: string | undefined): CursorPosition {
  if (!cursor) return { kind: 'first' };
  if (cursor === LAST_PAGE_CURSOR) return { kind: 'last' };
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(value) &&
      value.length === 3 &&
      (value[0] === 'a' || value[0] === 'b') &&
      typeof value[1] === 'string' &&
      Number.isSafeInteger(value[2])
    ) {
      return { kind: value[0] === 'a' ? 'after' : 'before', key: value[1], id: value[2] as number };
    }
  } catch {
    // Falls through to the same answer as a well-formed but wrong cursor.
  }
  throw fieldError('cursor', 'The page link is damaged: go back to the first page.');
}
