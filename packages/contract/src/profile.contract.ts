import * as z from 'zod/mini';
import { addFieldError, defineEndpoint, type FieldErrors } from './endpoint.js';
import { USER_TYPES } from './auth.contract.js';

export const profileSchema = z.object({
  id: z.int(),
  name: z.string(),
  user_name: z.string(),
  type: z.enum(USER_TYPES),
  allRoles: z.array(z.string()),
  allPermissions: z.array(z.string()),
  /** The stable keys of the system roles held (roleKeyOf): the menu's role checks read them. */
  allRoleKeys: z.array(z.string()),
  first_login: z.union([z.literal(0), z.literal(1)]),
});
export type Profile = z.infer<typeof profileSchema>;

export const profileEndpoint = defineEndpoint({
  method: 'GET',
  path: '/profile',
  summary: 'The signed-in user: roles, permissions and whether a new password must be set',
  tag: 'Profile',
  guard: 'session',
  beforePasswordChange: true,
  response: profileSchema,
});

/** The messages of spec section 5, verbatim, plus the length and strength policy. */
export const PASSWORD_MESSAGES = {
  currentRequired: 'Please enter current password.',
  newRequired: 'Please enter new password.',
  mustDiffer: 'The new password field and current password must be different.',
  confirmRequired: 'Please enter new password confirm.',
  mismatch: 'The two passwords that you entered do not match!',
  tooShort: 'The new password must be at least 8 characters.',
  tooLong: 'The new password must be at most 128 characters.',
  currentWrong: 'The current password is incorrect.',
  tooCommon: 'This password is too common. Choose one that is harder to guess.',
  controlCharacters:
    'The new password must not contain control characters such as tabs, line breaks or NUL.',
  oneCharacter: 'The new password must not be one character repeated.',
  containsUserName: 'The new password must not contain your user name.',
} as const;

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
/** Shorter user names (`pi`) are parts of too many good passwords to refuse them. */
const USER_NAME_MIN_LENGTH_CHECKED = 3;
// C0 controls (NUL, tab, newline…), DEL and C1 controls: invisible, and a sign-in form or a
// password manager may not type them back the same way.
// eslint-disable-next-line no-control-regex -- finding them is the point
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;

const optionalText = z.optional(z.string().check(z.maxLength(4096)));
export const changePasswordInputSchema = z.object({
  current_password: optionalText,
  new_password: optionalText,
  new_password_confirm: optionalText,
});
export type ChangePasswordInput = z.infer<typeof changePasswordInputSchema>;
export type PasswordField = keyof ChangePasswordInput;

/**
 * The rules of spec section 5 and the strength rules that need no stored data, shared by the
 * drawer's form and the server; the user name, when given, may not be part of the new password.
 * The server also checks the current password, that the new one differs from it and the list of
 * breached passwords.
 */
export function validatePasswordChange(
  input: ChangePasswordInput,
  context: { firstLogin: boolean; userName?: string },
): FieldErrors {
  const errors: FieldErrors = {};
  const current = input.current_password ?? '';
  const next = input.new_password ?? '';
  const confirm = input.new_password_confirm ?? '';
  if (!context.firstLogin && current === '') {
    addFieldError(errors, 'current_password', PASSWORD_MESSAGES.currentRequired);
  }
  if (next === '') {
    addFieldError(errors, 'new_password', PASSWORD_MESSAGES.newRequired);
  } else {
    if (current !== '' && next === current) {
      addFieldError(errors, 'new_password', PASSWORD_MESSAGES.mustDiffer);
    }
    if (next.length < PASSWORD_MIN_LENGTH) {
      addFieldError(errors, 'new_password', PASSWORD_MESSAGES.tooShort);
    }
    if (next.length > PASSWORD_MAX_LENGTH) {
      addFieldError(errors, 'new_password', PASSWORD_MESSAGES.tooLong);
    }
    // Eight NULs are also one character repeated; the control characters are what to fix.
    if (CONTROL_CHARACTER.test(next)) {
      addFieldError(errors, 'new_password', PASSWORD_MESSAGES.controlCharacters);
    } else if (new Set(next).size === 1) {
      addFieldError(errors, 'new_password', PASSWORD_MESSAGES.oneCharacter);
    }
    const userName = context.userName?.toLowerCase() ?? '';
    if (userName.length >= USER_NAME_MIN_LENGTH_CHECKED && next.toLowerCase().includes(userName)) {
      addFieldError(errors, 'new_password', PASSWORD_MESSAGES.containsUserName);
    }
  }
  if (confirm === '') {
    addFieldError(errors, 'new_password_confirm', PASSWORD_MESSAGES.confirmRequired);
  } else if (confirm !== next) {
    addFieldError(errors, 'new_password_confirm', PASSWORD_MESSAGES.mismatch);
  }
  return errors;
}

export const PASSWORD_CHANGED_MESSAGE = 'Your password has been changed. Please sign in again.';

export const changePasswordEndpoint = defineEndpoint({
  method: 'POST',
  path: '/profile/password',
  summary: 'Change the signed-in user’s password; ends all of that user’s sessions',
  tag: 'Profile',
  guard: 'session',
  beforePasswordChange: true,
  body: changePasswordInputSchema,
  response: z.null(),
});
