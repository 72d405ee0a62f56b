import {
  PTS_PRODUCT_MANAGE,
  productAttachments,
  productEndpoints,
  variantEndpoints,
  type Product,
  type PropertyValueRef,
  type Variant,
} from '@inventory/contract';
import { Alert, Button, Descriptions, Drawer, Space, Spin, Table, Typography } from 'antd';
import { useState } from 'react';
import { showApiError } from '../../../shell/api-errors';
import { useDialogFocus } from '../../../shell/dialog-focus';
import { callEndpoint } from '../../../shell/http-client';
import { notify } from '../../../shell/notify';
import { useCan } from '../../../shell/use-can';
import { AttachmentsPanel } from '../../../toolkit/attachments-panel';
import { ListPager } from '../../../toolkit/list-pager';
import {
  useResourceCount,
  useResourceItem,
  useResourceList,
} from '../../../toolkit/resource-queries';
import { useCatalogueWrite, useVariantStock } from '../api/products.queries';
import { Figure, StatusTag, TagList } from './catalogue-tags';
import {
  AddVariantDrawer,
  EditProductDrawer,
  PropertyValuesDrawer,
  saveProductValues,
  saveVariantValues,
} from './products-forms';

/** A variant's sellable stock now: in stock, in a located box, not held. */
function VariantStock({ id }: { id: number }) {
  const stock = useVariantStock(id);
  return <Figure value={stock.data} loading={stock.isPending} failed={stock.isError} />;
}

const valueText = (value: PropertyValueRef) =>
  `${typeof value.value === 'boolean' ? (value.value ? 'yes' : 'no') : String(value.value)}${
    value.unit ? ` ${value.unit}` : ''
  }`;

const valuesText = (values: readonly PropertyValueRef[]) =>
  values.length === 0
    ? '—'
    : values.map((value) => `${value.name}: ${valueText(value)}`).join('; ');

/** Runs a status change and says how it went. */
async function act(work: () => Promise<unknown>, success: string) {
  try {
    await work();
    notify.success(success);
  } catch (error) {
    showApiError(error);
  }
}

/** The product's variants, a page at a time, with each one's matching stock. */
function Variants({ product, canManage }: { product: Product; canManage: boolean }) {
  const [cursor, setCursor] = useState<string | undefined>();
  const [limit, setLimit] = useState(50);
  const [valuesOf, setValuesOf] = useState<Variant | null>(null);
  const query = { product_id: product.id, sort: 'sku', order: 'asc', limit, cursor };
  const variants = useResourceList<Variant>(variantEndpoints, query);
  const count = useResourceCount(variantEndpoints, query);
  const status = useCatalogueWrite(
    ({ variant, to }: { variant: Variant; to: 'archive' | 'activate' }) =>
      callEndpoint(variantEndpoints[to], { params: { id: variant.id } }),
  );
  return (
    <section aria-label={`Variants of ${product.name}`}>
      {variants.isError ? (
        <Alert type="error" showIcon title="The variants could not be read." />
      ) : (
        <Table<Variant>
          size="small"
          rowKey="id"
          loading={variants.isFetching}
          dataSource={variants.data?.items ?? []}
          pagination={false}
          scroll={{ x: 'max-content' }}
          columns={[
            { title: 'SKU', dataIndex: 'sku' },
            { title: 'Colour', dataIndex: 'color', render: (v: string | null) => v ?? 'Any' },
            {
              title: 'Capacity',
              dataIndex: 'capacity_gb',
              render: (v: number | null) => (v === null ? 'Any' : `${v} GB`),
            },
            { title: 'Grade', dataIndex: 'grade', render: (v: string | null) => v ?? 'Any' },
            { title: 'Lock', dataIndex: 'carrier_lock', render: (v: string | null) => v ?? 'Any' },
            {
              title: 'Available',
              key: 'available',
              render: (_: unknown, variant) => <VariantStock id={variant.id} />,
            },
            { title: 'Live listings', dataIndex: 'live_listings' },
            {
              title: 'Values',
              key: 'values',
              render: (_: unknown, variant) => valuesText(variant.properties),
            },
            {
              title: 'Status',
              dataIndex: 'status',
              render: (value: string) => <StatusTag status={value} />,
            },
            ...(canManage
              ? [
                  {
                    title: 'Actions',
                    key: 'actions',
                    render: (_: unknown, variant: Variant) => (
                      <Space size="small">
                        <Button size="small" onClick={() => setValuesOf(variant)}>
                          Values
                        </Button>
                        <Button
                          size="small"
                          aria-label={`${variant.status === 'active' ? 'Archive' : 'Activate'} ${variant.sku}`}
                          onClick={() =>
                            void act(
                              () =>
                                status.mutateAsync({
                                  variant,
                                  to: variant.status === 'active' ? 'archive' : 'activate',
                                }),
                              `${variant.sku} is ${variant.status === 'active' ? 'archived' : 'active again'}.`,
                            )
                          }
                        >
                          {variant.status === 'active' ? 'Archive' : 'Activate'}
                        </Button>
                      </Space>
                    ),
                  },
                ]
              : []),
          ]}
        />
      )}
      <ListPager
        noun={{ singular: 'variant', plural: 'Variants' }}
        count={count.data}
        page={variants.data}
        cursor={cursor}
        limit={limit}
        onChange={(changes) => {
          setCursor(changes.cursor);
          if (changes.limit) setLimit(changes.limit);
        }}
      />
      {valuesOf && (
        <PropertyValuesDrawer
          title={`Property values of ${valuesOf.sku}`}
          target="variant"
          values={valuesOf.properties}
          save={saveVariantValues(valuesOf)}
          onClose={() => setValuesOf(null)}
        />
      )}
    </section>
  );
}

