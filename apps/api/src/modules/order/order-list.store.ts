import { orderList } from '@inventory/contract';
import { businessDaysCondition, isoTextSql } from '../../http/sql.js';
import type { ListStore } from '../../toolkit/resource.js';

/**
 * The order list (DOMAIN.md 4.7, /order/list). A page reads `orders` by an index of its order
 * (or of a filter and the creation time, migration 0038), and looks up for the rows shown the
 * carrier's name, the lines in short and the customer, masked: initials and stars for the name,
 * city and state for the place. The list keeps no answers: orders change with every intake.
 */

/** "JOHN Q DOE" as "J*** Q*** D***": enough to tell orders apart, not to read who it is. */
export const masked = (name: string) => `regexp_replace(${name}, '(\\w)\\w*', '\\1***', 'g')`;

/**
 * An order with its client carrier: joined rather than looked up for each row, because vendors
 * is small enough that PostgreSQL scans it whole for every lookup.
 */
export const ORDER_ROW_FROM = 'orders o LEFT JOIN vendors cv ON cv.id = o.client_carrier_id';

/** An order's row as the list shows it, over `ORDER_ROW_FROM`; the record adds to it. */
export const ORDER_ROW_COLUMNS = `o.id, o.number, o.source, o.fulfilment_type, o.client_carrier_id,
  cv.name AS client_carrier, o.program,
  COALESCE((SELECT ${masked("s.first_name || ' ' || s.last_name")} FROM subscribers s
            WHERE s.id = o.subscriber_id),
           (SELECT r.name FROM retailers r WHERE r.id = o.retailer_id), '') AS customer,
  COALESCE((SELECT t.city || ', ' || t.state FROM order_ship_to t WHERE t.order_id = o.id), '')
    AS place,
  COALESCE((SELECT sum(l.qty) FROM order_lines l WHERE l.order_id = o.id), 0)::int AS items,
  COALESCE((SELECT string_agg(l.qty || ' × ' || l.sku, ', ' ORDER BY l.position)
            FROM order_lines l WHERE l.order_id = o.id), '') AS items_text,
  o.status, o.hold_reason, o.hold_note, ${isoTextSql('o.sla_due_at')} AS sla_due_at,
  ${isoTextSql('o.created_at')} AS created_at, ${isoTextSql('o.shipped_at')} AS shipped_at,
  o.external_ref, o.total_cents::int AS total_cents`;

/** An order number as typed: "SO-" and digits, or the digits alone. */
const ORDER_NUMBER = /^(SO-?)?([0-9]+)$/i;

export const orderListStore: ListStore<typeof orderList> = {
  contract: orderList,
  list: {
    from: ORDER_ROW_FROM,
    id: 'o.id',
    columns: ORDER_ROW_COLUMNS,
    sorts: {
      created_at: { sql: 'o.created_at', type: 'timestamptz' },
      sla_due_at: { sql: "COALESCE(o.sla_due_at, 'infinity'::timestamptz)", type: 'timestamptz' },
    },
    // An order number ("SO-0000123", "123"), else the channel's reference.
    search: (_pattern, term) => {
      const number = ORDER_NUMBER.exec(term.trim());
      if (number) {
        const digits = number[2]!.replace(/^0+(?=.)/, '');
        return ['o.number = ?', `SO-${digits.padStart(7, '0')}`];
      }
      return ['o.external_ref = ?', term.trim()];
    },
    filters: (query) => [
      query.status !== undefined && ['o.status = ?', query.status],
      query.hold_reason !== undefined && ['o.hold_reason = ?', query.hold_reason],
      query.source !== undefined && ['o.source = ?', query.source],
      query.fulfilment_type !== undefined && ['o.fulfilment_type = ?', query.fulfilment_type],
      query.program !== undefined && ['o.program = ?', query.program],
      query.client_carrier_id !== undefined && ['o.client_carrier_id = ?', query.client_carrier_id],
      query.retailer_id !== undefined && ['o.retailer_id = ?', query.retailer_id],
      query.campaign_id !== undefined && ['o.campaign_id = ?', query.campaign_id],
      query.received_day !== undefined && ['o.received_day = ?::date', query.received_day],
      query.received_from !== undefined && ['o.received_day >= ?::date', query.received_from],
      query.received_to !== undefined && ['o.received_day <= ?::date', query.received_to],
      ...businessDaysCondition('o.shipped_at', query.shipped_from, query.shipped_to),
    ],
  },
};
