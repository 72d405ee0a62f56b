import {
  BOX_SCAN_ACCESS,
  boxedDeviceListEndpoints,
  DEVICE_GRADES,
  INVENTORY_BOX_STATUSES,
  inventoryBoxList,
  inventoryBoxListEndpoints,
  inventoryBoxPickers,
  type BoxedDevice,
  type InventoryBoxRow,
  type ListEndpoints,
} from '@inventory/contract';
import { Alert, Button, Dropdown, Input, Select, Space, Table, Tag, Typography } from 'antd';
import type { TableProps } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { showApiError } from '../../../shell/api-errors';
import { callEndpoint } from '../../../shell/http-client';
import { notify } from '../../../shell/notify';
import { PAGE_TITLE_STYLE } from '../../../shell/page-styles';
import type { PageProps } from '../../../shell/page-types';
import { tableUrlState } from '../../../shell/table-url-state';
import { useCan } from '../../../shell/use-can';
import { when } from '../../../toolkit/format';
import { ListPager } from '../../../toolkit/list-pager';
import { useListUrlState } from '../../../toolkit/list-url-state';
import { pickerLoader } from '../../../toolkit/picker-options';
import { RemoteFilter } from '../../../toolkit/resource-page';
import {
  startDownload,
  useResourceCount,
  useResourceList,
} from '../../../toolkit/resource-queries';
import { countText } from '../../../toolkit/station';
import { deviceLookupPath, DeviceStatusTag, HoldTag } from '../../devices';
import { reprintInventoryBoxLabel, useStartCount } from '../api/boxes.queries';
import { INVENTORY_BOX_STATUS_COLORS } from '../consolidation-feedback';

const FILTER_KEYS = ['model_id', 'color_id', 'grade', 'status', 'zone_id', 'min_age_days'];

/** The scan station's page. */
const STATION_PATH = '/inventory-box/scan-device';

/** The boxes a count starts on: sealed, and not being filled. */
const COUNTABLE = new Set(['sealed', 'located', 'partially_picked']);

const AGE_OPTIONS = [7, 30, 60, 90, 180, 365].map((days) => ({
  value: String(days),
  label: `${days} days or older`,
}));

const statusTag = (status: InventoryBoxRow['status']) => (
  <Tag color={INVENTORY_BOX_STATUS_COLORS[status]}>
    {status === 'locked' ? 'locked (count)' : status.replace('_', ' ')}
  </Tag>
);

/** Where a box is worked on at the scan station: verified while counted, else split or moved. */
const stationLink = (box: InventoryBoxRow) =>
  box.status === 'locked'
    ? `${STATION_PATH}?mode=verify&box=${box.code}`
    : `${STATION_PATH}?mode=move&from=${box.code}`;

/** A box's IMEIs, a page at a time: the row expanded. */
function BoxImeis({ box }: { box: InventoryBoxRow }) {
  const [cursor, setCursor] = useState<string | undefined>();
  const [limit, setLimit] = useState(20);
  const devices = useResourceList<BoxedDevice>(boxedDeviceListEndpoints, {
    box_id: box.id,
    sort: 'imei',
    order: 'asc',
    limit,
    cursor,
  });
  return (
    <section aria-label={`IMEIs of ${box.code}`}>
      {devices.isError ? (
        <Alert type="error" showIcon title="The IMEIs could not be read." />
      ) : (
        <Table<BoxedDevice>
          size="small"
          rowKey="id"
          loading={devices.isFetching}
          dataSource={devices.data?.items ?? []}
          pagination={false}
          columns={[
            {
              title: 'IMEI',
              dataIndex: 'identifier',
              render: (imei: string) => (
                <Link to={deviceLookupPath(imei)} title={`Device ${imei} in the device lookup`}>
                  {imei}
                </Link>
              ),
            },
            { title: 'IMEI 2', dataIndex: 'imei2', render: (value: string | null) => value ?? '—' },
            {
              title: 'Status',
              dataIndex: 'status',
              render: (status: BoxedDevice['status']) => <DeviceStatusTag status={status} />,
            },
            {
              title: 'Hold',
              dataIndex: 'hold_reason',
              render: (reason: BoxedDevice['hold_reason']) => <HoldTag reason={reason} />,
            },
          ]}
        />
      )}
      <ListPager
        noun={{ singular: 'device', plural: 'Devices' }}
        count={{ total: box.qty, capped: false }}
        page={devices.data}
        cursor={cursor}
        limit={limit}
        onChange={(changes) => {
          setCursor(changes.cursor);
          if (changes.limit) setLimit(changes.limit);
        }}
      />
    </section>
  );
}

