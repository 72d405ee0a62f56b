import type { Access } from './access.js';
import type { PermissionName } from './permissions.js';

/** The thirteen role names of spec section 6, verbatim. */
export const SPEC_ROLES = {
  productInformation: 'Product Information',
  invoiceManagement: 'Invoice Management',
  productionManager: 'Production Manager',
  warehouseSorting: 'Warehouse Sorting',
  productionLeader: 'Production Leader',
  productionWorker: 'Production Worker',
  consolidationLeader: 'Consolidation Leader',
  consolidationWorker: 'Consolidation Worker',
  warehouseManager: 'Warehouse Manager',
  repairLeader: 'Repair Leader',
  repairSorting: 'Repair Sorting',
  repairWorker: 'Repair Worker',
  repairTesting: 'Repair Testing',
} as const;

const R = SPEC_ROLES;
/** An access rule met by holding any of the roles named. */
export type RoleAccess = Access & {
  readonly permission: 'roles';
  readonly roles: readonly string[];
};
const roles = (...names: string[]): RoleAccess => ({ permission: 'roles', roles: names });

/**
 * The station pages guarded by role lists instead of permissions (DOMAIN.md 6.3). The web's page
 * registry and the server's endpoints behind those pages use these same entries.
 */
export const STATION_ACCESS = {
  warehouseBox: roles(R.warehouseSorting, R.invoiceManagement),
  warehouseBoxDashboard: roles(R.invoiceManagement, R.productionManager, R.warehouseManager),
  productTeam: roles(R.productionManager),
  productTeamLeader: roles(R.productionLeader, R.productionManager),
  productTeamWorker: roles(R.productionWorker, R.productionLeader),
  productTeamUpdateDevice: roles(R.productionLeader, R.productionManager, R.productInformation),
  consolidation: roles(R.consolidationLeader),
  consolidationWorker: roles(R.consolidationWorker, R.consolidationLeader),
  consolidationBox: roles(R.consolidationLeader, R.warehouseManager),
  consolidationInquireDevice: roles(
    R.consolidationLeader,
    R.consolidationWorker,
    R.productionLeader,
  ),
  warehouseDashboards: roles(R.warehouseManager),
  repairSorting: roles(R.repairSorting, R.repairLeader),
  repairLeader: roles(R.repairLeader),
  repairWorker: roles(R.repairWorker, R.repairLeader),
  repairTesting: roles(R.repairTesting, R.repairLeader),
  repairStatistics: roles(R.repairLeader),
  repairInquireDevice: roles(R.repairLeader, R.repairSorting, R.repairWorker, R.repairTesting),
} as const satisfies Record<string, RoleAccess>;

export type RoleDefinition = {
  readonly name: string;
  readonly description: string;
  readonly permissions: readonly PermissionName[];
};

/**
 * Default role bundles (DOMAIN.md 6.2), seeded once when a role does not exist yet; later edits on
 * /roles are kept. Wildcards of the design are spelled out; permissions that 6.3 replaces by role
 * lists are left out because the role itself grants those pages. Each staff role also holds the
 * reads its work needs on the pages built so far, the device lookup of every staff member
 * (DOMAIN.md 4.2) included: decision 0013, checked by `apps/web/src/app/default-roles.test.ts`.
 */
