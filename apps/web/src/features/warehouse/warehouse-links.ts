import {
  ACCESSORY_STOCK_VIEW_ACCESS,
  BOX_LIST_ACCESS,
  LOCATION_ACCESS,
  ORDER_ACCESS,
  ORDER_ASSIGNMENT_ACCESS,
  ORDER_FULFIL_ACCESS,
  PACKAGE_LIST_ACCESS,
  type accessoryStockList,
  type deviceList,
  type inventoryBoxList,
  type ListDefinition,
  type locationList,
} from '@inventory/contract';
import type { FilterOf, SortOf } from '../../toolkit/resource-page-config';

/**
 * Where each figure of the warehouse dashboard drills down to: the list behind it, filtered as
 * the figure counts. The filters and sorts are the lists' own (a wrong name does not compile), set
 * in the address as the toolkit's list pages read them.
 */

type ListAddress<L extends ListDefinition> = {
  readonly filters?: Partial<Record<FilterOf<L>, string | number | boolean>>;
  readonly sort?: SortOf<L>;
  readonly order?: 'asc' | 'desc';
};

/** A list page's address with these filters and this sort. */
export const linkTo =
  <L extends ListDefinition>(path: string) =>
  (address: ListAddress<L> = {}): string => {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(address.filters ?? {})) {
      if (value !== undefined) params.set(key, String(value));
    }
    if (address.sort) params.set('sort', address.sort);
    if (address.order) params.set('order', address.order);
    const query = params.toString();
    return query ? `${path}?${query}` : path;
  };

/** The device boxes (inventory boxes), by model, grade, status and zone. */
export const boxesLink = linkTo<typeof inventoryBoxList>('/inventory-box/device');
/** The device registry, by status and hold reason. */
export const devicesLink = linkTo<typeof deviceList>('/devices/scan');
export const locationsLink = linkTo<typeof locationList>('/inventory-box/location/update-location');
export const accessoryBinsLink = linkTo<typeof accessoryStockList>('/inventory-box/accessories');

/** Who may open each list (the fulfilment dashboard's too): the guards of their pages. */
export const LINK_ACCESS = {
  boxes: BOX_LIST_ACCESS,
  // The device lookup page's own guard (devices.pages.ts).
  devices: { permission: 'device.scan' },
  locations: LOCATION_ACCESS,
  accessoryBins: ACCESSORY_STOCK_VIEW_ACCESS,
  orders: ORDER_ACCESS,
  pipeline: ORDER_FULFIL_ACCESS,
  backlog: ORDER_ACCESS,
  packages: PACKAGE_LIST_ACCESS,
  assignment: ORDER_ASSIGNMENT_ACCESS,
} as const;
