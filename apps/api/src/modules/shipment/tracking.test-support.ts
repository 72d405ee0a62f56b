import type { LabelBatch, LabelStepAnswer, ShipScanAnswer } from '@inventory/contract';
import { expect } from 'vitest';
import { dataOf, type ApiClient } from '../../test/api-client.js';
import type { TestApp } from '../../test/test-app.js';
import { seedFulfilledOrders } from './shipment.test-support.js';

/** A parcel that left the dock: its package, tracking number and order. */
export type ShippedParcel = { id: number; tracking: string; orderId: number; orderNumber: string };

/**
 * Parcels scanned out as the label desk and the dock leave them: fulfilled orders labelled in one
 * batch by `clerk`, then each scanned out.
 */
export async function shippedParcels(
  t: TestApp,
  clerk: ApiClient,
  count: number,
): Promise<ShippedParcel[]> {
  const orders = await seedFulfilledOrders(t.db, { count });
  const batch = await dataOf<LabelBatch>(clerk.post('/label-batches', { format: 'pdf' }), 201);
  const labelled = await dataOf<LabelStepAnswer>(
    clerk.post(`/label-batches/${batch.id}/labels`, {
      order_ids: orders.map((order) => order.orderId),
    }),
  );
  const parcels = labelled.results.map((result) => result.package!);
  for (const parcel of parcels) {
    const scan = await dataOf<ShipScanAnswer>(
      clerk.post('/ship-scans', { code: parcel.tracking_number, station: 'Dock 1' }),
    );
    expect(scan.result).toBe('shipped');
  }
  return parcels.map((parcel) => ({
    id: parcel.id,
    tracking: parcel.tracking_number,
    orderId: parcel.order_id,
    orderNumber: parcel.order_number,
  }));
}

/** A tracking file's CSV: the template's headers, one line per event. */
export const trackingCsv = (
  rows: readonly (readonly [
    tracking: string,
    status: string,
    occurredAt: string,
    location?: string,
    description?: string,
  ])[],
) =>
  [
    'Tracking number,Status,Occurred at,Location,Description',
    ...rows.map((cells) =>
      [cells[0], cells[1], cells[2], cells[3] ?? '', cells[4] ?? '']
        .map((cell) => (/[",]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell))
        .join(','),
    ),
  ].join('\n');

/** A moment `hours` before now, as a file writes it (ISO, UTC). */
export const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString();
