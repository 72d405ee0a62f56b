import {
  blacklistEndpoints,
  boxContentEndpoint,
  boxInvoiceOptionsEndpoint,
  boxModelOptionsEndpoint,
  boxShipmentOptionsEndpoint,
  boxVendorOptionsEndpoint,
  colorEndpoints,
  dashboardVendorOptionsEndpoint,
  deviceCardEndpoint,
  deviceEndpoints,
  deviceLookupEndpoint,
  deviceModelEndpoints,
  inboundShipmentEndpoints,
  invoiceColorOptionsEndpoint,
  invoiceImeiEndpoints,
  invoiceImeiInvoiceOptionsEndpoint,
  invoiceImeiVendorOptionsEndpoint,
  invoiceModelOptionsEndpoint,
  invoicePageVendorOptionsEndpoint,
  modelDashboardEndpoint,
  purchaseInvoiceDetailEndpoint,
  purchaseInvoiceEndpoints,
  SPEC_ROLES,
  shipmentInvoiceOptionsEndpoint,
  shipmentVendorOptionsEndpoint,
  tacLookupEndpoint,
  tacModelOptionsEndpoint,
  tacNumberEndpoints,
  transferInvoiceOptionsEndpoint,
  transferVendorOptionsEndpoint,
  unknownTacsEndpoint,
  vendorEndpoints,
  vendorTransferEndpoints,
  warehouseBoxDashboardEndpoint,
  warehouseBoxEndpoints,
  type EndpointDefinition,
} from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, createAdminTestApp, type ApiClient } from '../../test/api-client.js';
import {
  imeiOf,
  importManifest,
  invoiceIdOf,
  manifestCsv,
  openBox,
  scan,
  seedCatalogue,
  TACS,
} from '../../test/receiving-fixtures.js';
import { createUser, login, type TestApp } from '../../test/test-app.js';

/**
 * The receiving roles as seeded, against a real app: every read of the pages their work needs
 * answers 200 (the issue: the default role for receiving could not read models nor look a device
 * up). The full table of pages and reads per role is `apps/web/src/app/default-roles.test.ts`.
 */

let t: TestApp;
let admin: ApiClient;
const IMEI = imeiOf(TACS.a15, 1);
const ids = { box: 0, device: 0, invoice: 0, model: 0 };

/** A GET read with its `:id` and query filled in. */
type Read = readonly [EndpointDefinition, id?: keyof typeof ids, query?: string];

const url = ([endpoint, id, query]: Read) =>
  endpoint.path.replace(':id', id ? String(ids[id]) : '') + (query ? `?${query}` : '');

const STATION_READS: readonly Read[] = [
  [inboundShipmentEndpoints.list],
  [inboundShipmentEndpoints.count],
  [shipmentVendorOptionsEndpoint],
  [shipmentInvoiceOptionsEndpoint],
  [warehouseBoxEndpoints.list],
  [warehouseBoxEndpoints.count],
  [warehouseBoxEndpoints.get, 'box'],
  [boxContentEndpoint, 'box'],
  [boxInvoiceOptionsEndpoint],
  [boxVendorOptionsEndpoint],
  [boxShipmentOptionsEndpoint],
  [boxModelOptionsEndpoint],
  [deviceLookupEndpoint, undefined, `code=${IMEI}`],
  [deviceEndpoints.list],
  [deviceEndpoints.count],
  [deviceEndpoints.get, 'device'],
  [deviceCardEndpoint, 'device'],
];

const READS: Record<string, readonly Read[]> = {
  [SPEC_ROLES.warehouseSorting]: STATION_READS,
  [SPEC_ROLES.invoiceManagement]: [
    ...STATION_READS,
    [purchaseInvoiceEndpoints.list],
    [purchaseInvoiceEndpoints.get, 'invoice'],
    [purchaseInvoiceDetailEndpoint, 'invoice'],
    [invoicePageVendorOptionsEndpoint],
    [invoiceModelOptionsEndpoint],
    [invoiceColorOptionsEndpoint],
    [invoiceImeiEndpoints.list],
    [invoiceImeiInvoiceOptionsEndpoint],
    [invoiceImeiVendorOptionsEndpoint],
    [warehouseBoxDashboardEndpoint, undefined, 'tz=UTC'],
    [modelDashboardEndpoint],
    [dashboardVendorOptionsEndpoint],
    [tacNumberEndpoints.list],
    [tacLookupEndpoint, undefined, `code=${IMEI}`],
    [unknownTacsEndpoint],
    [tacModelOptionsEndpoint],
    [colorEndpoints.list],
    [deviceModelEndpoints.list],
    [deviceModelEndpoints.get, 'model'],
    [vendorEndpoints.list],
    [vendorTransferEndpoints.list],
    [transferVendorOptionsEndpoint],
    [transferInvoiceOptionsEndpoint],
    [blacklistEndpoints.list],
  ],
};

beforeAll(async () => {
  ({ t, admin } = await createAdminTestApp());
  const catalogue = await seedCatalogue(t);
  ids.model = catalogue.models.a15;
  await importManifest(admin, manifestCsv([{ imei: IMEI }]));
  ids.invoice = await invoiceIdOf(t, 'INV-1');
  ids.box = await openBox(admin, ids.invoice, { qty_expected: 1 });
  const answer = await scan(admin, ids.box, IMEI);
  ids.device = answer.device!.id;
});
afterAll(() => t.close());

describe('a receiving role as seeded', () => {
  it.each(Object.keys(READS))('%s reads what its pages read', async (role) => {
    const userName = `user.${role.toLowerCase().replace(/\W+/g, '-')}`;
    await createUser(t.db, { userName, password: `${userName}-password`, roles: [role] });
    const user = apiClient(t, await login(t.app, userName, `${userName}-password`));
    const refused: string[] = [];
    for (const read of READS[role]!) {
      const response = await user.get(url(read));
      if (response.statusCode !== 200) refused.push(`${url(read)}: ${response.statusCode}`);
    }
    expect(refused).toEqual([]);
  });
});