export const DEFAULT_ROLES: readonly RoleDefinition[] = [
  {
    name: R.productInformation,
    description: 'Models, TACs, catalogue and push-to-sale',
    permissions: [
      'statistics.list-os',
      'model.view-list',
      'model.manage',
      'color.view-list',
      'color.manage',
      'TacNumber.view-list',
      'TacNumber.create',
      'accessory.view-list',
      'accessory.manage',
      'part.view-list',
      'part.manage',
      'vendor.view-list',
      'pts.view-list',
      'pts.update',
      'pts-product.view-list',
      'pts-bundle.view-list',
      'pts-combo.view-list',
      'pts-product.manage',
      'pts-bundle.manage',
      'pts-combo.manage',
      'tag.view-list',
      'tag.manage',
      'property.view-list',
      'property.manage',
      'device.update',
      'device.scan',
    ],
  },
  {
    name: R.invoiceManagement,
    description: 'Purchase invoices, IMEI manifests and receiving',
    permissions: [
      'statistics.list-os',
      'invoice.view-list',
      'invoice.manage',
      'import_invoice.list',
      'invoice-imei.index',
      'invoice-shipment.view-list',
      'invoice-shipment.manage',
      'warehouse-box.scan',
      'warehouse-box.override',
      'vendor.view-list',
      'vendor.manage',
      'transfer.manage',
      'TacNumber.view-list',
      'device.black-list',
      // Reads its work needs (decision 0013): the models and colours a TAC maps to, and the
      // device lookup the IMEI register, the blacklist and the scan station link to.
      'model.view-list',
      'color.view-list',
      'device.scan',
    ],
  },
  {
    name: R.productionManager,
    description: 'Product requests and the product team',
    permissions: [
      'statistics.list-os',
      'request.index',
      'device.update',
      'tasks.manager-report',
      'tasks.manager-list',
      'task-jobs.create',
      'device.scan',
    ],
  },
  {
    name: R.warehouseSorting,
    description: 'Dock, receiving scans, putaway and returns intake',
    permissions: [
      'statistics.list-os',
      'warehouse-box.scan',
      'invoice-shipment.view-list',
      'invoice-shipment.manage',
      'location.assignment',
      'sim.index',
      'rma.scan',
      'unpack.process',
      'trade-in.process',
      'device.scan',
    ],
  },
  {
    name: R.productionLeader,
    description: 'Leads a production team',
    permissions: [
      'statistics.list-os',
      'device.update',
      'task-jobs.create',
      'tasks.worker-list',
      'device.scan',
    ],
  },
  {
    name: R.productionWorker,
    description: 'Tests, wipes and grades devices',
    permissions: ['statistics.list-os', 'repair.request', 'device.scan', 'tasks.worker-list'],
  },
  {
    name: R.consolidationLeader,
    description: 'Leads consolidation into inventory boxes',
    permissions: [
      'statistics.list-os',
      'box.reopen',
      'rma.reuse',
      'task-jobs.create',
      'device.scan',
    ],
  },
  {
    name: R.consolidationWorker,
    description: 'Consolidates graded devices into inventory boxes',
    permissions: [
      'statistics.list-os',
      'box.scan-device',
      'location.assignment',
      'tasks.worker-list',
      'device.scan',
    ],
  },
  {
    name: R.warehouseManager,
    description: 'Runs the warehouse: boxes, locations, stock and dashboards',
    permissions: [
      'statistics.list-os',
      'box.view-list',
      'box.scan-device',
      'box.reopen',
      'location.activation',
      'location.assignment',
      'accessory.dashboard',
      'part-stock.view-list',
      'part-stock.manage',
      'device.black-list',
      'transfer.manage',
      'tasks.manager-report',
      'tasks.manager-list',
      'task-jobs.create',
      'sim.dashboard',
      // The vendor page that transfer.manage acts on, and the device lookup.
      'vendor.view-list',
      'device.scan',
    ],
  },
  {
    name: R.repairLeader,
    description: 'Leads the repair line',
    permissions: [
      'statistics.list-os',
      'part-stock.view-list',
      'part-stock.manage',
      'rma.index',
      'rma.reuse',
      'rma.supervise',
      // The part master (DOMAIN.md 4.4) and its model filter, and the device lookup.
      'part.view-list',
      'TacNumber.view-list',
      'device.scan',
    ],
  },
  {
    name: R.repairSorting,
    description: 'Triage of repair tickets',
    permissions: ['statistics.list-os', 'repair.request', 'device.scan'],
  },
  {
    name: R.repairWorker,
    description: 'Repair technician',
    permissions: ['statistics.list-os', 'part-stock.view-list', 'tasks.worker-list', 'device.scan'],
  },
  {
    name: R.repairTesting,
    description: 'Tests repaired devices',
    permissions: ['statistics.list-os', 'tasks.worker-list', 'device.scan'],
  },
  {
    name: 'Fulfilment Manager',
    description: 'Runs order fulfilment and campaigns',
    permissions: [
      'statistics.list-os',
      'order.management',
      'order.assignment',
      'order.fulfill-processing',
      'order.OTA-processing',
      'order.substitute',
      'order.substitute-approve',
      'campaign.import',
      'campaign.view-list',
      'order.manually-reship',
      'order.cancel',
      'order.cancel-approve',
      'order.reship-approve',
      'reship.statistics',
      'unpack.statistics',
      'device.scan',
      'order-box.view-list',
      'order-box.reopen',
      // DOMAIN.md 4.7: /shipment is the fulfilment manager's too; the dock's partial pickup theirs.
      'order.shipping-processing',
      'order.shipping-override',
    ],
  },
  {
    name: 'Fulfilment Worker',
    description: 'Picks and packs orders',
    permissions: [
      'statistics.list-os',
      'order.fulfill-processing',
      'order.OTA-processing',
      'order-box.view-list',
      'order.shipping-processing',
      'device.scan',
    ],
  },
  {
    name: 'Shipping Clerk',
    description: 'Labels, gaylords and scan-out',
    permissions: [
      'statistics.list-os',
      'order.shipping-processing',
      'gaylord.manage',
      'shipment.view-list',
      'package.view-list',
      'device.scan',
    ],
  },
  {
    name: 'Customer Support',
    description: 'Orders, RMAs, reships and claims',
    permissions: [
      'statistics.list-os',
      'order.management',
      'rma.index',
      'order.support-create',
      'order.cancel',
      'subscriber.view-pii',
      'order.manually-reship',
      'claim.manage',
      'trade-in.process',
      'shipment.view-list',
      'sim.inquire',
      'device.scan',
    ],
  },
  {
    name: 'Sales / Account Manager',
    description: 'Retailers, web orders and offers',
    permissions: [
      'statistics.list-os',
      'customer.management',
      'web-order.view-list',
      'product-offer.view-list',
      'product-offer.respond',
      'pts.view-list',
      'pts.update',
      'pts.allow-backorder',
      'order.management',
      'device.scan',
    ],
  },
  {
    name: 'SIM Coordinator',
    description: 'SIM stock, agent requests, returns and detection',
    permissions: [
      'statistics.list-os',
      'sim.dashboard',
      'sim.index',
      'sim.inquire',
      'sim.transfer',
      'sim.detection_oss',
      'sim-requests.index',
      'sim-requests.approve',
      'sim-returns.index',
      'rma.sim',
      'device.scan',
    ],
  },
  {
    name: 'Agent',
    description: 'Field agent (user type agent)',
    permissions: [
      'agent.portal',
      'agent.sim-request',
      'agent.sim-receive',
      'agent.sim-assign',
      'agent.sim-return',
      'agent.cart',
    ],
  },
];

