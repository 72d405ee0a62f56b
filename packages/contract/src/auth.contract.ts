import * as z from 'zod/mini';
import { defineEndpoint } from './endpoint.js';

export const USER_TYPES = ['staff', 'agent'] as const;
export type UserType = (typeof USER_TYPES)[number];

export const loginInputSchema = z.object({
  user_name: z
    .string({ error: 'Please enter your user name.' })
    .check(
      z.trim(),
      z.minLength(1, 'Please enter your user name.'),
      z.maxLength(150, 'The user name is too long.'),
    ),
  password: z
    .string({ error: 'Please enter your password.' })
    .check(
      z.minLength(1, 'Please enter your password.'),
      z.maxLength(1024, 'The password is too long.'),
    ),
});
export type LoginInput = z.infer<typeof loginInputSchema>;

/** What browser storage needs after a login (spec section 3). */
export const loginResultSchema = z.object({
  token: z.string(),
  type: z.enum(USER_TYPES),
  user_name: z.string(),
  userInfoId: z.int(),
  userInfo: z.array(z.string()),
  first_login: z.union([z.literal(0), z.literal(1)]),
});
export type LoginResult = z.infer<typeof loginResultSchema>;

export const LOGIN_MESSAGES = {
  invalid: 'The user name or password is incorrect.',
  disabled: 'This account is disabled. Ask an administrator.',
  agentOnly: 'This sign-in is for field agents. Staff sign in at /login.',
} as const;

export const loginEndpoint = defineEndpoint({
  method: 'POST',
  path: '/login',
  summary: 'Sign in with user name and password; returns a bearer token',
  tag: 'Session',
  guard: 'public',
  body: loginInputSchema,
  response: loginResultSchema,
});

export const agentLoginEndpoint = defineEndpoint({
  method: 'POST',
  path: '/agent/login',
  summary: 'Sign in to the agent layout; accepts only users of type agent',
  tag: 'Session',
  guard: 'public',
  body: loginInputSchema,
  response: loginResultSchema,
});

export const logoutEndpoint = defineEndpoint({
  method: 'POST',
  path: '/logout',
  summary: 'End the current session on the server',
  tag: 'Session',
  guard: 'session',
  beforePasswordChange: true,
  response: z.null(),
});
