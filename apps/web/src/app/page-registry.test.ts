import { canAccess, STATION_ACCESS } from '@inventory/contract';
import { describe, expect, it } from 'vitest';
import { STAFF_PAGES } from './page-registry';

/** Spec section 2, with the full paths of DOMAIN.md decision 2 for the short forms. */
const SPEC_ROUTES: Record<string, string[]> = {
  Dashboard: ['/dashboard', '/dashboard/web-order', '/dashboard/product-offer'],
  'RTS Inventory': [
    '/inventory-box/device',
    '/inventory-box/accessories',
    '/master-data/accessories/dashboard',
    '/parts',
    '/inventory-box/scan-device',
    '/inventory-box/location/update-location',
    '/inventory-box/location/assign-location',
    '/devices/scan',
  ],
  'RTS Office': ['/users', '/roles'],
  'Master Data': [
    '/master-data/models',
    '/master-data/colors',
    '/master-data/tac-number',
    '/master-data/accessories',
    '/transfer/vendor',
    '/master-data/part',
  ],
  'PTS Management': [
    '/pts-management/list',
    '/pts-management/products',
    '/pts-management/bundles',
    '/pts-management/combo',
    '/push-to-sale/update',
    '/master-data/tag',
    '/master-data/property',
  ],
  SIM: [
    '/sim/dashboard',
    '/sim/box',
    '/sim',
    '/sim/request',
    '/sim/return',
    '/sim/inquire',
    '/sim/detection',
  ],
  Order: [
    '/order/list',
    '/order/daily-order',
    '/order/box',
    '/shipment',
    '/shipment/scan-out-to-ship',
  ],
  'Retail customers': ['/retailer'],
  'Pricing (Government Plans)': ['/push-to-sale/price/air-talk'],
  RMA: ['/RMA/reuse', '/RMA', '/RMA/scan', '/RMA/sim'],
  'Working Report': ['/report/dashboard', '/report/work', '/report/admin', '/report/job'],
  'Blacklist devices': ['/devices/blacklist'],
  'Invoice IMEI': ['/invoice-imei'],
  Fulfilment: [
    '/fulfill/assignment',
    '/fulfill/need-to-fulfill',
    '/fulfill/prepaid',
    '/fulfill/existing-customer',
    '/fulfill/ota-orders',
    '/fulfill/replacement',
    '/fulfill/print-label',
    '/fulfill/gaylord',
    '/fulfill/scan-to-ship',
    '/fulfill/substitute',
    '/fulfill/order',
    '/fulfill/backlog-order',
    '/fulfill/support-order',
  ],
  Campaign: [
    '/order/express-orders/import-file-campaign',
    '/order/express-orders/order',
    '/order/express-orders/print-label',
    '/order/express-orders/scan',
  ],
  Shipment: [
    '/shipment-management/shipment',
    '/shipment-management/package',
    '/shipment-management/claim',
    '/shipment-management/unpack',
    '/shipment-management/unpack/statistics',
    '/shipment-management/trade-in',
    '/shipment-management/reship-statistics',
    '/shipment-management/reship',
    '/shipment-management/cancel',
    '/shipment-management/reship/order',
  ],
  Invoice: [
    '/shipment-management/invoice',
    '/shipment-management/invoice/shipment',
    '/invoice/warehouse-box',
    '/invoice/product-request',
    '/invoice/product-team',
    '/invoice/product-team/leader',
    '/invoice/product-team/worker',
    '/consolidation',
    '/consolidation/worker',
    '/consolidation/box',
    '/consolidation/inquire-device',
    '/invoice/warehouse-box/dashboard',
    '/invoice/warehouse-box/dashboard/model',
    '/invoice/product-team/update-device',
  ],
  Warehouse: ['/warehouse/dashboard-fulfill', '/warehouse/dashboard'],
  Repair: [
    '/repair-process/request',
    '/repair-process/sorting',
    '/repair-process/leader',
    '/repair-process/worker',
    '/repair-process/testing',
    '/repair-process/dashboard',
    '/repair-process/worker-statistic/device',
    '/repair-process/worker-statistic/issues',
    '/repair-process/inquire-device',
  ],
};

describe('the page registry', () => {
  it('registers every route of spec section 2 under its menu group, in order', () => {
    for (const [group, routes] of Object.entries(SPEC_ROUTES)) {
      expect(
        STAFF_PAGES.filter((page) => page.group === group).map((page) => page.path),
        group,
      ).toEqual(routes);
    }
    // Pages outside the menu (the audit log) are reached from other pages.
    expect(STAFF_PAGES.filter((page) => page.group !== null)).toHaveLength(
      Object.values(SPEC_ROUTES).flat().length,
    );
  });

  it('guards every page with a permission or a role list', () => {
    for (const page of STAFF_PAGES) {
      expect(page.permission, page.path).toBeTruthy();
      if (page.permission === 'roles') expect(page.roles?.length, page.path).toBeGreaterThan(0);
    }
  });

  it('guards the station pages by the role lists of DOMAIN.md 6.3', () => {
    const byPath = new Map(STAFF_PAGES.map((page) => [page.path, page]));
    expect(byPath.get('/consolidation')?.roles).toEqual(STATION_ACCESS.consolidation.roles);
    expect(byPath.get('/repair-process/request')?.permission).toBe('repair.request');
    const productionWorker = { allRoles: ['Production Worker'], allPermissions: [] };
    expect(canAccess(productionWorker, byPath.get('/invoice/product-team/worker')!)).toBe(true);
    expect(canAccess(productionWorker, byPath.get('/invoice/product-team/leader')!)).toBe(false);
  });
});
