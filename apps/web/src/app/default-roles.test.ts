import {
  backlogOrderListEndpoints,
  fulfilmentEndpoints,
  packingSlipEndpoint,
  pickListEndpoint,
  pipelineOrderListEndpoints,
  readyOrderListEndpoints,
  packageEndpoints,
  packageListEndpoints,
  simBoxListEndpoints,
  simBoxLabelEndpoint,
  simBoxPackLabelsEndpoint,
  simBoxPacksEndpoint,
  simBoxPickers,
  simCardListEndpoints,
  simCardPickers,
  simInquireEndpoint,
  simPackLabelEndpoint,
  simPrefixEndpoint,
  simDetectionEndpoints,
  simRequestEndpoints,
  simRequestLabelEndpoint,
  simRequestListEndpoints,
  simRequestPackingSlipEndpoint,
  agentHomeEndpoint,
  agentLedgerListEndpoints,
  agentProfileEndpoint,
  agentSimByIccidEndpoint,
  agentSimListEndpoints,
  simDashboardEndpoint,
  agentOrderEndpoint,
  agentOrderListEndpoints,
  agentRequestEndpoints,
  agentReturnEndpoints,
  simReturnEndpoints,
  simReturnListEndpoints,
  campaignEndpoints,
  campaignImportEndpoints,
  accountRepOptionsEndpoint,
  agentOptionsEndpoint,
  lifelineMinimumEndpoints,
  planPriceEndpoints,
  portalUsersEndpoint,
  ptsListingEndpoints,
  ptsListingWriteEndpoints,
  ptsUpdateEndpoints,
  retailerDetailEndpoint,
  retailerEndpoints,
  retailerOrdersEndpoint,
  dailyOrderEndpoints,
  orderEndpoints,
  webOrderEndpoints,
  productOfferEndpoints,
  orderListEndpoints,
  clientCarrierKeyEndpoints,
  clientCarrierOptionsEndpoint,
  accessoryDashboardEndpoint,
  accessoryEndpoints,
  accessoryStockEndpoints,
  partStockEndpoints,
  reorderListExportEndpoint,
  auditEventEndpoints,
  listJobsEndpoint,
  blacklistEndpoints,
  boxContentEndpoint,
  boxContentListEndpoint,
  boxInvoiceOptionsEndpoint,
  boxLabelEndpoint,
  boxModelOptionsEndpoint,
  boxShipmentOptionsEndpoint,
  boxVendorOptionsEndpoint,
  canAccess,
  consolidationBoxesEndpoint,
  consolidationOverviewEndpoint,
  deviceInquiryEndpoint,
  inventoryBoxLabelEndpoint,
  boxedDeviceListEndpoints,
  inventoryBoxListEndpoints,
  inventoryBoxPickers,
  inventoryBoxReprintEndpoint,
  stationBoxEndpoint,
  openInventoryBoxesEndpoint,
  putawayQueueEndpoint,
  deviceCorrectionEndpoints,
  leaderEndpoints,
  productionOverviewEndpoint,
  productRequestEndpoints,
  workerEndpoints,
  locationEndpoints,
  locationLabelsEndpoint,
  locationParentOptionsEndpoint,
  locationZoneOptionsEndpoint,
  colorEndpoints,
  scanLogEndpoint,
  dashboardVendorOptionsEndpoint,
  DEFAULT_ROLES,
  deviceCardEndpoint,
  deviceEndpoints,
  deviceLabelEndpoint,
  deviceLookupEndpoint,
  deviceModelEndpoints,
  getUserEndpoint,
  inboundShipmentEndpoints,
  invoiceColorOptionsEndpoint,
  invoiceImeiEndpoints,
  invoiceImeiInvoiceOptionsEndpoint,
  invoiceImeiVendorOptionsEndpoint,
  invoiceModelOptionsEndpoint,
  invoicePageVendorOptionsEndpoint,
  listPermissionsEndpoint,
  listRolesEndpoint,
  listUserSessionsEndpoint,
  listUsersEndpoint,
  modelDashboardEndpoint,
  modelDashboardExportEndpoint,
  partEndpoints,
  propertyEndpoints,
  purchaseInvoiceAttachmentEndpoints,
  purchaseInvoiceDetailEndpoint,
  purchaseInvoiceEndpoints,
  roleKeyOf,
  roleListEndpoints,
  shipmentInvoiceOptionsEndpoint,
  shipmentVendorOptionsEndpoint,
  SPEC_ROLES,
  tacLookupEndpoint,
  tacModelOptionsEndpoint,
  tacNumberEndpoints,
  tagEndpoints,
  transferDevicesEndpoint,
  transferInvoiceOptionsEndpoint,
  transferVendorOptionsEndpoint,
  unknownTacsEndpoint,
  userListEndpoints,
  vendorEndpoints,
  vendorTransferEndpoints,
  warehouseBoxDashboardEndpoint,
  warehouseBoxEndpoints,
  refreshWarehouseDashboardEndpoint,
  warehouseDashboardEndpoint,
  bundleEndpoints,
  comboEndpoints,
  productAttachmentEndpoints,
  productEndpoints,
  variantEndpoints,
  type AccessSubject,
  type EndpointDefinition,
} from '@inventory/contract';
import { describe, expect, it } from 'vitest';
import { pendingPage, type PageEntry } from '../shell/page-types';
import { AGENT_PAGES, STAFF_PAGES } from './page-registry';

