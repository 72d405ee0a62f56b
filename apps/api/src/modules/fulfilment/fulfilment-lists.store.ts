import {
  backlogOrderList,
  PIPELINE_STATUSES,
  pipelineOrderList,
  readyOrderList,
  type FulfilmentOrderRow,
} from '@inventory/contract';
import type { Queryable } from '../../db/db.js';
import { NotFoundError } from '../../http/errors.js';
import { isoTextSql } from '../../http/sql.js';
import type { ListStore } from '../../toolkit/resource.js';
import { ORDER_ROW_COLUMNS, ORDER_ROW_FROM } from '../order/index.js';
import { ALERTED_SQL, BACKLOG_ALERT_COLUMNS, HELD_AT_SQL } from './backlog-ageing.js';

/**
 * The fulfilment lists: the assignment queue (ready orders, migration 0050's index on status and
 * SLA) and the pipeline by stage and assignee. Neither keeps answers: every pick changes them.
 */

/** An order's row as the fulfilment pages show it, over `ORDER_ROW_FROM`. */
const FULFILMENT_ROW_COLUMNS = `${ORDER_ROW_COLUMNS},
  o.assignee_id::int AS assignee_id,
  (SELECT u.name FROM users u WHERE u.id = o.assignee_id) AS assignee_name,
  ${isoTextSql('o.assigned_at')} AS assigned_at,
  (SELECT count(*)::int FROM order_lines l JOIN order_line_units u ON u.order_line_id = l.id
   WHERE l.order_id = o.id AND u.status IN ('picked', 'packed', 'shipped')) AS units_picked`;

const SORTS = {
  created_at: { sql: 'o.created_at', type: 'timestamptz' },
  sla_due_at: { sql: "COALESCE(o.sla_due_at, 'infinity'::timestamptz)", type: 'timestamptz' },
} as const;

/** An order number as typed: "SO-" and digits, or the digits alone. */
const ORDER_NUMBER = /^(SO-?)?([0-9]+)$/i;
const searchByNumber = (_pattern: string, term: string) => {
  const number = ORDER_NUMBER.exec(term.trim());
  if (!number) return ['o.external_ref = ?', term.trim()] as const;
  const digits = number[2]!.replace(/^0+(?=.)/, '');
  return ['o.number = ?', `SO-${digits.padStart(7, '0')}`] as const;
};

/** Orders of a model: one of their units' rules names a variant of it. */
const OF_MODEL = `EXISTS (SELECT 1 FROM order_unit_rules(ARRAY[o.id]) r
  JOIN product_variants v ON v.id = ANY (r.variant_ids)
  JOIN products p ON p.id = v.product_id WHERE p.model_id = ?)`;

export const readyOrderStore: ListStore<typeof readyOrderList> = {
  contract: readyOrderList,
  list: {
    from: ORDER_ROW_FROM,
    id: 'o.id',
    columns: FULFILMENT_ROW_COLUMNS,
    sorts: SORTS,
    search: searchByNumber,
    filters: (query) => [
      ["o.status = 'ready'"],
      query.fulfilment_type !== undefined && ['o.fulfilment_type = ?', query.fulfilment_type],
      query.model_id !== undefined && [OF_MODEL, query.model_id],
    ],
  },
};

export const pipelineOrderStore: ListStore<typeof pipelineOrderList> = {
  contract: pipelineOrderList,
  list: {
    from: ORDER_ROW_FROM,
    id: 'o.id',
    columns: FULFILMENT_ROW_COLUMNS,
    sorts: SORTS,
    search: searchByNumber,
    filters: (query) => [
      query.status !== undefined
        ? ['o.status = ?', query.status]
        : ['o.status = ANY (?::text[])', PIPELINE_STATUSES],
      query.fulfilment_type !== undefined && ['o.fulfilment_type = ?', query.fulfilment_type],
      query.assignee_id !== undefined && ['o.assignee_id = ?', query.assignee_id],
    ],
  },
};

export const backlogOrderStore: ListStore<typeof backlogOrderList> = {
  contract: backlogOrderList,
  list: {
    from: ORDER_ROW_FROM,
    id: 'o.id',
    columns: `${ORDER_ROW_COLUMNS}, ${isoTextSql(HELD_AT_SQL)} AS held_at,
      ${BACKLOG_ALERT_COLUMNS}`,
    sorts: SORTS,
    search: searchByNumber,
    filters: (query) => [
      ["o.status = 'on_hold'"],
      query.hold_reason !== undefined && ['o.hold_reason = ?', query.hold_reason],
      query.fulfilment_type !== undefined && ['o.fulfilment_type = ?', query.fulfilment_type],
      query.client_carrier_id !== undefined && ['o.client_carrier_id = ?', query.client_carrier_id],
      query.alerted !== undefined && [query.alerted ? ALERTED_SQL : `NOT ${ALERTED_SQL}`],
    ],
  },
};

/** One order's fulfilment row: what an action on the pipeline answers. */
export async function fulfilmentOrderRow(db: Queryable, id: number): Promise<FulfilmentOrderRow> {
  const [row] = await db.query<FulfilmentOrderRow>(
    `SELECT ${FULFILMENT_ROW_COLUMNS} FROM ${ORDER_ROW_FROM} WHERE o.id = $1`,
    [id],
  );
  if (!row) throw new NotFoundError(`There is no order with id ${id}.`);
  return row;
}
