import {
  LABEL_STEP_MAX,
  ORDER_SHIPPING_ACCESS,
  type LabelResult,
  type LabelRunProgress,
} from '@inventory/contract';
import * as z from 'zod/mini';
import type { CarrierConfig } from '../../config.js';
import type { Db, Queryable, Transaction } from '../../db/db.js';
import { ConflictError, NotFoundError } from '../../http/errors.js';
import type { Actor, RequestMeta } from '../../http/principal.js';
import { defineJob, enqueue, type JobDefinition } from '../../toolkit/jobs.js';
import { auditActor, recordAudit } from '../audit/index.js';
import { campaignScope } from './campaign-scope.js';
import { batchRow, labelStep, type Desk } from './labels.service.js';
import { packageRow } from './packages.store.js';

/**
 * Label batches run as a job (issue 18; decision 0047). The desk gives a batch its orders
 * (`startLabelRun`), and the job is enqueued in the same transaction; the job labels them
 * LABEL_STEP_MAX at a time, each step one transaction that labels through `labelStep` (an order
 * labelled already keeps its package, so nothing is bought twice) and records what became of its
 * orders. A run stopped mid-way (a server killed, the carrier not answering) is run again by the
 * queue and takes the orders left; two runs of one batch at once take different orders (SKIP
 * LOCKED). The desk reads the progress (`labelRunProgress`) while the job works.
 */

export type LabelBatchJobData = { batch_id: number };
export type LabelBatchJob = JobDefinition<LabelBatchJobData>;

/** A retry waits 5 s, then twice as long each time: a carrier down for minutes is waited out. */
const RUN_RETRY = { limit: 8, delaySeconds: 5, backoff: true } as const;

/** The label batches' job, buying from the carrier the server is set up with. */
export const labelBatchJob = (carrier: CarrierConfig): LabelBatchJob =>
  defineJob({
    name: 'shipment.label-batch',
    schema: z.object({ batch_id: z.int() }),
    retry: RUN_RETRY,
    // Per batch (its key) one run waiting and one under way: orders given while a run works are
    // taken by the next.
    policy: 'stately',
    expireInSeconds: 900,
    handler: ({ batch_id }, { db }) => runLabelBatch(db, carrier, batch_id),
  });

/**
 * Gives a batch orders to label: each order joins the batch's run once (given again, an order the
 * run refused waits to be tried again; one done stays done), and the job is enqueued. Answers the
 * run's progress.
 */
export async function startLabelRun(
  tx: Transaction,
  { principal, meta }: Desk,
  job: LabelBatchJob,
  batchId: number,
  orderIds: readonly number[],
  campaignId: number | undefined,
): Promise<LabelRunProgress> {
  const [batch] = await tx.query<{ campaign_id: number | null }>(
    'SELECT campaign_id::int AS campaign_id FROM label_batches WHERE id = $1 FOR UPDATE',
    [batchId],
  );
  if (!batch) throw new NotFoundError(`There is no label batch with id ${batchId}.`);
  const ids = [...new Set(orderIds)];
  const known = await tx.query<{ id: number }>(
    'SELECT id::int AS id FROM orders WHERE id = ANY ($1::bigint[])',
    [ids],
  );
  const unknown = ids.filter((id) => !known.some((order) => order.id === id));
  if (unknown.length > 0) {
    throw new NotFoundError(`There is no order with id ${unknown.join(', ')}.`);
  }
  const scope = await campaignScope(tx, campaignId);
  if (batch.campaign_id !== null && batch.campaign_id !== (scope?.id ?? null)) {
    throw new ConflictError(`Label batch ${batchId} is a campaign's: label its orders there.`);
  }
  await tx.query(
    `UPDATE label_batches SET campaign_id = COALESCE(campaign_id, $2), run_error = NULL
     WHERE id = $1`,
    [batchId, scope?.id ?? null],
  );
  await tx.query(
    `INSERT INTO label_batch_orders (batch_id, order_id, position)
     SELECT $1, o.id, (SELECT COALESCE(max(position), 0) FROM label_batch_orders
                       WHERE batch_id = $1) + o.n
     FROM unnest($2::bigint[]) WITH ORDINALITY AS o (id, n)
     ON CONFLICT (batch_id, order_id) DO UPDATE
       SET result = NULL, message = NULL, done_at = NULL
       WHERE label_batch_orders.result = 'refused'`,
    [batchId, ids],
  );
  await recordAudit(tx, {
    ...auditActor(principal, meta),
    action: 'label_batch.run_started',
    entityType: 'label_batch',
    entityId: batchId,
    after: { orders: ids.length, campaign_id: scope?.id ?? null },
  });
  await enqueue(tx, job, { batch_id: batchId }, { singletonKey: `label-batch-${batchId}` });
  return labelRunProgress(tx, batchId);
}

