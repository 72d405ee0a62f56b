import type { PageProps } from '../../../shell/page-types';
import { RatesTable, StatisticsHeader, useStatisticsPage } from '../components/statistics-parts';

/** Per issue code, for the tickets closed in the range: count, time, pass rate, parts and BER. */
export default function IssuesPage({ entry }: PageProps) {
  const page = useStatisticsPage();
  return (
    <div>
      <StatisticsHeader title={entry.label} page={page} />
      <RatesTable
        title="Issue codes"
        table="issues"
        range={page.range}
        rows={page.statistics.data?.issues ?? []}
        loading={page.statistics.isLoading}
        first={{ title: 'Issue code', dataIndex: 'issue_code' }}
      />
    </div>
  );
}
