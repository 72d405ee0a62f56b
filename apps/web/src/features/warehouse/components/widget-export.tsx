import { warehouseDashboardExportEndpoint, type WarehouseWidget } from '@inventory/contract';
import { Button, Dropdown } from 'antd';
import { showApiError } from '../../../shell/api-errors';
import { callEndpoint } from '../../../shell/http-client';
import { notify } from '../../../shell/notify';
import { startDownload } from '../../../toolkit/resource-queries';

/** A widget's figures as CSV or Excel: the kept figures the page shows (UX.md). */
export function WidgetExport({ widget, title }: { widget: WarehouseWidget; title: string }) {
  const exportAs = async (format: 'csv' | 'xlsx') => {
    try {
      const link = await callEndpoint(warehouseDashboardExportEndpoint, {
        body: { widget, format },
      });
      startDownload(link.data);
      notify.success(`${title} is downloading.`);
    } catch (error) {
      showApiError(error);
    }
  };
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        items: [
          { key: 'csv', label: 'CSV' },
          { key: 'xlsx', label: 'Excel (XLSX)' },
        ],
        onClick: ({ key }) => void exportAs(key as 'csv' | 'xlsx'),
      }}
    >
      <Button size="small" aria-label={`Export ${title}`}>
        Export
      </Button>
    </Dropdown>
  );
}
