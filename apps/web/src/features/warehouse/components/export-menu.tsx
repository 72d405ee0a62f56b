import type { Download } from '@inventory/contract';
import { Button, Dropdown } from 'antd';
import { showApiError } from '../../../shell/api-errors';
import { notify } from '../../../shell/notify';
import { startDownload } from '../../../toolkit/resource-queries';

export type ExportFormat = 'csv' | 'xlsx';

/** A widget's kept figures as CSV or Excel, from the download link `linkOf` asks for (UX.md). */
export function ExportMenu({
  title,
  linkOf,
}: {
  title: string;
  linkOf: (format: ExportFormat) => Promise<Download>;
}) {
  const exportAs = async (format: ExportFormat) => {
    try {
      startDownload(await linkOf(format));
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
        onClick: ({ key }) => void exportAs(key as ExportFormat),
      }}
    >
      <Button size="small" aria-label={`Export ${title}`}>
        Export
      </Button>
    </Dropdown>
  );
}
