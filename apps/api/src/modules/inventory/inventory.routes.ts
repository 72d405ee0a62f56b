import {
  boxMoveEndpoint,
  boxScanEndpoint,
  boxUnassignEndpoint,
  consolidationBoxesEndpoint,
  consolidationOverviewEndpoint,
  consolidationPlacementEndpoint,
  deviceInquiryEndpoint,
  consolidationScanEndpoint,
  finishBoxCountEndpoint,
  inventoryBoxLabelEndpoint,
  inventoryBoxPickers,
  inventoryBoxReprintEndpoint,
  openInventoryBoxesEndpoint,
  palletPutawayEndpoint,
  putawayBoxEndpoint,
  putawayEndpoint,
  putawayQueueEndpoint,
  putawaySuggestionEndpoint,
  reopenInventoryBoxEndpoint,
  sealInventoryBoxEndpoint,
  setBoxMaxQtyEndpoint,
  startBoxCountEndpoint,
  stationBoxEndpoint,
  stationReopenEndpoint,
  type InventoryBox,
} from '@inventory/contract';
import type { LabelContent } from '../../toolkit/documents/print.js';
import { registerPrintable } from '../../toolkit/documents/print.js';
import { pickerOptions } from '../../toolkit/pickers.js';
import { registerList } from '../../toolkit/resource.js';
import type { AppModule } from '../module.js';
import { BOX_PICKERS, boxedDeviceListStore, inventoryBoxListStore } from './box-list.store.js';
import {
  finishCount,
  reopenAtStation,
  scanAtStation,
  startCount,
  stationBoxByCode,
} from './box-scans.service.js';
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
import { moveBox, putAwayPallet, putawayBoxByCode, unassignBox } from './putaway.service.js';

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
 * Inventory boxes (DOMAIN.md 4.2, 4.17): the consolidation station, sealing and labels, putaway
 * (a box, a move, an unassignment, a pallet), the device boxes' list with its counts, and the box
 * scan station.
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
    for (const labelEndpoint of [inventoryBoxLabelEndpoint, inventoryBoxReprintEndpoint]) {
      registerPrintable(context, {
        endpoint: labelEndpoint,
        ask: async ({ params }) => ({ boxId: (await findInventoryBox(db, params.id)).id }),
        content: async (request) =>
          inventoryBoxLabel(await findInventoryBox(db, Number(request.boxId))),
      });
    }
    endpoint(consolidationBoxesEndpoint, ({ query }) => consolidationBoxes(db, query.status));
    endpoint(reopenInventoryBoxEndpoint, ({ principal, params, meta }) =>
      db.transaction((tx) => reopenBox(tx, principal, meta, params.id)),
    );
    endpoint(consolidationOverviewEndpoint, () => consolidationOverview(db));
    endpoint(deviceInquiryEndpoint, ({ body }) => inquireDevice(db, body.code));
    endpoint(putawayQueueEndpoint, () => putawayQueue(db));
    endpoint(putawaySuggestionEndpoint, ({ body }) =>
      suggestLocation(db, body.box_code, body.room_for),
    );
    endpoint(putawayEndpoint, ({ principal, body, meta }) =>
      db.transaction((tx) => putAway(tx, principal, meta, body)),
    );
    // The putaway station's other modes: move, unassign, pallet.
    endpoint(putawayBoxEndpoint, ({ body }) => putawayBoxByCode(db, body.box_code));
    endpoint(boxMoveEndpoint, ({ principal, body, meta }) =>
      db.transaction((tx) => moveBox(tx, principal, meta, body)),
    );
    endpoint(boxUnassignEndpoint, ({ principal, body, meta }) =>
      db.transaction((tx) => unassignBox(tx, principal, meta, body)),
    );
    endpoint(palletPutawayEndpoint, ({ principal, body, meta }) =>
      db.transaction((tx) => putAwayPallet(tx, principal, meta, body)),
    );

    // The device boxes' list (DOMAIN.md 4.2): boxes, their IMEIs, filter pickers, counts.
    registerList(context, inventoryBoxListStore);
    registerList(context, boxedDeviceListStore);
    endpoint(inventoryBoxPickers.models, ({ query }) =>
      pickerOptions(db, BOX_PICKERS.models, query),
    );
    endpoint(inventoryBoxPickers.colors, ({ query }) =>
      pickerOptions(db, BOX_PICKERS.colors, query),
    );
    endpoint(inventoryBoxPickers.zones, ({ query }) => pickerOptions(db, BOX_PICKERS.zones, query));
    endpoint(startBoxCountEndpoint, ({ principal, params, meta }) =>
      db.transaction((tx) => startCount(tx, principal, meta, params.id)),
    );

    // The box scan station (DOMAIN.md 4.2): each scan one transaction.
    endpoint(stationBoxEndpoint, ({ body }) => stationBoxByCode(db, body.box_code));
    endpoint(boxScanEndpoint, ({ principal, body, meta }) =>
      db.transaction((tx) => scanAtStation(tx, principal, meta, body)),
    );
    endpoint(stationReopenEndpoint, ({ principal, body, meta }) =>
      db.transaction((tx) => reopenAtStation(tx, principal, meta, body.box_code)),
    );
    endpoint(finishBoxCountEndpoint, ({ principal, params, meta }) =>
      db.transaction((tx) => finishCount(tx, principal, meta, params.id)),
    );
  },
};
