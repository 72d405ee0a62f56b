import { deviceList, type DeviceCard } from '@inventory/contract';
import type { Queryable } from '../../db/db.js';
import { prefixCondition } from '../../http/sql.js';
import type { ListStore } from '../../toolkit/resource.js';
import { inventoryBoxCodeOf, inventoryBoxPlaceOf } from '../inventory/index.js';
import { modelDisplayNameOf } from '../master-data/index.js';

/**
 * Devices with their vendor and colour: the names of their model, box and invoice are scalar
 * subqueries on primary keys in DEVICE_COLUMNS, not joins. Planning a seven-table join cost 10 to
 * 30 ms on every request (PostgreSQL plans each execution anew while its custom plans look
 * cheaper than the generic one), more than reading a page of 50. Vendors and colours are joined:
 * they are small enough that a lookup of one scanned the whole table for every row, where the
 * join reads vendors once and colours by their key.
 */
export const DEVICE_FROM =
  'devices d LEFT JOIN vendors dv ON dv.id = d.vendor_id LEFT JOIN colors dc ON dc.id = d.color_id';

/**
 * One device in the contract's shape (`deviceSchema`), timestamps as ISO text. Its container is
 * its inventory box or else its warehouse box (one at a time, invariant 3): one key lookup.
 */
export const DEVICE_COLUMNS = `d.id, d.imei, d.imei2, d.meid, d.serial, d.identifier, d.tac,
  d.model_id, ${modelDisplayNameOf('d.model_id')} AS model,
  d.color_id, dc.name AS color, d.capacity_gb,
  d.condition, d.grade, d.status, d.hold_reason, d.blacklist_state, d.warehouse_box_id,
  d.inventory_box_id,
  CASE WHEN d.inventory_box_id IS NOT NULL THEN ${inventoryBoxCodeOf('d.inventory_box_id')}
    ELSE (SELECT wb.code FROM warehouse_boxes wb WHERE wb.id = d.warehouse_box_id) END AS container,
  d.invoice_id, (SELECT i.invoice_no FROM purchase_invoices i WHERE i.id = d.invoice_id) AS invoice_no,
  d.vendor_id, dv.name AS vendor,
  d.unit_cost_cents, to_json(d.received_at) #>> '{}' AS received_at,
  to_json(d.updated_at) #>> '{}' AS updated_at`;

/** A search of letters and digits that could start an IMEI or MEID. */
const IDENTIFIER_START = /^[0-9A-F]{4,15}$/;

export const deviceStore: ListStore<typeof deviceList> = {
  contract: deviceList,
  list: {
    from: DEVICE_FROM,
    id: 'd.id',
    columns: DEVICE_COLUMNS,
    sorts: {
      imei: { sql: 'd.identifier', type: 'text' },
      received_at: { sql: 'd.received_at', type: 'timestamptz' },
    },
    search: (pattern, term) => {
      const code = term.replace(/[\s-]/g, '').toUpperCase();
      if (IDENTIFIER_START.test(code)) {
        const [sql, ...values] = prefixCondition('d.identifier', code);
        return [`((${sql}) OR d.serial = ?)`, ...values, term];
      }
      // The few models that match, then their devices by the (model_id, identifier) index.
      return [
        `(d.serial = ? OR d.model_id IN (SELECT sm.id FROM device_models sm
           JOIN brands sb ON sb.id = sm.brand_id
           WHERE (sb.name || ' ' || sm.name) ILIKE ?
              OR array_to_string(sm.model_numbers, ' ') ILIKE ?))`,
        term,
        pattern,
        pattern,
      ];
    },
    filters: (query) => [
      query.status !== undefined && ['d.status = ?', query.status],
      query.hold_reason !== undefined && ['d.hold_reason = ?', query.hold_reason],
      query.model_id !== undefined && ['d.model_id = ?', query.model_id],
      query.vendor_id !== undefined && ['d.vendor_id = ?', query.vendor_id],
      query.invoice_id !== undefined && ['d.invoice_id = ?', query.invoice_id],
      query.warehouse_box_id !== undefined && ['d.warehouse_box_id = ?', query.warehouse_box_id],
      // The few models of the system, then their devices by the model's indexes.
      query.os !== undefined && [
        'd.model_id IN (SELECT om.id FROM device_models om WHERE om.os = ?)',
        query.os,
      ],
    ],
  },
};

/** How many events a card carries: a device's whole life fits many times over. */
export const CARD_EVENTS = 500;

/**
 * A device's card as one JSON object over `card` (a row of DEVICE_COLUMNS): the device, what its
 * manifest claimed, its open blacklist entry, its inventory box with the box's location (read
 * only for a device in one), and its newest events. What production recorded is the card's own
 * request (`deviceProductionRecord`), so the lookup at a scan counter stays this one statement.
 */
const CARD_OBJECT = `json_build_object(
       'device', to_json(card),
       'inventory_box', CASE WHEN card.inventory_box_id IS NOT NULL
         THEN ${inventoryBoxPlaceOf('card.inventory_box_id')} END,
       'claim', (SELECT json_build_object('invoice_imei_id', ii.id,
           'match_status', ii.match_status,
           'claimed_model', (SELECT cb.name || ' ' || cm.name FROM device_models cm
                             JOIN brands cb ON cb.id = cm.brand_id WHERE cm.id = ii.model_id),
           'decision', ii.decision)
         FROM invoice_imeis ii WHERE ii.device_id = card.id ORDER BY ii.id DESC LIMIT 1),
       'blacklist', (SELECT json_build_object('id', be.id, 'source', be.source,
           'reason', be.reason, 'flagged_at', to_json(be.flagged_at) #>> '{}')
         FROM blacklist_entries be
         WHERE be.imei IN (card.imei, card.imei2) AND be.cleared_at IS NULL LIMIT 1),
       'events', COALESCE((SELECT json_agg(event) FROM (
           SELECT e.id, to_json(e.at) #>> '{}' AS at, e.actor_name, e.type, e.from_status,
             e.to_status, e.container, e.ref_type, e.ref_id, e.station, e.data
           FROM device_events e WHERE e.device_id = card.id
           ORDER BY e.id DESC LIMIT ${CARD_EVENTS}) event), '[]'::json))::text`;

/**
 * The card of the first device (by id) that a condition on `d` selects, as the JSON text the
 * database wrote, so that an answer passes it on unparsed; `extra` adds columns over `card`.
 */
export async function deviceCardJson<Extra extends object = object>(
  db: Queryable,
  where: string,
  params: readonly unknown[],
  extra = '',
): Promise<({ card: string } & Extra) | undefined> {
  const [row] = await db.query<{ card: string } & Extra>(
    `SELECT ${CARD_OBJECT} AS card${extra}
     FROM (SELECT ${DEVICE_COLUMNS} FROM ${DEVICE_FROM} WHERE ${where}
           ORDER BY d.id LIMIT 1) card`,
    params,
  );
  return row;
}

/** The card of the device with this id, parsed, or undefined. */
export async function deviceCard(db: Queryable, id: number): Promise<DeviceCard | undefined> {
  const row = await deviceCardJson(db, 'd.id = $1', [id]);
  return row && (JSON.parse(row.card) as DeviceCard);
}
