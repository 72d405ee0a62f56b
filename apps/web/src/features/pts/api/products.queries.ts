import {
  bundleEndpoints,
  comboEndpoints,
  productEndpoints,
  variantEndpoints,
  type BundleAvailability,
  type ComboAvailability,
  type PropertyChoice,
} from '@inventory/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { callEndpoint } from '../../../shell/http-client';

/** The most rows one stock request names: a page's worth. */
const FIGURES_PER_REQUEST = 200;

/**
 * Stock figures of the rows a page shows, asked for together: each row's cell asks for its own
 * id, and the asks made while the page draws go out as one request (split past a page's worth),
 * so the server counts the visible rows in one query and never the whole list.
 */
function batchedFigures<F>(fetch: (ids: number[]) => Promise<ReadonlyMap<number, F>>) {
  let waiting: { id: number; resolve: (figure: F | null) => void; reject: (e: unknown) => void }[] =
    [];
  const send = async () => {
    const batch = waiting;
    waiting = [];
    const ids = [...new Set(batch.map((ask) => ask.id))];
    try {
      const found = new Map<number, F>();
      for (let start = 0; start < ids.length; start += FIGURES_PER_REQUEST) {
        for (const [id, figure] of await fetch(ids.slice(start, start + FIGURES_PER_REQUEST))) {
          found.set(id, figure);
        }
      }
      for (const ask of batch) ask.resolve(found.get(ask.id) ?? null);
    } catch (error) {
      for (const ask of batch) ask.reject(error);
    }
  };
  return (id: number) =>
    new Promise<F | null>((resolve, reject) => {
      waiting.push({ id, resolve, reject });
      if (waiting.length === 1) setTimeout(() => void send(), 0);
    });
}

const variantStock = batchedFigures(
  async (ids) =>
    new Map(
      (await callEndpoint(variantEndpoints.availability, { body: { ids } })).data.map((row) => [
        row.variant_id,
        row.available,
      ]),
    ),
);
const bundleStock = batchedFigures<BundleAvailability>(
  async (ids) =>
    new Map(
      (await callEndpoint(bundleEndpoints.availability, { body: { ids } })).data.map((row) => [
        row.bundle_id,
        row,
      ]),
    ),
);
const comboStock = batchedFigures<ComboAvailability>(
  async (ids) =>
    new Map(
      (await callEndpoint(comboEndpoints.availability, { body: { ids } })).data.map((row) => [
        row.combo_id,
        row,
      ]),
    ),
);

/*
 * The figures sit under their list's key, so that the toolkit's refresh after a write reads them
 * again with the rows.
 */
export const useVariantStock = (id: number) =>
  useQuery({
    queryKey: [variantEndpoints.list.path, 'stock', id],
    queryFn: () => variantStock(id),
  });

export const useBundleStock = (id: number) =>
  useQuery({
    queryKey: [bundleEndpoints.list.path, 'stock', id],
    queryFn: () => bundleStock(id),
  });

export const useComboStock = (id: number) =>
  useQuery({
    queryKey: [comboEndpoints.list.path, 'stock', id],
    queryFn: () => comboStock(id),
  });

/** The active properties a product's or variant's values are given for. */
export const usePropertyChoices = () =>
  useQuery({
    queryKey: [productEndpoints.propertyChoices.path],
    queryFn: async (): Promise<PropertyChoice[]> =>
      (await callEndpoint(productEndpoints.propertyChoices)).data,
    staleTime: 60_000,
  });

/** Refreshes the catalogue's lists: products, variants, bundles and combos name each other. */
export function useRefreshCatalogue() {
  const client = useQueryClient();
  return useCallback(
    () =>
      Promise.all(
        [productEndpoints, variantEndpoints, bundleEndpoints, comboEndpoints].map((endpoints) =>
          client.invalidateQueries({ queryKey: [endpoints.list.path] }),
        ),
      ),
    [client],
  );
}

/** A write of the catalogue that refreshes its lists when it succeeds. */
export function useCatalogueWrite<V, R>(write: (values: V) => Promise<R>) {
  const refresh = useRefreshCatalogue();
  return useMutation({ mutationFn: write, onSuccess: () => refresh() });
}
