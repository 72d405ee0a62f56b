import {
  consolidationBoxesEndpoint,
  consolidationOverviewEndpoint,
  consolidationPlacementEndpoint,
  deviceInquiryEndpoint,
  consolidationScanEndpoint,
  inventoryBoxLabelEndpoint,
  openInventoryBoxesEndpoint,
  putawayEndpoint,
  putawayQueueEndpoint,
  putawaySuggestionEndpoint,
  reopenInventoryBoxEndpoint,
  sealInventoryBoxEndpoint,
  setBoxMaxQtyEndpoint,
  type InventoryBox,
} from '@inventory/contract';
import type { LabelContent } from '../../toolkit/documents/print.js';
import { registerPrintable } from '../../toolkit/documents/print.js';
import type { AppModule } from '../module.js';
import {
  consolidationBoxes,
  consolidationOverview,
  findInventoryBox,
  inquireDevice,
  openBoxes,
  placeInBox,
  putAway,
  putawayQueue,
  reopenBox,
  scanForConsolidation,
  sealBox,
  setBoxMaxQty,
  suggestLocation,
} from './inventory-boxes.service.js';

/** The IB label: the box code as a barcode and what every device in it is. */
function inventoryBoxLabel(box: InventoryBox): LabelContent {
  return {
    fileName: box.code,
    labels: [
      {
        barcode: box.code,
        title: box.code,
        lines: [
          box.model,
          [box.color, box.capacity_gb === null ? null : `${box.capacity_gb} GB`]
            .filter(Boolean)
            .join(' · '),
          `Grade ${box.grade}${box.carrier_lock ? ` · ${box.carrier_lock}` : ''}`,
          `${box.qty} devices${box.sealed_at ? ` · sealed ${box.sealed_at.slice(0, 10)}` : ''}`,
        ].filter(Boolean),
      },
    ],
  };
}

/**
 * Inventory boxes (DOMAIN.md 4.2, 4.17): the consolidation station, sealing and labels, and
 * putaway.
 */
export const inventoryModule: AppModule = {
  name: 'inventory',
  register(context) {
    const { endpoint, db } = context;
    endpoint(consolidationScanEndpoint, ({ principal, body, meta }) =>
      db.transaction((tx) => scanForConsolidation(tx, principal, meta, body.code)),
    );
    endpoint(consolidationPlacementEndpoint, ({ principal, body, meta }) =>
      db.transaction((tx) => placeInBox(tx, principal, meta, body)),
    );
    endpoint(openInventoryBoxesEndpoint, () => openBoxes(db));
    endpoint(sealInventoryBoxEndpoint, ({ principal, params, meta }) =>
      db.transaction((tx) => sealBox(tx, principal, meta, params.id)),
    );
    endpoint(setBoxMaxQtyEndpoint, ({ principal, params, body, meta }) =>
      db.transaction((tx) => setBoxMaxQty(tx, principal, meta, params.id, body.max_qty)),
    );
    registerPrintable(context, {
      endpoint: inventoryBoxLabelEndpoint,
      ask: async ({ params }) => ({ boxId: (await findInventoryBox(db, params.id)).id }),
      content: async (request) =>
        inventoryBoxLabel(await findInventoryBox(db, Number(request.boxId))),
    });
    endpoint(consolidationBoxesEndpoint, ({ query }) => consolidationBoxes(db, query.status));
    endpoint(reopenInventoryBoxEndpoint, ({ principal, params, meta }) =>
      db.transaction((tx) => reopenBox(tx, principal, meta, params.id)),
    );
    endpoint(consolidationOverviewEndpoint, () => consolidationOverview(db));
    endpoint(deviceInquiryEndpoint, ({ body }) => inquireDevice(db, body.code));
    endpoint(putawayQueueEndpoint, () => putawayQueue(db));
    endpoint(putawaySuggestionEndpoint, ({ body }) => suggestLocation(db, body.box_code));
    endpoint(putawayEndpoint, ({ principal, body, meta }) =>
      db.transaction((tx) => putAway(tx, principal, meta, body)),
    );
  },
};
