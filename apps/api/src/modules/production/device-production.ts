import { CARD_TESTS, type DeviceProduction } from '@inventory/contract';
import type { Queryable } from '../../db/db.js';
import { isoTextSql } from '../../http/sql.js';

/**
 * What production recorded of one device, for its card (DOMAIN.md 4.2 /devices/scan): the request
 * and worker of its assignment, its newest tests with their checklists, the wipe, the locks, the
 * battery and who graded it. Key lookups only: the device, its assignment, the request, the
 * users, and its tests by the (device_id, id) index. Undefined for no such device.
 */
export async function deviceProductionRecord(
  db: Queryable,
  deviceId: number,
): Promise<DeviceProduction | undefined> {
  const [row] = await db.query<{ record: DeviceProduction }>(
    `SELECT json_build_object(
       'request', (SELECT json_build_object('id', r.id, 'number', r.number, 'status', r.status)
                   FROM product_requests r WHERE r.id = pa.product_request_id),
       'worker', (SELECT u.name FROM users u WHERE u.id = pa.worker_id),
       'assigned_at', ${isoTextSql('pa.assigned_at')},
       'graded_at', ${isoTextSql('d.graded_at')},
       'graded_by', (SELECT u.name FROM users u WHERE u.id = d.graded_by),
       'wipe', CASE WHEN d.wipe_method IS NOT NULL THEN json_build_object(
         'method', d.wipe_method, 'certificate', d.wipe_certificate,
         'wiped_at', ${isoTextSql('d.wiped_at')}) END,
       'lock_on', d.frp_lock,
       'battery_health', d.battery_health,
       'tests', COALESCE((SELECT json_agg(test ORDER BY test.id DESC) FROM (
           SELECT t.id, ${isoTextSql('t.run_at')} AS run_at,
             (SELECT u.name FROM users u WHERE u.id = t.tester_id) AS tester, t.tool, t.result,
             t.items, t.battery_health, t.grade, t.issue_codes, t.cosmetic_notes
           FROM device_tests t WHERE t.device_id = d.id
           ORDER BY t.id DESC LIMIT ${CARD_TESTS}) test), '[]'::json)) AS record
     FROM devices d LEFT JOIN production_assignments pa ON pa.device_id = d.id
     WHERE d.id = $1`,
    [deviceId],
  );
  return row?.record;
}
