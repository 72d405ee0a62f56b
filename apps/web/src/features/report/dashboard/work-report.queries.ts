import {
  workReportEndpoint,
  workReportExportEndpoint,
  type WorkReportQuery,
  type WorkReportTable,
} from '@inventory/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { callEndpoint } from '../../../shell/http-client';
import type { ExportFormat } from '../../warehouse';

/**
 * The working report for a range and team, asked again every minute while the page is open: the
 * stations keep counting, and the answer reads the kept daily sums only.
 */
export function useWorkReport(query: WorkReportQuery) {
  return useQuery({
    queryKey: [workReportEndpoint.path, query],
    queryFn: async () => (await callEndpoint(workReportEndpoint, { query })).data,
    refetchInterval: 60_000,
    placeholderData: keepPreviousData,
  });
}

/** A download link for one of the report's tables, for the range and team shown. */
export async function workReportTableLink(
  table: WorkReportTable,
  query: WorkReportQuery,
  format: ExportFormat,
) {
  return (await callEndpoint(workReportExportEndpoint, { body: { ...query, table, format } })).data;
}
