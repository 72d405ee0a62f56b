import { rolesModule } from './access/roles.routes.js';
import { usersModule } from './access/users.routes.js';
import { clientCarrierKeysModule } from './access/client-carrier-keys.routes.js';
import { carrierOrdersModule } from './order/carrier-orders.routes.js';
import { auditModule } from './audit/audit.routes.js';
import { campaignModule } from './campaign/campaign.routes.js';
import { simStockModule } from './sim/sim-stock.routes.js';
import { simRequestsModule } from './sim/sim-requests.routes.js';
import { agentRequestsModule } from './agent/agent-requests.routes.js';
import { simReturnsModule } from './sim/sim-returns.routes.js';
import { simDetectionModule } from './sim/sim-detection.routes.js';
import { agentReturnsModule } from './agent/agent-returns.routes.js';
import { simDashboardModule } from './sim/sim-dashboard.routes.js';
import { agentPortalModule } from './agent/agent-portal.routes.js';
import { agentOrdersModule } from './agent/agent-orders.routes.js';
import { unpackModule } from './unpack/unpack.routes.js';
import { reshipModule } from './reship/reship.routes.js';
import { rmaModule } from './rma/rma.routes.js';
import { workJobsModule } from './report/jobs.routes.js';
import { finishCount, scanAtStation, startCount } from './inventory/box-scans.service.js';
import { workReportModule } from './report/work-report.routes.js';
import { healthModule } from './health/health.routes.js';
import { jobsModule } from './jobs/jobs.routes.js';
import { inventoryModule } from './inventory/inventory.routes.js';
import { devicesModule } from './devices/devices.routes.js';
import { masterDataModule } from './master-data/master-data.routes.js';
import { locationsModule } from './locations/locations.routes.js';
import type { AppModule } from './module.js';
import { pricingModule } from './pricing/pricing.routes.js';
import { productionModule } from './production/production.routes.js';
import { repairModule } from './repair/repair.routes.js';
import { ptsBundlesModule } from './pts/bundles.routes.js';
import { ptsCombosModule } from './pts/combos.routes.js';
import { ptsListingsModule } from './pts/listings.routes.js';
import { ptsProductsModule } from './pts/products.routes.js';
import { profileModule } from './profile/profile.routes.js';
import { orderModule } from './order/orders.routes.js';
import { webOrderModule } from './order/web-orders.routes.js';
import { productOfferModule } from './order/product-offers.routes.js';
import { receivingModule } from './receiving/receiving.routes.js';
import { retailModule } from './retail/retail.routes.js';
import { sessionModule } from './session/session.routes.js';
import { shipmentModule } from './shipment/shipment.routes.js';
import { trackingModule } from './shipment/tracking.routes.js';
import { gaylordsModule } from './shipment/gaylords.routes.js';
import { dockDaysModule } from './shipment/dock-days.routes.js';
import { claimModule } from './claim/claim.routes.js';
import { tradeInModule } from './trade-in/trade-in.routes.js';
import { wholesaleModule } from './wholesale/wholesale.routes.js';
import { fulfilmentModule } from './fulfilment/fulfilment.routes.js';
import { substitutionsModule } from './fulfilment/substitutions.routes.js';
import { stockModule } from './stock/stock.routes.js';
import { warehouseModule } from './warehouse/warehouse.routes.js';
import { dashboardModule } from './dashboard/main-dashboard.routes.js';
import { downloadsModule } from '../toolkit/downloads.routes.js';

/** Every business area of the server, registered in this order. */
export const MODULES: readonly AppModule[] = [
  healthModule,
  sessionModule,
  profileModule,
  usersModule,
  rolesModule,
  auditModule,
  clientCarrierKeysModule,
  jobsModule,
  downloadsModule,
  masterDataModule,
  devicesModule,
  receivingModule,
  locationsModule,
  stockModule,
  inventoryModule,
  productionModule,
  repairModule,
  warehouseModule,
  dashboardModule,
  ptsProductsModule,
  ptsBundlesModule,
  ptsCombosModule,
  ptsListingsModule,
  retailModule,
  pricingModule,
  orderModule,
  carrierOrdersModule,
  webOrderModule,
  productOfferModule,
  campaignModule,
  fulfilmentModule,
  substitutionsModule,
  shipmentModule,
  trackingModule,
  gaylordsModule,
  dockDaysModule,
  claimModule,
  tradeInModule,
  wholesaleModule,
  simStockModule,
  simRequestsModule,
  agentRequestsModule,
  simReturnsModule,
  simDetectionModule,
  agentReturnsModule,
  simDashboardModule,
  agentPortalModule,
  agentOrdersModule,
  unpackModule,
  reshipModule,
  rmaModule,
  // A count job counts its boxes with the inventory area's counts.
  workJobsModule({ start: startCount, finish: finishCount, scan: scanAtStation }),
  workReportModule,
];
