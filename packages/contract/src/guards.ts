import { STATION_ACCESS } from './roles.js';

/**
 * Guards that pages and their endpoints share, kept apart from the schemas: the web's page
 * registry reads them on every page, the login page included, and one imported from its area's
 * contract would bring that contract's schemas into the first load.
 */

/** The box scan station (DOMAIN.md 4.2: CW, WM, FW). */
export const BOX_SCAN_ACCESS = { permission: 'box.scan-device' } as const;

/** Reading the device boxes (DOMAIN.md 4.2: WM, CL, FM, SA). */
export const BOX_LIST_ACCESS = { permission: 'box.view-list' } as const;

/** Putaway (DOMAIN.md 4.2). */
export const PUTAWAY_ACCESS = { permission: 'location.assignment' } as const;

/** Product requests (DOMAIN.md 4.17). */
export const PRODUCT_REQUEST_ACCESS = { permission: 'request.index' } as const;

/** Location maintenance (DOMAIN.md 6.2: the warehouse manager). */
export const LOCATION_ACCESS = { permission: 'location.activation' } as const;

/** The warehouse dashboard: the warehouse manager's (DOMAIN.md 6.3). */
export const WAREHOUSE_DASHBOARD_ACCESS = STATION_ACCESS.warehouseDashboards;

/** The fulfilment dashboard: the warehouse manager's too (DOMAIN.md 6.3). */
export const FULFILMENT_DASHBOARD_ACCESS = STATION_ACCESS.warehouseDashboards;

/** Push-to-sale listings (DOMAIN.md 4.5: PI, SA, sales manager read them). */
export const PTS_LIST_ACCESS = { permission: 'pts.view-list' } as const;

/** Creating, changing and bulk-updating listings (DOMAIN.md 4.5: PI, sales manager). */
export const PTS_UPDATE_ACCESS = { permission: 'pts.update' } as const;

/** The catalogue's products and variants (DOMAIN.md 4.5: PI). */
export const PTS_PRODUCT_VIEW = { permission: 'pts-product.view-list' } as const;
export const PTS_PRODUCT_MANAGE = { permission: 'pts-product.manage' } as const;

/** The catalogue's bundles (DOMAIN.md 4.5: PI). */
export const PTS_BUNDLE_VIEW = { permission: 'pts-bundle.view-list' } as const;
export const PTS_BUNDLE_MANAGE = { permission: 'pts-bundle.manage' } as const;

/** The catalogue's combos (DOMAIN.md 4.5: PI). */
export const PTS_COMBO_VIEW = { permission: 'pts-combo.view-list' } as const;
export const PTS_COMBO_MANAGE = { permission: 'pts-combo.manage' } as const;

/** Pushing more than the matching stock: a manager's call (DOMAIN.md 4.5). */
export const PTS_BACKORDER_ACCESS = { permission: 'pts.allow-backorder' } as const;

/** Selling under a listing's floor price (DOMAIN.md 4.5). */
export const PRICE_UNDER_FLOOR_ACCESS = { permission: 'price.management' } as const;

/** Retailers: their accounts, terms, certificates and portal users (DOMAIN.md 4.8). */
export const RETAILER_ACCESS = { permission: 'customer.management' } as const;

/** Orders: the list, a record and the daily report (DOMAIN.md 4.7: FM, CS, SA). */
export const ORDER_ACCESS = { permission: 'order.management' } as const;

/** Assigning ready orders to workers, reserving their devices (DOMAIN.md 4.14: FM). */
export const ORDER_ASSIGNMENT_ACCESS = { permission: 'order.assignment' } as const;

/** The fulfilment queues and the pick station (DOMAIN.md 4.14: FW, FM). */
export const ORDER_FULFIL_ACCESS = { permission: 'order.fulfill-processing' } as const;

/**
 * The OTA queue (DOMAIN.md 4.14 /fulfill/ota-orders: FW, FM): its own right, with the pick
 * station's, whose endpoints it works.
 */
export const ORDER_OTA_ACCESS = {
  permission: 'order.OTA-processing',
  andPermission: 'order.fulfill-processing',
} as const;

/** Web orders from cart checkouts (DOMAIN.md 4.1 /dashboard/web-order: SA, CS, FM). */
export const WEB_ORDER_ACCESS = { permission: 'web-order.view-list' } as const;

