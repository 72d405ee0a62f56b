import {
  PART_CATEGORIES,
  PART_STOCK_MANAGE_ACCESS,
  partStockEndpoints,
  partStockList,
  type PartStock,
} from '@inventory/contract';
import { Button, Space, Tag, Typography } from 'antd';
import type { PageProps } from '../../../shell/page-types';
import { dollars, when } from '../../../toolkit/format';
import { pickerLoader } from '../../../toolkit/picker-options';
import type { ResourcePageConfig } from '../../../toolkit/resource-page-config';
import { optionsOf } from '../../master-data';
import type { StockPreset } from '../components/stock-action-drawer';
import { StockListPage, type StockPageTools } from '../components/stock-list-page';

const YES_NO = [
  { value: 'true', label: 'Yes' },
  { value: 'false', label: 'No' },
];

/** A part's row starts its actions at its first bin, if it has one. */
const presetOf = (part: PartStock): StockPreset | null => {
  const bin = part.bins[0];
  return bin
    ? {
        itemId: part.id,
        itemLabel: part.part_number,
        locationId: bin.location_id,
        locationLabel: bin.location,
      }
    : null;
};

const config = ({
  open,
  countBin,
  print,
  canChange,
}: StockPageTools): ResourcePageConfig<PartStock, typeof partStockList> => ({
  resource: { ...partStockList, manage: PART_STOCK_MANAGE_ACCESS },
  endpoints: partStockEndpoints,
  titleOf: (part) => part.part_number,
  searchPlaceholder: 'Part number, name or barcode',
  header: (
    <Typography.Paragraph type="secondary">
      Repair parts on hand over every bin, used in the last 30 days, and flagged at or below their
      reorder point. A receipt from a vendor at a unit cost updates the part&apos;s average cost;
      parts are issued to repair tickets from the repair bench.
    </Typography.Paragraph>
  ),
  actions: canChange ? (
    <Space wrap>
      <Button type="primary" onClick={() => open('receive', null)}>
        Receive parts
      </Button>
      <Button onClick={() => open('move', null)}>Move</Button>
      <Button onClick={() => open('adjust', null)}>Adjust</Button>
      <Button onClick={() => open('count', null)}>Count</Button>
      <Button onClick={countBin}>Count a bin</Button>
    </Space>
  ) : undefined,
  rowActions: (part) => {
    const preset = presetOf(part);
    return (
      preset && (
        <>
          <Button size="small" onClick={() => open('count', preset)}>
            Count
          </Button>
          <Button size="small" onClick={() => open('move', preset)}>
            Move
          </Button>
          <Button size="small" onClick={() => open('adjust', preset)}>
            Adjust
          </Button>
          <Button size="small" onClick={() => print([part.id], 'pdf')}>
            Bin labels
          </Button>
        </>
      )
    );
  },
  columns: [
    { key: 'part_number', title: 'Part number', sortKey: 'part_number' },
    { key: 'name', title: 'Name', sortKey: 'name' },
    { key: 'category', title: 'Category', sortKey: 'category' },
    {
      key: 'compatible_models',
      title: 'Compatible models',
      render: (part) => part.compatible_models.join(', ') || '—',
    },
    { key: 'on_hand', title: 'On hand' },
    { key: 'reserved', title: 'Reserved' },
    { key: 'available', title: 'Available', hidden: true },
    { key: 'used_30d', title: 'Used in 30 days' },
    {
      key: 'bins',
      title: 'Location',
      render: (part) =>
        part.bins.length === 0
          ? 'None in stock'
          : part.bins.map((bin) => `${bin.location} (${bin.on_hand})`).join(', '),
    },
    {
      key: 'below_reorder',
      title: 'Reorder',
      render: (part) =>
        part.below_reorder ? (
          <Tag color="red">Reorder: {part.reorder_point} or fewer</Tag>
        ) : (
          <Tag>OK</Tag>
        ),
    },
    {
      key: 'last_counted_at',
      title: 'Last count',
      render: (part) => (part.last_counted_at ? when(part.last_counted_at) : 'Never counted'),
    },
    { key: 'reorder_point', title: 'Reorder point', hidden: true },
    {
      key: 'cost_cents',
      title: 'Average cost',
      hidden: true,
      render: (part) => dollars(part.cost_cents),
    },
  ],
  filters: [
    { key: 'category', label: 'Category', options: optionsOf(PART_CATEGORIES) },
    { key: 'model_id', label: 'Fits model', load: pickerLoader(partStockEndpoints.modelOptions) },
    {
      key: 'location_id',
      label: 'Location',
      load: pickerLoader(partStockEndpoints.locationOptions),
    },
    { key: 'below_reorder', label: 'At or below reorder point', options: YES_NO },
  ],
});

/**
 * Repair parts: stock per part over its bins, with its last count; receive at a unit cost,
 * adjust, move, count, and print bin labels.
 */
export default function PartStockPage(props: PageProps) {
  return (
    <StockListPage
      page={props}
      kind="part"
      manage={PART_STOCK_MANAGE_ACCESS}
      what="part"
      configOf={config}
    />
  );
}
