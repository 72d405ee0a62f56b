import {
  createUserEndpoint,
  deleteUserEndpoint,
  endUserSessionsEndpoint,
  listUserSessionsEndpoint,
  resetUserPasswordEndpoint,
  updateUserEndpoint,
  userActivityEndpoint,
} from '@inventory/contract';
import { Answer } from '../../http/endpoint.js';
import { registerList } from '../../toolkit/resource.js';
import { activityOfUser } from '../audit/index.js';
import type { AppModule } from '../module.js';
import {
  createUser,
  deleteUser,
  endSessions,
  getUser,
  listSessions,
  resetPassword,
  updateUser,
  userStore,
} from './users.service.js';

export const usersModule: AppModule = {
  name: 'users',
  register(context) {
    const { endpoint, db } = context;
    registerList(context, userStore);
    endpoint(createUserEndpoint, async ({ principal, body, meta }) => {
      const created = await createUser(db, principal, body, meta);
      return new Answer(created, `User ${created.user.user_name} created.`);
    });
    endpoint(updateUserEndpoint, ({ principal, params, body, meta }) =>
      updateUser(db, principal, params.id, body, meta),
    );
    endpoint(deleteUserEndpoint, async ({ principal, params, meta }) => {
      await deleteUser(db, principal, params.id, meta);
      return new Answer(null, 'User deleted.');
    });
    endpoint(resetUserPasswordEndpoint, ({ principal, params, meta }) =>
      resetPassword(db, principal, params.id, meta),
    );
    endpoint(listUserSessionsEndpoint, ({ principal, params }) =>
      listSessions(db, principal, params.id),
    );
    endpoint(endUserSessionsEndpoint, ({ principal, params, meta }) =>
      endSessions(db, principal, params.id, meta),
    );
    endpoint(userActivityEndpoint, async ({ params }) => {
      await getUser(db, params.id);
      return activityOfUser(db, params.id);
    });
  },
};
