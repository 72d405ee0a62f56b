import {
  SIM_DETECTION_DIFFERENCE_COLUMNS,
  SIM_DETECTION_DIFFERENCES,
  type SimAnomaly,
  type SimDetectionColumns,
  type SimDetectionMapping,
  type SimDetectionOutcome,
  type SimDetectionRow,
  type SimDetectionRun,
} from '@inventory/contract';
import type { Db, Queryable } from '../../db/db.js';
import { ConflictError, NotFoundError } from '../../http/errors.js';
import type { Actor, RequestMeta } from '../../http/principal.js';
import { isoTextSql } from '../../http/sql.js';
import type { PreparedFile } from '../../toolkit/downloads.js';
import { CONTENT_TYPES, fileStream, type Cell } from '../../toolkit/files.js';
import { recordAudit } from '../audit/index.js';
import { clientCarrier, findRun, RUN_COLUMNS } from './sim-detection.service.js';

/** What the detection page reads: runs, a run's rows, mappings and the anomaly list. */

type Page<T> = { rows: T[]; next: number | null };

/** A page of `limit` newest-first rows and the key of the next page, read one row further. */
function pageOf<T>(rows: T[], limit: number, key: (row: T) => number): Page<T> {
  const more = rows.length > limit;
  const page = more ? rows.slice(0, limit) : rows;
  return { rows: page, next: more ? key(page.at(-1)!) : null };
}

export async function listRuns(
  db: Queryable,
  query: { before?: number | undefined; limit: number },
): Promise<Page<SimDetectionRun>> {
  const rows = await db.query<SimDetectionRun>(
    `SELECT ${RUN_COLUMNS} FROM sim_detection_runs r JOIN vendors v ON v.id = r.client_carrier_id
     WHERE ($1::bigint IS NULL OR r.id < $1) ORDER BY r.id DESC LIMIT $2`,
    [query.before ?? null, query.limit + 1],
  );
  return pageOf(rows, query.limit, (run) => run.id);
}

const ROW_COLUMNS = `line, iccid, state, mdn, to_char(activation_date, 'YYYY-MM-DD') AS activation_date,
  imei_seen, sim_id::int AS sim_id, outcome, problem`;

/** The outcomes a filter names; 'differences' is every outcome the export writes. */
const outcomesOf = (outcome: SimDetectionOutcome | 'differences' | undefined) =>
  outcome === undefined ? null : outcome === 'differences' ? SIM_DETECTION_DIFFERENCES : [outcome];

export async function listRows(
  db: Queryable,
  runId: number,
  query: {
    outcome?: SimDetectionOutcome | 'differences' | undefined;
    before?: number | undefined;
    limit: number;
  },
): Promise<Page<SimDetectionRow>> {
  await findRun(db, runId);
  // Lines in file order; `before` here is the line after which the page starts.
  const rows = await db.query<SimDetectionRow>(
    `SELECT ${ROW_COLUMNS} FROM sim_detection_rows
     WHERE run_id = $1 AND ($2::text[] IS NULL OR outcome = ANY ($2::text[]))
       AND ($3::int IS NULL OR line > $3)
     ORDER BY line LIMIT $4`,
    [runId, outcomesOf(query.outcome), query.before ?? null, query.limit + 1],
  );
  return pageOf(rows, query.limit, (row) => row.line);
}

/** The run's differences as a file, read a chunk of lines at a time. */
export async function differencesFile(
  db: Queryable,
  runId: number,
  format: 'csv' | 'xlsx',
): Promise<PreparedFile> {
  async function* chunks(): AsyncGenerator<Cell[][]> {
    for (let after = 0; ;) {
      const rows = await db.query<SimDetectionRow>(
        `SELECT ${ROW_COLUMNS} FROM sim_detection_rows
         WHERE run_id = $1 AND outcome = ANY ($2::text[]) AND line > $3 ORDER BY line LIMIT 5000`,
        [runId, SIM_DETECTION_DIFFERENCES, after],
      );
      if (rows.length === 0) return;
      after = rows.at(-1)!.line;
      yield rows.map((row) =>
        SIM_DETECTION_DIFFERENCE_COLUMNS.map((column): Cell => row[column.key] ?? null),
      );
    }
  }
  return {
    fileName: `sim-detection-${runId}-differences.${format}`,
    contentType: CONTENT_TYPES[format],
    stream: fileStream(format, 'Differences', SIM_DETECTION_DIFFERENCE_COLUMNS, chunks()),
  };
}