/**
 * Device boxes (DOMAIN.md 4.2): every inventory box with what it holds, its fill, status,
 * location and age, on keyset pages; a row opens to its IMEIs. Export at box or IMEI level, the
 * box label, a count (the box is locked until the scan station verifies it), and the way to the
 * scan station to split or move. What a box holds changes only by scans.
 */
export default function InventoryBoxesPage({ entry }: PageProps) {
  const [url, setUrl] = useListUrlState(FILTER_KEYS);
  const filters = Object.fromEntries(FILTER_KEYS.map((key) => [key, url[key]]));
  const query = {
    ...filters,
    search: url.search,
    sort: inventoryBoxList.sorts.find((sort) => sort === url.sort) ?? inventoryBoxList.defaultSort,
    order: url.order === 'asc' ? ('asc' as const) : ('desc' as const),
    cursor: url.cursor,
    limit: Number(url.limit ?? 50),
  };
  const boxes = useResourceList<InventoryBoxRow>(inventoryBoxListEndpoints, query);
  const count = useResourceCount(inventoryBoxListEndpoints, query);
  const canCount = useCan(BOX_SCAN_ACCESS);
  const startCount = useStartCount();
  const { sortOrder, onChange } = tableUrlState<InventoryBoxRow>(query, inventoryBoxList, setUrl);
  const filtered = Boolean(url.search) || FILTER_KEYS.some((key) => url[key] !== undefined);

  const exportAs = async (endpoints: ListEndpoints, format: 'csv' | 'xlsx', what: string) => {
    try {
      const { cursor: _cursor, limit: _limit, sort: _sort, order: _order, ...shown } = query;
      const answer = await callEndpoint(endpoints.exportFile, { body: { ...shown, format } });
      startDownload(answer.data);
      notify.success(`The export of ${what} has started.`);
    } catch (error) {
      showApiError(error);
    }
  };

  const beginCount = async (box: InventoryBoxRow) => {
    try {
      await startCount.mutateAsync(box.id);
      notify.success(`${box.code} is locked for its count: verify it at the scan station.`);
    } catch (error) {
      showApiError(error);
    }
  };

  const columns: TableProps<InventoryBoxRow>['columns'] = [
    {
      title: 'Box',
      dataIndex: 'code',
      fixed: 'left',
      sorter: true,
      sortOrder: sortOrder('code'),
      render: (code: string) => <Typography.Text strong>{code}</Typography.Text>,
    },
    { title: 'Model', dataIndex: 'model' },
    { title: 'Colour', dataIndex: 'color', render: (value: string | null) => value ?? '—' },
    {
      title: 'Capacity',
      dataIndex: 'capacity_gb',
      render: (value: number | null) => (value === null ? '—' : `${value} GB`),
    },
    { title: 'Grade', dataIndex: 'grade' },
    {
      title: 'Lock',
      dataIndex: 'carrier_lock',
      render: (value: string | null) => value ?? 'unlocked',
    },
    {
      title: 'Qty / max',
      key: 'fill',
      render: (_, box) => <span data-testid="box-qty">{countText(box.qty, box.max_qty)}</span>,
    },
    { title: 'Status', dataIndex: 'status', render: statusTag },
    {
      title: 'Location',
      dataIndex: 'location_code',
      render: (value: string | null) => value ?? '—',
    },
    {
      title: 'Sealed',
      dataIndex: 'sealed_at',
      sorter: true,
      sortOrder: sortOrder('sealed_at'),
      render: (value: string | null) => (value ? when(value) : '—'),
    },
    { title: 'Age (days)', dataIndex: 'age_days' },
    {
      title: 'Actions',
      key: 'actions',
      render: (_, box) => (
        <Space size="small" wrap>
          <Button
            size="small"
            aria-label={`Print the label of ${box.code}`}
            onClick={() => void reprintInventoryBoxLabel(box.id).catch(showApiError)}
          >
            Label
          </Button>
          {canCount && COUNTABLE.has(box.status) && (
            <Button
              size="small"
              aria-label={`Start a count of ${box.code}`}
              loading={startCount.isPending && startCount.variables === box.id}
              onClick={() => void beginCount(box)}
            >
              Start count
            </Button>
          )}
          {canCount && (
            <Link to={stationLink(box)} aria-label={`Open ${box.code} in the scan station`}>
              {box.status === 'locked' ? 'Verify' : 'Scan station'}
            </Link>
          )}
        </Space>
      ),
    },
  ];

  return (
    <>
      <Typography.Title level={1} style={{ ...PAGE_TITLE_STYLE, marginBottom: 16 }}>
        {entry.label}
      </Typography.Title>
      <Space wrap style={{ marginBottom: 12 }}>
        <Input.Search
          aria-label="Search"
          allowClear
          placeholder="Box code or IMEI"
          defaultValue={url.search}
          key={url.search ?? ''}
          onSearch={(search) => setUrl({ search: search.trim() })}
          style={{ width: 240 }}
        />
        <RemoteFilter
          filter={{
            key: 'model_id',
            label: 'Model',
            load: pickerLoader(inventoryBoxPickers.models),
          }}
          value={url.model_id}
          onChange={(value) => setUrl({ model_id: value })}
        />
        <RemoteFilter
          filter={{
            key: 'color_id',
            label: 'Colour',
            load: pickerLoader(inventoryBoxPickers.colors),
          }}
          value={url.color_id}
          onChange={(value) => setUrl({ color_id: value })}
        />
        <Select
          aria-label="Grade"
          placeholder="Grade"
          allowClear
          style={{ minWidth: 110 }}
          value={url.grade}
          options={DEVICE_GRADES.map((grade) => ({ value: grade, label: `Grade ${grade}` }))}
          onChange={(grade?: string) => setUrl({ grade })}
        />
        <Select
          aria-label="Status"
          placeholder="Status"
          allowClear
          style={{ minWidth: 150 }}
          value={url.status}
          options={INVENTORY_BOX_STATUSES.map((status) => ({
            value: status,
            label: status.replace('_', ' '),
          }))}
          onChange={(status?: string) => setUrl({ status })}
        />
        <RemoteFilter
          filter={{ key: 'zone_id', label: 'Zone', load: pickerLoader(inventoryBoxPickers.zones) }}
          value={url.zone_id}
          onChange={(value) => setUrl({ zone_id: value })}
        />
        <Select
          aria-label="Age"
          placeholder="Age"
          allowClear
          style={{ minWidth: 170 }}
          value={url.min_age_days}
          options={AGE_OPTIONS}
          onChange={(days?: string) => setUrl({ min_age_days: days })}
        />
        {filtered && (
          <Button
            type="link"
            onClick={() =>
              setUrl(Object.fromEntries(['search', ...FILTER_KEYS].map((key) => [key, undefined])))
            }
          >
            Clear filters
          </Button>
        )}
        <Dropdown
          trigger={['click']}
          menu={{
            items: [
              { key: 'boxes-csv', label: 'Boxes as CSV' },
              { key: 'boxes-xlsx', label: 'Boxes as Excel (XLSX)' },
              { key: 'imeis-csv', label: 'IMEIs as CSV' },
              { key: 'imeis-xlsx', label: 'IMEIs as Excel (XLSX)' },
            ],
            onClick: ({ key }) => {
              const [level, format] = key.split('-') as ['boxes' | 'imeis', 'csv' | 'xlsx'];
              void (level === 'boxes'
                ? exportAs(inventoryBoxListEndpoints, format, 'the boxes')
                : exportAs(boxedDeviceListEndpoints, format, 'their IMEIs'));
            },
          }}
        >
          <Button>Export</Button>
        </Dropdown>
      </Space>
      {boxes.isError ? (
        <Alert
          type="error"
          showIcon
          title="The device boxes could not be loaded."
          description={boxes.error.message}
          action={<Button onClick={() => void boxes.refetch()}>Try again</Button>}
        />
      ) : (
        <Table<InventoryBoxRow>
          rowKey="id"
          size="middle"
          loading={boxes.isFetching}
          dataSource={boxes.data?.items ?? []}
          columns={columns}
          pagination={false}
          onChange={onChange}
          scroll={{ x: 'max-content' }}
          expandable={{
            expandedRowRender: (box) => <BoxImeis box={box} />,
            rowExpandable: (box) => box.qty > 0,
          }}
          locale={{
            emptyText: filtered ? 'No device boxes match these filters.' : 'No device boxes yet.',
          }}
        />
      )}
      <ListPager
        noun={inventoryBoxList}
        count={count.data}
        page={boxes.data}
        cursor={url.cursor}
        limit={query.limit}
        onChange={setUrl}
      />
    </>
  );
}
