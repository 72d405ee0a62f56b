import { Alert, Segmented, Spin, Table, Typography, type TableProps } from 'antd';
import { counted } from '../../../toolkit/format';

export type RequestView = 'open' | 'closed';

/**
 * The open or the closed requests of a kind (cancellations, reships): the newest of them with the
 * whole count, as the API answers them.
 */
export function RequestBoard<T extends { id: number }>({
  view,
  onViewChange,
  error,
  answer,
  columns,
}: {
  view: RequestView;
  onViewChange: (view: RequestView) => void;
  error: Error | null;
  /** The requests shown and how many there are; undefined while loading. */
  answer: { rows: T[]; total: number } | undefined;
  columns: TableProps<T>['columns'];
}) {
  return (
    <>
      <Segmented<RequestView>
        aria-label="Requests shown"
        value={view}
        onChange={onViewChange}
        options={[
          { value: 'open', label: 'Open' },
          { value: 'closed', label: 'Closed' },
        ]}
      />
      {error ? (
        <Alert type="error" title={error.message} />
      ) : !answer ? (
        <Spin />
      ) : (
        <>
          <Typography.Text>
            {counted(answer.total, `${view} request`)}
            {answer.total > answer.rows.length && `; the newest ${answer.rows.length} shown`}.
          </Typography.Text>
          <Table<T>
            rowKey="id"
            size="small"
            columns={columns}
            dataSource={answer.rows}
            pagination={false}
            scroll={{ x: 'max-content' }}
            locale={{ emptyText: `No ${view} requests.` }}
          />
        </>
      )}
    </>
  );
}