/** Approving, rejecting and editing a web order: the page's right and order.management. */
export const WEB_ORDER_DECIDE_ACCESS = {
  permission: 'web-order.view-list',
  andPermission: 'order.management',
} as const;

/** Product offers, B2B quotes from retailers (DOMAIN.md 4.1 /dashboard/product-offer). */
export const PRODUCT_OFFER_ACCESS = { permission: 'product-offer.view-list' } as const;

/** Entering, accepting, countering, rejecting and converting a product offer. */
export const PRODUCT_OFFER_RESPOND_ACCESS = {
  permission: 'product-offer.view-list',
  andPermission: 'product-offer.respond',
} as const;

/** Reading a subscriber's or ship-to's names, addresses and phones in full (audited). */
export const SUBSCRIBER_PII_ACCESS = {
  permission: 'order.management',
  andPermission: 'subscriber.view-pii',
} as const;

/** Creating a support order by hand (DOMAIN.md 6.1: /fulfill/support-order, CS). */
export const SUPPORT_ORDER_ACCESS = {
  permission: 'order.management',
  andPermission: 'order.support-create',
} as const;

/** Substitutions: the no-stock backlog, its candidates and proposals (DOMAIN.md 4.14: FM). */
export const SUBSTITUTE_ACCESS = { permission: 'order.substitute' } as const;

/** Approving and applying substitutions and editing their rules: a manager (DOMAIN.md 4.14). */
export const SUBSTITUTE_APPROVE_ACCESS = {
  permission: 'order.substitute',
  andPermission: 'order.substitute-approve',
} as const;

/** The support orders page and its endpoints (DOMAIN.md 4.14 /fulfill/support-order: CS). */
export const SUPPORT_CREATE_ACCESS = { permission: 'order.support-create' } as const;

/**
 * Approving a support order with device items, or letting a duplicate through: a manager's grant,
 * in no default role (an administrator gives it on /roles to whoever leads customer support).
 */
export const SUPPORT_ORDER_APPROVE_ACCESS = {
  permission: 'order.support-create',
  andPermission: 'order.support-approve',
} as const;

/** Cancelling an order (DOMAIN.md 4.7: each action needs its own permission). */
export const ORDER_CANCEL_ACCESS = {
  permission: 'order.management',
  andPermission: 'order.cancel',
} as const;

/** Approving or denying a cancellation request (DOMAIN.md 4.16: a manager). */
export const ORDER_CANCEL_APPROVE_ACCESS = {
  permission: 'order.cancel',
  andPermission: 'order.cancel-approve',
} as const;

/** Reship requests and reship orders (DOMAIN.md 4.16: CS, FM). */
export const RESHIP_ACCESS = { permission: 'order.manually-reship' } as const;

/** Reship statistics (DOMAIN.md 4.16: FM, CS lead). */
export const RESHIP_STATISTICS_ACCESS = { permission: 'reship.statistics' } as const;

/** Government-plan pricing (DOMAIN.md 4.9: the pricing manager, SA). */
export const GOV_PLAN_PRICE_ACCESS = { permission: 'price.management' } as const;

/** Importing a campaign file; who imports a campaign also closes it (DOMAIN.md 4.15: FM, SA). */
export const CAMPAIGN_IMPORT_ACCESS = { permission: 'campaign.import' } as const;

/** The express orders: campaigns and their orders' progress (DOMAIN.md 4.15: FM). */
export const CAMPAIGN_LIST_ACCESS = { permission: 'campaign.view-list' } as const;

/** SIM boxes and the SIM list (DOMAIN.md 4.6: SC, WS, CS). */
export const SIM_ACCESS = { permission: 'sim.index' } as const;

/** The SIM dashboard (DOMAIN.md 4.6: SC, WM, management). */
export const SIM_DASHBOARD_ACCESS = { permission: 'sim.dashboard' } as const;

/** Agents' SIM requests: the queue, allocation and shipping (DOMAIN.md 4.6: SC). */
export const SIM_REQUEST_ACCESS = { permission: 'sim-requests.index' } as const;

