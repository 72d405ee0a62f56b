import {
  ACCESSORY_DASHBOARD_ACCESS,
  accessoryDashboardEndpoint,
  accessoryStockEndpoints,
  partStockEndpoints,
  reorderListExportEndpoint,
  type StockItemKind,
} from '@inventory/contract';
import { registerPrintable } from '../../toolkit/documents/print.js';
import { pickerOptions } from '../../toolkit/pickers.js';
import { registerList } from '../../toolkit/resource.js';
import { MODEL_PICKER } from '../master-data/index.js';
import type { AppModule } from '../module.js';
import {
  accessoryDashboard,
  accessoryStockStore,
  partStockStore,
  reorderListFile,
  STOCK_PICKERS,
} from './stock.lists.js';
import { countStock, type StockCount } from './stock-counts.js';
import { accessoryBinsToLabel, binLabels, partBinsToLabel } from './stock-labels.js';
import { adjustStock, moveStock, receiveStock } from './stock.service.js';

/** Counted stock: accessory bins, repair parts, their counts and labels, the accessory dashboard. */
export const stockModule: AppModule = {
  name: 'stock',
  register(context) {
    const { endpoint, db, downloads } = context;

    registerList(context, accessoryStockStore);
    endpoint(accessoryStockEndpoints.receive, ({ principal, meta, body }) =>
      db.transaction((tx) =>
        receiveStock(
          tx,
          { actor: principal, meta },
          {
            kind: 'accessory',
            itemId: body.accessory_id,
            locationId: body.location_id,
            qty: body.qty,
            reference: body.reference,
            note: body.note ?? null,
          },
          'accessory_id',
        ),
      ),
    );
    endpoint(accessoryStockEndpoints.adjust, ({ principal, meta, body }) =>
      db.transaction((tx) =>
        adjustStock(
          tx,
          { actor: principal, meta },
          {
            kind: 'accessory',
            itemId: body.accessory_id,
            ...locationQty(body),
            reason: body.reason,
          },
          'accessory_id',
        ),
      ),
    );
    endpoint(accessoryStockEndpoints.move, ({ principal, meta, body }) =>
      db.transaction((tx) =>
        moveStock(
          tx,
          { actor: principal, meta },
          { kind: 'accessory', itemId: body.accessory_id, ...between(body) },
          'accessory_id',
        ),
      ),
    );
    endpoint(accessoryStockEndpoints.stockCount, ({ principal, meta, body }) =>
      db.transaction((tx) =>
        countStock(tx, { actor: principal, meta }, oneCount('accessory', body, body.accessory_id)),
      ),
    );
    endpoint(accessoryStockEndpoints.binCount, ({ principal, meta, body }) =>
      db.transaction((tx) =>
        countStock(
          tx,
          { actor: principal, meta },
          {
            kind: 'accessory',
            locationId: body.location_id,
            items: body.lines.map((line, index) =>
              counted(line.accessory_id, line.counted_qty, `lines.${index}`, 'accessory_id'),
            ),
            note: body.note ?? null,
            wholeBin: true,
          },
        ),
      ),
    );
    registerPrintable(context, {
      endpoint: accessoryStockEndpoints.labels,
      ask: async ({ body }) => ({ levels: await accessoryBinsToLabel(db, body.ids) }),
      content: (request) => binLabels(db, 'accessory', (request.levels as unknown[]).map(Number)),
    });
    endpoint(accessoryStockEndpoints.itemOptions, ({ query }) =>
      pickerOptions(db, STOCK_PICKERS.accessories, query),
    );
    endpoint(accessoryStockEndpoints.locationOptions, ({ query }) =>
      pickerOptions(db, STOCK_PICKERS.locations, query),
    );

    registerList(context, partStockStore);
    endpoint(partStockEndpoints.receive, ({ principal, meta, body }) =>
      db.transaction((tx) =>
        receiveStock(
          tx,
          { actor: principal, meta },
          {
            kind: 'part',
            itemId: body.part_id,
            locationId: body.location_id,
            qty: body.qty,
            reference: body.reference,
            note: body.note ?? null,
            vendorId: body.vendor_id,
            unitCostCents: body.unit_cost_cents,
          },
          'part_id',
        ),
      ),
    );
    endpoint(partStockEndpoints.adjust, ({ principal, meta, body }) =>
      db.transaction((tx) =>
        adjustStock(
          tx,
          { actor: principal, meta },
          { kind: 'part', itemId: body.part_id, ...locationQty(body), reason: body.reason },
          'part_id',
        ),
      ),
    );
    endpoint(partStockEndpoints.move, ({ principal, meta, body }) =>
      db.transaction((tx) =>
        moveStock(
          tx,
          { actor: principal, meta },
          { kind: 'part', itemId: body.part_id, ...between(body) },
          'part_id',
        ),
      ),
    );
    endpoint(partStockEndpoints.stockCount, ({ principal, meta, body }) =>
      db.transaction((tx) =>
        countStock(tx, { actor: principal, meta }, oneCount('part', body, body.part_id)),
      ),
    );
    endpoint(partStockEndpoints.binCount, ({ principal, meta, body }) =>
      db.transaction((tx) =>
        countStock(
          tx,
          { actor: principal, meta },
          {
            kind: 'part',
            locationId: body.location_id,
            items: body.lines.map((line, index) =>
              counted(line.part_id, line.counted_qty, `lines.${index}`, 'part_id'),
            ),
            note: body.note ?? null,
            wholeBin: true,
          },
        ),
      ),
    );
    registerPrintable(context, {
      endpoint: partStockEndpoints.labels,
      ask: async ({ body }) => ({ levels: await partBinsToLabel(db, body.ids) }),
      content: (request) => binLabels(db, 'part', (request.levels as unknown[]).map(Number)),
    });
    endpoint(partStockEndpoints.itemOptions, ({ query }) =>
      pickerOptions(db, STOCK_PICKERS.parts, query),
    );
    endpoint(partStockEndpoints.locationOptions, ({ query }) =>
      pickerOptions(db, STOCK_PICKERS.locations, query),
    );
    endpoint(partStockEndpoints.vendorOptions, ({ query }) =>
      pickerOptions(db, STOCK_PICKERS.vendors, query),
    );
    endpoint(partStockEndpoints.modelOptions, ({ query }) =>
      pickerOptions(db, MODEL_PICKER, query),
    );

    endpoint(accessoryDashboardEndpoint, ({ query }) => accessoryDashboard(db, query.week));
    downloads.addProducer('accessory-reorder-list', (request) =>
      reorderListFile(db, request.format as 'csv' | 'xlsx'),
    );
    endpoint(reorderListExportEndpoint, ({ principal, body }) =>
      downloads.issue(principal, {
        producer: 'accessory-reorder-list',
        access: ACCESSORY_DASHBOARD_ACCESS,
        format: body.format,
      }),
    );
  },
};

const locationQty = (body: { location_id: number; qty: number }) => ({
  locationId: body.location_id,
  qty: body.qty,
});

const between = (body: {
  from_location_id: number;
  to_location_id: number;
  qty: number;
  note?: string | null | undefined;
}) => ({
  fromLocationId: body.from_location_id,
  toLocationId: body.to_location_id,
  qty: body.qty,
  note: body.note ?? null,
});

/** One item counted; `prefix` names its line in a bin count's form. */
const counted = (itemId: number, qty: number, prefix: string | null, itemField: string) => {
  const field = (name: string) => (prefix === null ? name : `${prefix}.${name}`);
  return {
    itemId,
    counted: qty,
    fields: { item: field(itemField), counted: field('counted_qty') },
  };
};

/** A count of one item at one location. */
const oneCount = (
  kind: StockItemKind,
  body: { location_id: number; counted_qty: number; note?: string | null | undefined },
  itemId: number,
): StockCount => ({
  kind,
  locationId: body.location_id,
  items: [counted(itemId, body.counted_qty, null, kind === 'part' ? 'part_id' : 'accessory_id')],
  note: body.note ?? null,
  wholeBin: false,
});
