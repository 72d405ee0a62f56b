import { agentPages } from '../features/agent/agent.pages';
import { campaignPages } from '../features/campaign/campaign.pages';
import { dashboardPages } from '../features/dashboard/dashboard.pages';
import { blacklistPages, deviceLookupPages } from '../features/devices/devices.pages';
import { fulfilmentPages } from '../features/fulfilment/fulfilment.pages';
import {
  consolidationPages,
  inventoryPages,
  inventoryStationPages,
  putawayPages,
} from '../features/inventory/inventory.pages';
import { locationPages } from '../features/locations/locations.pages';
import { masterDataPages, ptsMasterDataPages } from '../features/master-data/master-data.pages';
import { accessPages } from '../features/access/access.pages';
import { jobsPages } from '../features/jobs/jobs.pages';
import { orderPages } from '../features/order/order.pages';
import { productOfferPages } from '../features/order/product-offers.pages';
import { webOrderPages } from '../features/order/web-orders.pages';
import { pricingPages } from '../features/pricing/pricing.pages';
import { deviceCorrectionPages, productionPages } from '../features/production/production.pages';
import {
  invoiceDashboardPages,
  invoiceImeiPages,
  invoicePages,
} from '../features/receiving/receiving.pages';
import { ptsPages } from '../features/pts/pts.pages';
import { repairPages } from '../features/repair/repair.pages';
import { reshipPages } from '../features/reship/reship.pages';
import { reportPages } from '../features/report/report.pages';
import { retailPages } from '../features/retail/retail.pages';
import { rmaPages } from '../features/rma/rma.pages';
import { shipmentPages } from '../features/shipment/shipment.pages';
import { claimPages } from '../features/claim/claim.pages';
import { tradeInPages } from '../features/trade-in/trade-in.pages';
import { rmaSimPage, unpackPages } from '../features/unpack/unpack.pages';
import { simPages } from '../features/sim/sim.pages';
import { stockPages } from '../features/stock/stock.pages';
import { warehousePages } from '../features/warehouse/warehouse.pages';
import { wholesalePages } from '../features/wholesale/wholesale.pages';
import type { PageEntry } from '../shell/page-types';

/** Every page of the back office: builds the router, the side menu and the route guards. */
export const STAFF_PAGES: readonly PageEntry[] = [
  ...dashboardPages,
  ...webOrderPages,
  ...productOfferPages,
  ...inventoryPages,
  ...stockPages,
  ...inventoryStationPages,
  ...locationPages,
  ...putawayPages,
  ...deviceLookupPages,
  ...accessPages,
  ...jobsPages,
  ...masterDataPages,
  ...ptsPages,
  ...ptsMasterDataPages,
  ...simPages,
  ...orderPages,
  ...wholesalePages,
  ...retailPages,
  ...pricingPages,
  ...rmaPages,
  rmaSimPage,
  ...reportPages,
  ...blacklistPages,
  ...invoiceImeiPages,
  ...fulfilmentPages,
  ...campaignPages,
  ...shipmentPages,
  ...claimPages,
  ...unpackPages,
  ...tradeInPages,
  ...reshipPages,
  ...invoicePages,
  ...productionPages,
  ...consolidationPages,
  ...invoiceDashboardPages,
  ...deviceCorrectionPages,
  ...warehousePages,
  ...repairPages,
];

/** Pages of the agent layout. */
export const AGENT_PAGES: readonly PageEntry[] = agentPages;
