import {
  boxMoveEndpoint,
  boxUnassignEndpoint,
  palletPutawayEndpoint,
  putawayBoxEndpoint,
  putawayQueueEndpoint,
  type UnassignReason,
} from '@inventory/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '../../../shell/http-client';

/** The putaway station's other modes: a box read by its code, a move, an unassignment, a pallet. */

export const putawayBox = async (boxCode: string) =>
  (await callEndpoint(putawayBoxEndpoint, { body: { box_code: boxCode } })).data;

/** Each change of where boxes are reads the putaway queue again. */
const useQueueRefresh = () => {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: [putawayQueueEndpoint.path] });
};

/** Moves a located box from where the station read it to another location. */
export function useMoveBox() {
  const refresh = useQueueRefresh();
  return useMutation({
    mutationFn: async (move: { boxCode: string; fromCode: string; locationCode: string }) =>
      (
        await callEndpoint(boxMoveEndpoint, {
          body: {
            box_code: move.boxCode,
            from_location_code: move.fromCode,
            location_code: move.locationCode,
          },
        })
      ).data,
    onSuccess: refresh,
  });
}

/** Takes a located box off its location, back to the putaway queue. */
export function useUnassignBox() {
  const refresh = useQueueRefresh();
  return useMutation({
    mutationFn: async (off: { boxCode: string; reason: UnassignReason; note: string }) =>
      (
        await callEndpoint(boxUnassignEndpoint, {
          body: {
            box_code: off.boxCode,
            reason: off.reason,
            ...(off.note.trim() && { note: off.note.trim() }),
          },
        })
      ).data,
    onSuccess: refresh,
  });
}

/** Puts a pallet of sealed boxes in one location, all or none. */
export function usePalletPutaway() {
  const refresh = useQueueRefresh();
  return useMutation({
    mutationFn: async (pallet: { boxCodes: readonly string[]; locationCode: string }) =>
      (
        await callEndpoint(palletPutawayEndpoint, {
          body: { box_codes: [...pallet.boxCodes], location_code: pallet.locationCode },
        })
      ).data,
    onSuccess: refresh,
  });
}
