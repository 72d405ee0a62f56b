import {
  bundleEndpoints,
  bundleList,
  bundleListEndpoints,
  PTS_BUNDLE_MANAGE,
  type Bundle,
} from '@inventory/contract';
import { Typography } from 'antd';
import type { PageProps } from '../../../shell/page-types';
import type { ListColumn } from '../../../toolkit/resource-page-config';
import { useBundleStock } from '../api/products.queries';
import { BundleFormDrawer } from '../components/bundles-form';
import { Figure } from '../components/catalogue-tags';
import { KitPage } from '../components/kit-page';

/** How many kits the stock builds now, with each component's stock in its tooltip. */
function Buildable({ bundle }: { bundle: Bundle }) {
  const stock = useBundleStock(bundle.id);
  const title = stock.data?.components
    .map((c) => {
      const component = bundle.components.find((item) => item.variant_id === c.variant_id);
      return `${component?.sku ?? c.variant_id}: ${c.available} available, ${component?.qty ?? 1} per kit`;
    })
    .join('\n');
  return (
    <span title={title}>
      <Figure value={stock.data?.buildable} loading={stock.isPending} failed={stock.isError} />
    </span>
  );
}

const header = (
  <Typography.Paragraph type="secondary">
    Fixed kits sold under one SKU: every component is picked. Buildable is what the stock makes now,
    the fewest kits any component allows.
  </Typography.Paragraph>
);

const componentColumns: readonly ListColumn<Bundle, 'sku' | 'name'>[] = [
  {
    key: 'components',
    title: 'Components',
    render: (bundle) => bundle.components.map((c) => `${c.qty} × ${c.sku}`).join(', ') || '—',
  },
  { key: 'buildable', title: 'Buildable', render: (bundle) => <Buildable bundle={bundle} /> },
];

/** Bundles (DOMAIN.md 4.5): fixed kits, what stock builds, create, edit, deactivate. */
export default function BundlesPage(props: PageProps) {
  return (
    <KitPage<Bundle>
      page={props}
      singular="bundle"
      list={bundleList}
      listEndpoints={bundleListEndpoints}
      endpoints={bundleEndpoints}
      manage={PTS_BUNDLE_MANAGE}
      header={header}
      shapeColumns={componentColumns}
      form={(bundle, onClose) => <BundleFormDrawer bundle={bundle} onClose={onClose} />}
    />
  );
}
