import {
  PRODUCT_STATUSES,
  PTS_PRODUCT_MANAGE,
  productEndpoints,
  productList,
  productListEndpoints,
  type Product,
} from '@inventory/contract';
import { Button, Typography } from 'antd';
import { useMemo, useState } from 'react';
import type { PageProps } from '../../../shell/page-types';
import { useCan } from '../../../shell/use-can';
import { useUrlParam } from '../../../shell/use-url-state';
import { when } from '../../../toolkit/format';
import { pickerLoader } from '../../../toolkit/picker-options';
import type { ResourcePageConfig } from '../../../toolkit/resource-page-config';
import { ResourcePage } from '../../../toolkit/resource-page';
import { optionsOf } from '../../master-data';
import { StatusTag, TagList } from '../components/catalogue-tags';
import { ProductDrawer } from '../components/product-drawer';
import { CreateProductDrawer } from '../components/products-forms';

/** The address key of the product whose drawer is open. */
const PRODUCT_PARAM = 'product';

const config = (create: (() => void) | null): ResourcePageConfig<Product, typeof productList> => ({
  resource: { ...productList, manage: PTS_PRODUCT_MANAGE },
  endpoints: productListEndpoints,
  titleOf: (product) => product.name,
  searchPlaceholder: 'Product name or variant SKU',
  header: (
    <Typography.Paragraph type="secondary">
      What push-to-sale sells of each device model: a product per model, a variant per colour,
      capacity, grade and lock, each with the stock that matches it now. Open a product for its
      variants, values and images.
    </Typography.Paragraph>
  ),
  actions: create && (
    <Button type="primary" onClick={create}>
      New product
    </Button>
  ),
  record: { param: PRODUCT_PARAM, rowClick: true },
  columns: [
    { key: 'name', title: 'Product', sortKey: 'name' },
    { key: 'model', title: 'Model' },
    {
      key: 'variants',
      title: 'Variants',
      render: (product) =>
        product.active_variant_count === product.variant_count
          ? String(product.variant_count)
          : `${product.active_variant_count} of ${product.variant_count} active`,
    },
    { key: 'tags', title: 'Tags', render: (product) => <TagList tags={product.tags} /> },
    { key: 'image_count', title: 'Images' },
    { key: 'status', title: 'Status', render: (product) => <StatusTag status={product.status} /> },
    {
      key: 'updated_at',
      title: 'Updated',
      sortKey: 'updated_at',
      render: (product) => when(product.updated_at),
    },
  ],
  filters: [
    { key: 'status', label: 'Status', options: optionsOf(PRODUCT_STATUSES) },
    { key: 'model_id', label: 'Model', load: pickerLoader(productEndpoints.modelOptions) },
    { key: 'tag_id', label: 'Tag', load: pickerLoader(productEndpoints.tagOptions) },
  ],
});

/**
 * Products and variants (DOMAIN.md 4.5): the list, a product's drawer (`?product=`) and the
 * creation of a product from a model.
 */
export default function ProductsPage(props: PageProps) {
  const [opened, setOpened] = useUrlParam(PRODUCT_PARAM);
  const [creating, setCreating] = useState(false);
  const canManage = useCan(PTS_PRODUCT_MANAGE);
  const pageConfig = useMemo(() => config(canManage ? () => setCreating(true) : null), [canManage]);
  const openedId = Number(opened) || null;
  return (
    <>
      <ResourcePage {...props} config={pageConfig} />
      {openedId && <ProductDrawer id={openedId} onClose={() => setOpened(undefined)} />}
      {creating && (
        <CreateProductDrawer
          onClose={() => setCreating(false)}
          onCreated={(product) => setOpened(String(product.id))}
        />
      )}
    </>
  );
}
