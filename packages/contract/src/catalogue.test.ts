import { describe, expect, it } from 'vitest';
import { PERMISSION_CATALOGUE, PERMISSION_NAMES } from './permissions.js';
import { DEFAULT_ROLES, SPEC_ROLES, STATION_ACCESS } from './roles.js';

/** Every permission name of spec section 6, verbatim. */
const SPEC_PERMISSIONS = [
  'statistics.list-os',
  'box.view-list',
  'location.activation',
  'location.assignment',
  'user.view-list',
  'role.view-list',
  'model.view-list',
  'color.view-list',
  'TacNumber.view-list',
  'request.index',
  'sim.dashboard',
  'sim.index',
  'sim-requests.index',
  'sim.detection_oss',
  'order.management',
  'order.shipping-processing',
  'customer.management',
  'price.management',
  'rma.index',
  'tasks.manager-report',
  'tasks.worker-list',
  'tasks.manager-list',
  'task-jobs.create',
  'device.black-list',
  'invoice-imei.index',
  'order.assignment',
  'order.fulfill-processing',
  'order.OTA-processing',
  'invoice.view-list',
  'order.manually-reship',
  'import_invoice.list',
];

describe('the permission catalogue', () => {
  it('holds every permission name of the spec verbatim', () => {
    for (const name of SPEC_PERMISSIONS) expect(PERMISSION_NAMES.has(name), name).toBe(true);
  });

  it('has unique names, case-insensitively', () => {
    const lower = PERMISSION_CATALOGUE.map((p) => p.name.toLowerCase());
    expect(new Set(lower).size).toBe(lower.length);
  });
});

describe('the default roles', () => {
  it('include the thirteen roles of the spec', () => {
    const names = DEFAULT_ROLES.map((role) => role.name);
    for (const role of Object.values(SPEC_ROLES)) expect(names).toContain(role);
  });

  it('grant only catalogue permissions', () => {
    for (const role of DEFAULT_ROLES) {
      for (const permission of role.permissions) {
        expect(PERMISSION_NAMES.has(permission), `${role.name}: ${permission}`).toBe(true);
      }
    }
  });

  it('are the only roles the station guards name', () => {
    const names = new Set<string>(Object.values(SPEC_ROLES));
    for (const access of Object.values(STATION_ACCESS)) {
      for (const role of access.roles) expect(names.has(role), role).toBe(true);
    }
  });
});