/**
 * Issue: a new user with a default role could not read models nor look a device up. Each default
 * role (DOMAIN.md 6.2) must reach every built page its work needs and every read those pages make.
 *
 * PAGE_READS: every built page (a real component, not `pendingPage`) and the endpoints it reads
 * whatever the user holds: lists, counts, records, exports, pickers, lookups. Reads that a page
 * makes only for those who hold another permission (`useCan`: the device registry's model and
 * vendor pickers, an invoice's IMEIs, the blacklist's returns) are left out: the page works
 * without them. Endpoint definitions are imported, so a rename breaks the compile.
 */
const PAGE_READS: Record<string, readonly EndpointDefinition[]> = {
  '/agent': [agentHomeEndpoint],
  '/agent/sims': [agentSimListEndpoints.list, agentSimListEndpoints.count, agentSimByIccidEndpoint],
  '/agent/activate': [],
  '/agent/history': [
    agentLedgerListEndpoints.list,
    agentLedgerListEndpoints.count,
    agentRequestEndpoints.overview,
    agentOrderListEndpoints.list,
    agentOrderListEndpoints.count,
    agentOrderEndpoint,
  ],
  '/agent/shop': [webOrderEndpoints.catalogue],
  '/agent/profile': [agentProfileEndpoint],
  '/sim/dashboard': [simDashboardEndpoint],
  '/agent/returns': [agentReturnEndpoints.list, agentReturnEndpoints.returnable],
  '/agent/request': [agentRequestEndpoints.overview],
  '/agent/receive': [agentRequestEndpoints.incoming, agentRequestEndpoints.shipment],
  '/sim/request': [
    simRequestListEndpoints.list,
    simRequestListEndpoints.count,
    simRequestListEndpoints.get,
    simRequestListEndpoints.exportFile,
    simRequestEndpoints.detail,
    simRequestPackingSlipEndpoint,
    simRequestLabelEndpoint,
  ],
  '/sim/box': [
    simBoxListEndpoints.list,
    simBoxListEndpoints.count,
    simBoxListEndpoints.get,
    simBoxListEndpoints.exportFile,
    simBoxPickers.carriers,
    simBoxPickers.locations,
    simBoxPacksEndpoint,
    simBoxLabelEndpoint,
    simBoxPackLabelsEndpoint,
    simPackLabelEndpoint,
    simPrefixEndpoint,
    simCardListEndpoints.list,
  ],
  '/sim': [
    simCardListEndpoints.list,
    simCardListEndpoints.count,
    simCardListEndpoints.exportFile,
    simBoxPickers.carriers,
    simCardPickers.agents,
    simCardPickers.boxes,
  ],
  '/sim/inquire': [simInquireEndpoint],
  '/sim/detection': [
    simDetectionEndpoints.runs,
    simDetectionEndpoints.run,
    simDetectionEndpoints.rows,
    simDetectionEndpoints.mapping,
    simDetectionEndpoints.carrierOptions,
    simDetectionEndpoints.anomalies,
    simDetectionEndpoints.exportDifferences,
  ],
  '/sim/return': [
    simReturnListEndpoints.list,
    simReturnListEndpoints.count,
    simReturnListEndpoints.get,
    simReturnListEndpoints.exportFile,
    simReturnEndpoints.detail,
    simReturnEndpoints.agentOptions,
    simReturnEndpoints.label,
  ],
  '/devices/blacklist': [
    blacklistEndpoints.list,
    blacklistEndpoints.count,
    blacklistEndpoints.get,
    blacklistEndpoints.exportFile,
  ],
  '/devices/scan': [
    deviceLookupEndpoint,
    deviceCardEndpoint,
    deviceLabelEndpoint,
    deviceEndpoints.list,
    deviceEndpoints.count,
    deviceEndpoints.get,
    deviceEndpoints.exportFile,
  ],
  '/inventory-box/accessories': [
    accessoryStockEndpoints.list,
    accessoryStockEndpoints.count,
    accessoryStockEndpoints.get,
    accessoryStockEndpoints.exportFile,
    accessoryStockEndpoints.itemOptions,
    accessoryStockEndpoints.locationOptions,
  ],
  '/inventory-box/location/update-location': [
    locationEndpoints.list,
    locationEndpoints.count,
    locationEndpoints.get,
    locationEndpoints.exportFile,
    locationLabelsEndpoint,
    locationParentOptionsEndpoint,
    locationZoneOptionsEndpoint,
  ],
  '/inventory-box/location/assign-location': [putawayQueueEndpoint],
  '/inventory-box/device': [
    inventoryBoxListEndpoints.list,
    inventoryBoxListEndpoints.count,
    inventoryBoxListEndpoints.exportFile,
    boxedDeviceListEndpoints.list,
    boxedDeviceListEndpoints.exportFile,
    inventoryBoxReprintEndpoint,
    inventoryBoxPickers.models,
    inventoryBoxPickers.colors,
    inventoryBoxPickers.zones,
  ],
  '/inventory-box/scan-device': [stationBoxEndpoint],
  '/consolidation/worker': [openInventoryBoxesEndpoint, inventoryBoxLabelEndpoint],
  '/consolidation': [consolidationOverviewEndpoint],
  '/consolidation/inquire-device': [deviceInquiryEndpoint],
  '/consolidation/box': [consolidationBoxesEndpoint, inventoryBoxLabelEndpoint],
  '/invoice/product-request': [productRequestEndpoints.list, productRequestEndpoints.modelOptions],
  '/invoice/product-team/leader': [leaderEndpoints.boxes, leaderEndpoints.workers],
  '/invoice/product-team': [productionOverviewEndpoint],
  '/invoice/product-team/update-device': [
    deviceCorrectionEndpoints.lookup,
    deviceCorrectionEndpoints.modelOptions,
    deviceCorrectionEndpoints.colorOptions,
  ],
  '/invoice/product-team/worker': [
    workerEndpoints.queue,
    workerEndpoints.scan,
    deviceLabelEndpoint,
  ],
  '/master-data/accessories/dashboard': [accessoryDashboardEndpoint, reorderListExportEndpoint],
  '/parts': [
    partStockEndpoints.list,
    partStockEndpoints.count,
    partStockEndpoints.get,
    partStockEndpoints.exportFile,
    partStockEndpoints.locationOptions,
    partStockEndpoints.modelOptions,
  ],
  '/invoice-imei': [
    invoiceImeiEndpoints.list,
    invoiceImeiEndpoints.count,
    invoiceImeiEndpoints.get,
    invoiceImeiEndpoints.exportFile,
    invoiceImeiInvoiceOptionsEndpoint,
    invoiceImeiVendorOptionsEndpoint,
  ],
  '/shipment-management/invoice': [
    purchaseInvoiceEndpoints.list,
    purchaseInvoiceEndpoints.count,
    purchaseInvoiceEndpoints.get,
    purchaseInvoiceEndpoints.exportFile,
    purchaseInvoiceDetailEndpoint,
    purchaseInvoiceAttachmentEndpoints.list,
    purchaseInvoiceAttachmentEndpoints.download,
    invoicePageVendorOptionsEndpoint,
    invoiceModelOptionsEndpoint,
    invoiceColorOptionsEndpoint,
  ],
  '/shipment-management/invoice/shipment': [
    inboundShipmentEndpoints.list,
    inboundShipmentEndpoints.count,
    inboundShipmentEndpoints.get,
    inboundShipmentEndpoints.exportFile,
    shipmentVendorOptionsEndpoint,
    shipmentInvoiceOptionsEndpoint,
  ],
  '/invoice/warehouse-box': [
    warehouseBoxEndpoints.list,
    warehouseBoxEndpoints.count,
    warehouseBoxEndpoints.get,
    warehouseBoxEndpoints.exportFile,
    boxContentEndpoint,
    scanLogEndpoint,
    boxLabelEndpoint,
    boxContentListEndpoint,
    boxInvoiceOptionsEndpoint,
    boxVendorOptionsEndpoint,
    boxShipmentOptionsEndpoint,
    boxModelOptionsEndpoint,
    // The scan station links every scanned code to the device lookup.
    deviceLookupEndpoint,
  ],
  '/invoice/warehouse-box/dashboard': [warehouseBoxDashboardEndpoint],
  '/warehouse/dashboard': [warehouseDashboardEndpoint, refreshWarehouseDashboardEndpoint],
  '/invoice/warehouse-box/dashboard/model': [
    modelDashboardEndpoint,
    modelDashboardExportEndpoint,
    dashboardVendorOptionsEndpoint,
  ],
  '/master-data/models': [
    deviceModelEndpoints.list,
    deviceModelEndpoints.count,
    deviceModelEndpoints.get,
    deviceModelEndpoints.exportFile,
  ],
  '/master-data/colors': [
    colorEndpoints.list,
    colorEndpoints.count,
    colorEndpoints.get,
    colorEndpoints.exportFile,
  ],
  '/master-data/tac-number': [
    tacNumberEndpoints.list,
    tacNumberEndpoints.count,
    tacNumberEndpoints.get,
    tacNumberEndpoints.exportFile,
    tacLookupEndpoint,
    unknownTacsEndpoint,
    tacModelOptionsEndpoint,
    // Its colour filter and field search the colours list.
    colorEndpoints.list,
  ],
  '/master-data/accessories': [
    accessoryEndpoints.list,
    accessoryEndpoints.count,
    accessoryEndpoints.get,
    accessoryEndpoints.exportFile,
    tacModelOptionsEndpoint,
  ],
  '/transfer/vendor': [
    vendorEndpoints.list,
    vendorEndpoints.count,
    vendorEndpoints.get,
    vendorEndpoints.exportFile,
    vendorTransferEndpoints.list,
    vendorTransferEndpoints.count,
    vendorTransferEndpoints.get,
    vendorTransferEndpoints.exportFile,
    transferDevicesEndpoint,
    transferVendorOptionsEndpoint,
    transferInvoiceOptionsEndpoint,
  ],
  '/master-data/part': [
    partEndpoints.list,
    partEndpoints.count,
    partEndpoints.get,
    partEndpoints.exportFile,
    tacModelOptionsEndpoint,
  ],
  '/users': [
    listUsersEndpoint,
    userListEndpoints.count,
    getUserEndpoint,
    listUserSessionsEndpoint,
    listRolesEndpoint,
  ],
  '/roles': [listRolesEndpoint, roleListEndpoints.count, listPermissionsEndpoint],
  '/users/api-keys': [
    clientCarrierKeyEndpoints.list,
    clientCarrierKeyEndpoints.count,
    clientCarrierOptionsEndpoint,
  ],
  '/users/jobs': [listJobsEndpoint],
  '/audit-log': [
    auditEventEndpoints.list,
    auditEventEndpoints.count,
    listUsersEndpoint,
    getUserEndpoint,
  ],
  '/master-data/tag': [
    tagEndpoints.list,
    tagEndpoints.count,
    tagEndpoints.get,
    tagEndpoints.exportFile,
  ],
  '/master-data/property': [
    propertyEndpoints.list,
    propertyEndpoints.count,
    propertyEndpoints.get,
    propertyEndpoints.exportFile,
  ],
  '/pts-management/products': [
    productEndpoints.list,
    productEndpoints.count,
    productEndpoints.get,
    productEndpoints.exportFile,
    productEndpoints.modelOptions,
    productEndpoints.tagOptions,
    productEndpoints.propertyChoices,
    productAttachmentEndpoints.list,
    productAttachmentEndpoints.download,
    variantEndpoints.list,
    variantEndpoints.count,
    variantEndpoints.availability,
  ],
  '/pts-management/list': [
    ptsListingEndpoints.list,
    ptsListingEndpoints.count,
    ptsListingEndpoints.get,
    ptsListingEndpoints.exportFile,
    ptsListingWriteEndpoints.modelOptions,
  ],
  '/push-to-sale/update': [
    ptsListingWriteEndpoints.modelOptions,
    ptsUpdateEndpoints.batches,
    ptsUpdateEndpoints.batch,
  ],
  '/push-to-sale/price/air-talk': [
    planPriceEndpoints.list,
    planPriceEndpoints.count,
    planPriceEndpoints.get,
    planPriceEndpoints.exportFile,
    planPriceEndpoints.carrierOptions,
    planPriceEndpoints.modelOptions,
    planPriceEndpoints.variantOptions,
    planPriceEndpoints.versions,
    lifelineMinimumEndpoints.list,
  ],
  '/retailer': [
    retailerEndpoints.list,
    retailerEndpoints.count,
    retailerEndpoints.get,
    retailerEndpoints.exportFile,
    retailerDetailEndpoint,
    retailerOrdersEndpoint,
    portalUsersEndpoint,
    accountRepOptionsEndpoint,
    agentOptionsEndpoint,
  ],
  '/pts-management/bundles': [
    bundleEndpoints.list,
    bundleEndpoints.count,
    bundleEndpoints.exportFile,
    bundleEndpoints.availability,
    bundleEndpoints.variantOptions,
    bundleEndpoints.tagOptions,
  ],
  '/order/list': [
    orderListEndpoints.list,
    orderListEndpoints.count,
    orderListEndpoints.get,
    orderListEndpoints.exportFile,
    orderEndpoints.detail,
    orderEndpoints.carrierOptions,
  ],
  '/order/daily-order': [dailyOrderEndpoints.report],
  '/dashboard/web-order': [webOrderEndpoints.queue],
  '/dashboard/product-offer': [productOfferEndpoints.list],
  '/order/express-orders/import-file-campaign': [
    campaignImportEndpoints.imports,
    campaignEndpoints.carrierOptions,
  ],
  '/order/express-orders/order': [campaignEndpoints.list, campaignEndpoints.detail],
  '/fulfill/assignment': [
    fulfilmentEndpoints.overview,
    readyOrderListEndpoints.list,
    readyOrderListEndpoints.count,
    readyOrderListEndpoints.get,
    readyOrderListEndpoints.exportFile,
  ],
  '/fulfill/need-to-fulfill': [
    fulfilmentEndpoints.myPicks,
    fulfilmentEndpoints.pickLookup,
    packingSlipEndpoint,
  ],
  '/fulfill/order': [
    pipelineOrderListEndpoints.list,
    pipelineOrderListEndpoints.count,
    pipelineOrderListEndpoints.get,
    pipelineOrderListEndpoints.exportFile,
    pickListEndpoint,
  ],
  '/fulfill/backlog-order': [
    backlogOrderListEndpoints.list,
    backlogOrderListEndpoints.count,
    backlogOrderListEndpoints.get,
    backlogOrderListEndpoints.exportFile,
    orderEndpoints.carrierOptions,
  ],
  '/fulfill/print-label': [packageEndpoints.labelQueue],
  '/fulfill/scan-to-ship': [packageEndpoints.today, packageEndpoints.lookup],
  '/shipment-management/package': [
    packageListEndpoints.list,
    packageListEndpoints.count,
    packageListEndpoints.get,
    packageListEndpoints.exportFile,
    packageEndpoints.detail,
  ],
  '/pts-management/combo': [
    comboEndpoints.list,
    comboEndpoints.count,
    comboEndpoints.exportFile,
    comboEndpoints.availability,
    comboEndpoints.variantOptions,
    comboEndpoints.tagOptions,
  ],
};