/**
 * Grants added to default roles after databases were first seeded with them (decision 0013). At
 * its next start a database seeded before gets each pair once and remembers it, so that a grant
 * an administrator removes later stays removed; a new database gets them with its roles.
 */
export const DEFAULT_ROLE_GRANTS_ADDED: readonly {
  readonly role: string;
  readonly permissions: readonly string[];
}[] = [
  { role: R.invoiceManagement, permissions: ['model.view-list', 'color.view-list', 'device.scan'] },
  { role: R.warehouseManager, permissions: ['vendor.view-list', 'device.scan'] },
  { role: R.repairLeader, permissions: ['part.view-list', 'TacNumber.view-list', 'device.scan'] },
  // Counted stock (issue 15): the parts' receipts, adjustments and moves.
  { role: R.warehouseManager, permissions: ['part-stock.manage'] },
  { role: R.repairLeader, permissions: ['part-stock.manage'] },
  // The push-to-sale catalogue (issue 16): products, bundles and combos.
  {
    role: R.productInformation,
    permissions: ['pts-product.manage', 'pts-bundle.manage', 'pts-combo.manage'],
  },
  ...[
    R.productionManager,
    R.productionLeader,
    R.consolidationLeader,
    R.consolidationWorker,
    R.repairSorting,
    R.repairWorker,
    R.repairTesting,
    'Fulfilment Manager',
    'Fulfilment Worker',
    'Shipping Clerk',
    'Sales / Account Manager',
    'SIM Coordinator',
  ].map((role) => ({ role, permissions: ['device.scan'] })),
  // Substitutions (DOMAIN.md 4.14): the fulfilment manager approves and applies them.
  { role: 'Fulfilment Manager', permissions: ['order.substitute-approve'] },
  // Exceptions on orders (DOMAIN.md 4.16): the fulfilment manager approves cancellations and
  // reships and reads the reship statistics.
  {
    role: 'Fulfilment Manager',
    permissions: ['order.cancel-approve', 'order.reship-approve', 'reship.statistics'],
  },
  // Returns (DOMAIN.md 4.16): trade-ins are received at the returns bench and quoted by support;
  // the fulfilment manager reads the return rates.
  { role: R.warehouseSorting, permissions: ['trade-in.process'] },
  { role: 'Customer Support', permissions: ['trade-in.process'] },
  { role: 'Fulfilment Manager', permissions: ['unpack.statistics'] },
  // The main dashboard (DOMAIN.md 4.1: all staff, each widget per its source's access).
  ...DEFAULT_ROLES.filter((role) => role.name !== 'Agent').map((role) => ({
    role: role.name,
    permissions: ['statistics.list-os'],
  })),
];
