import type { LabelBatch, LabelStepAnswer, ShipScanAnswer } from '@inventory/contract';
import { expect } from 'vitest';
import { dataOf, type ApiClient } from './api-client.js';
import type { TestApp } from './test-app.js';
import {
  seedFulfilledOrders,
  type FulfilledOrder,
} from '../modules/shipment/shipment.test-support.js';
import { hoursAgo, trackingCsv } from '../modules/shipment/tracking.test-support.js';

export type ReturnedParcelSeed = FulfilledOrder & { packageId: number; tracking: string };

/**
 * Lifeline orders (`devices` each, the first with its SIM) labelled and scanned out by `clerk`;
 * with `returnToSender`, the carrier's tracking file then sends them back.
 */
export async function shippedLifelineParcels(
  t: TestApp,
  clerk: ApiClient,
  count: number,
  returnToSender: boolean,
  devices = 1,
): Promise<ReturnedParcelSeed[]> {
  const orders = await seedFulfilledOrders(t.db, { count, devices, withSim: true });
  const batch = await dataOf<LabelBatch>(clerk.post('/label-batches', { format: 'pdf' }), 201);
  const labelled = await dataOf<LabelStepAnswer>(
    clerk.post(`/label-batches/${batch.id}/labels`, {
      order_ids: orders.map((order) => order.orderId),
    }),
  );
  const parcels = orders.map((order) => {
    const parcel = labelled.results.find(
      (result) => result.package?.order_id === order.orderId,
    )!.package!;
    return { ...order, packageId: parcel.id, tracking: parcel.tracking_number };
  });
  for (const parcel of parcels) {
    const scan = await dataOf<ShipScanAnswer>(
      clerk.post('/ship-scans', { code: parcel.tracking, station: 'Dock 1' }),
    );
    expect(scan.result).toBe('shipped');
  }
  if (returnToSender) {
    const csv = trackingCsv(
      parcels.map((parcel) => [parcel.tracking, 'Return to Sender', hoursAgo(1)] as const),
    );
    const { check } = await clerk.uploadAndCheck('tracking-events', 'returns.csv', csv);
    expect(check.errors).toEqual([]);
    await dataOf(clerk.commitImport('tracking-events', check.batch.id));
  }
  return parcels;
}
