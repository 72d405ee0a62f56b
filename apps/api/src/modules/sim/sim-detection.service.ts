import { Readable } from 'node:stream';
import {
  parseIccid,
  simDetectionColumnsSchema,
  simLifecycle,
  SIM_DETECTION_PULL_MAX,
  type SimDetectionColumns,
  type SimDetectionPull,
  type SimDetectionRun,
} from '@inventory/contract';
import Papa from 'papaparse';
import type { Db, Queryable, Transaction } from '../../db/db.js';
import { ConflictError, NotFoundError, ValidationError, fieldError } from '../../http/errors.js';
import type { Actor, RequestMeta } from '../../http/principal.js';
import { isoTextSql } from '../../http/sql.js';
import { recordAudit } from '../audit/index.js';
import {
  AdapterUnavailable,
  type AdapterCarrier,
  type DetectionAdapter,
} from './detection-adapters.js';
import {
  columnPositions,
  detectionBatches,
  estimatedRows,
  ExportRefusal,
  type DetectionRow,
} from './sim-detection-rows.js';

/**
 * SIM detection runs (DOMAIN.md 4.6): an export's rows are loaded into `sim_detection_rows` in
 * batches (one multi-row INSERT from arrays each, with the run's `rows_loaded` in the same
 * transaction, so a load resumes after its last kept line), then applied to the SIMs in ONE
 * transaction of a few set-based statements. A run is applied once or not at all: a restart
 * half-way loses the uncommitted apply and does it again, so no event or ledger row doubles.
 */

/** Rows per INSERT while loading: large enough that statements are few, small enough to resume. */
export const LOAD_BATCH_ROWS = 20_000;
/** Parts the upload is kept in until its rows are loaded. */
const FILE_PART_BYTES = 1024 * 1024;

/** The lifecycle's detection actions: the carrier's state → the action that moves a SIM to it. */
const DETECT_ACTIONS = {
  active: simLifecycle.actions.detectActive,
  inactive: simLifecycle.actions.detectInactive,
  suspended: simLifecycle.actions.detectSuspended,
} as const;

/** SIM statuses that are still ours in the warehouse: active there is an anomaly. */
const IN_STOCK_STATUSES = ['in_stock', 'allocated'];

export const RUN_COLUMNS = `r.id, r.source, r.client_carrier_id, v.name AS client_carrier, r.file_name,
  r.status, r.rerun_of, r.rows_total, r.rows_loaded, r.matched, r.newly_active, r.unknown,
  r.anomalies, r.error, ${isoTextSql('r.started_at')} AS started_at,
  ${isoTextSql('r.finished_at')} AS finished_at, r.actor_name AS run_by`;
const RUN_FROM = 'sim_detection_runs r JOIN vendors v ON v.id = r.client_carrier_id';

export async function findRun(db: Queryable, id: number): Promise<SimDetectionRun> {
  const [run] = await db.query<SimDetectionRun>(
    `SELECT ${RUN_COLUMNS} FROM ${RUN_FROM} WHERE r.id = $1`,
    [id],
  );
  if (!run) throw new NotFoundError(`Detection run ${id} does not exist.`);
  return run;
}

/** The client carrier a run is for: a vendor of type carrier-client, else 422 on the field. */
export async function clientCarrier(db: Queryable, id: number, field = 'client_carrier_id') {
  const [carrier] = await db.query<{ id: number; name: string; type: string }>(
    'SELECT id, name, type FROM vendors WHERE id = $1',
    [id],
  );
  if (!carrier || carrier.type !== 'carrier-client') {
    throw fieldError(field, 'Choose a client carrier: a vendor of type carrier-client.');
  }
  return carrier;
}

/** The carrier's kept mapping; an upload or a pull without one is refused. */
async function keptColumns(db: Queryable, carrierId: number): Promise<SimDetectionColumns> {
  const [kept] = await db.query<{ columns: unknown }>(
    'SELECT columns FROM sim_detection_mappings WHERE client_carrier_id = $1',
    [carrierId],
  );
  const parsed = kept && simDetectionColumnsSchema.safeParse(kept.columns);
  if (!parsed?.success) {
    throw fieldError(
      'client_carrier_id',
      'This carrier has no column mapping yet: choose its columns before uploading.',
    );
  }
  return parsed.data;
}

