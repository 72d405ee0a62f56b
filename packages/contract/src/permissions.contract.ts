import * as z from 'zod/mini';
import { defineEndpoint } from './endpoint.js';
import { idParamsSchema } from './list.js';
import { defineList, listEndpoints } from './resource.js';
import { MENU_GROUPS, AGENT_GROUP } from './menu-groups.js';

export const PERMISSION_GROUPS = [...MENU_GROUPS, AGENT_GROUP, 'Custom'] as const;

export const permissionSchema = z.object({
  id: z.int(),
  name: z.string(),
  group: z.string(),
  description: z.string(),
  is_catalogue: z.boolean(),
  role_count: z.int(),
});
export type Permission = z.infer<typeof permissionSchema>;

export const PERMISSION_SORTS = ['name', 'group'] as const;

/** Custom permissions follow the spec's style: resource.action. */
const permissionName = z
  .string()
  .check(
    z.trim(),
    z.minLength(1, 'Please enter the permission name.'),
    z.maxLength(100, 'The permission name is too long.'),
    z.regex(/^[A-Za-z][\w-]*\.[\w-]+$/, 'Use the form resource.action, e.g. report.export.'),
  );

export const createPermissionInputSchema = z.object({
  name: permissionName,
  group: z._default(z.enum(PERMISSION_GROUPS, 'Choose a menu group.'), 'Custom'),
  description: z._default(
    z.string().check(z.trim(), z.maxLength(500, 'The description is too long.')),
    '',
  ),
});

export const updatePermissionInputSchema = z.object({
  name: z.optional(permissionName),
  group: z.optional(z.enum(PERMISSION_GROUPS, 'Choose a menu group.')),
  description: z.optional(
    z.string().check(z.trim(), z.maxLength(500, 'The description is too long.')),
  ),
});

const manage = { permission: 'role.manage' } as const;

/** Permissions by menu group, paged like every other list (a page holds at most 200). */
export const permissionList = defineList({
  name: 'permissions',
  singular: 'permission',
  plural: 'Permissions',
  tag: 'Permissions',
  view: { permission: 'role.view-list' },
  item: permissionSchema,
  filters: { group: z.optional(z.string().check(z.maxLength(100))) },
  sorts: PERMISSION_SORTS,
  defaultSort: 'group',
  exportColumns: [
    { key: 'name', header: 'Name', example: 'report.export' },
    { key: 'group', header: 'Group', example: 'Custom' },
    { key: 'description', header: 'Description', example: 'Export reports' },
    { key: 'role_count', header: 'Roles', example: '2' },
  ],
});
export const permissionListEndpoints = listEndpoints(permissionList);
export const listPermissionsEndpoint = permissionListEndpoints.list;

export const createPermissionEndpoint = defineEndpoint({
  method: 'POST',
  path: '/permissions',
  summary: 'Create a custom permission',
  tag: 'Permissions',
  guard: manage,
  body: createPermissionInputSchema,
  response: permissionSchema,
  successStatus: 201,
});

export const updatePermissionEndpoint = defineEndpoint({
  method: 'PUT',
  path: '/permissions/:id',
  summary: 'Edit a permission; catalogue permissions keep their name',
  tag: 'Permissions',
  guard: manage,
  params: idParamsSchema,
  body: updatePermissionInputSchema,
  response: permissionSchema,
});

export const deletePermissionEndpoint = defineEndpoint({
  method: 'DELETE',
  path: '/permissions/:id',
  summary: 'Delete a custom permission',
  tag: 'Permissions',
  guard: manage,
  params: idParamsSchema,
  response: z.null(),
});
