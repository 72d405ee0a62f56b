import {
  createUserEndpoint,
  deleteUserEndpoint,
  endUserSessionsEndpoint,
  getUserEndpoint,
  listUserSessionsEndpoint,
  listUsersEndpoint,
  resetUserPasswordEndpoint,
  updateUserEndpoint,
  userActivityEndpoint,
} from '@inventory/contract';
import { Answer, JsonAnswer } from '../../http/endpoint.js';
import { createAnswerCache } from '../../toolkit/answer-cache.js';
import { activityOfUser } from '../audit/audit.service.js';
import type { AppModule } from '../module.js';
import {
  createUser,
  deleteUser,
  endSessions,
  getUser,
  listSessions,
  listUsers,
  resetPassword,
  updateUser,
} from './users.service.js';

/** The tables a page of users is read from, whose versions its kept answers are kept under. */
const USER_LIST_READS = 'FROM users JOIN user_roles JOIN roles';

export const usersModule: AppModule = {
  name: 'users',
  register({ endpoint, db, dataVersions }) {
    const userPages = createAnswerCache(dataVersions);
    endpoint(
      listUsersEndpoint,
      async ({ query, principal }) =>
        new JsonAnswer(
          await userPages.answer(USER_LIST_READS, query, principal.dataVersions, () =>
            listUsers(db, query, principal.accessVersion),
          ),
        ),
      { keepsAnswers: true },
    );
    endpoint(getUserEndpoint, ({ params }) => getUser(db, params.id));
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
