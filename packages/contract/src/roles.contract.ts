import * as z from 'zod/mini';
import { defineEndpoint } from './endpoint.js';
import { idParamsSchema } from './list.js';
import { defineList, listEndpoints } from './resource.js';

export const roleSchema = z.object({
  id: z.int(),
  name: z.string(),
  /** A system role's stable key (roleKeyOf of its seeded name); null for roles made on /roles. */
  key: z.nullable(z.string()),
  description: z.string(),
  is_system: z.boolean(),
  is_admin: z.boolean(),
  user_count: z.int(),
  permissions: z.array(z.string()),
});
export type Role = z.infer<typeof roleSchema>;

export const ROLE_SORTS = ['name', 'user_count', 'created_at'] as const;

const roleName = z
  .string()
  .check(
    z.trim(),
    z.minLength(1, 'Please enter the role name.'),
    z.maxLength(100, 'The role name is too long.'),
  );
const description = z.string().check(z.trim(), z.maxLength(500, 'The description is too long.'));
const permissionNames = z
  .array(z.string().check(z.maxLength(100)))
  .check(z.maxLength(500, 'Too many permissions.'));

export const createRoleInputSchema = z.object({
  name: roleName,
  description: z._default(description, ''),
  permissions: z._default(permissionNames, []),
});
export type CreateRoleInput = z.input<typeof createRoleInputSchema>;

export const updateRoleInputSchema = z.object({
  name: z.optional(roleName),
  description: z.optional(description),
  permissions: z.optional(permissionNames),
});
export type UpdateRoleInput = z.input<typeof updateRoleInputSchema>;

const manage = { permission: 'role.manage' } as const;
const view = { permission: 'role.view-list' } as const;

/** Roles with their permissions and user counts, paged like every other list. */
export const roleList = defineList({
  name: 'roles',
  singular: 'role',
  plural: 'Roles',
  tag: 'Roles',
  view,
  item: roleSchema,
  filters: {},
  sorts: ROLE_SORTS,
  defaultSort: 'name',
  exportColumns: [
    { key: 'name', header: 'Name', example: 'Warehouse Sorting' },
    { key: 'description', header: 'Description', example: 'Sorts received devices' },
    { key: 'user_count', header: 'Users', example: '4' },
    { key: 'permissions', header: 'Permissions', example: 'device.view-list|box.scan' },
  ],
});
export const roleListEndpoints = listEndpoints(roleList);
export const listRolesEndpoint = roleListEndpoints.list;

export const createRoleEndpoint = defineEndpoint({
  method: 'POST',
  path: '/roles',
  summary: 'Create a role with a set of permissions the caller holds',
  tag: 'Roles',
  guard: manage,
  body: createRoleInputSchema,
  response: roleSchema,
  successStatus: 201,
});

export const updateRoleEndpoint = defineEndpoint({
  method: 'PUT',
  path: '/roles/:id',
  summary: 'Rename a role or replace its permission set; takes effect on the next request',
  tag: 'Roles',
  guard: manage,
  params: idParamsSchema,
  body: updateRoleInputSchema,
  response: roleSchema,
});

export const deleteRoleEndpoint = defineEndpoint({
  method: 'DELETE',
  path: '/roles/:id',
  summary: 'Delete a role that no user holds',
  tag: 'Roles',
  guard: manage,
  params: idParamsSchema,
  response: z.null(),
});
