import type { PageProps } from '../../../shell/page-types';
import { RatesTable, StatisticsHeader, useStatisticsPage } from '../components/statistics-parts';

/** Per technician, for the tickets closed in the range: devices repaired, time, pass rate, parts. */
export default function TechniciansPage({ entry }: PageProps) {
  const page = useStatisticsPage();
  return (
    <div>
      <StatisticsHeader title={entry.label} page={page} />
      <RatesTable
        title="Technicians"
        table="technicians"
        range={page.range}
        rows={page.statistics.data?.technicians ?? []}
        loading={page.statistics.isLoading}
        first={{ title: 'Technician', dataIndex: 'technician' }}
      />
    </div>
  );
}
