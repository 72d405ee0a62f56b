import type { PermissionGroup } from './menu-groups.js';

export type PermissionDefinition<Name extends string = PermissionName> = {
  readonly name: Name;
  readonly group: PermissionGroup;
  readonly description: string;
};

/** One group's permissions; the names stay literal, so the catalogue is the type of every name. */
const define = <const Name extends string>(
  group: PermissionGroup,
  entries: ReadonlyArray<readonly [Name, string]>,
) =>
  entries.map(([name, description]): PermissionDefinition<Name> => ({ name, group, description }));

/**
 * The permission catalogue (DOMAIN.md 6.1). Names listed by the spec are kept verbatim, mixed styles
 * included. It is synced into the database at start; these rows cannot be renamed or deleted.
 * The permissions that DOMAIN.md 6.3 replaces by role lists are deliberately absent.
 */
export const PERMISSION_CATALOGUE = [
  ...define('Dashboard', [
    ['statistics.list-os', 'Main dashboard: stock by OS and pipeline figures'],
    ['web-order.view-list', 'Web orders from cart checkouts'],
    ['product-offer.view-list', 'Product offers (B2B quotes)'],
    ['product-offer.respond', 'Accept, counter or reject product offers'],
  ]),
  ...define('RTS Inventory', [
    ['box.view-list', 'Device and accessory inventory boxes'],
    ['box.scan-device', 'Scan devices into, out of and between boxes'],
    ['box.reopen', 'Reopen a sealed inventory box'],
    ['accessory.dashboard', 'Accessory stock dashboard'],
    ['part-stock.view-list', 'Repair parts stock'],
    ['part-stock.manage', 'Receive, adjust and move repair parts stock'],
    ['location.activation', 'Location maintenance and activation'],
    ['location.assignment', 'Putaway: assign boxes to locations'],
    ['device.scan', 'Device lookup by IMEI, IMEI2, MEID or serial'],
  ]),
  ...define('RTS Office', [
    ['user.view-list', 'List users'],
    ['user.manage', 'Create, edit, disable users and reset passwords'],
    ['role.view-list', 'List roles and permissions'],
    ['role.manage', 'Create, edit and delete roles and permissions'],
    ['audit.view-list', 'Read the audit log'],
    ['client-carrier-key.manage', "Create and revoke client carriers' API keys"],
    ['job.view-list', 'Background jobs: state, attempts and errors'],
    ['job.manage', 'Retry failed background jobs and cancel waiting ones'],
  ]),
  ...define('Master Data', [
    ['model.view-list', 'Device models'],
    ['model.manage', 'Create and edit device models'],
    ['color.view-list', 'Colours'],
    ['color.manage', 'Create, edit, merge and deactivate colours'],
    ['TacNumber.view-list', 'TAC numbers'],
    ['TacNumber.create', 'Add, edit, import and learn TAC numbers'],
    ['accessory.view-list', 'Accessory master'],
    ['accessory.manage', 'Create, edit, import and deactivate accessories'],
    ['vendor.view-list', 'Vendors'],
    ['vendor.manage', 'Create, edit and deactivate vendors'],
    ['transfer.manage', 'Returns and transfers to vendors'],
    ['part.view-list', 'Part master'],
    ['part.manage', 'Create, edit, import and deactivate parts'],
  ]),
  ...define('PTS Management', [
    ['pts.view-list', 'Push-to-sale listings'],
    ['pts.update', 'Bulk push-to-sale update'],
    ['pts.allow-backorder', 'Push more than the matching stock (allow backorder)'],
    ['pts-product.view-list', 'PTS products and variants'],
    ['pts-bundle.view-list', 'PTS bundles'],
    ['pts-combo.view-list', 'PTS combos'],
    ['pts-product.manage', 'Create, edit, activate and archive PTS products and their variants'],
    ['pts-bundle.manage', 'Create, edit and deactivate PTS bundles'],
    ['pts-combo.manage', 'Create, edit and deactivate PTS combos'],
    ['tag.view-list', 'Tags'],
    ['tag.manage', 'Create, edit, merge and delete tags'],
    ['property.view-list', 'Properties'],
    ['property.manage', 'Create, edit and deactivate properties'],
  ]),
  ...define('SIM', [
    ['sim.dashboard', 'SIM dashboard'],
    ['sim.index', 'SIM list and SIM boxes'],
    ['sim-requests.index', 'SIM requests'],
    ['sim-requests.approve', 'Approve SIM requests'],
    [
      'sim-requests.approve-low-rate',
      'Approve SIM requests of agents whose activation rate is low (a manager)',
    ],
    ['sim-returns.index', 'SIM returns'],
    ['sim.inquire', 'SIM lookup'],
    ['sim.transfer', 'Transfer SIMs between agents'],
    ['sim.detection_oss', 'SIM detection against the carrier OSS'],
  ]),
  ...define('Order', [
    ['order.management', 'Orders, daily order report, backlog and web-order approval'],
    ['order-box.view-list', 'Order boxes (wholesale cartons)'],
    ['order-box.reopen', 'Reopen a closed order box (a fulfilment leader)'],
    [
      'order.shipping-override',
      "Let a wholesale shipment leave with cartons not scanned at the dock, reopen the dock's closed day (a manager)",
    ],
    ['order.shipping-processing', 'Shipments, labels, gaylords and scan-out'],
    ['order.cancel', 'Cancellations'],
    ['order.cancel-approve', 'Approve or deny cancellation requests (a manager)'],
    ['subscriber.view-pii', 'Read subscribers’ full names, addresses and phones (audited)'],
  ]),
  ...define('Retail customers', [['customer.management', 'Retailers']]),
  ...define('Pricing (Government Plans)', [
    ['price.management', 'Government plan pricing and below-floor approvals'],
  ]),
  ...define('RMA', [
    ['rma.index', 'RMA list'],
    ['rma.reuse', 'Reuse queue'],
    ['rma.scan', 'RMA receiving'],
    ['rma.sim', 'SIMs returned with RMAs'],
    ['rma.supervise', 'RMA supervision: clear receiving mismatches, close RMAs short'],
  ]),
  ...define('Working Report', [
    ['tasks.manager-report', 'Working report dashboard'],
    ['tasks.worker-list', 'My work'],
    ['tasks.manager-list', 'Team jobs and reports'],
    ['task-jobs.create', 'Create and manage jobs'],
  ]),
  ...define('Blacklist devices', [['device.black-list', 'Blacklisted and held devices']]),
  ...define('Invoice IMEI', [['invoice-imei.index', 'Invoice IMEI register']]),
  ...define('Fulfilment', [
    ['order.assignment', 'Assign orders to workers'],
    ['order.fulfill-processing', 'Fulfilment queues'],
    ['order.OTA-processing', 'OTA orders'],
    ['order.replacement', 'Create replacement orders'],
    ['order.substitute', 'Substitutions'],
    [
      'order.substitute-approve',
      'Approve and apply substitutions, edit substitution rules (a manager)',
    ],
    ['order.support-create', 'Support orders'],
    [
      'order.support-approve',
      'Approve support orders with devices and override duplicates (a manager)',
    ],
    ['gaylord.manage', 'Outbound gaylords'],
  ]),
  ...define('Campaign', [
    ['campaign.import', 'Import campaign files'],
    ['campaign.view-list', 'Express orders'],
  ]),
  ...define('Shipment', [
    ['shipment.view-list', 'Parcel shipments'],
    ['package.view-list', 'Packages'],
    ['claim.manage', 'Carrier claims'],
    ['unpack.process', 'Unpack returned parcels'],
    ['unpack.statistics', 'Unpack statistics'],
    ['trade-in.process', 'Trade-ins'],
    ['order.manually-reship', 'Reship requests and reship orders'],
    ['order.reship-approve', 'Approve or deny reship requests (a manager)'],
    ['reship.statistics', 'Reship statistics'],
  ]),
  ...define('Invoice', [
    ['invoice.view-list', 'Purchase invoices'],
    ['invoice.manage', 'Create, edit, reconcile and close purchase invoices'],
    ['import_invoice.list', 'Invoice file import and import history'],
    ['invoice-shipment.view-list', 'Inbound shipments'],
    ['invoice-shipment.manage', 'Register inbound shipments and check them in at the dock'],
    ['warehouse-box.scan', 'Scan IMEIs into warehouse boxes'],
    ['warehouse-box.override', 'Close a warehouse box whose count differs; reopen a closed box'],
    ['request.index', 'Product requests'],
    ['device.update', 'Correct device attributes'],
  ]),
  ...define('Repair', [['repair.request', 'Repair requests']]),
  ...define('Agent', [
    ['agent.portal', 'Agent layout'],
    ['agent.sim-request', 'Agent: request SIMs'],
    ['agent.sim-receive', 'Agent: receive SIM shipments'],
    ['agent.sim-assign', 'Agent: record activations and assignments'],
    ['agent.sim-return', 'Agent: return SIMs'],
    ['agent.cart', 'Agent: shop and cart'],
  ]),
] as const;

/**
 * A permission's name, drawn from the catalogue: a guard, a page or a default role naming one the
 * catalogue does not hold does not compile.
 */
export type PermissionName = (typeof PERMISSION_CATALOGUE)[number]['name'];

export const PERMISSION_NAMES: ReadonlySet<string> = new Set<string>(
  PERMISSION_CATALOGUE.map((permission) => permission.name),
);
