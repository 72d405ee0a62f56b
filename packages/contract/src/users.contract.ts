import * as z from 'zod/mini';
import { USER_TYPES } from './auth.contract.js';
import { defineEndpoint } from './endpoint.js';
import { idParamsSchema } from './list.js';
import { defineList, enumFilter, idFilter, listEndpoints, listQuerySchemaOf } from './resource.js';

export const USER_STATUSES = ['active', 'disabled'] as const;
export const USER_SORTS = ['name', 'user_name', 'created_at', 'last_login_at'] as const;

const text = (max: number, message: string) =>
  z.string().check(z.trim(), z.maxLength(max, message));
const optionalText = (max: number, message: string) => z.optional(z.nullable(text(max, message)));
/** An e-mail address; empty, null or left out for none. */
const optionalEmail = z.optional(
  z.nullable(
    z.pipe(
      text(254, 'The email is too long.'),
      z.union([z.literal(''), z.email('This is not an email address.')]),
    ),
  ),
);
const cap = z.optional(
  z.nullable(
    z
      .int('Caps are whole numbers.')
      .check(z.gte(0, 'Caps cannot be negative.'), z.lte(100_000, 'That cap is too large.')),
  ),
);

export const roleRefSchema = z.object({ id: z.int(), name: z.string() });

export const userSchema = z.object({
  id: z.int(),
  user_name: z.string(),
  name: z.string(),
  email: z.nullable(z.string()),
  phone: z.nullable(z.string()),
  type: z.enum(USER_TYPES),
  status: z.enum(USER_STATUSES),
  roles: z.array(roleRefSchema),
  rep_id: z.nullable(z.string()),
  territory: z.nullable(z.string()),
  sim_cap: z.nullable(z.int()),
  device_cap: z.nullable(z.int()),
  first_login: z.union([z.literal(0), z.literal(1)]),
  last_login_at: z.nullable(z.string()),
  created_at: z.string(),
});
export type User = z.infer<typeof userSchema>;

const manage = { permission: 'user.manage' } as const;
const view = { permission: 'user.view-list' } as const;

/**
 * The user list pages like every other list (keyset, capped count). Never signed in sorts as the
 * earliest sign-in: first ascending, last descending.
 */
export const userList = defineList({
  name: 'users',
  singular: 'user',
  plural: 'Users',
  tag: 'Users',
  view,
  item: userSchema,
  filters: {
    role: idFilter,
    type: enumFilter(USER_TYPES),
    status: enumFilter(USER_STATUSES),
  },
  sorts: USER_SORTS,
  defaultSort: 'name',
  exportColumns: [
    { key: 'user_name', header: 'User name', example: 'jdoe' },
    { key: 'name', header: 'Name', example: 'Jane Doe' },
    { key: 'email', header: 'Email', example: 'jane@example.com' },
    { key: 'phone', header: 'Phone', example: '555-0100' },
    { key: 'type', header: 'Type', example: 'staff' },
    { key: 'status', header: 'Status', example: 'active' },
    { key: 'rep_id', header: 'RAD rep ID', example: 'RAD-12' },
    { key: 'territory', header: 'Territory', example: 'North' },
    { key: 'last_login_at', header: 'Last sign-in', example: '2026-01-31T08:01:03.339Z' },
    { key: 'created_at', header: 'Created', example: '2026-01-02T10:00:00.000Z' },
  ],
});
export const userListEndpoints = listEndpoints(userList);
export const userListQuerySchema = listQuerySchemaOf(userList);
export type UserListQuery = z.input<typeof userListQuerySchema>;

const userFields = {
  name: text(150, 'The name is too long.').check(z.minLength(1, 'Please enter the name.')),
  email: optionalEmail,
  phone: optionalText(40, 'The phone number is too long.'),
  type: z.enum(USER_TYPES, 'Choose staff or agent.'),
  role_ids: z.array(z.int()).check(z.maxLength(50, 'Too many roles.')),
  rep_id: optionalText(40, 'The RAD rep ID is too long.'),
  territory: optionalText(100, 'The territory is too long.'),
  sim_cap: cap,
  device_cap: cap,
};