type Dialog = 'edit' | 'values' | 'variant';

/**
 * One product (`?product=`): what it is, its tags and property values, its variants with their
 * matching stock, and its images; edit, add a variant, archive or activate.
 */
export function ProductDrawer({ id, onClose }: { id: number; onClose: () => void }) {
  const dialogFocus = useDialogFocus();
  const product = useResourceItem<Product>(productEndpoints, id);
  const canManage = useCan(PTS_PRODUCT_MANAGE);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const status = useCatalogueWrite((to: 'archive' | 'activate') =>
    callEndpoint(productEndpoints[to], { params: { id } }),
  );
  const item = product.data;
  return (
    <Drawer
      {...dialogFocus}
      open
      size={1000}
      title={item ? item.name : 'Product'}
      onClose={onClose}
      extra={
        item &&
        canManage && (
          <Space wrap>
            <Button onClick={() => setDialog('edit')}>Edit</Button>
            <Button onClick={() => setDialog('values')}>Property values</Button>
            {item.status === 'active' && (
              <Button onClick={() => setDialog('variant')}>Add variant</Button>
            )}
            <Button
              onClick={() =>
                void act(
                  () => status.mutateAsync(item.status === 'active' ? 'archive' : 'activate'),
                  `${item.name} is ${item.status === 'active' ? 'archived' : 'active again'}.`,
                )
              }
            >
              {item.status === 'active' ? 'Archive' : 'Activate'}
            </Button>
          </Space>
        )
      }
    >
      {product.isError ? (
        <Alert
          type="error"
          showIcon
          title={`The product #${id} could not be opened.`}
          description={product.error.message}
        />
      ) : !item ? (
        <Spin />
      ) : (
        <Space orientation="vertical" size="large" style={{ width: '100%' }}>
          <Descriptions
            size="small"
            column={2}
            items={[
              { key: 'model', label: 'Model', children: item.model ?? '—' },
              { key: 'status', label: 'Status', children: <StatusTag status={item.status} /> },
              { key: 'tags', label: 'Tags', children: <TagList tags={item.tags} /> },
              { key: 'values', label: 'Properties', children: valuesText(item.properties) },
              {
                key: 'description',
                label: 'Description',
                span: 2,
                children: item.description ?? '—',
              },
            ]}
          />
          <div>
            <Typography.Title level={2} style={{ fontSize: 16 }}>
              Variants
            </Typography.Title>
            <Variants product={item} canManage={canManage} />
          </div>
          <div>
            <Typography.Title level={2} style={{ fontSize: 16 }}>
              Images and sheets
            </Typography.Title>
            <AttachmentsPanel definition={productAttachments} recordId={item.id} />
          </div>
        </Space>
      )}
      {item && dialog === 'edit' && (
        <EditProductDrawer product={item} onClose={() => setDialog(null)} />
      )}
      {item && dialog === 'variant' && (
        <AddVariantDrawer product={item} onClose={() => setDialog(null)} />
      )}
      {item && dialog === 'values' && (
        <PropertyValuesDrawer
          title={`Property values of ${item.name}`}
          target="product"
          values={item.properties}
          save={saveProductValues(item)}
          onClose={() => setDialog(null)}
        />
      )}
    </Drawer>
  );
}
