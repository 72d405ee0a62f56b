import { PASSWORD_CHANGED_MESSAGE, PASSWORD_MESSAGES } from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  bodyOf,
  createTestApp,
  createUser,
  login,
  type TestApp,
} from '../../test/test-app.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const changePassword = (token: string, payload: Record<string, unknown>) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/profile/password',
    headers: bearer(token),
    payload,
  });

describe('GET /api/v1/profile', () => {
  it('answers id, allRoles, allPermissions, first_login and the name', async () => {
    await createUser(t.db, {
      userName: 'pi',
      password: 'pi-password-1',
      roles: ['Product Information'],
    });
    const token = await login(t.app, 'pi', 'pi-password-1');
    const response = await t.app.inject({ url: '/api/v1/profile', headers: bearer(token) });
    expect(response.statusCode).toBe(200);
    const { data } = bodyOf<Record<string, unknown>>(response);
    expect(data).toMatchObject({
      name: 'Name of pi',
      user_name: 'pi',
      type: 'staff',
      allRoles: ['Product Information'],
      first_login: 0,
    });
    expect(data.allPermissions).toEqual(
      expect.arrayContaining(['model.view-list', 'TacNumber.view-list']),
    );
    expect(data.allPermissions).not.toContain('user.view-list');
  });

  it('reflects a permission change on the next request', async () => {
    const token = await login(t.app, 'pi', 'pi-password-1');
    await t.db.query(
      `DELETE FROM role_permissions WHERE role_id = (SELECT id FROM roles WHERE name = 'Product Information')
       AND permission_id = (SELECT id FROM permissions WHERE name = 'model.view-list')`,
    );
    const response = await t.app.inject({ url: '/api/v1/profile', headers: bearer(token) });
    expect(bodyOf<{ allPermissions: string[] }>(response).data.allPermissions).not.toContain(
      'model.view-list',
    );
  });
});

describe('POST /api/v1/profile/password', () => {
  it('applies the rules of spec section 5 with their exact messages', async () => {
    await createUser(t.db, { userName: 'spec.rules', password: 'rules-password-1' });
    const token = await login(t.app, 'spec.rules', 'rules-password-1');
    const cases: Array<[Record<string, unknown>, Record<string, string[]>]> = [
      [
        {},
        {
          current_password: [PASSWORD_MESSAGES.currentRequired],
          new_password: [PASSWORD_MESSAGES.newRequired],
          new_password_confirm: [PASSWORD_MESSAGES.confirmRequired],
        },
      ],
      [
        {
          current_password: 'rules-password-1',
          new_password: 'rules-password-1',
          new_password_confirm: 'rules-password-1',
        },
        { new_password: [PASSWORD_MESSAGES.mustDiffer] },
      ],
      [
        {
          current_password: 'rules-password-1',
          new_password: 'another-one-2',
          new_password_confirm: 'another-one-3',
        },
        { new_password_confirm: [PASSWORD_MESSAGES.mismatch] },
      ],
      [
        {
          current_password: 'wrong-current',
          new_password: 'another-one-2',
          new_password_confirm: 'another-one-2',
        },
        { current_password: [PASSWORD_MESSAGES.currentWrong] },
      ],
      [
        {
          current_password: 'rules-password-1',
          new_password: 'short',
          new_password_confirm: 'short',
        },
        { new_password: [PASSWORD_MESSAGES.tooShort] },
      ],
    ];
    for (const [payload, expected] of cases) {
      const response = await changePassword(token, payload);
      expect(response.statusCode).toBe(422);
      expect(bodyOf(response)).toMatchObject({ code: 422, message: expected });
    }
  });

  it('refuses weak new passwords, each with its own message, and accepts a good one', async () => {
    await createUser(t.db, { userName: 'jsmith', password: 'jsmith-old-password' });
    const token = await login(t.app, 'jsmith', 'jsmith-old-password');
    // 'samantha' is in the breached list and was not in the former hand-made one.
    const cases: Array<[string, string]> = [
      ['aaaaaaaa', PASSWORD_MESSAGES.oneCharacter],
      ['jsmith2026', PASSWORD_MESSAGES.containsUserName],
      ['JSmith12', PASSWORD_MESSAGES.containsUserName],
      [' '.repeat(8), PASSWORD_MESSAGES.oneCharacter],
      ['\0'.repeat(8), PASSWORD_MESSAGES.controlCharacters],
      ['tab\tin-password', PASSWORD_MESSAGES.controlCharacters],
      ['samantha', PASSWORD_MESSAGES.tooCommon],
      ['SaMaNtHa', PASSWORD_MESSAGES.tooCommon],
      ['warehouse1', PASSWORD_MESSAGES.tooCommon],
    ];
    for (const [password, message] of cases) {
      const response = await changePassword(token, {
        current_password: 'jsmith-old-password',
        new_password: password,
        new_password_confirm: password,
      });
      expect(response.statusCode, JSON.stringify(password)).toBe(422);
      expect(bodyOf(response).message, JSON.stringify(password)).toEqual({
        new_password: [message],
      });
    }
    const good = await changePassword(token, {
      current_password: 'jsmith-old-password',
      new_password: 'Orbit tulip 7 canyon',
      new_password_confirm: 'Orbit tulip 7 canyon',
    });
    expect(good.statusCode).toBe(200);
    expect(await login(t.app, 'jsmith', 'Orbit tulip 7 canyon')).toBeTruthy();
  });

  it('on first login does not ask for the current password but refuses keeping it', async () => {
    await createUser(t.db, { userName: 'newbie', password: 'first-password', firstLogin: 1 });
    const token = await login(t.app, 'newbie', 'first-password');
    const same = await changePassword(token, {
      new_password: 'first-password',
      new_password_confirm: 'first-password',
    });
    expect(bodyOf(same).message).toEqual({ new_password: [PASSWORD_MESSAGES.mustDiffer] });

    const changed = await changePassword(token, {
      new_password: 'my-own-password',
      new_password_confirm: 'my-own-password',
    });
    expect(changed.statusCode).toBe(200);
    expect(bodyOf(changed)).toMatchObject({ code: 200, message: PASSWORD_CHANGED_MESSAGE });

    const [user] = await t.db.query<{ first_login: number }>(
      "SELECT first_login FROM users WHERE user_name = 'newbie'",
    );
    expect(user?.first_login).toBe(0);
    const again = await login(t.app, 'newbie', 'my-own-password');
    expect(again).toBeTruthy();
  });

  it('ends every session of the user, and audits the change', async () => {
    await createUser(t.db, { userName: 'two.sessions', password: 'twice-password-1' });
    const first = await login(t.app, 'two.sessions', 'twice-password-1');
    const second = await login(t.app, 'two.sessions', 'twice-password-1');
    const response = await changePassword(second, {
      current_password: 'twice-password-1',
      new_password: 'twice-password-2',
      new_password_confirm: 'twice-password-2',
    });
    expect(response.statusCode).toBe(200);
    for (const token of [first, second]) {
      const profile = await t.app.inject({ url: '/api/v1/profile', headers: bearer(token) });
      expect(profile.statusCode).toBe(401);
    }
    const audit = await t.db.query(
      "SELECT 1 FROM audit_events WHERE action = 'user.password_changed'",
    );
    expect(audit.length).toBeGreaterThan(0);
  });
});
