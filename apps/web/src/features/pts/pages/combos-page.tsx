import {
  comboEndpoints,
  comboList,
  comboListEndpoints,
  PTS_COMBO_MANAGE,
  type Combo,
} from '@inventory/contract';
import { Typography } from 'antd';
import type { PageProps } from '../../../shell/page-types';
import type { ListColumn } from '../../../toolkit/resource-page-config';
import { useComboStock } from '../api/products.queries';
import { Figure } from '../components/catalogue-tags';
import { ComboFormDrawer } from '../components/combos-form';
import { KitPage } from '../components/kit-page';

/** Each slot with its allowed variants and the pool of stock they hold now. */
function Slots({ combo }: { combo: Combo }) {
  const stock = useComboStock(combo.id);
  return (
    <ul style={{ margin: 0, paddingInlineStart: 16 }}>
      {combo.slots.map((slot) => (
        <li key={slot.id}>
          {slot.qty} × {slot.name}: {slot.variants.map((v) => v.sku).join(', ')} (pool{' '}
          <Figure
            value={
              stock.data
                ? (stock.data.slots.find((s) => s.slot_id === slot.id)?.pool ?? 0)
                : undefined
            }
            loading={stock.isPending}
            failed={stock.isError}
          />
          )
        </li>
      ))}
    </ul>
  );
}

/** How many combos the pools fill now. */
function Fillable({ combo }: { combo: Combo }) {
  const stock = useComboStock(combo.id);
  return <Figure value={stock.data?.available} loading={stock.isPending} failed={stock.isError} />;
}

const header = (
  <Typography.Paragraph type="secondary">
    Offers with choice slots: each slot is filled by any of its allowed variants, the one with the
    oldest stock first. A slot&apos;s pool is the stock of all of them.
  </Typography.Paragraph>
);

const slotColumns: readonly ListColumn<Combo, 'sku' | 'name'>[] = [
  { key: 'slots', title: 'Slots and pools', render: (combo) => <Slots combo={combo} /> },
  { key: 'available', title: 'Can fill', render: (combo) => <Fillable combo={combo} /> },
];

/** Combos (DOMAIN.md 4.5): choice slots, their pools, create, edit, deactivate. */
export default function CombosPage(props: PageProps) {
  return (
    <KitPage<Combo>
      page={props}
      singular="combo"
      list={comboList}
      listEndpoints={comboListEndpoints}
      endpoints={comboEndpoints}
      manage={PTS_COMBO_MANAGE}
      header={header}
      shapeColumns={slotColumns}
      form={(combo, onClose) => <ComboFormDrawer combo={combo} onClose={onClose} />}
    />
  );
}