type NewRun = {
  source: 'file' | 'api';
  carrierId: number;
  fileName: string | null;
  status: 'loading' | 'applying';
  rowsTotal: number;
  columns: SimDetectionColumns | null;
  rerunOf?: number | null;
};

async function insertRun(tx: Queryable, actor: Actor, run: NewRun): Promise<number> {
  const [row] = await tx.query<{ id: number }>(
    `INSERT INTO sim_detection_runs (source, client_carrier_id, file_name, status, rows_total,
       columns, rerun_of, run_by, actor_name)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
    [
      run.source,
      run.carrierId,
      run.fileName,
      run.status,
      run.rowsTotal,
      run.columns && JSON.stringify(run.columns),
      run.rerunOf ?? null,
      actor.userId,
      actor.userName,
    ],
  );
  return row!.id;
}

/**
 * Takes an uploaded export: checks its header against the carrier's kept mapping (422 at once
 * when a column is missing) and keeps the file in parts with a new run, in one transaction. The
 * rows load and apply afterwards (`processRun`).
 */
export async function acceptUpload(
  db: Db,
  actor: Actor,
  input: { carrierId: number; fileName: string; content: Buffer },
): Promise<number> {
  const { content } = input;
  await clientCarrier(db, input.carrierId);
  const columns = await keptColumns(db, input.carrierId);
  if (content.length === 0) throw fieldError('file', 'The file is empty.');
  if (content.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))) {
    throw fieldError('file', 'This is a workbook: save the carrier’s export as CSV.');
  }
  const headerEnd = content.indexOf(10);
  const headerText = content.subarray(0, headerEnd < 0 ? content.length : headerEnd).toString();
  try {
    const [header] = Papa.parse<string[]>(headerText.trim()).data;
    columnPositions(header ?? [], columns);
  } catch (error) {
    if (error instanceof ExportRefusal) throw fieldError('file', error.message);
    throw error;
  }
  return db.transaction(async (tx) => {
    const runId = await insertRun(tx, actor, {
      source: 'file',
      carrierId: input.carrierId,
      fileName: input.fileName,
      status: 'loading',
      rowsTotal: estimatedRows(content),
      columns,
    });
    for (let part = 0; part * FILE_PART_BYTES < content.length; part += 1) {
      await tx.query(
        'INSERT INTO sim_detection_files (run_id, part, content) VALUES ($1, $2, $3)',
        [runId, part, content.subarray(part * FILE_PART_BYTES, (part + 1) * FILE_PART_BYTES)],
      );
    }
    return runId;
  });
}

/** A kept upload read back part by part, as the stream the loader parses. */
function keptFile(db: Queryable, runId: number): Readable {
  return Readable.from(
    (async function* () {
      for (let part = 0; ; part += 1) {
        const [row] = await db.query<{ content: Uint8Array }>(
          'SELECT content FROM sim_detection_files WHERE run_id = $1 AND part = $2',
          [runId, part],
        );
        if (!row) return;
        yield Buffer.from(row.content);
      }
    })(),
  );
}

/** Another server (or an earlier attempt) moved the run on: this one stops. */
class RunTakenOver extends Error {}

/** One batch of rows into the run and its count, in one transaction guarded by the count. */
async function writeBatch(db: Db, runId: number, rows: DetectionRow[], loadedBefore: number) {
  await db.transaction(async (tx) => {
    const moved = await tx.query(
      `UPDATE sim_detection_runs SET rows_loaded = $2
       WHERE id = $1 AND status = 'loading' AND rows_loaded = $3 RETURNING id`,
      [runId, loadedBefore + rows.length, loadedBefore],
    );
    if (moved.length === 0) throw new RunTakenOver();
    await tx.query(
      `INSERT INTO sim_detection_rows (run_id, line, iccid, state, mdn, activation_date,
         imei_seen, outcome, problem)
       SELECT $1, u.line, u.iccid, u.state, u.mdn, u.activation_date, u.imei_seen,
         CASE WHEN u.problem IS NOT NULL THEN 'invalid' END, u.problem
       FROM unnest($2::int[], $3::text[], $4::text[], $5::text[], $6::date[], $7::text[],
                   $8::text[]) AS u (line, iccid, state, mdn, activation_date, imei_seen, problem)`,
      [
        runId,
        rows.map((row) => row.line),
        rows.map((row) => row.iccid),
        rows.map((row) => row.state),
        rows.map((row) => row.mdn),
        rows.map((row) => row.activation_date),
        rows.map((row) => row.imei_seen),
        rows.map((row) => row.problem),
      ],
    );
  });
}

/**
 * Loads an export's rows into a run, resuming after the rows it already holds (each batch
 * commits with the run's count, so the count is the lines kept), then marks it for applying.
 */
export async function loadRows(
  db: Db,
  runId: number,
  input: Readable,
  columns: SimDetectionColumns,
  options: { stopped?: () => boolean } = {},
): Promise<void> {
  const [run] = await db.query<{ rows_loaded: number; last_line: number | null }>(
    `SELECT rows_loaded, (SELECT max(line) FROM sim_detection_rows WHERE run_id = $1) AS last_line
     FROM sim_detection_runs WHERE id = $1`,
    [runId],
  );
  let loaded = run!.rows_loaded;
  for await (const rows of detectionBatches(input, columns, {
    batchSize: LOAD_BATCH_ROWS,
    afterLine: run!.last_line ?? 1,
  })) {
    if (options.stopped?.()) {
      input.destroy();
      throw new RunTakenOver();
    }
    await writeBatch(db, runId, rows, loaded);
    loaded += rows.length;
  }
  const moved = await db.query(
    `UPDATE sim_detection_runs SET status = 'applying', rows_total = rows_loaded
     WHERE id = $1 AND status = 'loading' RETURNING id`,
    [runId],
  );
  if (moved.length === 0) throw new RunTakenOver();
}

/**
 * Applies a loaded run to the SIMs in the caller's transaction: every statement is set-based and
 * the run's status moves from `applying` to `done` in it, so a run applies exactly once.
 */
export async function applyRun(tx: Transaction, runId: number): Promise<void> {
  const [run] = await tx.query<{ status: string; run_by: number | null; actor_name: string }>(
    `SELECT status, run_by, COALESCE(actor_name, 'system') AS actor_name
     FROM sim_detection_runs WHERE id = $1 FOR UPDATE`,
    [runId],
  );
  if (run?.status !== 'applying') throw new RunTakenOver();

  // The matched rows, the last line of an ICCID winning, with the SIM as it is now and what the
  // carrier's state does to it by the lifecycle's detection actions.
  await tx.query(
    `CREATE TEMP TABLE sim_detection_apply ON COMMIT DROP AS
     SELECT *,
       (state = 'active' AND NOT ever_active) AS first_active,
       (state = 'active' AND from_status = ANY ($5::text[])) AS active_in_stock,
       (imei_seen IS NOT NULL AND (imei_seen <> paired_imei OR imei_seen <> device_imei))
         AS imei_mismatch,
       false AS applied
     FROM (
       SELECT DISTINCT ON (s.id) r.line, s.id AS sim_id, r.state, r.mdn, r.activation_date,
         r.imei_seen, s.status AS from_status, s.ever_active, s.agent_id, s.activated_agent_id,
         s.last_detect_state, s.mdn AS old_mdn, s.order_id, s.sim_request_id, s.paired_imei,
         d.imei AS device_imei,
         CASE
           WHEN r.state = 'active' AND s.status = ANY ($2::text[]) THEN 'active'
           WHEN r.state = 'inactive' AND s.status = ANY ($3::text[]) THEN 'inactive'
           WHEN r.state = 'suspended' AND s.status = ANY ($4::text[]) THEN 'suspended'
         END AS move_to
       FROM sim_detection_rows r
       JOIN sim_cards s ON s.iccid = r.iccid
       LEFT JOIN devices d ON d.id = s.device_id
       WHERE r.run_id = $1 AND r.outcome IS NULL
       ORDER BY s.id, r.line DESC
     ) matched`,
    [
      runId,
      DETECT_ACTIONS.active.from,
      DETECT_ACTIONS.inactive.from,
      DETECT_ACTIONS.suspended.from,
      IN_STOCK_STATUSES,
    ],
  );
  await tx.query(`UPDATE sim_detection_apply SET move_to = NULL WHERE move_to = from_status`);
  // Keyed for the joins below (the updated SIMs' ids among them), with the planner's counts.
  await tx.query('CREATE UNIQUE INDEX ON sim_detection_apply (sim_id)');
  await tx.query('ANALYZE sim_detection_apply');

  // The SIMs, each only if its status is still the one read (a scan that moved it meanwhile
  // wins; its row says so). The ids updated are kept apart and joined back with their counts, so
  // the planner hashes them rather than scanning them once per SIM.
  await tx.query('CREATE TEMP TABLE sim_detection_applied (sim_id bigint) ON COMMIT DROP');
  await tx.query(
    `WITH updated AS (
       UPDATE sim_cards s SET
         status = COALESCE(a.move_to, s.status),
         last_detected_at = now(),
         last_detect_state = a.state,
         mdn = COALESCE(a.mdn, s.mdn),
         activated_at = CASE WHEN a.state = 'active'
           THEN COALESCE(s.activated_at, a.activation_date::timestamptz, now())
           ELSE s.activated_at END,
         ever_active = s.ever_active OR a.state = 'active',
         activated_agent_id = CASE WHEN a.first_active AND s.activated_agent_id IS NULL
           THEN s.agent_id ELSE s.activated_agent_id END,
         updated_at = now()
       FROM sim_detection_apply a
       WHERE s.id = a.sim_id AND s.status = a.from_status
       RETURNING s.id)
     INSERT INTO sim_detection_applied (sim_id) SELECT id FROM updated`,
  );
  await tx.query('ANALYZE sim_detection_applied');
  await tx.query(
    `UPDATE sim_detection_apply a SET applied = true
     FROM sim_detection_applied u WHERE u.sim_id = a.sim_id`,
  );

  // The timeline: one event per SIM whose status moved, named by the lifecycle's action.
  await tx.query(
    `INSERT INTO sim_events (sim_id, actor_id, actor_name, type, from_status, to_status, data)
     SELECT a.sim_id, $2, $3,
       CASE a.move_to WHEN 'active' THEN $4 WHEN 'inactive' THEN $5 ELSE $6 END,
       a.from_status, a.move_to, jsonb_build_object('run_id', $1::bigint, 'line', a.line)
     FROM sim_detection_apply a WHERE a.applied AND a.move_to IS NOT NULL ORDER BY a.sim_id`,
    [
      runId,
      run.run_by,
      run.actor_name,
      DETECT_ACTIONS.active.event,
      DETECT_ACTIONS.inactive.event,
      DETECT_ACTIONS.suspended.event,
    ],
  );

  // Newly active agent SIMs count for the agent who held them.
  await tx.query(
    `INSERT INTO agent_sim_ledger (agent_id, sim_id, entry, sim_request_id, actor_id)
     SELECT a.agent_id, a.sim_id, 'activated', a.sim_request_id, $1
     FROM sim_detection_apply a
     WHERE a.applied AND a.first_active AND a.agent_id IS NOT NULL
       AND a.activated_agent_id IS NULL
     ORDER BY a.sim_id`,
    [run.run_by],
  );

  // Anomalies for a person, one open per SIM and kind.
  await tx.query(
    `INSERT INTO sim_anomalies (sim_id, run_id, kind, detail, ota_order)
     SELECT a.sim_id, $1, kind.name, kind.detail, a.order_id IS NOT NULL
     FROM sim_detection_apply a
     CROSS JOIN LATERAL (VALUES
       ('active_in_stock', a.active_in_stock,
        'Seen active by the carrier while ' || replace(a.from_status, '_', ' ') || '.'),
       ('imei_mismatch', a.imei_mismatch,
        'IMEI seen ' || a.imei_seen || ', paired with ' || COALESCE(a.paired_imei, a.device_imei)
          || '.')
     ) AS kind (name, flagged, detail)
     WHERE a.applied AND kind.flagged
     ORDER BY a.sim_id
     ON CONFLICT (sim_id, kind) WHERE status = 'open' DO NOTHING`,
    [runId],
  );

  // What each row did.
  await tx.query(
    `UPDATE sim_detection_rows r SET sim_id = a.sim_id,
       outcome = CASE
         WHEN NOT a.applied THEN 'unchanged'
         WHEN a.active_in_stock OR a.imei_mismatch THEN 'anomaly'
         WHEN a.first_active THEN 'newly_active'
         WHEN a.move_to IS NOT NULL OR a.last_detect_state IS DISTINCT FROM a.state
           OR a.mdn <> a.old_mdn THEN 'changed'
         ELSE 'unchanged' END,
       problem = CASE WHEN NOT a.applied
         THEN 'The SIM changed while the run was applied: re-run it.' END
     FROM sim_detection_apply a WHERE r.run_id = $1 AND r.line = a.line`,
    [runId],
  );
  // The rows left: an ICCID we have no SIM of, or an earlier line of one a later line stated.
  // One pass over the run's rows with a lookup by ICCID each: joining the rows to themselves
  // let the planner, whose statistics predate the run's rows, pair every row with every other
  // (200,000 rows ran for minutes).
  await tx.query(
    `UPDATE sim_detection_rows r SET (sim_id, outcome, problem) = (
       SELECT m.sim_id, CASE WHEN m.sim_id IS NULL THEN 'unknown' ELSE 'invalid' END,
         CASE WHEN m.sim_id IS NOT NULL THEN 'A later line of the file has this ICCID.' END
       FROM (SELECT (SELECT s.id FROM sim_cards s WHERE s.iccid = r.iccid) AS sim_id) m)
     WHERE r.run_id = $1 AND r.outcome IS NULL`,
    [runId],
  );

  const [totals] = await tx.query<Record<string, number>>(
    `UPDATE sim_detection_runs SET status = 'done', finished_at = now(), error = NULL,
       matched = (SELECT count(*) FROM sim_detection_apply),
       -- A SIM active while still in stock counts as the anomaly it is, not as an activation.
       newly_active = (SELECT count(*) FROM sim_detection_apply
                       WHERE applied AND first_active AND NOT active_in_stock),
       unknown = (SELECT count(*) FROM sim_detection_rows
                  WHERE run_id = $1 AND outcome = 'unknown'),
       anomalies = (SELECT count(*) FROM sim_detection_apply
                    WHERE applied AND (active_in_stock OR imei_mismatch))
     WHERE id = $1
     RETURNING rows_total, matched, newly_active, unknown, anomalies`,
    [runId],
  );
  await tx.query('DELETE FROM sim_detection_files WHERE run_id = $1', [runId]);
  await recordAudit(tx, {
    actorId: run.run_by,
    actorName: run.actor_name,
    action: 'sim-detection.applied',
    entityType: 'sim_detection_run',
    entityId: runId,
    after: totals,
  });
}

/**
 * Takes a run from where it stands to done: loads what is left of a kept upload, then applies.
 * Safe to call again for the same run after a restart, and from two servers at once: the loser
 * of a guarded step stops. A fault is written on the run as `failed`.
 */
export async function processRun(
  db: Db,
  runId: number,
  options: { stopped?: () => boolean } = {},
): Promise<void> {
  try {
    const [run] = await db.query<{ status: string; columns: SimDetectionColumns | null }>(
      'SELECT status, columns FROM sim_detection_runs WHERE id = $1',
      [runId],
    );
    if (run?.status === 'loading') {
      if (!run.columns) throw new ExportRefusal('The run was interrupted while it was read.');
      await loadRows(db, runId, keptFile(db, runId), run.columns, options);
    }
    if (options.stopped?.()) return;
    await db.transaction((tx) => applyRun(tx, runId));
  } catch (error) {
    if (error instanceof RunTakenOver) return;
    const message =
      error instanceof ExportRefusal
        ? error.message
        : 'The run could not be applied: the server met an error (see its log).';
    await db.query(
      `UPDATE sim_detection_runs SET status = 'failed', error = $2, finished_at = now()
       WHERE id = $1 AND status IN ('loading', 'applying')`,
      [runId, message],
    );
    if (!(error instanceof ExportRefusal)) throw error;
  }
}

/** The runs a server picks up when it starts: those a stop left loading or applying. */
export async function unfinishedRuns(db: Queryable): Promise<number[]> {
  const rows = await db.query<{ id: number }>(
    `SELECT id FROM sim_detection_runs WHERE status IN ('loading', 'applying') ORDER BY id`,
  );
  return rows.map((row) => row.id);
}

/**
 * Applies a carrier's export from a stream in the calling process: a run is made, its rows
 * loaded as the stream arrives and applied; answers the finished run. What the upload does,
 * without keeping the file, for scripts and the benchmark.
 */
export async function applyDetectionFile(
  db: Db,
  actor: Actor,
  input: {
    clientCarrierId: number;
    fileName: string;
    stream: Readable;
    columns: SimDetectionColumns;
  },
): Promise<SimDetectionRun> {
  const runId = await insertRun(db, actor, {
    source: 'file',
    carrierId: input.clientCarrierId,
    fileName: input.fileName,
    status: 'loading',
    rowsTotal: 0,
    columns: input.columns,
  });
  await loadRows(db, runId, input.stream, input.columns);
  await db.transaction((tx) => applyRun(tx, runId));
  return findRun(db, runId);
}

/** A finished run's rows again as a new run, ready to apply (one transaction). */
export async function createRerun(
  db: Db,
  actor: Actor,
  meta: RequestMeta,
  runId: number,
): Promise<number> {
  return db.transaction(async (tx) => {
    const [run] = await tx.query<{
      status: string;
      source: 'file' | 'api';
      client_carrier_id: number;
      file_name: string | null;
    }>(
      'SELECT status, source, client_carrier_id, file_name FROM sim_detection_runs WHERE id = $1',
      [runId],
    );
    if (!run) throw new NotFoundError(`Detection run ${runId} does not exist.`);
    if (run.status !== 'done') {
      throw new ConflictError(`Run ${runId} is ${run.status}: only a finished run is re-run.`);
    }
    const newId = await insertRun(tx, actor, {
      source: run.source,
      carrierId: run.client_carrier_id,
      fileName: run.file_name,
      status: 'applying',
      rowsTotal: 0,
      columns: null,
      rerunOf: runId,
    });
    await tx.query(
      `INSERT INTO sim_detection_rows (run_id, line, iccid, state, mdn, activation_date,
         imei_seen, outcome, problem)
       SELECT $2, line, iccid, state, mdn, activation_date, imei_seen,
         CASE WHEN outcome = 'invalid' AND sim_id IS NULL THEN 'invalid' END,
         CASE WHEN outcome = 'invalid' AND sim_id IS NULL THEN problem END
       FROM sim_detection_rows WHERE run_id = $1`,
      [runId, newId],
    );
    await tx.query(
      `UPDATE sim_detection_runs SET rows_total = counted.n, rows_loaded = counted.n
       FROM (SELECT count(*)::int AS n FROM sim_detection_rows WHERE run_id = $1) counted
       WHERE id = $1`,
      [newId],
    );
    await recordAudit(tx, {
      actorId: actor.userId,
      actorName: actor.userName,
      action: 'sim-detection.rerun',
      entityType: 'sim_detection_run',
      entityId: newId,
      after: { rerun_of: runId },
      ip: meta.ip,
      requestId: meta.requestId,
    });
    return newId;
  });
}

/** The ICCIDs a pull asks about: the list, or every ICCID of the range with its check digit. */
export function pulledIccids(pull: SimDetectionPull): string[] {
  const errors: Record<string, string[]> = {};
  const asked = new Set<string>();
  (pull.iccids ?? []).forEach((raw, index) => {
    const parsed = parseIccid(raw);
    if (parsed.ok) asked.add(parsed.value.iccid);
    else errors[`iccids.${index}`] = [parsed.message];
  });
  if (pull.first !== undefined || pull.last !== undefined) {
    const first = parseIccid(pull.first ?? '');
    const last = parseIccid(pull.last ?? '');
    if (!first.ok) errors.first = [first.message];
    if (!last.ok) errors.last = [last.message];
    if (first.ok && last.ok) {
      const from = first.value.iccid;
      const to = last.value.iccid;
      const start = BigInt(from.slice(0, -1));
      const end = BigInt(to.slice(0, -1));
      if (from.length !== to.length || end < start) {
        errors.last = ['The last ICCID must follow the first, with as many digits.'];
      } else if (end - start >= BigInt(SIM_DETECTION_PULL_MAX)) {
        errors.last = [`A range holds at most ${SIM_DETECTION_PULL_MAX} ICCIDs.`];
      } else {
        for (let body = start; body <= end; body += 1n) {
          const payload = body.toString().padStart(from.length - 1, '0');
          const withCheck = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
            .map((digit) => `${payload}${digit}`)
            .find((candidate) => parseIccid(candidate).ok);
          asked.add(withCheck!);
        }
      }
    }
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  if (asked.size === 0) {
    throw fieldError('iccids', 'List the ICCIDs to ask about, or give a range.');
  }
  if (asked.size > SIM_DETECTION_PULL_MAX) {
    throw fieldError('iccids', `One pull asks about at most ${SIM_DETECTION_PULL_MAX} ICCIDs.`);
  }
  return [...asked];
}

/**
 * A pull through the carrier's adapter: the ICCIDs asked, each with the state the carrier gives
 * (`not_found` when it knows none), written as a run ready to apply in one transaction.
 */
export async function createPull(
  db: Db,
  actor: Actor,
  meta: RequestMeta,
  pull: SimDetectionPull,
  adapterFor: (carrier: AdapterCarrier, columns: SimDetectionColumns) => DetectionAdapter,
): Promise<number> {
  const iccids = pulledIccids(pull);
  const carrier = await clientCarrier(db, pull.client_carrier_id);
  const columns = await keptColumns(db, carrier.id);
  const adapter = adapterFor(carrier, columns);
  const found = await adapter.lookUp(iccids).catch((error: unknown) => {
    if (error instanceof AdapterUnavailable) throw fieldError('client_carrier_id', error.message);
    throw error;
  });
  const rows: DetectionRow[] = iccids.map((iccid, index) => {
    const record = found.get(iccid);
    return {
      line: index + 1,
      iccid,
      state: record?.state ?? 'not_found',
      mdn: record?.mdn ?? null,
      activation_date: record?.activation_date ?? null,
      imei_seen: record?.imei_seen ?? null,
      problem: null,
    };
  });
  return db.transaction(async (tx) => {
    const runId = await insertRun(tx, actor, {
      source: 'api',
      carrierId: carrier.id,
      fileName: adapter.name,
      status: 'applying',
      rowsTotal: rows.length,
      columns: null,
    });
    await tx.query(
      `INSERT INTO sim_detection_rows (run_id, line, iccid, state, mdn, activation_date, imei_seen)
       SELECT $1, u.line, u.iccid, u.state, u.mdn, u.activation_date, u.imei_seen
       FROM unnest($2::int[], $3::text[], $4::text[], $5::text[], $6::date[], $7::text[])
         AS u (line, iccid, state, mdn, activation_date, imei_seen)`,
      [
        runId,
        rows.map((row) => row.line),
        rows.map((row) => row.iccid),
        rows.map((row) => row.state),
        rows.map((row) => row.mdn),
        rows.map((row) => row.activation_date),
        rows.map((row) => row.imei_seen),
      ],
    );
    await tx.query('UPDATE sim_detection_runs SET rows_loaded = rows_total WHERE id = $1', [runId]);
    await recordAudit(tx, {
      actorId: actor.userId,
      actorName: actor.userName,
      action: 'sim-detection.pulled',
      entityType: 'sim_detection_run',
      entityId: runId,
      after: { client_carrier_id: carrier.id, asked: iccids.length, found: found.size },
      ip: meta.ip,
      requestId: meta.requestId,
    });
    return runId;
  });
}
