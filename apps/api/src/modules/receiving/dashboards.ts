import {
  AGE_BUCKETS,
  WAREHOUSE_BOX_STATUSES,
  type FileColumn,
  type ModelPipeline,
  type WarehouseBoxDashboard,
} from '@inventory/contract';
import type { Queryable } from '../../db/db.js';
import { CONTENT_TYPES, fileStream, type Cell } from '../../toolkit/files.js';
import type { PreparedFile } from '../../toolkit/downloads.js';

/** Statuses that come after a device passed grading (DOMAIN.md 3.1). */
const GRADED_OR_LATER = `('graded', 'in_stock', 'reserved', 'picked', 'packed', 'shipped',
  'delivered', 'lost', 'returned', 'reuse')`;
/** Statuses of a device that failed production: failed QC, in repair, or written off. */
const FAILED = "('failed_qc', 'in_repair', 'repaired', 'scrapped', 'parts')";

/**
 * The warehouse box dashboard, each figure one indexed query: unprocessed stock (status
 * received) has a partial index of its own, so its figures cost what is waiting, not what the
 * registry holds. Days are the warehouse's (`timeZone`, the browser's).
 */
export async function boxDashboard(
  db: Queryable,
  timeZone: string | undefined,
): Promise<WarehouseBoxDashboard> {
  const zone = timeZone ?? 'UTC';
  const [boxes, [received], byAge, byVendor, byInvoice, [discrepancies]] = await Promise.all([
    db.query<WarehouseBoxDashboard['boxes_by_status'][number]>(
      `SELECT status, count(*)::int AS boxes, COALESCE(sum(qty_scanned), 0)::int AS devices
       FROM warehouse_boxes GROUP BY status
       ORDER BY array_position($1::text[], status)`,
      [WAREHOUSE_BOX_STATUSES],
    ),
    db.query<{ today: number; week: number }>(
      `WITH since AS (
         SELECT date_trunc('day', now() AT TIME ZONE $1) AT TIME ZONE $1 AS day,
                date_trunc('week', now() AT TIME ZONE $1) AT TIME ZONE $1 AS week)
       SELECT count(*) FILTER (WHERE d.received_at >= since.day)::int AS today,
              count(*)::int AS week
       FROM since, devices d WHERE d.received_at >= since.week`,
      [zone],
    ),
    db.query<{ bucket: number; devices: number }>(
      `SELECT width_bucket(EXTRACT(epoch FROM now() - received_at) / 86400, $1::float8[]) - 1
                AS bucket,
              count(*)::int AS devices
       FROM devices WHERE status = 'received' GROUP BY 1`,
      [AGE_BUCKETS.map((bucket) => bucket.from)],
    ),
    db.query<WarehouseBoxDashboard['unprocessed_by_vendor'][number]>(
      `SELECT u.vendor_id AS id, v.name AS label, u.devices,
              to_json(u.oldest) #>> '{}' AS oldest_received_at
       FROM (SELECT vendor_id, count(*)::int AS devices, min(received_at) AS oldest
             FROM devices WHERE status = 'received' GROUP BY vendor_id
             ORDER BY count(*) DESC LIMIT 20) u
       JOIN vendors v ON v.id = u.vendor_id ORDER BY u.devices DESC, v.name`,
    ),
    db.query<WarehouseBoxDashboard['unprocessed_by_invoice'][number]>(
      `SELECT u.invoice_id AS id, i.invoice_no || ' (' || v.name || ')' AS label, u.devices,
              to_json(u.oldest) #>> '{}' AS oldest_received_at
       FROM (SELECT invoice_id, count(*)::int AS devices, min(received_at) AS oldest
             FROM devices WHERE status = 'received' GROUP BY invoice_id
             ORDER BY min(received_at) LIMIT 20) u
       JOIN purchase_invoices i ON i.id = u.invoice_id JOIN vendors v ON v.id = i.vendor_id
       ORDER BY u.oldest`,
    ),
    db.query<WarehouseBoxDashboard['discrepancies']>(
      `SELECT count(*) FILTER (WHERE ii.match_status = 'missing')::int AS missing,
         count(*) FILTER (WHERE ii.match_status = 'unexpected')::int AS unexpected,
         count(*) FILTER (WHERE ii.match_status = 'duplicate')::int AS duplicate,
         count(*) FILTER (WHERE ii.match_status = 'received' AND ii.tac_model_id <> ii.model_id)::int
           AS mismatched,
         count(*) FILTER (WHERE ii.decision IS NULL AND (ii.match_status IN
           ('missing', 'unexpected', 'duplicate') OR (ii.match_status = 'received'
           AND ii.tac_model_id <> ii.model_id)))::int AS undecided
       FROM invoice_imeis ii
       WHERE ii.open AND (ii.match_status IN ('missing', 'unexpected', 'duplicate')
         OR (ii.match_status = 'received' AND ii.tac_model_id <> ii.model_id))`,
    ),
  ]);
  const ages = new Map(byAge.map((row) => [row.bucket, row.devices]));
  return {
    boxes_by_status: boxes,
    received_today: received!.today,
    received_this_week: received!.week,
    unprocessed_by_age: AGE_BUCKETS.map((bucket, index) => ({
      label: bucket.label,
      devices: ages.get(index) ?? 0,
    })),
    unprocessed_by_vendor: byVendor,
    unprocessed_by_invoice: byInvoice,
    discrepancies: discrepancies!,
  };
}

