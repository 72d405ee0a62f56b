import { PERMISSION_NAMES, ROLES_PERMISSION, type Guard } from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.js';

/**
 * The compiler holds guards to the catalogue's names (`PermissionName`); this checks the same of
 * the endpoints as registered, every one walked, new ones included, whatever built their guard.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** The permission names a guard asks for. */
const permissionsOf = (guard: Guard): string[] =>
  typeof guard === 'string'
    ? []
    : [guard.permission, guard.andPermission].flatMap((name) =>
        name === undefined || name === ROLES_PERMISSION ? [] : [name],
      );

describe('every registered endpoint', () => {
  it('guards with permission names of the catalogue only', () => {
    expect(t.app.endpoints.length).toBeGreaterThan(0);
    const unknown = t.app.endpoints.flatMap((endpoint) =>
      permissionsOf(endpoint.guard)
        .filter((name) => !PERMISSION_NAMES.has(name))
        .map((name) => `${endpoint.method} ${endpoint.path}: ${name}`),
    );
    expect(unknown).toEqual([]);
  });
});
