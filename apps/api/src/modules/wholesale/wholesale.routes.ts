import { orderBoxEndpoints, wholesaleShipmentEndpoints as shipments } from '@inventory/contract';
import { registerPrintable } from '../../toolkit/documents/print.js';
import type { AppModule } from '../module.js';
import {
  cartonOrderDetail,
  cartonOrderRow,
  cartonQueue,
  closeOrderBox,
  openOrderBox,
  orderBoxRow,
  reopenOrderBox,
  scanIntoOrderBox,
} from './order-boxes.service.js';
import {
  attachBill,
  checkShipment,
  closePallet,
  confirmPickup,
  createShipment,
  dockScan,
  openPallet,
  overrideShipment,
  shipmentBoard,
  shipmentDetail,
  shipmentRow,
} from './shipments.service.js';
import {
  cartonPackingList,
  orderBoxLabel,
  shipmentBill,
  shipmentLabels,
  shipmentManifest,
} from './wholesale-documents.js';

/**
 * Wholesale outbound (DOMAIN.md 4.7): the cartons of /order/box, the shipments of /shipment and
 * the dock of /shipment/scan-out-to-ship, with their labels and sheets. Each action is one
 * transaction with its audit entry.
 */
export const wholesaleModule: AppModule = {
  name: 'wholesale',
  register(context) {
    const { endpoint, db } = context;
    endpoint(orderBoxEndpoints.queue, () => cartonQueue(db));
    endpoint(orderBoxEndpoints.order, ({ params }) => cartonOrderDetail(db, params.id));
    endpoint(orderBoxEndpoints.create, ({ principal, meta, body }) =>
      db.transaction((tx) => openOrderBox(tx, { principal, meta }, body.order_id)),
    );
    endpoint(orderBoxEndpoints.scan, ({ principal, meta, params, body }) =>
      db.transaction((tx) => scanIntoOrderBox(tx, { principal, meta }, params.id, body)),
    );
    endpoint(orderBoxEndpoints.close, ({ principal, meta, params, body }) =>
      db.transaction((tx) => closeOrderBox(tx, { principal, meta }, params.id, body.weight_lb)),
    );
    endpoint(orderBoxEndpoints.reopen, ({ principal, meta, params }) =>
      db.transaction((tx) => reopenOrderBox(tx, { principal, meta }, params.id)),
    );
    registerPrintable(context, {
      endpoint: orderBoxEndpoints.label,
      ask: async ({ params }) => ({ boxId: (await orderBoxRow(db, params.id)).id }),
      content: (request) => orderBoxLabel(db, Number(request.boxId)),
    });
    registerPrintable(context, {
      endpoint: orderBoxEndpoints.packingList,
      ask: async ({ params }) => ({ orderId: (await cartonOrderRow(db, params.id)).id }),
      content: (request) => cartonPackingList(db, Number(request.orderId)),
    });

    endpoint(shipments.board, () => shipmentBoard(db));
    endpoint(shipments.detail, ({ params }) => shipmentDetail(db, params.id));
    endpoint(shipments.create, ({ principal, meta, body }) =>
      db.transaction((tx) => createShipment(tx, { principal, meta }, body)),
    );
    endpoint(shipments.bill, ({ principal, meta, params, body }) =>
      db.transaction((tx) => attachBill(tx, { principal, meta }, params.id, body)),
    );
    endpoint(shipments.check, ({ principal, meta, params }) =>
      db.transaction((tx) => checkShipment(tx, { principal, meta }, params.id)),
    );
    endpoint(shipments.dockScan, ({ principal, meta, body }) =>
      db.transaction((tx) => dockScan(tx, { principal, meta }, body)),
    );
    endpoint(shipments.openPallet, ({ principal, meta, params }) =>
      db.transaction((tx) => openPallet(tx, { principal, meta }, params.id)),
    );
    endpoint(shipments.closePallet, ({ principal, meta, params }) =>
      db.transaction((tx) => closePallet(tx, { principal, meta }, params.id)),
    );
    endpoint(shipments.override, ({ principal, meta, params, body }) =>
      db.transaction((tx) => overrideShipment(tx, { principal, meta }, params.id, body.reason)),
    );
    endpoint(shipments.pickup, ({ principal, meta, params, body }) =>
      db.transaction((tx) => confirmPickup(tx, { principal, meta }, params.id, body)),
    );
    const shipmentId = async (id: number) => ({ shipmentId: (await shipmentRow(db, id)).id });
    registerPrintable(context, {
      endpoint: shipments.billOfLading,
      ask: ({ params }) => shipmentId(params.id),
      content: (request) => shipmentBill(db, Number(request.shipmentId)),
    });
    registerPrintable(context, {
      endpoint: shipments.labels,
      ask: ({ params }) => shipmentId(params.id),
      content: (request) => shipmentLabels(db, Number(request.shipmentId)),
    });
    registerPrintable(context, {
      endpoint: shipments.manifest,
      ask: ({ params }) => shipmentId(params.id),
      content: (request) => shipmentManifest(db, Number(request.shipmentId)),
    });
  },
};