/** Approving or rejecting a SIM request. */
export const SIM_REQUEST_APPROVE_ACCESS = {
  permission: 'sim-requests.index',
  andPermission: 'sim-requests.approve',
} as const;

/**
 * Approving a request of an agent whose activation rate is under the setting: a manager's grant,
 * in no default role (an administrator gives it on /roles to whoever manages the agents).
 */
export const SIM_REQUEST_LOW_RATE_ACCESS = {
  permission: 'sim-requests.approve',
  andPermission: 'sim-requests.approve-low-rate',
} as const;

/** SIM returns (DOMAIN.md 4.6: SC, WS). */
export const SIM_RETURN_ACCESS = { permission: 'sim-returns.index' } as const;

/** The SIM lookup (DOMAIN.md 4.6: SC, CS, WS). */
export const SIM_INQUIRE_ACCESS = { permission: 'sim.inquire' } as const;

/** Transferring SIMs between agents. */
export const SIM_TRANSFER_ACCESS = { permission: 'sim.transfer' } as const;

/** Detection runs against the carrier's OSS (DOMAIN.md 4.6: SC). */
export const SIM_DETECTION_ACCESS = { permission: 'sim.detection_oss' } as const;

/** The agent portal (DOMAIN.md 7): each action its own permission. */
export const AGENT_PORTAL_ACCESS = { permission: 'agent.portal' } as const;
export const AGENT_SIM_REQUEST_ACCESS = { permission: 'agent.sim-request' } as const;
export const AGENT_SIM_RECEIVE_ACCESS = { permission: 'agent.sim-receive' } as const;
export const AGENT_SIM_ASSIGN_ACCESS = { permission: 'agent.sim-assign' } as const;
export const AGENT_SIM_RETURN_ACCESS = { permission: 'agent.sim-return' } as const;
/** The agent's shop: the dealer's web channel through the shell's cart (decision 0031). */
export const AGENT_CART_ACCESS = { permission: 'agent.cart' } as const;

/** Labels, reprints, voids and scan-out at the dock (DOMAIN.md 4.14: FW, SH). */
export const ORDER_SHIPPING_ACCESS = { permission: 'order.shipping-processing' } as const;

/** Wholesale cartons: the order boxes' page and station (DOMAIN.md 4.7 /order/box: FW, SH). */
export const ORDER_BOX_ACCESS = { permission: 'order-box.view-list' } as const;

/** Reopening a closed wholesale carton: a leader's (DOMAIN.md 4.7 /order/box). */
export const ORDER_BOX_REOPEN_ACCESS = {
  permission: 'order-box.view-list',
  andPermission: 'order-box.reopen',
} as const;

/** A wholesale pickup with cartons not scanned at the dock: a manager's override (DOMAIN.md 4.7). */
export const SHIPPING_OVERRIDE_ACCESS = { permission: 'order.shipping-override' } as const;

/** Reopening the dock's closed day (end-of-day close, DOMAIN.md 4.14): a manager's override. */
export const DOCK_DAY_REOPEN_ACCESS = {
  permission: 'order.shipping-processing',
  andPermission: 'order.shipping-override',
} as const;

/**
 * Opening, filling, closing and handing over outbound gaylords, and their SCAN forms (DOMAIN.md
 * 4.14 /fulfill/gaylord: SH): the page's right and gaylord.manage.
 */
export const GAYLORD_MANAGE_ACCESS = {
  permission: 'order.shipping-processing',
  andPermission: 'gaylord.manage',
} as const;

/** The packages list and a package's record (DOMAIN.md 4.16: SH, FM). */
export const PACKAGE_LIST_ACCESS = { permission: 'package.view-list' } as const;

/** Parcel shipments with their tracking (DOMAIN.md 4.16: SH, CS, FM). */
export const SHIPMENT_LIST_ACCESS = { permission: 'shipment.view-list' } as const;

/** The main dashboard (DOMAIN.md 4.1: all staff; each widget also needs its source's access). */
export const MAIN_DASHBOARD_ACCESS = { permission: 'statistics.list-os' } as const;

/** Unpack statistics (DOMAIN.md 4.16): the main dashboard's unpacks widget reads them too. */
export const UNPACK_STATISTICS_ACCESS = { permission: 'unpack.statistics' } as const;
