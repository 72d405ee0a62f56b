import { vendorResource } from '@inventory/contract';
import type { ResourceStore } from '../../toolkit/resource.js';
import { stampColumns } from './stamps.js';

export const vendorStore: ResourceStore<typeof vendorResource> = {
  contract: vendorResource,
  reads: ['vendors'],
  table: 'vendors',
  entity: 'vendor',
  list: {
    from: 'vendors v',
    id: 'v.id',
    columns: `v.id, v.name, v.type, v.contact_name, v.email, v.phone, v.terms, v.rtv_address,
      v.notes, ${stampColumns('v')}`,
    sorts: {
      name: { sql: 'lower(v.name)', type: 'text' },
      type: { sql: 'v.type', type: 'text' },
      updated_at: { sql: 'v.updated_at', type: 'timestamptz' },
    },
    search: (pattern) => [
      '(v.name ILIKE ? OR v.contact_name ILIKE ? OR v.email ILIKE ? OR v.phone ILIKE ?)',
      pattern,
      pattern,
      pattern,
      pattern,
    ],
    filters: (query) => [
      query.active !== undefined && ['v.active = ?', query.active],
      query.type !== undefined && ['v.type = ?', query.type],
    ],
  },
  uniques: { vendors_name_key: ['name', 'A vendor with this name exists.'] },
  references: [
    {
      label: 'purchase invoices',
      countSql: 'SELECT count(*) FROM purchase_invoices WHERE vendor_id = $1',
    },
    {
      label: 'inbound shipments',
      countSql: 'SELECT count(*) FROM inbound_shipments WHERE vendor_id = $1',
    },
    {
      label: 'returns to vendor',
      countSql: 'SELECT count(*) FROM vendor_transfers WHERE vendor_id = $1',
    },
    {
      label: 'orders',
      countSql: 'SELECT count(*) FROM orders WHERE client_carrier_id = $1',
    },
    {
      label: 'subscribers',
      countSql: 'SELECT count(*) FROM subscribers WHERE client_carrier_id = $1',
    },
    {
      label: 'government-plan prices',
      countSql: 'SELECT count(*) FROM gov_plan_prices WHERE carrier_id = $1',
    },
    {
      label: 'campaigns',
      countSql: 'SELECT count(*) FROM campaigns WHERE client_carrier_id = $1',
    },
    {
      label: 'API keys',
      countSql: 'SELECT count(*) FROM client_carrier_api_keys WHERE client_carrier_id = $1',
    },
    {
      label: 'API requests',
      countSql: 'SELECT count(*) FROM client_carrier_requests WHERE client_carrier_id = $1',
    },
  ],
  imports: { key: { fields: ['name'], conflict: 'lower(name)', match: 'lower(name)' } },
};
