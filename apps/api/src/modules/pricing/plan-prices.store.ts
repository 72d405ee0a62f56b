import {
  EVERY_STATE,
  MINIMUM_STANDARD_PROGRAMMES,
  planPriceList,
  READ_ONLY_PROGRAMMES,
  type PlanPrice,
} from '@inventory/contract';
import type { Queryable } from '../../db/db.js';
import { isoTextSql } from '../../http/sql.js';
import type { ListSql } from '../../toolkit/list.js';
import type { PickerSql } from '../../toolkit/pickers.js';
import { findItem, type ListQueryOf, type ListStore } from '../../toolkit/resource.js';
import { modelDisplayNameOf } from '../master-data/index.js';

/** Programmes as SQL array literals of our own constants (no user text). */
const sqlList = (values: readonly string[]) => `ARRAY[${values.map((v) => `'${v}'`).join(', ')}]`;

const HELD_TO_MINIMUM = `p.programme = ANY (${sqlList(MINIMUM_STANDARD_PROGRAMMES)})`;

/**
 * The standard a version is held to: the one in effect when it starts, or today for a version
 * that has started (a standard raised since applies to the prices in effect now).
 */
const MINIMUM_OF = `lifeline_minimum_gb(GREATEST(p.effective_from, plan_price_today()))`;
const BELOW_MINIMUM = `(${HELD_TO_MINIMUM} AND COALESCE(p.data_gb < ${MINIMUM_OF}, false))`;

const SCHEDULED = 'p.effective_from > plan_price_today()';
const PAST = 'p.effective_to < plan_price_today()';
const CURRENT = `p.effective_from <= plan_price_today()
  AND (p.effective_to IS NULL OR p.effective_to >= plan_price_today())`;

const STATE_SORT = `COALESCE(p.state, '')`;

/** The columns of one version, in the contract's shape; key lookups only. */
export const PLAN_PRICE_COLUMNS = `p.id, p.carrier_id,
  (SELECT v.name FROM vendors v WHERE v.id = p.carrier_id) AS carrier_name, p.programme, p.state,
  p.model_id, ${modelDisplayNameOf('p.model_id')} AS model_name, p.variant_id,
  (SELECT pv.sku FROM product_variants pv WHERE pv.id = p.variant_id) AS variant_sku, p.version,
  p.device_price_cents, p.plan_name, p.data_gb::float8 AS data_gb, p.minutes,
  to_char(p.effective_from, 'YYYY-MM-DD') AS effective_from,
  to_char(p.effective_to, 'YYYY-MM-DD') AS effective_to,
  CASE WHEN ${SCHEDULED} THEN 'scheduled' WHEN ${PAST} THEN 'past' ELSE 'current' END AS status,
  p.programme = ANY (${sqlList(READ_ONLY_PROGRAMMES)}) AS read_only,
  CASE WHEN ${HELD_TO_MINIMUM} THEN ${MINIMUM_OF}::float8 END AS minimum_gb,
  ${BELOW_MINIMUM} AS below_minimum, p.note, ${isoTextSql('p.created_at')} AS created_at,
  (SELECT u.name FROM users u WHERE u.id = p.created_by) AS created_by_name`;

const planPriceSql: ListSql<ListQueryOf<typeof planPriceList>> = {
  from: 'gov_plan_prices p',
  id: 'p.id',
  columns: PLAN_PRICE_COLUMNS,
  sorts: {
    effective_from: { sql: 'p.effective_from', type: 'date' },
    state: { sql: STATE_SORT, type: 'text' },
    device_price_cents: { sql: 'p.device_price_cents', type: 'bigint' },
  },
  search: (pattern) => [
    `(p.plan_name ILIKE ? OR ${modelDisplayNameOf('p.model_id')} ILIKE ?)`,
    pattern,
    pattern,
  ],
  filters: (query) => [
    query.carrier_id !== undefined && ['p.carrier_id = ?', query.carrier_id],
    query.programme !== undefined && ['p.programme = ?', query.programme],
    query.state !== undefined &&
      (query.state === EVERY_STATE ? ['p.state IS NULL'] : ['p.state = ?', query.state]),
    query.model_id !== undefined && ['p.model_id = ?', query.model_id],
    query.status === 'scheduled' && [SCHEDULED],
    query.status === 'past' && [PAST],
    query.status === 'current' && [CURRENT],
    query.below_minimum !== undefined &&
      (query.below_minimum ? [BELOW_MINIMUM] : [`NOT ${BELOW_MINIMUM}`]),
  ],
};

/**
 * The price list. It keeps no answers: a version's status and warning follow the calendar, which
 * no table version records.
 */
export const planPriceListStore: ListStore<typeof planPriceList> = {
  contract: planPriceList,
  list: planPriceSql,
};

export const findPlanPrice = (db: Queryable, id: number): Promise<PlanPrice> =>
  findItem(planPriceListStore, db, id);

/**
 * The versions of a key ($1 carrier, $2 programme, $3 state or null for every state, $4 model, $5
 * variant or null), in the expressions of the key's unique index.
 */
export const SAME_KEY = `p.carrier_id = $1 AND p.programme = $2
  AND COALESCE(p.state, '') = COALESCE($3::text, '') AND p.model_id = $4
  AND COALESCE(p.variant_id, 0) = COALESCE($5::bigint, 0)`;

export const CARRIER_PICKER: PickerSql = {
  from: 'vendors',
  id: 'id',
  label: 'name',
  where: `type = 'carrier-client' AND active AND ($1::text IS NULL OR name ILIKE $1)`,
  order: 'lower(name), id',
};
