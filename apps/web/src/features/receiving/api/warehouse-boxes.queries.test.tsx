import {
  warehouseBoxEndpoints,
  type BoxContent,
  type ReceiveScan,
  type ScanLog,
} from '@inventory/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { useBoxScan } from './warehouse-boxes.queries';

afterEach(cleanup);

const boxes = warehouseBoxEndpoints.list.path;

/** A box's content and log as the cache holds them: only what a refused scan's answer moves. */
const content = { box: { id: 1, qty_scanned: 1 }, devices: [], quarantined: [] };
const log = { entries: [] };
const refused = {
  result: 'already_in_box',
  device: null,
  box: { id: 1, qty_scanned: 1 },
  log_id: 7,
} as unknown as ReceiveScan;

describe("a scan's answer", () => {
  it('leaves the box it patched fresh, and marks the box list and other boxes stale', async () => {
    const client = new QueryClient();
    const held = {
      list: [boxes, { page: 1 }],
      content: [boxes, 'content', 1],
      scans: [boxes, 'scans', 1],
      otherContent: [boxes, 'content', 2],
    };
    client.setQueryData(held.list, { items: [] });
    client.setQueryData<BoxContent>(held.content, content as unknown as BoxContent);
    client.setQueryData<ScanLog>(held.scans, log as unknown as ScanLog);
    client.setQueryData(held.otherContent, content);
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    const { result } = renderHook(() => useBoxScan(1), { wrapper });

    await result.current.apply(refused);

    const stale = Object.fromEntries(
      Object.entries(held).map(([name, queryKey]) => [
        name,
        client.getQueryState(queryKey)?.isInvalidated,
      ]),
    );
    expect(stale).toEqual({ list: true, content: false, scans: false, otherContent: true });
    expect(client.getQueryData<ScanLog>(held.scans)?.entries).toHaveLength(1);
  });
});
