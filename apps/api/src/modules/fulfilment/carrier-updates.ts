import type { CarrierUpdate, CarrierUpdateKind } from '@inventory/contract';
import * as z from 'zod/mini';
import type { Queryable, Transaction } from '../../db/db.js';
import { NotFoundError } from '../../http/errors.js';
import type { Acting, Actor } from '../../http/principal.js';
import { isoTextSql } from '../../http/sql.js';
import { defineJob, enqueue } from '../../toolkit/jobs.js';
import {
  carrierUpdateAdapter,
  type CarrierAnswer,
  type CarrierLinkSettings,
  type CarrierUpdateRequest,
} from './carrier-update-adapter.js';

/**
 * An order's reports to its client carrier (`carrier_updates`, migration 0058): opened in the
 * transaction that fulfils an OTA or existing-customer order, cancelled when it is unpicked,
 * settled once by the carrier's answer, whichever way it comes (the answer file's import, the
 * HTTP endpoint's job). The label desk reads the latest one through `order_label_blocker`.
 */

/** An update as the desk shows it, over `carrier_updates c` joined to `orders o`. */
export const CARRIER_UPDATE_COLUMNS = `c.id::int AS id, c.kind, c.status, c.message,
  c.attempts, ${isoTextSql('c.submitted_at')} AS submitted_at,
  ${isoTextSql('c.answered_at')} AS answered_at, c.order_id::int AS order_id,
  o.number AS order_number, o.status AS order_status, o.fulfilment_type,
  c.client_carrier_id::int AS client_carrier_id,
  (SELECT v.name FROM vendors v WHERE v.id = c.client_carrier_id) AS client_carrier, c.delivery,
  c.payload -> 'units' AS units, c.batch_file_id::int AS batch_file_id,
  ${isoTextSql('c.created_at')} AS created_at,
  (SELECT u.name FROM users u WHERE u.id = o.assignee_id) AS assignee_name`;

/** An order's latest update that counts (cancelled ones aside), over `orders o`. */
export const LATEST_UPDATE = `SELECT * FROM carrier_updates x
  WHERE x.order_id = o.id AND x.status <> 'cancelled' ORDER BY x.id DESC LIMIT 1`;

export async function carrierUpdateRow(db: Queryable, id: number): Promise<CarrierUpdate> {
  const [row] = await db.query<CarrierUpdate>(
    `SELECT ${CARRIER_UPDATE_COLUMNS} FROM carrier_updates c JOIN orders o ON o.id = c.order_id
     WHERE c.id = $1`,
    [id],
  );
  if (!row) throw new NotFoundError(`There is no carrier update with id ${id}.`);
  return row;
}

/** How a carrier takes updates; a carrier without a link row takes the defaults. */
export type CarrierLink = CarrierLinkSettings & {
  readonly device_change_ack: boolean;
  readonly pre_activation: boolean;
};

export async function carrierLinkOf(db: Queryable, carrierId: number): Promise<CarrierLink> {
  const [link] = await db.query<CarrierLink>(
    `SELECT update_url, update_key, device_change_ack, pre_activation
     FROM client_carrier_links WHERE client_carrier_id = $1`,
    [carrierId],
  );
  return (
    link ?? { update_url: null, update_key: null, device_change_ack: true, pre_activation: false }
  );
}

/** Who settles what a carrier's endpoint answered: the job, on nobody's behalf. */
const CARRIER_ENDPOINT: Actor = {
  userId: null,
  userName: 'system: carrier endpoint',
  roles: [],
  permissions: [],
  roleKeys: [],
};

/**
 * A carrier that does not answer is asked again after about 30 s, 1 min, 2 min, 4 min, 8 min;
 * after the last the update fails with why, for a person to retry.
 */
const SEND_RETRY = { limit: 5, delaySeconds: 30, backoff: true } as const;

/** The job that sends one update to its carrier's HTTP endpoint. */
export const carrierUpdateSendJob = defineJob({
  name: 'carrier-update.send',
  schema: z.object({ update_id: z.int() }),
  retry: SEND_RETRY,
  expireInSeconds: 120,
  handler: async ({ update_id }, { db, job }) => {
    const claimed = await db.transaction((tx) => claimForSending(tx, update_id));
    if (!claimed) return;
    let answer: CarrierAnswer | undefined;
    try {
      const delivery = await carrierUpdateAdapter(claimed.link).deliver([claimed.request]);
      if ('answers' in delivery) answer = delivery.answers.get(update_id);
    } catch (error) {
      if (job.retryCount < SEND_RETRY.limit) throw error;
      answer = {
        result: 'failed',
        message: `The carrier did not answer: ${error instanceof Error ? error.message : String(error)}`,
      };
    }
    if (!answer) throw new Error(`The carrier gave no answer for update ${update_id}.`);
    const settled = answer;
    await db.transaction((tx) =>
      settleUpdates(tx, CARRIER_ENDPOINT, [{ id: update_id, ...settled }]),
    );
  },
});

/**
 * Takes an HTTP update to send: still pending, or submitted by a run that did not get its answer
 * (the job's retry, which sends the same attempt again under the same idempotency key); anything
 * settled or cancelled meanwhile is left alone.
 */
