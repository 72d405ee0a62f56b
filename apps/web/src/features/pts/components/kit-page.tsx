import { SELLABLE_STATUSES, type kitList, type Schema } from '@inventory/contract';
import { Button, Space } from 'antd';
import { useMemo, useState, type ReactNode } from 'react';
import { showApiError } from '../../../shell/api-errors';
import { callEndpoint } from '../../../shell/http-client';
import { notify } from '../../../shell/notify';
import type { PageProps } from '../../../shell/page-types';
import { useCan } from '../../../shell/use-can';
import { when } from '../../../toolkit/format';
import { pickerLoader } from '../../../toolkit/picker-options';
import type { ListColumn, ResourcePageConfig } from '../../../toolkit/resource-page-config';
import { ResourcePage } from '../../../toolkit/resource-page';
import { optionsOf } from '../../master-data';
import { useCatalogueWrite } from '../api/products.queries';
import { StatusTag, TagList } from './catalogue-tags';
import type { KitEndpoints, KitRow } from './kit-form';

/*
 * What the pages of bundles and combos (kits) share: their list's columns around the kind's own,
 * the filters, and the row actions edit, deactivate and activate.
 */

type KitListDefinition = ReturnType<typeof kitList<Schema>>;

/** Deactivate or activate a kit. */
function StatusButton({ kit, endpoints }: { kit: KitRow; endpoints: KitEndpoints }) {
  const to = kit.status === 'active' ? 'deactivate' : 'activate';
  const change = useCatalogueWrite(() => callEndpoint(endpoints[to], { params: { id: kit.id } }));
  return (
    <Button
      size="small"
      onClick={() =>
        change
          .mutateAsync(undefined)
          .then(
            () =>
              notify.success(`${kit.sku} is ${to === 'activate' ? 'active again' : 'inactive'}.`),
            showApiError,
          )
      }
    >
      {to === 'activate' ? 'Activate' : 'Deactivate'}
    </Button>
  );
}

/**
 * A kind of kit's page: its list with the shared columns around `shapeColumns`, and, for those who
 * may manage it, "New", "Edit" and (de)activation; `form` is the kind's drawer.
 */
export function KitPage<Kit extends KitRow>({
  page,
  singular,
  list,
  listEndpoints,
  endpoints,
  manage,
  header,
  shapeColumns,
  form,
}: {
  page: PageProps;
  singular: 'bundle' | 'combo';
  list: KitListDefinition;
  /** The list's reading endpoints alone (the page's own writes are the kind's drawer). */
  listEndpoints: ResourcePageConfig<Kit>['endpoints'];
  endpoints: KitEndpoints;
  manage: KitListDefinition['view'];
  /** Page header: a constant, so that the page's configuration is made once. */
  header: ReactNode;
  /** The kind's own columns after SKU and name: a constant, as `header`. */
  shapeColumns: readonly ListColumn<Kit, 'sku' | 'name'>[];
  form: (kit: Kit | null, onClose: () => void) => ReactNode;
}) {
  const [editing, setEditing] = useState<Kit | 'new' | null>(null);
  const canManage = useCan(manage);
  const config = useMemo((): ResourcePageConfig<Kit, KitListDefinition> => {
    const edit = canManage ? setEditing : null;
    return {
      resource: { ...list, manage },
      endpoints: listEndpoints,
      titleOf: (kit) => kit.sku,
      searchPlaceholder: 'SKU or name',
      header,
      actions: edit && (
        <Button type="primary" onClick={() => edit('new')}>
          New {singular}
        </Button>
      ),
      rowActions: (kit) =>
        edit && (
          <Space size="small">
            <Button size="small" onClick={() => edit(kit)}>
              Edit
            </Button>
            <StatusButton kit={kit} endpoints={endpoints} />
          </Space>
        ),
      columns: [
        { key: 'sku', title: 'SKU', sortKey: 'sku' },
        { key: 'name', title: 'Name', sortKey: 'name' },
        ...shapeColumns,
        { key: 'live_listings', title: 'Live listings' },
        { key: 'tags', title: 'Tags', render: (kit) => <TagList tags={kit.tags} /> },
        { key: 'status', title: 'Status', render: (kit) => <StatusTag status={kit.status} /> },
        {
          key: 'updated_at',
          title: 'Updated',
          hidden: true,
          render: (kit) => when(kit.updated_at),
        },
      ],
      filters: [
        { key: 'status', label: 'Status', options: optionsOf(SELLABLE_STATUSES) },
        { key: 'variant_id', label: 'Variant', load: pickerLoader(endpoints.variantOptions) },
        { key: 'tag_id', label: 'Tag', load: pickerLoader(endpoints.tagOptions) },
      ],
    };
  }, [canManage, list, listEndpoints, manage, endpoints, header, shapeColumns, singular]);
  return (
    <>
      <ResourcePage {...page} config={config} />
      {editing !== null && form(editing === 'new' ? null : editing, () => setEditing(null))}
    </>
  );
}
