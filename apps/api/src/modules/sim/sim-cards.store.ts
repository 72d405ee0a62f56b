import { normaliseScan, simCardList } from '@inventory/contract';
import { isoTextSql, prefixCondition } from '../../http/sql.js';
import type { ListStore } from '../../toolkit/resource.js';

/**
 * The SIM list (DOMAIN.md 4.6 `/sim`): sim_cards alone on keyset pages by an index of each order
 * and filter (migrations 0044, 0045); the names of carrier, box, pack, agent, request, order and
 * device are looked up by key for the rows shown, so a page costs the same at 2,000,000 SIMs.
 */

/**
 * A SIM with its carrier: joined rather than looked up for each row, because vendors is small
 * enough that PostgreSQL scans it whole for every lookup (a third of a page's time), where the
 * join reads it once for the page.
 */
export const SIM_CARD_FROM = 'sim_cards c LEFT JOIN vendors cv ON cv.id = c.client_carrier_id';

/** The columns of a SIM as every answer gives it, over `SIM_CARD_FROM`. */
export const SIM_CARD_COLUMNS = `c.id::int AS id, c.iccid, c.client_carrier_id::int AS client_carrier_id,
  cv.name AS client_carrier,
  c.issuer, c.form, c.status, c.sim_box_id::int AS sim_box_id,
  (SELECT b.code FROM sim_boxes b WHERE b.id = c.sim_box_id) AS box_code,
  c.sim_pack_id::int AS sim_pack_id,
  (SELECT p.code FROM sim_packs p WHERE p.id = c.sim_pack_id) AS pack_code,
  c.sim_request_id::int AS sim_request_id,
  (SELECT r.number FROM sim_requests r WHERE r.id = c.sim_request_id) AS request_number,
  c.agent_id::int AS agent_id, (SELECT u.name FROM users u WHERE u.id = c.agent_id) AS agent_name,
  c.order_id::int AS order_id, (SELECT o.number FROM orders o WHERE o.id = c.order_id) AS order_number,
  c.device_id::int AS device_id,
  COALESCE((SELECT d.identifier FROM devices d WHERE d.id = c.device_id), c.paired_imei) AS device_imei,
  c.mdn, ${isoTextSql('c.activated_at')} AS activated_at, c.last_detect_state,
  ${isoTextSql('c.last_detected_at')} AS last_detected_at, c.status_reason,
  ${isoTextSql('c.held_since')} AS held_since`;

export const simCardListStore: ListStore<typeof simCardList> = {
  contract: simCardList,
  list: {
    from: SIM_CARD_FROM,
    id: 'c.id',
    columns: SIM_CARD_COLUMNS,
    sorts: {
      received: { sql: 'c.id', type: 'bigint' },
      iccid: { sql: 'c.iccid', type: 'text' },
    },
    // An ICCID or its start (the unique index's range), as scanned or typed.
    search: (_pattern, term) => prefixCondition('c.iccid', normaliseScan(term)),
    filters: (query) => [
      query.status !== undefined && ['c.status = ?', query.status],
      query.client_carrier_id !== undefined && ['c.client_carrier_id = ?', query.client_carrier_id],
      query.agent_id !== undefined && ['c.agent_id = ?', query.agent_id],
      query.box_id !== undefined && ['c.sim_box_id = ?', query.box_id],
      query.pack_id !== undefined && ['c.sim_pack_id = ?', query.pack_id],
    ],
  },
};
