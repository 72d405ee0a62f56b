import {
  normaliseScan,
  parseDeviceId,
  type ReceiveScan,
  type BoxCounts,
  type ReceiveScanResult,
} from '@inventory/contract';
import type { Queryable } from '../../db/db.js';
import { ConflictError, NotFoundError } from '../../http/errors.js';
import type { Principal, RequestMeta } from '../../http/principal.js';

/** The scan's row of the box's scan log, as the answer carries it. */
type LogRow = Pick<ReceiveScan, 'log_id' | 'at' | 'station' | 'user_name'>;

/** What the database answers for a scan (receive_scan, migrations 0009, 0014, 0015 and 0020). */
type DatabaseAnswer = LogRow & {
  result: ReceiveScanResult;
  /** The sentence the station shows, as the scan log keeps it. */
  message: string;
  device: ReceiveScan['device'];
  box: BoxCounts;
  detail: Record<string, string | null> | null;
};

/** The result of a code that is no IMEI or MEID at all, by the parser's problem. */
const unreadable = (problem: string): ReceiveScanResult =>
  problem === 'check-digit'
    ? 'bad_check_digit'
    : problem === 'imeisv'
      ? 'imeisv'
      : 'not_an_identifier';

/**
 * Logs a scan that never reached the rules (no IMEI or MEID) and reads the box's counts, in one
 * statement: such a refusal stays in the box's scan log like any other (migration 0015).
 */
async function logUnreadable(
  db: Queryable,
  actor: Principal,
  boxId: number,
  station: string | null,
  entry: { code: string; result: ReceiveScanResult; message: string },
): Promise<LogRow & { box: BoxCounts }> {
  const [row] = await db.query<BoxCounts & LogRow>(
    `WITH box AS (
       SELECT id, code, status, qty_scanned, qty_expected, box_discrepancies(id) AS discrepancies
       FROM warehouse_boxes WHERE id = $1
     ), logged AS (
       INSERT INTO box_scan_log (box_id, station, actor_id, actor_name, code, result, message)
       SELECT id, $2, $3, $4, $5, $6, $7 FROM box
       RETURNING id, at, station, actor_name
     )
     SELECT box.*, logged.id AS log_id, to_json(logged.at) #>> '{}' AS at, logged.station,
       logged.actor_name AS user_name
     FROM box, logged`,
    [boxId, station, actor.userId, actor.userName, entry.code, entry.result, entry.message],
  );
  if (!row) throw new NotFoundError(`There is no warehouse box with id ${boxId}.`);
  const { log_id, at, station: logged, user_name, ...box } = row;
  return { box, log_id, at, station: logged, user_name };
}

/**
 * One scan into a receiving box. The code is read here (a bad check digit or an IMEISV never
 * reaches the database); a readable IMEI or MEID is received in one statement that locks the box,
 * so two stations scanning one device at the same moment get one winner and one "already in".
 */
export async function receiveScan(
  db: Queryable,
  actor: Principal,
  meta: RequestMeta,
  boxId: number,
  scan: { code: string; station?: string | undefined },
): Promise<ReceiveScan> {
  const code = normaliseScan(scan.code);
  const station = scan.station ?? null;
  const parsed = parseDeviceId(code);
  if (!parsed.ok) {
    const result = unreadable(parsed.problem);
    const logged = await logUnreadable(db, actor, boxId, station, {
      code,
      result,
      message: parsed.message,
    });
    return { result, message: parsed.message, code, device: null, tac: null, ...logged };
  }
  const [row] = await db
    .query<{ answer: string }>(
      'SELECT receive_scan($1, $2, $3, $4, $5, $6, $7, $8, $9)::text AS answer',
      [
        boxId,
        parsed.value.kind,
        parsed.value.value,
        code,
        actor.userId,
        actor.userName,
        station,
        meta.requestId,
        meta.ip,
      ],
    )
    .catch((error: { code?: string; message?: string }) => {
      // The function's own refusals: an unknown box (P0002), a closed box or invoice (P0001).
      if (error.code === 'P0002') throw new NotFoundError(error.message ?? 'Unknown box.');
      if (error.code === 'P0001') throw new ConflictError(error.message ?? 'This box is closed.');
      throw error;
    });
  const answer = JSON.parse(row!.answer) as DatabaseAnswer;
  return {
    result: answer.result,
    message: answer.message,
    code,
    device: answer.device,
    box: answer.box,
    tac: answer.result === 'unknown_tac' ? (answer.detail?.tac ?? null) : null,
    log_id: answer.log_id,
    at: answer.at,
    station: answer.station,
    user_name: answer.user_name,
  };
}
