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

  const newPasswordErrors = (password: string, userName?: string) =>
    validatePasswordChange(
      {
        current_password: 'the-current-one',
        new_password: password,
        new_password_confirm: password,
      },
      { firstLogin: false, userName },
    ).new_password;

  it('refuses control characters: NUL, tab, newline, DEL and C1', () => {
    for (const password of [
      '\0'.repeat(8),
      'good-pass\tword',
      'good-pass\nword',
      'good\u007fpassword',
      'good\u0085password',
    ]) {
      expect(newPasswordErrors(password), JSON.stringify(password)).toEqual([
        PASSWORD_MESSAGES.controlCharacters,
      ]);
    }
  });

  it('refuses a password that is one character repeated, spaces too', () => {
    for (const password of ['aaaaaaaa', ' '.repeat(8), '😀'.repeat(8)]) {
      expect(newPasswordErrors(password), JSON.stringify(password)).toEqual([
        PASSWORD_MESSAGES.oneCharacter,
      ]);
    }
    expect(newPasswordErrors('aaaa')).toEqual([
      PASSWORD_MESSAGES.tooShort,
      PASSWORD_MESSAGES.oneCharacter,
    ]);
    expect(newPasswordErrors('aaaaaaab')).toBeUndefined();
  });

  it('refuses a password that contains the user name of 3 characters or more, in any case', () => {
    expect(newPasswordErrors('jsmith2026', 'jsmith')).toEqual([PASSWORD_MESSAGES.containsUserName]);
    expect(newPasswordErrors('my-JSmith-pass', 'jsmith')).toEqual([
      PASSWORD_MESSAGES.containsUserName,
    ]);
    expect(newPasswordErrors('2026-dock.clerk', 'Dock.Clerk')).toEqual([
      PASSWORD_MESSAGES.containsUserName,
    ]);
    expect(newPasswordErrors('pink-pineapple', 'pi')).toBeUndefined();
    expect(newPasswordErrors('jsmith2026')).toBeUndefined();
    expect(newPasswordErrors('j-smith-2026', 'jsmith')).toBeUndefined();
  });

  it('accepts a good password with every rule checked', () => {
    expect(
      validatePasswordChange(
        {
          current_password: 'the-current-one',
          new_password: 'Orbit tulip 7 canyon',
          new_password_confirm: 'Orbit tulip 7 canyon',
        },
        { firstLogin: false, userName: 'jsmith' },
      ),
    ).toEqual({});
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
