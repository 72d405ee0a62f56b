import { normaliseScan, simBoxList } from '@inventory/contract';
import { isoTextSql, prefixCondition } from '../../http/sql.js';
import type { Condition } from '../../toolkit/list.js';
import type { PickerSql } from '../../toolkit/pickers.js';
import type { ListStore } from '../../toolkit/resource.js';

/**
 * The SIM boxes' list (DOMAIN.md 4.6 `/sim/box`). A page reads sim_boxes alone by an index of its
 * order (migration 0044), names looked up by key for the rows shown; what a box holds is its qty
 * and qty_available (kept by the statements that move its SIMs), never a count over the SIMs.
 */

/** A box code as it is scanned or typed: "SB-" and digits, in capitals. */
const BOX_CODE = /^SB-[0-9]*$/;

/** The columns of a box as every answer gives it, over `sim_boxes b`. */
export const SIM_BOX_COLUMNS = `b.id::int AS id, b.code, b.client_carrier_id::int AS client_carrier_id,
  (SELECT v.name FROM vendors v WHERE v.id = b.client_carrier_id) AS client_carrier,
  b.issuer, b.form, b.received_by_range, b.iccid_first, b.iccid_last, b.qty, b.qty_available,
  (SELECT count(*)::int FROM sim_packs p WHERE p.sim_box_id = b.id) AS pack_count,
  b.location_id::int AS location_id,
  (SELECT l.code FROM locations l WHERE l.id = b.location_id) AS location_code,
  b.status, ${isoTextSql('b.received_at')} AS received_at,
  (SELECT u.name FROM users u WHERE u.id = b.received_by) AS received_by_name`;

/** A search: a box code (or its start), or a whole ICCID, which finds the box it came in. */
function boxSearch(term: string): Condition {
  const code = term.trim().toUpperCase();
  if (BOX_CODE.test(code)) return prefixCondition('b.code', code);
  return ['b.id = (SELECT c.sim_box_id FROM sim_cards c WHERE c.iccid = ?)', normaliseScan(term)];
}

export const simBoxListStore: ListStore<typeof simBoxList> = {
  contract: simBoxList,
  list: {
    from: 'sim_boxes b',
    id: 'b.id',
    columns: SIM_BOX_COLUMNS,
    sorts: {
      received_at: { sql: 'b.received_at', type: 'timestamptz' },
      code: { sql: 'b.code', type: 'text' },
    },
    search: (_pattern, term) => boxSearch(term),
    filters: (query) => [
      query.client_carrier_id !== undefined && ['b.client_carrier_id = ?', query.client_carrier_id],
      query.status !== undefined && ['b.status = ?', query.status],
      query.location_id !== undefined && ['b.location_id = ?', query.location_id],
    ],
  },
};

/** The pickers of the SIM pages: client carriers, active locations, boxes. */
export const SIM_PICKERS = {
  carriers: {
    from: 'vendors',
    id: 'id',
    label: 'name',
    where: "type = 'carrier-client' AND active AND ($1::text IS NULL OR name ILIKE $1)",
    order: 'lower(name), id',
  },
  locations: {
    from: 'locations',
    id: 'id',
    label: `code || CASE WHEN name IS NULL THEN '' ELSE ' (' || name || ')' END`,
    where: 'active AND ($1::text IS NULL OR code ILIKE $1 OR name ILIKE $1)',
    order: 'code, id',
  },
  boxes: {
    from: 'sim_boxes',
    id: 'id',
    label: 'code',
    where: '$1::text IS NULL OR code ILIKE $1',
    order: 'code DESC, id',
  },
  agents: {
    from: 'users',
    id: 'id',
    label: "name || COALESCE(' (' || rep_id || ')', '')",
    where: `type = 'agent' AND status = 'active'
      AND ($1::text IS NULL OR name ILIKE $1 OR user_name ILIKE $1 OR rep_id ILIKE $1)`,
    order: 'lower(name), id',
  },
} as const satisfies Record<string, PickerSql>;