const R = SPEC_ROLES;
/** Every staff member looks devices up (DOMAIN.md 4.2 `/devices/scan`: "Who: all staff"). */
const LOOKUP = '/devices/scan';
const BOX_DASHBOARDS = [
  '/invoice/warehouse-box/dashboard',
  '/invoice/warehouse-box/dashboard/model',
];

/**
 * The built pages each default role's work needs, from the "Who" of DOMAIN.md 4.x, the flow of
 * 5.1 and the bundles of 6.2 and 6.3. Pages still being built are named in comments only.
 */
const ROLE_WORK: Record<string, readonly string[]> = {
  // /devices/blacklist names PI among its
  // users (4.12), but device.black-list also holds and clears devices, which 6.2 keeps from PI.
  [R.productInformation]: [
    '/invoice/product-team/update-device',
    '/master-data/models',
    '/master-data/colors',
    '/master-data/tac-number',
    '/master-data/accessories',
    '/master-data/part',
    '/master-data/tag',
    '/master-data/property',
    '/pts-management/products',
    '/pts-management/bundles',
    '/pts-management/combo',
    LOOKUP,
  ],
  // 5.1 steps 1-4: invoices, manifests, dock, boxes, reconciling vendor and TAC models, unknown
  // TACs, returns to vendor, blacklisted units. Later: /invoice/product-request.
  [R.invoiceManagement]: [
    '/shipment-management/invoice',
    '/shipment-management/invoice/shipment',
    '/invoice-imei',
    '/invoice/warehouse-box',
    ...BOX_DASHBOARDS,
    '/master-data/tac-number',
    '/master-data/models',
    '/transfer/vendor',
    '/devices/blacklist',
    LOOKUP,
  ],
  // Later: /report/*.
  [R.productionManager]: [
    ...BOX_DASHBOARDS,
    '/invoice/product-request',
    '/invoice/product-team',
    '/invoice/product-team/leader',
    '/invoice/product-team/update-device',
    LOOKUP,
  ],
  // 5.1 steps 2-3 and putaway. Later: /sim, /sim/box, /RMA/scan, unpack.
  [R.warehouseSorting]: [
    '/shipment-management/invoice/shipment',
    '/sim/box',
    '/sim',
    '/invoice/warehouse-box',
    '/inventory-box/location/assign-location',
    LOOKUP,
  ],
  // Later: the consolidation inquire page, /report/*.
  [R.productionLeader]: [
    '/invoice/product-team/leader',
    '/invoice/product-team/worker',
    '/invoice/product-team/update-device',
    LOOKUP,
  ],
  [R.productionWorker]: ['/invoice/product-team/worker', LOOKUP],
  [R.consolidationLeader]: [
    '/consolidation',
    '/consolidation/worker',
    '/consolidation/box',
    '/consolidation/inquire-device',
    LOOKUP,
  ],
  [R.consolidationWorker]: [
    '/consolidation/worker',
    '/consolidation/inquire-device',
    '/inventory-box/location/assign-location',
    '/inventory-box/scan-device',
    LOOKUP,
  ],
  // Later: boxes, locations, accessory and parts stock, the fulfilment dashboard, /report/*.
  [R.warehouseManager]: [
    ...BOX_DASHBOARDS,
    '/warehouse/dashboard',
    '/inventory-box/device',
    '/inventory-box/scan-device',
    '/inventory-box/location/assign-location',
    '/consolidation/box',
    '/transfer/vendor',
    '/devices/blacklist',
    '/sim/dashboard',
    LOOKUP,
  ],
  // The part master names RL among its users (4.4). Later: /parts, /RMA, /repair-process/*.
  [R.repairLeader]: ['/master-data/part', LOOKUP],
  [R.repairSorting]: [LOOKUP],
  [R.repairWorker]: [LOOKUP],
  [R.repairTesting]: [LOOKUP],
  // Later: fulfilment, order boxes, shipment, campaign, retail and SIM pages.
  'Fulfilment Manager': [
    '/fulfill/assignment',
    '/fulfill/need-to-fulfill',
    '/fulfill/order',
    '/fulfill/backlog-order',
    '/order/list',
    '/order/daily-order',
    '/order/express-orders/import-file-campaign',
    '/order/express-orders/order',
    LOOKUP,
  ],
  'Fulfilment Worker': [
    '/fulfill/need-to-fulfill',
    '/fulfill/order',
    '/fulfill/print-label',
    '/fulfill/scan-to-ship',
    LOOKUP,
  ],
  'Shipping Clerk': [
    '/fulfill/print-label',
    '/fulfill/scan-to-ship',
    '/shipment-management/package',
    LOOKUP,
  ],
  'Customer Support': [
    '/order/list',
    '/order/daily-order',
    '/fulfill/backlog-order',
    '/sim/inquire',
    LOOKUP,
  ],
  'Sales / Account Manager': [
    '/order/list',
    '/order/daily-order',
    '/dashboard/web-order',
    '/dashboard/product-offer',
    LOOKUP,
  ],
  'SIM Coordinator': [
    '/sim/dashboard',
    '/sim/box',
    '/sim',
    '/sim/inquire',
    '/sim/return',
    '/sim/detection',
    '/sim/request',
    LOOKUP,
  ],
  Agent: [
    '/agent',
    '/agent/sims',
    '/agent/activate',
    '/agent/history',
    '/agent/shop',
    '/agent/profile',
    '/agent/returns',
    '/agent/request',
    '/agent/receive',
  ],
};

