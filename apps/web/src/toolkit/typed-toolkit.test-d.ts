/**
 * Type tests of the toolkit and the access rule: compiled by `tsc -p apps/web` (npm run
 * typecheck), never run. Each `@ts-expect-error` marks a name the compiler must refuse: were the
 * name accepted, the unused directive would itself fail the typecheck.
 */
import {
  canAccess,
  colorEndpoints,
  colorResource,
  defineEndpoint,
  defineList,
  inboundShipmentForm,
  inboundShipmentList,
  type Access,
  type Color,
  type PermissionName,
} from '@inventory/contract';
import { expectTypeOf } from 'vitest';
import * as z from 'zod/mini';
import type { PageEntry } from '../shell/page-types';
import {
  resourcePage,
  type FilterOf,
  type FormFieldOf,
  type ListColumn,
  type ListFilter,
  type ResourceForm,
  type SortOf,
} from './resource-page-config';

expectTypeOf<SortOf<typeof colorResource>>().toEqualTypeOf<'name' | 'usage_count' | 'updated_at'>();
expectTypeOf<FilterOf<typeof colorResource>>().toEqualTypeOf<'active'>();
expectTypeOf<FormFieldOf<typeof colorResource>>().toEqualTypeOf<
  'name' | 'hex' | 'aliases' | 'active'
>();
expectTypeOf<'color.view-list'>().toExtend<PermissionName>();
expectTypeOf<string>().not.toExtend<PermissionName>();

const page = {
  resource: colorResource,
  endpoints: colorEndpoints,
  titleOf: (color: Color) => color.name,
  searchPlaceholder: 'Name',
};
const form = { defaults: {}, toValues: (color: Color) => color };

export const declared = resourcePage({
  ...page,
  columns: [
    { key: 'name', title: 'Name', sortKey: 'name' },
    { key: 'swatch', title: 'Swatch', render: (color) => color.hex },
  ],
  filters: [{ key: 'active', label: 'Status', options: [] }],
  form: { ...form, fields: [{ name: 'name', label: 'Name', kind: 'text' }] },
});

export const wrongSort = resourcePage({
  ...page,
  // @ts-expect-error: `colour` is no sort of the colours list.
  columns: [{ key: 'name', title: 'Name', sortKey: 'colour' }],
  filters: [],
  form: { ...form, fields: [] },
});

export const wrongFilter = resourcePage({
  ...page,
  columns: [],
  // @ts-expect-error: `status` is no filter of the colours list.
  filters: [{ key: 'status', label: 'Status', options: [] }],
  form: { ...form, fields: [] },
});

export const wrongColumn = resourcePage({
  ...page,
  // @ts-expect-error: a column shown by its value names a field of the item; `colour` is none.
  columns: [{ key: 'colour', title: 'Colour' }],
  filters: [],
  form: { ...form, fields: [] },
});

export const wrongField = resourcePage({
  ...page,
  columns: [],
  filters: [],
  // @ts-expect-error: `colour` is no field of the colour's create or update input.
  form: { ...form, fields: [{ name: 'colour', label: 'Colour', kind: 'text' }] },
});

/** A value that is no input field is named by the type of `toBody`'s parameter, not by a field. */
export const mappedValue = resourcePage({
  ...page,
  columns: [],
  filters: [],
  form: {
    ...form,
    fields: [{ name: 'shade', label: 'Shade', kind: 'text' }],
    toBody: ({ shade, ...values }: { shade?: unknown }) => ({ ...values, hex: shade }),
  },
});

// The parts a page declares on its own are checked the same way.
// @ts-expect-error: `vendor_name` is no field of an inbound shipment.
export const shipmentColumn: ListColumn<z.output<typeof inboundShipmentList.item>> = {
  key: 'vendor_name',
  title: 'Vendor',
};
export const shipmentFilter: ListFilter<FilterOf<typeof inboundShipmentList>> = {
  // @ts-expect-error: `vendor` is no filter of the inbound shipments list (it is `vendor_id`).
  key: 'vendor',
  label: 'Vendor',
  options: [],
};
export const shipmentForm: ResourceForm<unknown, FormFieldOf<typeof inboundShipmentForm>> = {
  // @ts-expect-error: `vendor` is no field of the shipment's inputs (it is `vendor_id`).
  fields: [{ name: 'vendor', label: 'Vendor', kind: 'text' }],
  defaults: {},
  toValues: () => ({}),
};

export const wrongDefaultSort = defineList({
  ...inboundShipmentList,
  sorts: ['eta', 'created_at'],
  // @ts-expect-error: the default sort is one of the list's sorts.
  defaultSort: 'arrival',
});

// @ts-expect-error: `color.view` is not in the permission catalogue.
export const wrongPermission: PermissionName = 'color.view';

export const wrongAccess: Access = {
  permission: 'roles',
  roles: ['Warehouse Sorting'],
  // @ts-expect-error: the second permission of a rule is a catalogue name too.
  andPermission: 'warehouse-box.scans',
};

export const wrongGuard = defineEndpoint({
  method: 'GET',
  path: '/colours',
  summary: 'Colours',
  tag: 'Master data',
  // @ts-expect-error: an endpoint's guard names a catalogue permission.
  guard: { permission: 'colour.view-list' },
  response: z.null(),
});

export const wrongPage: PageEntry = {
  path: '/colours',
  group: 'Master Data',
  label: 'Colours',
  summary: 'Colours',
  // @ts-expect-error: a page's guard names a catalogue permission.
  permission: 'colour.view-list',
  load: () => import('../features/master-data/pages/colors-page'),
};

// @ts-expect-error: the access rule is asked about catalogue permissions only.
export const wrongCheck = canAccess(null, { permission: 'colors.manage' });