async function claimForSending(tx: Transaction, id: number) {
  const [found] = await tx.query<{ client_carrier_id: number }>(
    `SELECT client_carrier_id::int AS client_carrier_id FROM carrier_updates
     WHERE id = $1 AND delivery = 'http' AND status IN ('pending', 'submitted') FOR UPDATE`,
    [id],
  );
  if (!found) return null;
  const link = await carrierLinkOf(tx, found.client_carrier_id);
  if (!link.update_url) {
    // The link lost its URL since: the update waits for the next batch file instead.
    await tx.query(
      `UPDATE carrier_updates SET status = 'pending', delivery = 'batch_file', updated_at = now()
       WHERE id = $1`,
      [id],
    );
    return null;
  }
  const [request] = await tx.query<CarrierUpdateRequest>(
    `UPDATE carrier_updates c SET status = 'submitted',
       attempts = c.attempts + (c.status = 'pending')::int, submitted_at = now(), updated_at = now()
     FROM orders o
     WHERE c.id = $1 AND o.id = c.order_id
     RETURNING c.id::int AS id, o.number AS "orderNumber", c.kind, c.payload -> 'units' AS units,
       c.attempts - 1 AS attempts`,
    [id],
  );
  return { request: request!, link };
}

/** Sends an HTTP update by its job, in the caller's transaction: sent only if that commits. */
export const sendByJob = (tx: Transaction, id: number) =>
  enqueue(tx, carrierUpdateSendJob, { update_id: id });

/** The kind of update an order of this type reports, if any. */
const kindOf = (type: string, link: CarrierLink): CarrierUpdateKind | null =>
  type === 'ota'
    ? 'pairing'
    : type === 'existing_customer' && link.device_change_ack
      ? 'device_change'
      : null;

/**
 * Opens the update of an order just fulfilled: an OTA order's pairing, an existing customer's
 * device change (unless its carrier does not acknowledge them), with its picked units. Sent by a
 * job to a carrier's HTTP endpoint, or left pending for the next batch file.
 */
export async function openCarrierUpdate(
  tx: Transaction,
  { actor }: Acting,
  orderId: number,
): Promise<void> {
  const [order] = await tx.query<{ fulfilment_type: string; client_carrier_id: number | null }>(
    `SELECT fulfilment_type, client_carrier_id::int AS client_carrier_id FROM orders
     WHERE id = $1`,
    [orderId],
  );
  if (!order || order.client_carrier_id === null) return;
  const link = await carrierLinkOf(tx, order.client_carrier_id);
  const kind = kindOf(order.fulfilment_type, link);
  if (!kind) return;
  const delivery = link.update_url ? 'http' : 'batch_file';
  const [opened] = await tx.query<{ id: number }>(
    `INSERT INTO carrier_updates (order_id, client_carrier_id, kind, delivery, payload, created_by)
     SELECT $1, $2, $3, $4, jsonb_build_object('units', COALESCE(jsonb_agg(
         jsonb_build_object('imei', d.identifier, 'iccid', u.iccid) ORDER BY u.id), '[]')), $5
     FROM order_lines l JOIN order_line_units u ON u.order_line_id = l.id
     JOIN devices d ON d.id = u.device_id
     WHERE l.order_id = $1 AND u.status = 'picked'
     RETURNING id::int AS id`,
    [orderId, order.client_carrier_id, kind, delivery, actor.userId],
  );
  await writeUpdateEvents(tx, actor, [{ order_id: orderId, id: opened!.id, kind }], 'opened');
  if (delivery === 'http') await sendByJob(tx, opened!.id);
}

/** An unpicked order's open updates are void: the next fulfilment reports its units anew. */
export async function cancelOpenUpdates(tx: Transaction, orderId: number): Promise<void> {
  await tx.query(
    `UPDATE carrier_updates SET status = 'cancelled', updated_at = now()
     WHERE order_id = $1 AND status IN ('pending', 'submitted')`,
    [orderId],
  );
}

/** One line per update on its order's timeline: `carrier_update_<what>`. */
export async function writeUpdateEvents(
  tx: Transaction,
  actor: Pick<Actor, 'userId' | 'userName'>,
  updates: readonly { order_id: number; id: number; kind: string; message?: string | null }[],
  what: string,
): Promise<void> {
  if (updates.length === 0) return;
  await tx.query(
    `INSERT INTO order_events (order_id, actor_id, actor_name, type, data)
     SELECT s.order_id, $4, $5, $6,
       jsonb_strip_nulls(jsonb_build_object('carrier_update_id', s.id, 'kind', s.kind,
         'message', s.message))
     FROM unnest($1::bigint[], $2::bigint[], $3::text[], $7::text[])
       AS s (order_id, id, kind, message)`,
    [
      updates.map((update) => update.order_id),
      updates.map((update) => update.id),
      updates.map((update) => update.kind),
      actor.userId,
      actor.userName,
      `carrier_update_${what}`,
      updates.map((update) => update.message ?? null),
    ],
  );
}

/**
 * Settles submitted updates with the carrier's answers, each once: an update answered already
 * (two answer files at once, a late HTTP answer) is left as the first answer made it. Answers how
 * many it settled.
 */
export async function settleUpdates(
  tx: Transaction,
  actor: Pick<Actor, 'userId' | 'userName'>,
  answers: readonly ({ readonly id: number } & CarrierAnswer)[],
): Promise<number> {
  if (answers.length === 0) return 0;
  const settled = await tx.query<{
    id: number;
    order_id: number;
    kind: string;
    status: string;
    message: string | null;
  }>(
    `UPDATE carrier_updates c SET status = s.result, message = s.message, answered_at = now(),
       updated_at = now()
     FROM unnest($1::bigint[], $2::text[], $3::text[]) AS s (id, result, message)
     WHERE c.id = s.id AND c.status = 'submitted'
     RETURNING c.id::int AS id, c.order_id::int AS order_id, c.kind, c.status, c.message`,
    [answers.map((a) => a.id), answers.map((a) => a.result), answers.map((a) => a.message)],
  );
  for (const result of ['ok', 'failed'] as const) {
    await writeUpdateEvents(
      tx,
      actor,
      settled.filter((row) => row.status === result),
      result,
    );
  }
  return settled.length;
}
