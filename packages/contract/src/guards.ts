import { STATION_ACCESS } from './roles.js';

/**
 * Guards that pages and their endpoints share, kept apart from the schemas: the web's page
 * registry reads them on every page, the login page included, and one imported from its area's
 * contract would bring that contract's schemas into the first load.
 */

/** The box scan station (DOMAIN.md 4.2: CW, WM, FW). */
export const BOX_SCAN_ACCESS = { permission: 'box.scan-device' } as const;

/** Reading the device boxes (DOMAIN.md 4.2: WM, CL, FM, SA). */
export const BOX_LIST_ACCESS = { permission: 'box.view-list' } as const;

/** Putaway (DOMAIN.md 4.2). */
export const PUTAWAY_ACCESS = { permission: 'location.assignment' } as const;

/** Product requests (DOMAIN.md 4.17). */
export const PRODUCT_REQUEST_ACCESS = { permission: 'request.index' } as const;

/** Location maintenance (DOMAIN.md 6.2: the warehouse manager). */
export const LOCATION_ACCESS = { permission: 'location.activation' } as const;

/** The warehouse dashboard: the warehouse manager's (DOMAIN.md 6.3). */
export const WAREHOUSE_DASHBOARD_ACCESS = STATION_ACCESS.warehouseDashboards;
