import { deviceCorrectionEndpoints, type EndpointBody } from '@inventory/contract';
import { useMutation } from '@tanstack/react-query';
import { callEndpoint } from '../../../shell/http-client';

/** Correcting a device: the lookup by IMEI and the correction. */

export const lookUpCorrectableDevice = async (code: string) =>
  (await callEndpoint(deviceCorrectionEndpoints.lookup, { body: { code } })).data;

export function useCorrectDevice() {
  return useMutation({
    mutationFn: async (body: EndpointBody<typeof deviceCorrectionEndpoints.correct>) =>
      (await callEndpoint(deviceCorrectionEndpoints.correct, { body })).data,
  });
}
