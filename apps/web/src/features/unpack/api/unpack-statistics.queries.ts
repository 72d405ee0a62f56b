import {
  unpackEndpoints,
  type UnpackStatisticsQuery,
  type UnpackStatisticsTable,
} from '@inventory/contract';
import { useQuery } from '@tanstack/react-query';
import { callEndpoint } from '../../../shell/http-client';

/** The unpack statistics for a range of days, and one table's export. */

export function useUnpackStatistics(range: UnpackStatisticsQuery) {
  return useQuery({
    queryKey: [unpackEndpoints.statistics.path, range.from, range.to],
    queryFn: async () => (await callEndpoint(unpackEndpoints.statistics, { query: range })).data,
  });
}

export const statisticsExportLink = async (
  range: UnpackStatisticsQuery,
  table: UnpackStatisticsTable,
) => (await callEndpoint(unpackEndpoints.statisticsExport, { body: { ...range, table } })).data;
