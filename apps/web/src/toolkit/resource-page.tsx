import type { ListEndpoints, WriteEndpoints } from '@inventory/contract';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Checkbox,
  Dropdown,
  Empty,
  Input,
  Popconfirm,
  Popover,
  Select,
  Space,
  Table,
  Tag,
  Typography,
} from 'antd';
import type { TableProps } from 'antd';
import type { SortOrder } from 'antd/es/table/interface';
import { lazy, Suspense, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { showApiError } from '../shell/api-errors';
import { callEndpoint } from '../shell/http-client';
import { notify } from '../shell/notify';
import type { PageProps } from '../shell/page-types';
import { useCan } from '../shell/use-can';
import { useUrlParam } from '../shell/use-url-state';
import { useLatestSearch } from './latest-search';
import { ListPager } from './list-pager';
import { useListUrlState } from './list-url-state';
import { FORM_PARAM, KeyLink, useRecordHref } from './record-link';
import {
  inText,
  type ListFilter,
  type RecordLink,
  type ResourcePageConfig,
} from './resource-page-config';
import { ResourceFormDrawer } from './resource-form';
import {
  startDownload,
  useResourceCount,
  useResourceItem,
  useResourceList,
  useResourceWrites,
  type ListQuery,
} from './resource-queries';
import { useStoredColumns } from './use-stored-columns';
import { PAGE_TITLE_STYLE } from '../shell/page-styles';

const ImportDrawer = lazy(() => import('./import-drawer'));

/** A filter whose options are searched on the server (a picker endpoint). */
export function RemoteFilter({
  filter,
  value,
  onChange,
}: {
  filter: Extract<ListFilter, { load: unknown }>;
  value: string | undefined;
  onChange: (value: string | undefined) => void;
}) {
  const { options, search } = useLatestSearch(filter.load);
  // A value set from a link is named by its own option rather than shown as a bare id. The
  // answer is searched for the value: a load that cannot look an id up answers with other options.
  const selected = value ? Number(value) : undefined;
  const named = useQuery({
    queryKey: ['filter-option', filter.key, filter.label, selected],
    queryFn: () => filter.load('', selected),
    enabled: selected !== undefined && !options.some((option) => option.value === selected),
    staleTime: Infinity,
    select: (found) => found.find((option) => option.value === selected)?.label,
  });
  return (
    <Select
      aria-label={filter.label}
      placeholder={filter.label}
      style={{ minWidth: 200 }}
      allowClear
      showSearch={{ filterOption: false, onSearch: (term) => void search(term) }}
      onFocus={() => void search('')}
      value={selected}
      labelRender={(shown) => shown.label ?? named.data ?? `#${value}`}
      options={options}
      onChange={(next) => onChange(next === undefined ? undefined : String(next))}
    />
  );
}

/** A cell's value as text; nothing is null. */
const textOf = (value: unknown) =>
  value === null || value === undefined || value === '' ? null : String(value);

/** The writes of a page's resource, when it has them (a register has none). */
const writesOf = (endpoints: ResourcePageConfig<never>['endpoints']) =>
  endpoints.create && endpoints.update && endpoints.remove
    ? (endpoints as ListEndpoints & WriteEndpoints)
    : null;

/** The row actions of a table edited with the toolkit's form: edit, (de)activate, delete. */
function WriteActions<T extends { id: number; active?: boolean }>({
  config,
  endpoints,
  item,
  onEdit,
}: {
  config: ResourcePageConfig<T>;
  endpoints: ListEndpoints & WriteEndpoints;
  item: T;
  onEdit: () => void;
}) {
  const writes = useResourceWrites(endpoints);
  const act = async (work: () => Promise<unknown>, success: string) => {
    try {
      await work();
      notify.success(success);
    } catch (error) {
      showApiError(error);
    }
  };
  return (
    <>
      {config.form && (
        <Button size="small" onClick={onEdit}>
          Edit
        </Button>
      )}
      {config.rowActions?.(item)}
      {item.active !== undefined && (
        <Button
          size="small"
          onClick={() =>
            void act(
              () => writes.update.mutateAsync({ id: item.id, body: { active: !item.active } }),
              `${config.titleOf(item)} is ${item.active ? 'deactivated' : 'active again'}.`,
            )
          }
        >
          {item.active ? 'Deactivate' : 'Activate'}
        </Button>
      )}
      <Popconfirm
        title={`Delete ${config.titleOf(item)}?`}
        description="Only a row that nothing uses can be deleted."
        okText="Delete"
        okButtonProps={{ danger: true }}
        onConfirm={() =>
          act(() => writes.remove.mutateAsync(item.id), `${config.titleOf(item)} is deleted.`)
        }
      >
        <Button size="small" danger>
          Delete
        </Button>
      </Popconfirm>
    </>
  );
}

/**
 * A whole list page from a declaration: search, filters, sort and keyset paging kept in the
 * address; a count; a column chooser; export of the current filter. Each row's key is the link
 * that opens its record. A table edited with the toolkit's form adds create and edit in a drawer
 * (the row edited named in the address, `?id=`), activate, deactivate and delete; a page with an
 * import adds the import with its dry run.
 */
export function ResourcePage<T extends { id: number; active?: boolean }>({
  entry,
  config,
}: PageProps & { config: ResourcePageConfig<T> }) {
  const { resource, endpoints } = config;
  const filterKeys = useMemo(() => config.filters.map((filter) => filter.key), [config.filters]);
  const [url, setUrl] = useListUrlState(filterKeys);
  const defaultOrder = resource.defaultOrder ?? 'asc';
  const query: ListQuery = {
    ...url,
    sort: url.sort ?? resource.defaultSort,
    order: url.order === 'asc' || url.order === 'desc' ? url.order : defaultOrder,
    limit: Number(url.limit ?? 50),
  };
  const list = useResourceList<T>(endpoints, query);
  const count = useResourceCount(endpoints, query);
  const writes = writesOf(endpoints);
  const canManage = useCan(resource.manage ?? resource.view);
  const canImport = useCan(config.import?.resource.manage ?? resource.view);
  const [creating, setCreating] = useState(false);
  const [importing, setImporting] = useState(false);
  const [shown, setShown] = useStoredColumns(resource.name, config.columns);
  const filtered = Boolean(url.search) || filterKeys.some((key) => url[key] !== undefined);
  const page = list.data;

  // The row whose form is open, named in the address: found on the page shown, else read.
  const canEdit = Boolean(writes && config.form && canManage);
  const [formParam, setFormParam] = useUrlParam(FORM_PARAM);
  const editId = canEdit ? Number(formParam) || null : null;
  const editedOnPage = page?.items.find((item) => item.id === editId);
  const editedRead = useResourceItem<T>(
    endpoints,
    page && editId !== null && !editedOnPage ? editId : null,
  );
  const edited = editId === null ? undefined : (editedOnPage ?? editedRead.data);
  const startCreating = () => {
    setFormParam(undefined);
    setCreating(true);
  };

  // A row's key opens its record: the page's own view, another page's, or the row's form.
  const navigate = useNavigate();
  const recordHref = useRecordHref();
  const record: RecordLink<T> | undefined =
    config.record ?? (canEdit ? { param: FORM_PARAM } : undefined);
  const keyColumn = config.keyColumn ?? config.columns[0]?.key;
  const linkOf = (item: T) => {
    if (!record) return null;
    if ('href' in record) {
      const to = record.href(item);
      return to === null ? null : { to, title: record.where(item), replace: false };
    }
    const title = config.titleOf(item);
    return {
      to: recordHref(record.param, item.id),
      title:
        record.param === FORM_PARAM
          ? `Edit ${resource.singular} ${title}`
          : `Open ${resource.singular} ${title}`,
      replace: !record.replacesList,
    };
  };
  const openByRow = record && 'param' in record && record.rowClick ? record : null;

  const exportAs = async (format: 'csv' | 'xlsx') => {
    try {
      const { cursor: _cursor, limit: _limit, ...filters } = query;
      const answer = await callEndpoint(endpoints.exportFile, {
        body: { ...filters, format },
      });
      startDownload(answer.data);
      notify.success(`The export of ${inText(resource.plural)} has started.`);
    } catch (error) {
      showApiError(error);
    }
  };

  const sortOrder = (key: string | undefined): SortOrder =>
    key && query.sort === key ? (query.order === 'desc' ? 'descend' : 'ascend') : null;

  const keyCell = (content: ReactNode, item: T) => {
    const link = linkOf(item);
    return link ? (
      <KeyLink to={link.to} title={link.title} replace={link.replace}>
        {content}
      </KeyLink>
    ) : (
      content
    );
  };

  const columns: TableProps<T>['columns'] = [
    ...config.columns
      // The key column stays, whatever was chosen: it is the way into each row.
      .filter((column) => shown.has(column.key) || column.key === keyColumn)
      .map((column, index) => ({
        key: column.key,
        dataIndex: column.key,
        title: column.title,
        width: column.width,
        // A wide table scrolls sideways under its key, which stays in view; antd draws a shadow
        // at the edge where more columns hide, so the table shows that it scrolls (UX.md).
        fixed: column.key === keyColumn && index === 0 ? ('left' as const) : undefined,
        sorter: Boolean(column.sortKey),
        sortOrder: sortOrder(column.sortKey),
        render:
          column.key === keyColumn
            ? (value: unknown, item: T) =>
                keyCell(
                  column.render ? column.render(item) : (textOf(value) ?? config.titleOf(item)),
                  item,
                )
            : column.render
              ? (_: unknown, item: T) => column.render!(item)
              : (value: unknown) => textOf(value) ?? '—',
      })),
    ...(canManage && (writes || config.rowActions)
      ? [
          {
            key: 'actions',
            title: 'Actions',
            render: (_: unknown, item: T) => (
              <Space size="small" wrap onClick={(event) => event.stopPropagation()}>
                {writes ? (
                  <WriteActions
                    config={config}
                    endpoints={writes}
                    item={item}
                    onEdit={() => setFormParam(String(item.id))}
                  />
                ) : (
                  config.rowActions?.(item)
                )}
              </Space>
            ),
          },
        ]
      : []),
  ];

  const onTableChange: TableProps<T>['onChange'] = (_pagination, _filters, sorter) => {
    const single = Array.isArray(sorter) ? sorter[0] : sorter;
    const column = config.columns.find((c) => c.key === single?.columnKey);
    const order = single?.order === 'descend' ? 'desc' : single?.order ? 'asc' : undefined;
    setUrl({
      sort: order && column?.sortKey ? column.sortKey : undefined,
      // The list's own order stays out of the address.
      order: order === defaultOrder ? undefined : order,
    });
  };

  const columnChooser = (
    <Checkbox.Group
      style={{ display: 'grid', gap: 4 }}
      value={[...new Set([...shown, ...(keyColumn ? [keyColumn] : [])])]}
      options={config.columns.map((column) => ({
        value: column.key,
        label: column.title,
        disabled: column.key === keyColumn,
      }))}
      onChange={(keys) => setShown(new Set(keys as string[]))}
    />
  );

  return (
    <div>
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 16 }} wrap>
        <Typography.Title level={1} style={PAGE_TITLE_STYLE}>
          {entry.label}
        </Typography.Title>
        <Space wrap>
          {config.actions}
          {config.import && canImport && <Button onClick={() => setImporting(true)}>Import</Button>}
          {writes && config.form && canManage && (
            <Button type="primary" onClick={startCreating}>
              New {resource.singular}
            </Button>
          )}
        </Space>
      </Space>
      {config.header}
      {editedRead.isError && (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 12 }}
          title={`The ${resource.singular} #${editId} could not be opened.`}
          description={editedRead.error.message}
          action={<Button onClick={() => setFormParam(undefined)}>Close</Button>}
        />
      )}
      <Space wrap style={{ marginBottom: 12 }}>
        <Input.Search
          aria-label="Search"
          allowClear
          placeholder={config.searchPlaceholder}
          defaultValue={url.search}
          key={url.search ?? ''}
          onSearch={(search) => setUrl({ search: search.trim() })}
          style={{ width: 280 }}
        />
        {config.filters.map((filter) =>
          'fromAddress' in filter ? (
            url[filter.key] !== undefined && (
              <Tag
                key={filter.key}
                closable
                closeIcon={
                  <span role="button" aria-label={`Clear the filter ${filter.label}`}>
                    ×
                  </span>
                }
                onClose={() => setUrl({ [filter.key]: undefined })}
              >
                {filter.label} #{url[filter.key]}
              </Tag>
            )
          ) : 'options' in filter ? (
            <Select
              key={filter.key}
              aria-label={filter.label}
              placeholder={filter.label}
              allowClear
              style={{ minWidth: 150 }}
              value={url[filter.key]}
              options={filter.options.map((option) => ({ ...option, value: String(option.value) }))}
              onChange={(value?: string) => setUrl({ [filter.key]: value })}
            />
          ) : (
            <RemoteFilter
              key={filter.key}
              filter={filter}
              value={url[filter.key]}
              onChange={(value) => setUrl({ [filter.key]: value })}
            />
          ),
        )}
        {filtered && (
          <Button
            type="link"
            onClick={() =>
              setUrl(Object.fromEntries(['search', ...filterKeys].map((key) => [key, undefined])))
            }
          >
            Clear filters
          </Button>
        )}
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
          <Button>Export</Button>
        </Dropdown>
        <Popover trigger="click" title="Columns" content={columnChooser}>
          <Button>Columns</Button>
        </Popover>
      </Space>
      {list.isError ? (
        <Alert
          type="error"
          showIcon
          title={`The ${inText(resource.plural)} could not be loaded.`}
          description={list.error.message}
          action={<Button onClick={() => void list.refetch()}>Try again</Button>}
        />
      ) : (
        <Table<T>
          rowKey="id"
          size="middle"
          loading={list.isFetching}
          dataSource={page?.items ?? []}
          columns={columns}
          pagination={false}
          onChange={onTableChange}
          rowSelection={
            config.selection && {
              selectedRowKeys: [...config.selection.ids],
              preserveSelectedRowKeys: true,
              onChange: (keys) => config.selection!.onChange(keys.map(Number)),
              getCheckboxProps: (item) => ({ 'aria-label': `Choose ${config.titleOf(item)}` }),
              columnTitle: (selectAll) => <SelectAllTitle>{selectAll}</SelectAllTitle>,
            }
          }
          onRow={
            openByRow
              ? (item) => ({
                  onClick: () =>
                    void navigate(recordHref(openByRow.param, item.id), {
                      replace: !openByRow.replacesList,
                    }),
                  style: { cursor: 'pointer' },
                })
              : undefined
          }
          scroll={{ x: 'max-content' }}
          locale={{
            emptyText: (
              <Empty
                description={
                  filtered
                    ? `No ${inText(resource.plural)} match these filters.`
                    : `No ${inText(resource.plural)} yet.`
                }
              />
            ),
          }}
        />
      )}
      <ListPager
        noun={resource}
        count={count.data}
        page={page}
        cursor={url.cursor}
        limit={query.limit as number}
        onChange={setUrl}
      />
      {writes && config.form && (creating || edited) && (
        <ResourceFormDrawer
          key={creating ? 'new' : edited?.id}
          form={config.form}
          endpoints={writes}
          singular={resource.singular}
          titleOf={config.titleOf}
          item={creating ? null : (edited ?? null)}
          onClose={() => (creating ? setCreating(false) : setFormParam(undefined))}
        />
      )}
      {importing && config.import && (
        <Suspense fallback={null}>
          <ImportDrawer
            resource={config.import.resource}
            endpoints={config.import.endpoints}
            words={config.import.words}
            refreshes={[endpoints.list.path]}
            onClose={() => setImporting(false)}
          />
        </Suspense>
      )}
    </div>
  );
}

/**
 * The box that chooses every row of the page. antd copies column titles into the table's hidden
 * measuring row, where a box could take the focus unseen: that copy is made inert.
 */
function SelectAllTitle({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLSpanElement>(null);
  const [measuring, setMeasuring] = useState(false);
  useLayoutEffect(() => {
    setMeasuring(Boolean(ref.current?.closest('.ant-table-measure-row')));
  }, []);
  return (
    <span ref={ref} inert={measuring}>
      {children}
    </span>
  );
}

/** An active/inactive tag for a list column. */
export const activeTag = (active: boolean) => (
  <Tag color={active ? 'green' : 'default'}>{active ? 'Active' : 'Inactive'}</Tag>
);
