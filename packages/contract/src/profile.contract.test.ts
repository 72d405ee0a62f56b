import { describe, expect, it } from 'vitest';
import { PASSWORD_MESSAGES, validatePasswordChange } from './profile.contract.js';

describe('validatePasswordChange (spec section 5)', () => {
  it('requires the current password unless first_login equals 1', () => {
    const input = { new_password: 'a-new-password', new_password_confirm: 'a-new-password' };
    expect(validatePasswordChange(input, { firstLogin: false })).toEqual({
      current_password: [PASSWORD_MESSAGES.currentRequired],
    });
    expect(validatePasswordChange(input, { firstLogin: true })).toEqual({});
  });

  it('requires the new password and its confirmation', () => {
    expect(validatePasswordChange({ current_password: 'x' }, { firstLogin: false })).toEqual({
      new_password: [PASSWORD_MESSAGES.newRequired],
      new_password_confirm: [PASSWORD_MESSAGES.confirmRequired],
    });
  });

  it('refuses a new password equal to the current one and a confirmation that differs', () => {
    expect(
      validatePasswordChange(
        {
          current_password: 'same-password',
          new_password: 'same-password',
          new_password_confirm: 'other-password',
        },
        { firstLogin: false },
      ),
    ).toEqual({
      new_password: [PASSWORD_MESSAGES.mustDiffer],
      new_password_confirm: [PASSWORD_MESSAGES.mismatch],
    });
  });

  it('uses the messages of the spec verbatim', () => {
    expect(PASSWORD_MESSAGES).toMatchObject({
      currentRequired: 'Please enter current password.',
      newRequired: 'Please enter new password.',
      mustDiffer: 'The new password field and current password must be different.',
      confirmRequired: 'Please enter new password confirm.',
      mismatch: 'The two passwords that you entered do not match!',
    });
  });
});
