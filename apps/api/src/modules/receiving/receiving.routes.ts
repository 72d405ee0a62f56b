import {
  addTransferDevicesEndpoint,
  boxContentEndpoint,
  boxContentListEndpoint,
  boxInvoiceOptionsEndpoint,
  boxLabelEndpoint,
  boxModelOptionsEndpoint,
  boxShipmentOptionsEndpoint,
  boxVendorOptionsEndpoint,
  checkInShipmentEndpoint,
  closeBoxEndpoint,
  closeInvoiceEndpoint,
  completeShipmentEndpoint,
  dashboardVendorOptionsEndpoint,
  decideDiscrepanciesEndpoint,
  invoiceColorOptionsEndpoint,
  invoiceImeiInvoiceOptionsEndpoint,
  invoiceImeiVendorOptionsEndpoint,
  invoiceModelOptionsEndpoint,
  invoicePageVendorOptionsEndpoint,
  modelDashboardEndpoint,
  modelDashboardExportEndpoint,
  purchaseInvoiceDetailEndpoint,
  purchaseInvoiceEndpoints,
  receiveScanEndpoint,
  reconcileInvoiceEndpoint,
  removeTransferDeviceEndpoint,
  reopenBoxEndpoint,
  scanLogEndpoint,
  shipmentInvoiceOptionsEndpoint,
  shipmentVendorOptionsEndpoint,
  stageBoxEndpoint,
  transferDevicesEndpoint,
  transferInvoiceOptionsEndpoint,
  transferStepEndpoint,
  transferVendorOptionsEndpoint,
  undoScanEndpoint,
  WAREHOUSE_BOX_DASHBOARD_ACCESS,
  warehouseBoxDashboardEndpoint,
} from '@inventory/contract';
import { Answer } from '../../http/endpoint.js';
import { registerAttachments } from '../../toolkit/attachments.js';
import { registerImports } from '../../toolkit/imports.js';
import { registerPrintable } from '../../toolkit/documents/print.js';
import { pickerOptions } from '../../toolkit/pickers.js';
import { registerList, registerWrites } from '../../toolkit/resource.js';
import type { AppModule } from '../module.js';
import { boxContentList, boxLabel } from './box-documents.js';
import { boxDashboard, modelPipeline, modelPipelineFile } from './dashboards.js';
import {
  checkInShipment,
  completeShipment,
  inboundShipmentListStore,
  inboundShipmentWriteStore,
} from './inbound-shipments.service.js';
import {
  closeInvoice,
  createInvoice,
  decideDiscrepancies,
  deleteInvoice,
  invoiceAttachmentStore,
  invoiceDetail,
  invoiceStore,
  reconcileInvoice,
  updateInvoice,
} from './invoices.service.js';
import { invoiceImeiStore, manifestImportStore } from './manifest.store.js';
import { PICKERS } from './pickers.js';
import { receiveScan } from './receive-scan.js';
import { scanLog } from './scan-log.js';
import {
  addTransferDevices,
  removeTransferDevice,
  stepTransfer,
  transferDevices,
  vendorTransferListStore,
  vendorTransferWriteStore,
} from './vendor-transfers.service.js';
import {
  boxContent,
  closeBox,
  findBox,
  reopenBox,
  stageBox,
  undoReceive,
  warehouseBoxListStore,
  warehouseBoxWriteStore,
} from './warehouse-boxes.service.js';

/**
 * Receiving (DOMAIN.md 5.1 steps 1 to 4): purchase invoices and their IMEI manifests, inbound
 * shipments, warehouse boxes and the receiving scan, the dashboards, and returns to vendors.
 */