export async function findMapping(db: Queryable, carrierId: number): Promise<SimDetectionMapping> {
  await clientCarrier(db, carrierId, 'id').catch(() => {
    throw new NotFoundError(`Client carrier ${carrierId} does not exist.`);
  });
  const [kept] = await db.query<SimDetectionMapping>(
    `SELECT client_carrier_id::int AS client_carrier_id, columns,
       ${isoTextSql('updated_at')} AS updated_at
     FROM sim_detection_mappings WHERE client_carrier_id = $1`,
    [carrierId],
  );
  return kept ?? { client_carrier_id: carrierId, columns: null, updated_at: null };
}

export async function saveMapping(
  db: Db,
  { actor, meta }: { actor: Actor; meta: RequestMeta },
  carrierId: number,
  columns: SimDetectionColumns,
): Promise<SimDetectionMapping> {
  await clientCarrier(db, carrierId, 'id').catch(() => {
    throw new NotFoundError(`Client carrier ${carrierId} does not exist.`);
  });
  const kept = {
    iccid: columns.iccid,
    state: columns.state,
    mdn: columns.mdn ?? null,
    activation_date: columns.activation_date ?? null,
    imei: columns.imei ?? null,
  };
  await db.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO sim_detection_mappings (client_carrier_id, columns, updated_at, updated_by)
       VALUES ($1, $2, now(), $3)
       ON CONFLICT (client_carrier_id) DO UPDATE
         SET columns = EXCLUDED.columns, updated_at = now(), updated_by = EXCLUDED.updated_by`,
      [carrierId, JSON.stringify(kept), actor.userId],
    );
    await recordAudit(tx, {
      actorId: actor.userId,
      actorName: actor.userName,
      action: 'sim-detection.mapping-saved',
      entityType: 'vendor',
      entityId: carrierId,
      after: kept,
      ip: meta.ip,
      requestId: meta.requestId,
    });
  });
  return findMapping(db, carrierId);
}

const ANOMALY_COLUMNS = `a.id, a.sim_id::int AS sim_id, s.iccid, s.status AS sim_status,
  a.run_id::int AS run_id, a.kind, a.detail, a.ota_order, a.status, a.resolution,
  ${isoTextSql('a.resolved_at')} AS resolved_at, u.user_name AS resolved_by,
  ${isoTextSql('a.created_at')} AS created_at`;
const ANOMALY_FROM = `sim_anomalies a JOIN sim_cards s ON s.id = a.sim_id
  LEFT JOIN users u ON u.id = a.resolved_by`;

export async function listAnomalies(
  db: Queryable,
  query: { status: 'open' | 'resolved'; before?: number | undefined; limit: number },
): Promise<Page<SimAnomaly>> {
  const rows = await db.query<SimAnomaly>(
    `SELECT ${ANOMALY_COLUMNS} FROM ${ANOMALY_FROM}
     WHERE a.status = $1 AND ($2::bigint IS NULL OR a.id < $2) ORDER BY a.id DESC LIMIT $3`,
    [query.status, query.before ?? null, query.limit + 1],
  );
  return pageOf(rows, query.limit, (anomaly) => anomaly.id);
}

/** Resolves an open anomaly; one already resolved is a 409 (two people at once: one wins). */
export async function resolveAnomaly(
  db: Db,
  { actor, meta }: { actor: Actor; meta: RequestMeta },
  id: number,
  resolution: string,
): Promise<SimAnomaly> {
  return db.transaction(async (tx) => {
    const resolved = await tx.query<{ id: number }>(
      `UPDATE sim_anomalies SET status = 'resolved', resolution = $2, resolved_at = now(),
         resolved_by = $3
       WHERE id = $1 AND status = 'open' RETURNING id`,
      [id, resolution, actor.userId],
    );
    if (resolved.length === 0) {
      const [exists] = await tx.query('SELECT 1 FROM sim_anomalies WHERE id = $1', [id]);
      if (!exists) throw new NotFoundError(`Anomaly ${id} does not exist.`);
      throw new ConflictError(`Anomaly ${id} is already resolved.`);
    }
    await recordAudit(tx, {
      actorId: actor.userId,
      actorName: actor.userName,
      action: 'sim-detection.anomaly-resolved',
      entityType: 'sim_anomaly',
      entityId: id,
      after: { resolution },
      ip: meta.ip,
      requestId: meta.requestId,
    });
    const [anomaly] = await tx.query<SimAnomaly>(
      `SELECT ${ANOMALY_COLUMNS} FROM ${ANOMALY_FROM} WHERE a.id = $1`,
      [id],
    );
    return anomaly!;
  });
}
