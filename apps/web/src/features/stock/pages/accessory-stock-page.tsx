import {
  ACCESSORY_KINDS,
  ACCESSORY_STOCK_MANAGE_ACCESS,
  accessoryStockEndpoints,
  accessoryStockList,
  type AccessoryStock,
} from '@inventory/contract';
import { Button, Space, Typography } from 'antd';
import type { PageProps } from '../../../shell/page-types';
import { when } from '../../../toolkit/format';
import { pickerLoader } from '../../../toolkit/picker-options';
import type { ResourcePageConfig } from '../../../toolkit/resource-page-config';
import { optionsOf } from '../../master-data';
import type { StockPreset } from '../components/stock-action-drawer';
import { StockListPage, type StockPageTools } from '../components/stock-list-page';

const IN_STOCK = [
  { value: 'true', label: 'With units' },
  { value: 'false', label: 'Empty' },
];

const presetOf = (row: AccessoryStock): StockPreset => ({
  itemId: row.accessory_id,
  itemLabel: row.sku,
  locationId: row.location_id,
  locationLabel: row.location,
});

const config = ({
  open,
  countBin,
  print,
  canChange,
}: StockPageTools): ResourcePageConfig<AccessoryStock, typeof accessoryStockList> => ({
  resource: { ...accessoryStockList, manage: ACCESSORY_STOCK_MANAGE_ACCESS },
  endpoints: accessoryStockEndpoints,
  titleOf: (row) => `${row.sku} at ${row.location}`,
  searchPlaceholder: 'SKU, name, barcode or location',
  header: (
    <Typography.Paragraph type="secondary">
      Accessories per SKU and bin. Quantities change only by a receipt, an adjustment with its
      reason, a move or a count, each written to the stock ledger; stock never goes below zero.
    </Typography.Paragraph>
  ),
  actions: canChange ? (
    <Space wrap>
      <Button type="primary" onClick={() => open('receive', null)}>
        Receive
      </Button>
      <Button onClick={() => open('move', null)}>Move</Button>
      <Button onClick={() => open('adjust', null)}>Adjust</Button>
      <Button onClick={() => open('count', null)}>Count</Button>
      <Button onClick={countBin}>Count a bin</Button>
    </Space>
  ) : undefined,
  rowActions: (row) => (
    <>
      <Button size="small" onClick={() => open('count', presetOf(row))}>
        Count
      </Button>
      <Button size="small" onClick={() => open('move', presetOf(row))}>
        Move
      </Button>
      <Button size="small" onClick={() => open('adjust', presetOf(row))}>
        Adjust
      </Button>
      <Button size="small" onClick={() => print([row.id], 'pdf')}>
        Bin label
      </Button>
    </>
  ),
  columns: [
    { key: 'sku', title: 'SKU', sortKey: 'sku' },
    { key: 'name', title: 'Name' },
    { key: 'kind', title: 'Kind', hidden: true },
    { key: 'location', title: 'Location', sortKey: 'location' },
    { key: 'on_hand', title: 'On hand', sortKey: 'on_hand' },
    { key: 'reserved', title: 'Reserved' },
    { key: 'available', title: 'Available' },
    {
      key: 'last_counted_at',
      title: 'Last count',
      render: (row) => (row.last_counted_at ? when(row.last_counted_at) : 'Never counted'),
    },
    {
      key: 'last_moved_at',
      title: 'Last move',
      sortKey: 'last_moved_at',
      render: (row) => when(row.last_moved_at),
    },
  ],
  filters: [
    {
      key: 'accessory_id',
      label: 'Accessory',
      load: pickerLoader(accessoryStockEndpoints.itemOptions),
    },
    {
      key: 'location_id',
      label: 'Location',
      load: pickerLoader(accessoryStockEndpoints.locationOptions),
    },
    { key: 'kind', label: 'Kind', options: optionsOf(ACCESSORY_KINDS) },
    { key: 'in_stock', label: 'Stock', options: IN_STOCK },
  ],
});

/**
 * Accessory bins: on hand, reserved and available per SKU and location, with the last count;
 * receive, adjust, move, count, and print bin labels.
 */
export default function AccessoryStockPage(props: PageProps) {
  return (
    <StockListPage
      page={props}
      kind="accessory"
      manage={ACCESSORY_STOCK_MANAGE_ACCESS}
      what="accessory bin"
      configOf={config}
    />
  );
}
