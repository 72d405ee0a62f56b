import type { TableProps } from 'antd';
import type { SortOrder } from 'antd/es/table/interface';

/**
 * The sort of a keyset list whose table a page draws itself (users, roles), kept in the address:
 * each column's sort arrow and the handler that writes a new sort back. A column's dataIndex is
 * its sort's name; the list's own order stays out of the address. The page moves with ListPager.
 */
export function tableUrlState<T>(
  state: { readonly sort: string; readonly order: 'asc' | 'desc' },
  list: { readonly defaultOrder?: 'asc' | 'desc' },
  setUrl: (changes: Record<'sort' | 'order', string | undefined>) => void,
) {
  const defaultOrder = list.defaultOrder ?? 'asc';
  const sortOrder = (key: string): SortOrder =>
    state.sort === key ? (state.order === 'desc' ? 'descend' : 'ascend') : null;
  const onChange: TableProps<T>['onChange'] = (_pagination, _filters, sorter) => {
    const single = Array.isArray(sorter) ? sorter[0] : sorter;
    const order = single?.order === 'descend' ? 'desc' : single?.order ? 'asc' : undefined;
    setUrl({
      sort: order ? String(single?.field) : undefined,
      order: order === defaultOrder ? undefined : order,
    });
  };
  return { sortOrder, onChange };
}
