/** The side-menu groups of spec section 2, in menu order. Permissions are grouped by them too. */
export const MENU_GROUPS = [
  'Dashboard',
  'RTS Inventory',
  'RTS Office',
  'Master Data',
  'PTS Management',
  'SIM',
  'Order',
  'Retail customers',
  'Pricing (Government Plans)',
  'RMA',
  'Working Report',
  'Blacklist devices',
  'Invoice IMEI',
  'Fulfilment',
  'Campaign',
  'Shipment',
  'Invoice',
  'Warehouse',
  'Repair',
] as const;

export type MenuGroup = (typeof MENU_GROUPS)[number];

/** Permissions of the agent layout are grouped under this name; it is not a side-menu group. */
export const AGENT_GROUP = 'Agent';

export type PermissionGroup = MenuGroup | typeof AGENT_GROUP;
