import type { TableProps } from 'antd';
import type { SortOrder } from 'antd/es/table/interface';
import { counted } from '../toolkit/format';

type ListState = {
  readonly page: number;
  readonly pageSize: number;
  readonly sort: string;
  readonly order: 'asc' | 'desc';
};

type SetUrl = (
  changes: Partial<Record<'page' | 'pageSize' | 'sort' | 'order', string | number | undefined>>,
) => void;

/**
 * What a server-side list table needs from the list's state kept in the address: each column's
 * sort arrow, the paging, and the change handler that writes paging and sort back to the address.
 */
export function tableUrlState<T>(
  state: ListState,
  total: number | undefined,
  setUrl: SetUrl,
  noun: readonly [singular: string, plural: string],
) {
  const sortOrder = (key: string): SortOrder =>
    state.sort === key ? (state.order === 'desc' ? 'descend' : 'ascend') : null;
  const pagination: TableProps<T>['pagination'] = {
    current: state.page,
    pageSize: state.pageSize,
    total: total ?? 0,
    showSizeChanger: true,
    showTotal: (count) => counted(count, ...noun),
  };
  const onChange: TableProps<T>['onChange'] = (next, _filters, sorter) => {
    const single = Array.isArray(sorter) ? sorter[0] : sorter;
    setUrl({
      page: next.current,
      pageSize: next.pageSize,
      sort: single?.order ? String(single.field) : undefined,
      order: single?.order === 'descend' ? 'desc' : undefined,
    });
  };
  return { sortOrder, pagination, onChange };
}