/**
 * Per model: where its devices are in the pipeline, counted from the (model, status) index,
 * optionally for one vendor. Yield is graded / (graded + failed).
 */
export async function modelPipeline(
  db: Queryable,
  vendorId: number | undefined,
): Promise<ModelPipeline[]> {
  return db.query<ModelPipeline>(
    `WITH counts AS (
       SELECT model_id, status, count(*)::int AS n FROM devices
       WHERE ($1::bigint IS NULL OR vendor_id = $1) GROUP BY model_id, status),
     requested AS (
       SELECT d.model_id, count(*)::int AS n
       FROM warehouse_boxes wb JOIN devices d ON d.warehouse_box_id = wb.id
       WHERE wb.status = 'requested' AND d.status = 'received'
         AND ($1::bigint IS NULL OR d.vendor_id = $1)
       GROUP BY d.model_id),
     per_model AS (
       SELECT model_id,
         COALESCE(sum(n) FILTER (WHERE status = 'received'), 0)::int AS received_all,
         COALESCE(sum(n) FILTER (WHERE status = 'in_production'), 0)::int AS in_production,
         COALESCE(sum(n) FILTER (WHERE status IN ${GRADED_OR_LATER}), 0)::int AS graded,
         COALESCE(sum(n) FILTER (WHERE status IN ${FAILED}), 0)::int AS failed,
         COALESCE(sum(n) FILTER (WHERE status = 'hold'), 0)::int AS held
       FROM counts GROUP BY model_id)
     SELECT p.model_id, b.name || ' ' || m.name AS model,
       p.received_all - COALESCE(r.n, 0) AS received, COALESCE(r.n, 0) AS requested,
       p.in_production, p.graded, p.failed, p.held,
       CASE WHEN p.graded + p.failed > 0
         THEN round(100.0 * p.graded / (p.graded + p.failed), 1)::float8 END AS yield_pct
     FROM per_model p
     JOIN device_models m ON m.id = p.model_id JOIN brands b ON b.id = m.brand_id
     LEFT JOIN requested r ON r.model_id = p.model_id
     ORDER BY m.sort_name, m.id`,
    [vendorId ?? null],
  );
}

const PIPELINE_COLUMNS: FileColumn[] = [
  { key: 'model', header: 'Model', example: '' },
  { key: 'received', header: 'Received', example: '' },
  { key: 'requested', header: 'Requested', example: '' },
  { key: 'in_production', header: 'In production', example: '' },
  { key: 'graded', header: 'Graded', example: '' },
  { key: 'failed', header: 'Failed', example: '' },
  { key: 'held', header: 'On hold', example: '' },
  { key: 'yield_pct', header: 'Yield %', example: '' },
];

/** The per-model figures as a file. */
export async function modelPipelineFile(
  db: Queryable,
  vendorId: number | undefined,
  format: 'csv' | 'xlsx',
): Promise<PreparedFile> {
  const rows = await modelPipeline(db, vendorId);
  async function* chunks() {
    yield rows.map((row) =>
      PIPELINE_COLUMNS.map((column): Cell => row[column.key as keyof ModelPipeline] ?? null),
    );
  }
  return {
    fileName: `models-pipeline-${new Date().toISOString().slice(0, 10)}.${format}`,
    contentType: CONTENT_TYPES[format],
    stream: fileStream(format, 'Models', PIPELINE_COLUMNS, chunks()),
  };
}
