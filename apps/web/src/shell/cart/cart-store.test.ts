import { beforeEach, describe, expect, it, vi } from 'vitest';
import { notify } from '../notify';
import { cart, cartCount } from './cart-store';

const stored = () => JSON.parse(localStorage.getItem('cart') ?? 'null') as unknown;

beforeEach(() => {
  localStorage.clear();
  cart.reload();
  vi.restoreAllMocks();
});

describe('the cart (spec section 4)', () => {
  it('appends a new item and saves it under "cart"', () => {
    cart.add({ id: 1, type: 'product', quantity: 2, variant_id: 10 });
    expect(stored()).toEqual([{ id: 1, type: 'product', quantity: 2, variant_id: 10 }]);
  });

  it('updates quantity and variant_id of an item with the same id and type', () => {
    cart.add({ id: 1, type: 'product', quantity: 2, variant_id: 10 });
    cart.add({ id: 1, type: 'bundle', quantity: 1 });
    cart.add({ id: 1, type: 'product', quantity: 5, variant_id: 11 });
    expect(cart.items()).toEqual([
      { id: 1, type: 'product', quantity: 5, variant_id: 11 },
      { id: 1, type: 'bundle', quantity: 1 },
    ]);
    expect(cartCount(cart.items())).toBe(6);
  });

  it('removes by id and type', () => {
    cart.add({ id: 1, type: 'product', quantity: 2 });
    cart.add({ id: 1, type: 'bundle', quantity: 1 });
    cart.remove(1, 'product');
    expect(stored()).toEqual([{ id: 1, type: 'bundle', quantity: 1 }]);
  });

  it('clear empties the cart and removes the key', () => {
    cart.add({ id: 1, type: 'product', quantity: 2 });
    cart.clear();
    expect(cart.items()).toEqual([]);
    expect(localStorage.getItem('cart')).toBeNull();
  });

  it('is restored from storage on load', () => {
    localStorage.setItem('cart', JSON.stringify([{ id: 'x', type: 'sim', quantity: 3 }]));
    cart.reload();
    expect(cart.items()).toEqual([{ id: 'x', type: 'sim', quantity: 3 }]);
  });

  it('shows an Error Message notification when storage fails', () => {
    const error = vi.spyOn(notify, 'error').mockImplementation(() => {});
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new Error('QuotaExceededError');
    });
    cart.add({ id: 1, type: 'product', quantity: 1 });
    expect(error).toHaveBeenCalledWith(expect.stringContaining('Error Message'));
    expect(cart.items()).toEqual([]);
  });
});