export const createUserInputSchema = z.object({
  user_name: text(150, 'The user name is too long.').check(
    z.minLength(1, 'Please enter the user name.'),
    z.regex(/^[A-Za-z0-9._@-]+$/, 'Use letters, digits and . _ @ - only.'),
  ),
  ...userFields,
});
export type CreateUserInput = z.input<typeof createUserInputSchema>;

/** Every field optional: a field left out of an update changes nothing. */
export const updateUserInputSchema = z.object({
  name: z.optional(userFields.name),
  email: userFields.email,
  phone: userFields.phone,
  type: z.optional(userFields.type),
  status: z.optional(z.enum(USER_STATUSES, 'Choose active or disabled.')),
  role_ids: z.optional(userFields.role_ids),
  rep_id: userFields.rep_id,
  territory: userFields.territory,
  sim_cap: userFields.sim_cap,
  device_cap: userFields.device_cap,
});
export type UpdateUserInput = z.input<typeof updateUserInputSchema>;

/** A new user or a reset gets a temporary password, shown once to the administrator. */
export const userWithPasswordSchema = z.object({
  user: userSchema,
  temporary_password: z.string(),
});

export const sessionSchema = z.object({
  id: z.int(),
  created_at: z.string(),
  last_seen_at: z.string(),
  expires_at: z.string(),
  ip: z.nullable(z.string()),
  user_agent: z.nullable(z.string()),
});

export const auditEventSchema = z.object({
  id: z.int(),
  at: z.string(),
  actor_id: z.nullable(z.int()),
  actor_name: z.nullable(z.string()),
  action: z.string(),
  entity_type: z.string(),
  entity_id: z.nullable(z.string()),
  before: z.unknown(),
  after: z.unknown(),
  ip: z.nullable(z.string()),
});
export type AuditEvent = z.infer<typeof auditEventSchema>;

export const listUsersEndpoint = userListEndpoints.list;
export const getUserEndpoint = userListEndpoints.get;

export const createUserEndpoint = defineEndpoint({
  method: 'POST',
  path: '/users',
  summary: 'Create a user with a temporary password; they set their own at first sign-in',
  tag: 'Users',
  guard: manage,
  body: createUserInputSchema,
  response: userWithPasswordSchema,
  successStatus: 201,
});

export const updateUserEndpoint = defineEndpoint({
  method: 'PUT',
  path: '/users/:id',
  summary: 'Update a user; fields left out are unchanged. Disabling ends all its sessions',
  tag: 'Users',
  guard: manage,
  params: idParamsSchema,
  body: updateUserInputSchema,
  response: userSchema,
});

export const deleteUserEndpoint = defineEndpoint({
  method: 'DELETE',
  path: '/users/:id',
  summary: 'Delete a user',
  tag: 'Users',
  guard: manage,
  params: idParamsSchema,
  response: z.null(),
});

export const resetUserPasswordEndpoint = defineEndpoint({
  method: 'POST',
  path: '/users/:id/password-reset',
  summary: 'Give a user a new temporary password; ends its sessions and asks for a new password',
  tag: 'Users',
  guard: manage,
  params: idParamsSchema,
  response: userWithPasswordSchema,
});

export const listUserSessionsEndpoint = defineEndpoint({
  method: 'GET',
  path: '/users/:id/sessions',
  summary: 'Open sessions of a user',
  tag: 'Users',
  guard: view,
  params: idParamsSchema,
  response: z.array(sessionSchema),
});

export const endUserSessionsEndpoint = defineEndpoint({
  method: 'DELETE',
  path: '/users/:id/sessions',
  summary: 'Sign a user out everywhere',
  tag: 'Users',
  guard: manage,
  params: idParamsSchema,
  response: z.object({ ended: z.int() }),
});

export const userActivityEndpoint = defineEndpoint({
  method: 'GET',
  path: '/users/:id/activity',
  summary: 'Recent audit events by or about a user',
  tag: 'Users',
  guard: { permission: 'audit.view-list' },
  params: idParamsSchema,
  response: z.array(auditEventSchema),
});
