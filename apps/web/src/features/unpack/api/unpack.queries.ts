import {
  unpackEndpoints,
  type UnidentifiedParcelInput,
  type UnpackInput,
} from '@inventory/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '../../../shell/http-client';

/** The unpack station and its unidentified parcels. */

const UNIDENTIFIED_KEY = unpackEndpoints.unidentified.path;

export const findReturnedParcel = async (code: string) =>
  (await callEndpoint(unpackEndpoints.parcel, { query: { code } })).data;

export const recordUnpack = async (packageId: number, body: UnpackInput) =>
  (await callEndpoint(unpackEndpoints.unpack, { params: { id: packageId }, body })).data;

export function useUnidentifiedParcels(q: string) {
  return useQuery({
    queryKey: [UNIDENTIFIED_KEY, q],
    queryFn: async () =>
      (await callEndpoint(unpackEndpoints.unidentified, { query: q ? { q } : {} })).data,
  });
}

export function useAddUnidentified() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: UnidentifiedParcelInput) =>
      (await callEndpoint(unpackEndpoints.addUnidentified, { body })).data,
    onSuccess: () => client.invalidateQueries({ queryKey: [UNIDENTIFIED_KEY] }),
  });
}
