import {
  REFUSED_SCAN_RESULTS,
  type ScanLog,
  type ScanLogEntry,
  type ScanLogQuery,
} from '@inventory/contract';
import type { Queryable } from '../../db/db.js';
import { NotFoundError } from '../../http/errors.js';

/**
 * A box's scan log, newest first, one page at a time (migration 0015): every scan at any station,
 * by station and by result, so that a supervisor can review a clerk's refused scans. A page goes
 * on from the entry before it by (time, id), on the log's (box, time) index.
 */
export async function scanLog(db: Queryable, boxId: number, query: ScanLogQuery): Promise<ScanLog> {
  const results =
    query.result === undefined
      ? null
      : query.result === 'refused'
        ? [...REFUSED_SCAN_RESULTS]
        : [query.result];
  const rows = await db.query<ScanLogEntry>(
    `SELECT l.id, to_json(l.at) #>> '{}' AS at, l.station, l.actor_name AS user_name, l.code,
       l.result, l.message,
       -- An unknown TAC's sentence names it (receive_scan_message): the station offers to learn it.
       CASE WHEN l.result = 'unknown_tac' THEN substring(l.message FROM '^TAC ([0-9]{8}) ') END AS tac
     FROM box_scan_log l
     WHERE l.box_id = $1
       AND ($2::text IS NULL OR l.station = $2)
       AND ($3::text[] IS NULL OR l.result = ANY ($3::text[]))
       AND ($4::bigint IS NULL
            OR (l.at, l.id) < (SELECT c.at, c.id FROM box_scan_log c WHERE c.id = $4))
     ORDER BY l.at DESC, l.id DESC
     LIMIT $5`,
    [boxId, query.station ?? null, results, query.before ?? null, query.limit + 1],
  );
  if (rows.length === 0) {
    const [box] = await db.query('SELECT 1 FROM warehouse_boxes WHERE id = $1', [boxId]);
    if (!box) throw new NotFoundError(`There is no warehouse box with id ${boxId}.`);
  }
  const entries = rows.slice(0, query.limit);
  return {
    entries,
    next_before: rows.length > query.limit ? entries[entries.length - 1]!.id : null,
  };
}
