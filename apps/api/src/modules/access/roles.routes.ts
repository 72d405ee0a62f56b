import {
  createPermissionEndpoint,
  createRoleEndpoint,
  deletePermissionEndpoint,
  deleteRoleEndpoint,
  updatePermissionEndpoint,
  updateRoleEndpoint,
} from '@inventory/contract';
import { Answer } from '../../http/endpoint.js';
import { registerList } from '../../toolkit/resource.js';
import type { AppModule } from '../module.js';
import {
  createPermission,
  deletePermission,
  permissionStore,
  updatePermission,
} from './permissions.service.js';
import { createRole, deleteRole, roleStore, updateRole } from './roles.service.js';

export const rolesModule: AppModule = {
  name: 'roles',
  register(context) {
    const { endpoint, db } = context;
    registerList(context, roleStore);
    endpoint(createRoleEndpoint, ({ principal, body, meta }) =>
      createRole(db, principal, body, meta),
    );
    endpoint(updateRoleEndpoint, ({ principal, params, body, meta }) =>
      updateRole(db, principal, params.id, body, meta),
    );
    endpoint(deleteRoleEndpoint, async ({ principal, params, meta }) => {
      await deleteRole(db, principal, params.id, meta);
      return new Answer(null, 'Role deleted.');
    });
    registerList(context, permissionStore);
    endpoint(createPermissionEndpoint, ({ principal, body, meta }) =>
      createPermission(db, principal, body, meta),
    );
    endpoint(updatePermissionEndpoint, ({ principal, params, body, meta }) =>
      updatePermission(db, principal, params.id, body, meta),
    );
    endpoint(deletePermissionEndpoint, async ({ principal, params, meta }) => {
      await deletePermission(db, principal, params.id, meta);
      return new Answer(null, 'Permission deleted.');
    });
  },
};
