import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp, type BuildOptions } from '../app.js';
import { loadConfig, type AppConfig } from '../config.js';
import type { Db } from '../db/db.js';
import { hashPassword } from '../modules/session/password-hashing.js';
import { openTestDatabase } from './test-database.js';

export type TestApp = {
  readonly app: FastifyInstance;
  readonly db: Db;
  readonly config: AppConfig;
  close(): Promise<void>;
};

/** The app on a fresh, migrated and seeded test database, answers checked against the contract. */
export async function createTestApp(
  options: BuildOptions & { environment?: NodeJS.ProcessEnv; webDist?: string } = {},
): Promise<TestApp> {
  const db = await openTestDatabase({ prepared: true });
  const config = {
    ...loadConfig({ LOG_LEVEL: 'silent', ...options.environment }),
    webDist: options.webDist ?? null,
  };
  const app = await buildApp(config, db, { validateResponses: true, ...options });
  return { app, db, config, close: () => app.close() };
}

/** Creates a user directly in the database (the users API is another area's). */
export async function createUser(
  db: Db,
  user: {
    userName: string;
    password: string;
    roles?: string[];
    type?: 'staff' | 'agent';
    firstLogin?: 0 | 1;
    status?: 'active' | 'disabled';
  },
): Promise<number> {
  const [row] = await db.query<{ id: number }>(
    `INSERT INTO users (user_name, name, type, status, password_hash, first_login)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
    [
      user.userName,
      `Name of ${user.userName}`,
      user.type ?? 'staff',
      user.status ?? 'active',
      await hashPassword(user.password),
      user.firstLogin ?? 0,
    ],
  );
  const id = row!.id;
  if (user.roles?.length) {
    await db.query(
      `INSERT INTO user_roles (user_id, role_id)
       SELECT $1, id FROM roles WHERE lower(name) = ANY ($2::text[])`,
      [id, user.roles.map((role) => role.toLowerCase())],
    );
  }
  return id;
}

/** Creates a role holding exactly the given permissions. */
export async function createRole(db: Db, name: string, permissions: string[]): Promise<void> {
  const [role] = await db.query<{ id: number }>(
    'INSERT INTO roles (name) VALUES ($1) RETURNING id',
    [name],
  );
  await db.query(
    `INSERT INTO role_permissions (role_id, permission_id)
     SELECT $1, id FROM permissions WHERE lower(name) = ANY ($2::text[])`,
    [role!.id, permissions.map((permission) => permission.toLowerCase())],
  );
}

/** Signs in through the API and returns the bearer token. */
export async function login(
  app: FastifyInstance,
  userName: string,
  password: string,
  path = '/api/v1/login',
): Promise<string> {
  const response = await app.inject({
    method: 'POST',
    url: path,
    payload: { user_name: userName, password },
  });
  if (response.statusCode !== 200) throw new Error(`login failed: ${response.body}`);
  return response.json<{ data: { token: string } }>().data.token;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

export const bodyOf = <T = Record<string, unknown>>(response: LightMyRequestResponse) =>
  response.json<{ code: number; message: unknown; data: T; requestId?: string }>();
