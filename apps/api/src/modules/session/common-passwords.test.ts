import { describe, expect, it } from 'vitest';
import { isCommonPassword } from './common-passwords.js';

describe('isCommonPassword', () => {
  it('knows the breached list from its top to its tail, in any case', () => {
    for (const password of ['password', 'Samantha', 'CORVETTE', 'watchout', '87654321vv']) {
      expect(isCommonPassword(password), password).toBe(true);
    }
  });

  it('knows the words of this site', () => {
    expect(isCommonPassword('Warehouse1')).toBe(true);
    expect(isCommonPassword('airtalk1')).toBe(true);
  });

  it('lets a password of its own through', () => {
    expect(isCommonPassword('Orbit tulip 7 canyon')).toBe(false);
  });
});