const ALL_PAGES: readonly PageEntry[] = [...STAFF_PAGES, ...AGENT_PAGES];
const builtPages = ALL_PAGES.filter((page) => page.load !== pendingPage);
const pageAt = (path: string) => ALL_PAGES.find((page) => page.path === path);

/** A user holding exactly this default role, as the server's principal and the profile see one. */
const holderOf = (role: (typeof DEFAULT_ROLES)[number]): AccessSubject => ({
  allRoles: [role.name],
  allPermissions: role.permissions,
  allRoleKeys: [roleKeyOf(role.name)],
});

/** Whether a person's session reaches an endpoint; a client carrier's API is for their systems. */
const passes = (subject: AccessSubject, endpoint: EndpointDefinition) =>
  endpoint.guard === 'public' ||
  endpoint.guard === 'session' ||
  (endpoint.guard !== 'client-carrier' && canAccess(subject, endpoint.guard));

describe('the tables of this test', () => {
  it('name every built page, and only built pages', () => {
    expect(Object.keys(PAGE_READS).sort()).toEqual(builtPages.map((page) => page.path).sort());
  });

  it('give every default role its work, and only default roles', () => {
    expect(Object.keys(ROLE_WORK).sort()).toEqual(DEFAULT_ROLES.map((role) => role.name).sort());
  });

  it('name only pages with their reads', () => {
    for (const [role, paths] of Object.entries(ROLE_WORK)) {
      for (const path of paths) expect(PAGE_READS[path], `${role}: ${path}`).toBeDefined();
    }
  });
});

describe('each default role reaches the pages and reads of its work', () => {
  it.each(DEFAULT_ROLES.map((role) => [role.name, role] as const))('%s', (_name, role) => {
    const subject = holderOf(role);
    const missing: string[] = [];
    for (const path of ROLE_WORK[role.name] ?? []) {
      const page = pageAt(path);
      if (!page || !canAccess(subject, page)) missing.push(`page ${path}`);
      for (const endpoint of PAGE_READS[path] ?? []) {
        if (!passes(subject, endpoint)) {
          missing.push(`${path}: ${endpoint.method} ${endpoint.path} (${guardWords(endpoint)})`);
        }
      }
    }
    expect(missing).toEqual([]);
  });
});

function guardWords(endpoint: EndpointDefinition): string {
  const guard = endpoint.guard;
  if (typeof guard === 'string') return guard;
  return [
    guard.permission === 'roles' ? guard.roles?.join(' | ') : guard.permission,
    guard.andPermission,
  ]
    .filter(Boolean)
    .join(' + ');
}