export const receivingModule: AppModule = {
  name: 'receiving',
  register(context) {
    const { endpoint, db, downloads } = context;

    registerList(context, invoiceStore);
    endpoint(purchaseInvoiceEndpoints.create, ({ principal, body, meta }) =>
      db.transaction((tx) => createInvoice(tx, principal, meta, body)),
    );
    endpoint(purchaseInvoiceEndpoints.update, ({ principal, params, body, meta }) =>
      db.transaction((tx) => updateInvoice(tx, principal, meta, params.id, body)),
    );
    endpoint(purchaseInvoiceEndpoints.remove, async ({ principal, params, meta }) => {
      await db.transaction((tx) => deleteInvoice(tx, principal, meta, params.id));
      return new Answer(null, 'The purchase invoice is deleted.');
    });
    endpoint(purchaseInvoiceDetailEndpoint, ({ params }) => invoiceDetail(db, params.id));
    registerAttachments(context, invoiceAttachmentStore);
    endpoint(reconcileInvoiceEndpoint, ({ principal, params, meta }) =>
      db.transaction((tx) => reconcileInvoice(tx, principal, meta, params.id)),
    );
    endpoint(decideDiscrepanciesEndpoint, ({ principal, params, body, meta }) =>
      db.transaction((tx) => decideDiscrepancies(tx, principal, meta, params.id, body)),
    );
    endpoint(closeInvoiceEndpoint, ({ principal, params, meta }) =>
      db.transaction((tx) => closeInvoice(tx, principal, meta, params.id)),
    );
    endpoint(invoicePageVendorOptionsEndpoint, ({ query }) =>
      pickerOptions(db, PICKERS.activeVendors, query),
    );
    endpoint(invoiceModelOptionsEndpoint, ({ query }) => pickerOptions(db, PICKERS.models, query));
    endpoint(invoiceColorOptionsEndpoint, ({ query }) => pickerOptions(db, PICKERS.colors, query));

    registerList(context, invoiceImeiStore);
    registerImports(context, manifestImportStore);
    endpoint(invoiceImeiVendorOptionsEndpoint, ({ query }) =>
      pickerOptions(db, PICKERS.allVendors, query),
    );
    endpoint(invoiceImeiInvoiceOptionsEndpoint, ({ query }) =>
      pickerOptions(db, PICKERS.invoices, query),
    );

    registerList(context, inboundShipmentListStore);
    registerWrites(context, inboundShipmentWriteStore);
    endpoint(checkInShipmentEndpoint, ({ principal, params, body, meta }) =>
      db.transaction((tx) => checkInShipment(tx, principal, meta, params.id, body)),
    );
    endpoint(completeShipmentEndpoint, ({ principal, params, meta }) =>
      db.transaction((tx) => completeShipment(tx, principal, meta, params.id)),
    );
    endpoint(shipmentVendorOptionsEndpoint, ({ query }) =>
      pickerOptions(db, PICKERS.activeVendors, query),
    );
    endpoint(shipmentInvoiceOptionsEndpoint, ({ query }) =>
      pickerOptions(db, PICKERS.openInvoices, query),
    );

    registerList(context, warehouseBoxListStore);
    registerWrites(context, warehouseBoxWriteStore);
    endpoint(receiveScanEndpoint, ({ principal, params, body, meta }) =>
      receiveScan(db, principal, meta, params.id, body),
    );
    endpoint(scanLogEndpoint, ({ params, query }) => scanLog(db, params.id, query));
    endpoint(boxContentEndpoint, ({ params }) => boxContent(db, params.id));
    endpoint(undoScanEndpoint, ({ principal, params, body, meta }) =>
      db.transaction((tx) => undoReceive(tx, principal, meta, params.id, body.device_id)),
    );
    endpoint(closeBoxEndpoint, ({ principal, params, body, meta }) =>
      db.transaction((tx) =>
        closeBox(tx, principal, meta, params.id, body.override_reason ?? null),
      ),
    );
    endpoint(reopenBoxEndpoint, ({ principal, params, meta }) =>
      db.transaction((tx) => reopenBox(tx, principal, meta, params.id)),
    );
    endpoint(stageBoxEndpoint, ({ principal, params, body, meta }) =>
      db.transaction((tx) => stageBox(tx, principal, meta, params.id, body.location)),
    );
    registerPrintable(context, {
      endpoint: boxLabelEndpoint,
      ask: async ({ params }) => ({ boxId: (await findBox(db, params.id)).id }),
      content: async (request) => boxLabel(await findBox(db, Number(request.boxId))),
    });
    registerPrintable(context, {
      endpoint: boxContentListEndpoint,
      ask: async ({ params }) => ({ boxId: (await findBox(db, params.id)).id }),
      content: (request) => boxContentList(db, Number(request.boxId)),
    });
    endpoint(boxInvoiceOptionsEndpoint, ({ query }) =>
      pickerOptions(db, PICKERS.openInvoices, query),
    );
    endpoint(boxModelOptionsEndpoint, ({ query }) => pickerOptions(db, PICKERS.models, query));
    endpoint(boxShipmentOptionsEndpoint, ({ query }) =>
      pickerOptions(db, PICKERS.openShipments, query),
    );
    endpoint(boxVendorOptionsEndpoint, ({ query }) => pickerOptions(db, PICKERS.allVendors, query));

    endpoint(warehouseBoxDashboardEndpoint, ({ query }) => boxDashboard(db, query.tz));
    endpoint(modelDashboardEndpoint, ({ query }) => modelPipeline(db, query.vendor_id));
    downloads.addProducer('model-pipeline', (request) =>
      modelPipelineFile(
        db,
        request.vendorId === null ? undefined : Number(request.vendorId),
        request.format as 'csv' | 'xlsx',
      ),
    );
    endpoint(modelDashboardExportEndpoint, ({ principal, body }) =>
      downloads.issue(principal, {
        producer: 'model-pipeline',
        access: WAREHOUSE_BOX_DASHBOARD_ACCESS,
        vendorId: body.vendor_id ?? null,
        format: body.format,
      }),
    );
    endpoint(dashboardVendorOptionsEndpoint, ({ query }) =>
      pickerOptions(db, PICKERS.allVendors, query),
    );

    registerList(context, vendorTransferListStore);
    registerWrites(context, vendorTransferWriteStore);
    endpoint(transferDevicesEndpoint, ({ params }) => transferDevices(db, params.id));
    endpoint(addTransferDevicesEndpoint, ({ principal, params, body, meta }) =>
      db.transaction((tx) => addTransferDevices(tx, principal, meta, params.id, body)),
    );
    endpoint(removeTransferDeviceEndpoint, ({ principal, params, meta }) =>
      db.transaction((tx) => removeTransferDevice(tx, principal, meta, params.id, params.deviceId)),
    );
    endpoint(transferStepEndpoint, ({ principal, params, body, meta }) =>
      db.transaction((tx) => stepTransfer(tx, principal, meta, params.id, params.step, body)),
    );
    endpoint(transferVendorOptionsEndpoint, ({ query }) =>
      pickerOptions(db, PICKERS.allVendors, query),
    );
    endpoint(transferInvoiceOptionsEndpoint, ({ query }) =>
      pickerOptions(db, PICKERS.invoices, query),
    );
  },
};
