import { productionOverviewEndpoint } from '@inventory/contract';
import { useQuery } from '@tanstack/react-query';
import { callEndpoint } from '../../../shell/http-client';

/** The product team's overview. */

export function useProductionOverview() {
  return useQuery({
    queryKey: [productionOverviewEndpoint.path],
    queryFn: async () => (await callEndpoint(productionOverviewEndpoint)).data,
  });
}