/** A batch's run so far: the orders given, those done and what became of each, in their order. */
export async function labelRunProgress(db: Queryable, batchId: number): Promise<LabelRunProgress> {
  const batch = await batchRow(db, batchId);
  const rows = await db.query<{
    order_id: number;
    order_number: string;
    result: LabelResult | null;
    message: string | null;
    package_id: number | null;
  }>(
    `SELECT r.order_id::int AS order_id, o.number AS order_number, r.result, r.message,
       r.package_id::int AS package_id
     FROM label_batch_orders r JOIN orders o ON o.id = r.order_id
     WHERE r.batch_id = $1 ORDER BY r.position`,
    [batchId],
  );
  const [run] = await db.query<{ error: string | null }>(
    'SELECT run_error AS error FROM label_batches WHERE id = $1',
    [batchId],
  );
  const results: LabelRunProgress['results'] = [];
  for (const row of rows) {
    results.push({
      order_id: row.order_id,
      order_number: row.order_number,
      result: row.result ?? 'waiting',
      message: row.message ?? 'Waiting for its label.',
      package: row.package_id === null ? null : await packageRow(db, row.package_id),
    });
  }
  return {
    batch,
    requested: rows.length,
    done: rows.filter((row) => row.result !== null).length,
    error: run?.error ?? null,
    results,
  };
}

/**
 * The job acts for whoever made the batch, with the label desk's right only: the timelines name
 * that person, and the steps need nothing more.
 */
async function batchActor(db: Queryable, batchId: number): Promise<Actor> {
  const [maker] = await db.query<{ user_id: number | null; user_name: string | null }>(
    `SELECT u.id::int AS user_id, u.user_name FROM label_batches b
     LEFT JOIN users u ON u.id = b.created_by WHERE b.id = $1`,
    [batchId],
  );
  return {
    userId: maker?.user_id ?? null,
    userName: maker?.user_name ?? 'system: label batch',
    roles: [],
    permissions: [ORDER_SHIPPING_ACCESS.permission],
    roleKeys: [],
  };
}

/**
 * One step of a batch's run: the next orders waiting (up to LABEL_STEP_MAX, in their order, none
 * another run holds) labelled and recorded in one transaction. Answers how many it took: 0 when
 * none is left.
 */
export async function runLabelStep(
  db: Db,
  carrier: CarrierConfig,
  batchId: number,
): Promise<number> {
  const principal = await batchActor(db, batchId);
  const meta: RequestMeta = { ip: '', userAgent: null, requestId: `label-batch-${batchId}` };
  return db.transaction(async (tx) => {
    const waiting = await tx.query<{ order_id: number }>(
      `SELECT order_id::int AS order_id FROM label_batch_orders
       WHERE batch_id = $1 AND done_at IS NULL
       ORDER BY position LIMIT ${LABEL_STEP_MAX} FOR UPDATE SKIP LOCKED`,
      [batchId],
    );
    if (waiting.length === 0) return 0;
    const [batch] = await tx.query<{ campaign_id: number | null }>(
      'SELECT campaign_id::int AS campaign_id FROM label_batches WHERE id = $1',
      [batchId],
    );
    const scope = await campaignScope(tx, batch?.campaign_id ?? undefined);
    const answer = await labelStep(
      tx,
      { principal, meta, carrier },
      batchId,
      waiting.map((row) => row.order_id),
      scope,
    );
    await tx.query(
      `UPDATE label_batch_orders r SET result = a.result, message = a.message,
         package_id = a.package_id, done_at = now()
       FROM jsonb_to_recordset($2::jsonb) AS a (order_id bigint, result text, message text,
         package_id bigint)
       WHERE r.batch_id = $1 AND r.order_id = a.order_id`,
      [
        batchId,
        JSON.stringify(
          answer.results.map((result) => ({
            order_id: result.order_id,
            result: result.result,
            message: result.message,
            package_id: result.package?.id ?? null,
          })),
        ),
      ],
    );
    return waiting.length;
  });
}

/**
 * Runs a batch to its end, step by step. A step that fails (the carrier did not answer) keeps
 * its orders waiting and says why on the batch; the queue runs the job again with back-off.
 */
export async function runLabelBatch(
  db: Db,
  carrier: CarrierConfig,
  batchId: number,
): Promise<void> {
  try {
    let taken: number;
    do taken = await runLabelStep(db, carrier, batchId);
    while (taken > 0);
    await db.query('UPDATE label_batches SET run_error = NULL WHERE id = $1', [batchId]);
  } catch (error) {
    await db.query('UPDATE label_batches SET run_error = $2 WHERE id = $1', [
      batchId,
      error instanceof Error ? error.message : String(error),
    ]);
    throw error;
  }
}
