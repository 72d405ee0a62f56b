import { cartSchema, type CartItem } from '@inventory/contract';
import { useSyncExternalStore } from 'react';
import { notify } from '../notify';

const CART_KEY = 'cart';

/** The spec's cart-failure notification text. */
export const CART_ERROR = 'Error Message';

const listeners = new Set<() => void>();
let items: readonly CartItem[] = [];

function fail(error: unknown): void {
  notify.error(
    `${CART_ERROR}: the cart could not be read or saved in this browser (${String(error)}).`,
  );
}

/** Restores the cart from storage; an unreadable cart is reported and left untouched. */
function restore(): readonly CartItem[] {
  try {
    const raw = localStorage.getItem(CART_KEY);
    return raw === null ? [] : cartSchema.parse(JSON.parse(raw));
  } catch (error) {
    queueMicrotask(() => fail(error));
    return [];
  }
}

function commit(next: readonly CartItem[]): void {
  try {
    localStorage.setItem(CART_KEY, JSON.stringify(next));
  } catch (error) {
    fail(error);
    return;
  }
  items = next;
  for (const listener of listeners) listener();
}

const sameLine = (item: CartItem, id: CartItem['id'], type: string) =>
  item.id === id && item.type === type;

/** The cart of spec section 4, kept in browser storage under 'cart'. */
export const cart = {
  /** Adds an item, or updates quantity and variant_id of the one with the same id and type. */
  add(item: CartItem): void {
    const exists = items.some((line) => sameLine(line, item.id, item.type));
    commit(
      exists
        ? items.map((line) =>
            sameLine(line, item.id, item.type)
              ? { ...line, quantity: item.quantity, variant_id: item.variant_id }
              : line,
          )
        : [...items, item],
    );
  },
  remove(id: CartItem['id'], type: string): void {
    commit(items.filter((line) => !sameLine(line, id, type)));
  },
  /** Empties the cart and removes it from storage. */
  clear(): void {
    try {
      localStorage.removeItem(CART_KEY);
    } catch (error) {
      fail(error);
      return;
    }
    items = [];
    for (const listener of listeners) listener();
  },
  items: (): readonly CartItem[] => items,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  /** Re-reads storage (on load, and in tests). */
  reload(): void {
    items = restore();
    for (const listener of listeners) listener();
  },
};

cart.reload();

export const useCartItems = (): readonly CartItem[] =>
  useSyncExternalStore(cart.subscribe, cart.items);

/** Units in the cart, shown on the header badge. */
export const cartCount = (lines: readonly CartItem[]) =>
  lines.reduce((total, line) => total + line.quantity, 0);
