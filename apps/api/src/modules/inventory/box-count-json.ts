import { isoTextSql } from '../../http/sql.js';

/**
 * A count as the contract shows it: while it runs, what is missing is the box's devices not
 * scanned yet (the box is locked, so they do not change); once finished, what was kept then.
 */
export const COUNT_JSON = `json_build_object(
  'id', c.id, 'box_id', c.box_id,
  'box_code', (SELECT b.code FROM inventory_boxes b WHERE b.id = c.box_id),
  'expected', c.expected_qty,
  'started_at', ${isoTextSql('c.started_at')},
  'started_by_name', (SELECT u.name FROM users u WHERE u.id = c.started_by),
  'finished_at', ${isoTextSql('c.finished_at')},
  'finished_by_name', (SELECT u.name FROM users u WHERE u.id = c.finished_by),
  'counted', COALESCE((SELECT json_agg(d.identifier ORDER BY s.scanned_at DESC, d.identifier)
    FROM inventory_box_count_scans s JOIN devices d ON d.id = s.device_id
    WHERE s.count_id = c.id AND s.in_box), '[]'::json),
  'missing', COALESCE(c.missing::json, (SELECT json_agg(d.identifier ORDER BY d.identifier)
    FROM devices d WHERE d.inventory_box_id = c.box_id AND NOT EXISTS (
      SELECT 1 FROM inventory_box_count_scans s WHERE s.count_id = c.id AND s.device_id = d.id)),
    '[]'::json),
  'extra', COALESCE(c.extra::json, (SELECT json_agg(json_build_object('identifier', d.identifier,
      'box_code', (SELECT b.code FROM inventory_boxes b WHERE b.id = d.inventory_box_id))
      ORDER BY s.scanned_at DESC, d.identifier)
    FROM inventory_box_count_scans s JOIN devices d ON d.id = s.device_id
    WHERE s.count_id = c.id AND NOT s.in_box), '[]'::json))`;
