import { workLogList } from '@inventory/contract';
import { isoTextSql } from '../../http/sql.js';
import type { ListStore } from '../../toolkit/resource.js';

/** The unit a log row names, in words: looked up by key for the rows shown. */
const UNIT_TEXT = `CASE w.entity_type
  WHEN 'device' THEN (SELECT d.identifier FROM devices d WHERE d.id = w.entity_id)
  WHEN 'sim' THEN (SELECT s.iccid FROM sim_cards s WHERE s.id = w.entity_id)
  WHEN 'package' THEN (SELECT p.tracking_number FROM packages p WHERE p.id = w.entity_id)
  WHEN 'repair_ticket' THEN (SELECT t.number FROM repair_tickets t WHERE t.id = w.entity_id)
  WHEN 'rma' THEN (SELECT r.number FROM rmas r WHERE r.id = w.entity_id)
  WHEN 'inventory_box' THEN (SELECT b.code FROM inventory_boxes b WHERE b.id = w.entity_id)
  WHEN 'warehouse_box' THEN (SELECT b.code FROM warehouse_boxes b WHERE b.id = w.entity_id)
END`;

/**
 * The work behind a figure of the report (migration 0071's `work_logs`): by day through
 * `work_logs_day`, one worker's through `work_logs_user_day`, one action's through
 * `work_logs_action_day`; a team is the people holding its role.
 */
export const workLogListStore: ListStore<typeof workLogList> = {
  contract: workLogList,
  list: {
    from: 'work_logs w',
    id: 'w.id',
    columns: `w.id::int AS id, ${isoTextSql('w.at')} AS at,
      to_char(w.business_day, 'YYYY-MM-DD') AS business_day, w.user_id::int AS user_id,
      (SELECT u.name FROM users u WHERE u.id = w.user_id) AS user_name, w.action,
      w.entity_type, w.entity_id::int AS entity_id, ${UNIT_TEXT} AS entity, w.qty,
      w.duration_s, w.rework`,
    sorts: { business_day: { sql: 'w.business_day', type: 'date' } },
    filters: (query) => [
      query.from !== undefined && ['w.business_day >= ?::date', query.from],
      query.to !== undefined && ['w.business_day <= ?::date', query.to],
      query.action !== undefined && ['w.action = ?', query.action],
      query.user_id !== undefined && ['w.user_id = ?', query.user_id],
      query.team_id !== undefined && [
        'w.user_id IN (SELECT ur.user_id FROM user_roles ur WHERE ur.role_id = ?)',
        query.team_id,
      ],
      query.rework !== undefined && ['w.rework = ?', query.rework],
    ],
  },
};
