import {
  CARRIER_UPDATE_BOARD_LIMIT,
  carrierAnswerImport,
  pickQueueTypes,
  type CarrierUpdate,
  type CarrierUpdateBoard,
  type CarrierUpdateKind,
  type ClientCarrierLink,
  type FieldErrors,
  type SaveClientCarrierLinkInput,
  carrierAnswerRowSchema,
} from '@inventory/contract';
import type { Db, Queryable, Transaction } from '../../db/db.js';
import { ConflictError, NotFoundError, fieldError } from '../../http/errors.js';
import type { Acting, Actor, RequestMeta } from '../../http/principal.js';
import type { ImportStore, Prepared, WriteFieldsOf, WriteInput } from '../../toolkit/stores.js';
import { auditActor, recordAudit } from '../audit/index.js';
import { batchFileAdapter, type CarrierUpdateFile } from './carrier-update-adapter.js';
import {
  CARRIER_UPDATE_COLUMNS,
  carrierLinkOf,
  carrierUpdateRow,
  LATEST_UPDATE,
  sendByJob,
  settleUpdates,
  writeUpdateEvents,
} from './carrier-updates.js';
import { pushToBacklog } from './pick.service.js';

/**
 * The carrier updates desk (DOMAIN.md 4.14 /fulfill/ota-orders and /fulfill/existing-customer):
 * the board of each order's latest update while it waits for its label, the batch file's export
 * (submitted in the same transaction) and the carrier's answer file (the import toolkit: dry run,
 * errors by line; each update settled once), retry of a failed update, each carrier's link, and
 * the sweep that sends orders failed too long to the backlog.
 */

const kindTypes = (kind: CarrierUpdateKind) =>
  pickQueueTypes(kind === 'pairing' ? 'ota' : 'existing_customer');

/** Each order's latest update of a kind while the order is picked and not labelled yet. */
export async function carrierUpdateBoard(
  db: Queryable,
  kind: CarrierUpdateKind,
): Promise<CarrierUpdateBoard> {
  const updates = await db.query<CarrierUpdate>(
    `SELECT ${CARRIER_UPDATE_COLUMNS}
     FROM orders o CROSS JOIN LATERAL (${LATEST_UPDATE}) c
     WHERE o.status IN ('in_progress', 'fulfilled') AND o.fulfilment_type = ANY ($1::text[])
       AND c.kind = $2
     ORDER BY c.id LIMIT ${CARRIER_UPDATE_BOARD_LIMIT}`,
    [kindTypes(kind), kind],
  );
  const [settings] = await db.query<{ hours: number }>(
    'SELECT pairing_failed_hours AS hours FROM carrier_update_settings',
  );
  return { updates, pairing_failed_hours: settings!.hours };
}

/**
 * Exports a carrier's pending batch-file updates of a kind: they are submitted, with the file,
 * in one transaction. Answers the file's id and how many it holds; 409 when none waits.
 */
export async function exportUpdates(
  tx: Transaction,
  { actor, meta }: Acting,
  carrierId: number,
  kind: CarrierUpdateKind,
): Promise<{ id: number; updates: number }> {
  const [carrier] = await tx.query<{ name: string }>(
    `SELECT name FROM vendors WHERE id = $1 AND type = 'carrier-client'`,
    [carrierId],
  );
  if (!carrier) throw fieldError('client_carrier_id', 'Choose a client carrier.');
  const pending = await tx.query<{ id: number; order_id: number; kind: string }>(
    `SELECT id::int AS id, order_id::int AS order_id, kind FROM carrier_updates
     WHERE client_carrier_id = $1 AND kind = $2 AND status = 'pending' AND delivery = 'batch_file'
     ORDER BY id FOR UPDATE`,
    [carrierId, kind],
  );
  if (pending.length === 0) {
    throw new ConflictError(
      `No ${kind === 'pairing' ? 'pairing' : 'device change'} of ${carrier.name} waits to be exported.`,
    );
  }
  const [file] = await tx.query<{ id: number }>(
    `INSERT INTO carrier_update_files (client_carrier_id, kind, update_count, created_by)
     VALUES ($1, $2, $3, $4) RETURNING id::int AS id`,
    [carrierId, kind, pending.length, actor.userId],
  );
  await tx.query(
    `UPDATE carrier_updates SET status = 'submitted', attempts = attempts + 1,
       submitted_at = now(), batch_file_id = $2, updated_at = now()
     WHERE id = ANY ($1::bigint[])`,
    [pending.map((update) => update.id), file!.id],
  );
  await writeUpdateEvents(tx, actor, pending, 'submitted');
  await recordAudit(tx, {
    ...auditActor(actor, meta),
    action: 'carrier_update.exported',
    entityType: 'carrier_update_file',
    entityId: file!.id,
    after: { client_carrier: carrier.name, kind, updates: pending.length },
  });
  return { id: file!.id, updates: pending.length };
}

/** A batch file's rows, as its adapter writes them, and its name. */
export async function updateFileContent(
  db: Queryable,
  fileId: number,
): Promise<CarrierUpdateFile & { fileName: string }> {
  const updates = await db.query<{
    id: number;
    orderNumber: string;
    kind: CarrierUpdateKind;
    units: { imei: string; iccid: string | null }[];
    attempts: number;
  }>(
    `SELECT c.id::int AS id, o.number AS "orderNumber", c.kind, c.payload -> 'units' AS units,
       c.attempts
     FROM carrier_updates c JOIN orders o ON o.id = c.order_id
     WHERE c.batch_file_id = $1 ORDER BY c.id`,
    [fileId],
  );
  const delivery = await batchFileAdapter().deliver(updates);
  if (!('file' in delivery)) throw new Error('The batch file adapter answered no file.');
  return { fileName: `carrier-updates-${fileId}.csv`, ...delivery.file };
}

/**
 * Sends a failed update again: pending for the next batch file, or to the carrier's endpoint at
 * once (its link as it is now). Only an order's latest update, while the order waits for its label.
 */
export async function retryUpdate(
  tx: Transaction,
  { actor, meta }: Acting,
  id: number,
): Promise<CarrierUpdate> {
  // The order first, as the pick and unpick lock it before its updates.
  await tx.query(
    `SELECT 1 FROM orders WHERE id = (SELECT order_id FROM carrier_updates WHERE id = $1)
     FOR UPDATE`,
    [id],
  );
  const [update] = await tx.query<{
    order_id: number;
    client_carrier_id: number;
    kind: CarrierUpdateKind;
    status: string;
    latest: boolean;
    order_status: string;
    number: string;
  }>(
    `SELECT c.order_id::int AS order_id, c.client_carrier_id::int AS client_carrier_id, c.kind,
       c.status, o.status AS order_status, o.number,
       c.id = (SELECT max(x.id) FROM carrier_updates x
               WHERE x.order_id = c.order_id AND x.status <> 'cancelled') AS latest
     FROM carrier_updates c JOIN orders o ON o.id = c.order_id
     WHERE c.id = $1 FOR UPDATE OF c`,
    [id],
  );
  if (!update) throw new NotFoundError(`There is no carrier update with id ${id}.`);
  if (update.status !== 'failed' || !update.latest || update.order_status !== 'fulfilled') {
    throw new ConflictError(
      `Only the failed latest update of a fulfilled order is retried: ${update.number}'s is ${update.status}.`,
    );
  }
  const link = await carrierLinkOf(tx, update.client_carrier_id);
  const delivery = link.update_url ? 'http' : 'batch_file';
  await tx.query(
    `UPDATE carrier_updates SET status = 'pending', delivery = $2, batch_file_id = NULL,
       answered_at = NULL, updated_at = now()
     WHERE id = $1`,
    [id, delivery],
  );
  if (delivery === 'http') await sendByJob(tx, id);
  await writeUpdateEvents(tx, actor, [{ ...update, id }], 'retried');
  await recordAudit(tx, {
    ...auditActor(actor, meta),
    action: 'carrier_update.retried',
    entityType: 'carrier_update',
    entityId: id,
    after: { order: update.number, kind: update.kind, delivery },
  });
  return carrierUpdateRow(tx, id);
}

// --- The carrier's answer file ---

/** An order number as written: "SO-0000123", "so123", "123". */
const orderNumberOf = (written: string) => {
  const match = /^(SO-?)?0*([0-9]+)$/i.exec(written.trim());
  return match ? `SO-${match[2]!.padStart(7, '0')}` : written.trim();
};

/**
 * Each answer row matched with the update it answers: the latest update of the order named, or
 * the submitted update carrying the IMEI. Only a submitted update takes an answer.
 */
async function prepareAnswers(
  inputs: readonly WriteInput<WriteFieldsOf<typeof carrierAnswerRowSchema>>[],
  db: Queryable,
): Promise<Prepared[]> {
  const numbers = inputs.flatMap(({ input }) => (input.order ? [orderNumberOf(input.order)] : []));
  const imeis = inputs.flatMap(({ input }) => (!input.order && input.imei ? [input.imei] : []));
  const byOrder = new Map(
    (
      await db.query<{ number: string; id: number | null; status: string | null }>(
        `SELECT o.number, c.id::int AS id, c.status FROM orders o
         LEFT JOIN LATERAL (${LATEST_UPDATE}) c ON true
         WHERE o.number = ANY ($1::text[])`,
        [numbers],
      )
    ).map((row) => [row.number, row]),
  );
  const byImei = new Map(
    (
      await db.query<{ imei: string; id: number; number: string }>(
        `SELECT DISTINCT ON (u.imei) u.imei, c.id::int AS id, o.number
         FROM carrier_updates c JOIN orders o ON o.id = c.order_id
         CROSS JOIN LATERAL jsonb_to_recordset(c.payload -> 'units') AS u (imei text)
         WHERE c.status = 'submitted' AND u.imei = ANY ($1::text[])
         ORDER BY u.imei, c.id DESC`,
        [imeis],
      )
    ).map((row) => [row.imei, row]),
  );
  return inputs.map(({ input }): Prepared => {
    const fail = (field: string, message: string): Prepared => {
      const errors: FieldErrors = { [field]: [message] };
      return { errors };
    };
    const answer = { result: input.result, message: input.message || null };
    if (input.order) {
      const number = orderNumberOf(input.order);
      const found = byOrder.get(number);
      if (!found) return fail('order', `There is no order ${number}.`);
      if (found.id === null) return fail('order', `${number} has no pairing or device change.`);
      if (found.status !== 'submitted') {
        return fail(
          'order',
          `${number}'s ${found.status === 'pending' ? 'update is not exported yet' : `update is ${found.status} already`}: it takes no answer now.`,
        );
      }
      return { values: { order: number, update_id: found.id, ...answer } };
    }
    if (!input.imei) return fail('order', 'Write the order, or the IMEI of its device.');
    const found = byImei.get(input.imei);
    if (!found)
      return fail('imei', `No update waiting for an answer carries the IMEI ${input.imei}.`);
    return { values: { order: found.number, update_id: found.id, ...answer } };
  });
}

/** The carrier's answer file: each row settles its update once (ok or failed, with its words). */
export const carrierAnswerImportStore: ImportStore<typeof carrierAnswerRowSchema> = {
  contract: carrierAnswerImport,
  table: 'carrier_updates',
  entity: 'carrier_update',
  prepare: prepareAnswers,
  imports: {
    rowSchema: carrierAnswerRowSchema,
    writer: {
      // An order answered twice in one file is the toolkit's "Repeats row N".
      fields: ['order'],
      countExisting: (records) => Promise.resolve(records.length),
      write: async (records, tx, writer) => {
        const updated = await settleUpdates(
          tx,
          writer.actor,
          records.map((record) => ({
            id: Number(record.update_id),
            result: record.result === 'ok' ? 'ok' : 'failed',
            message: typeof record.message === 'string' ? record.message : null,
          })),
        );
        return { created: 0, updated };
      },
    },
  },
};

// --- Each carrier's link ---

export async function clientCarrierLink(db: Queryable, id: number): Promise<ClientCarrierLink> {
  const [link] = await db.query<ClientCarrierLink>(
    `SELECT v.id::int AS client_carrier_id, v.name AS client_carrier, k.update_url,
       k.update_key IS NOT NULL AS has_key, COALESCE(k.device_change_ack, true) AS device_change_ack,
       COALESCE(k.pre_activation, false) AS pre_activation
     FROM vendors v LEFT JOIN client_carrier_links k ON k.client_carrier_id = v.id
     WHERE v.id = $1 AND v.type = 'carrier-client'`,
    [id],
  );
  if (!link) throw new NotFoundError(`There is no client carrier with id ${id}.`);
  return link;
}

/** Sets a carrier's link; a key left out is kept, null removes it. Audited without the key. */
export async function saveClientCarrierLink(
  tx: Transaction,
  { actor, meta }: Acting,
  id: number,
  input: SaveClientCarrierLinkInput,
): Promise<ClientCarrierLink> {
  const before = await clientCarrierLink(tx, id);
  const url = input.update_url || null;
  if (!url && input.update_key) throw fieldError('update_key', 'A key goes with a URL.');
  await tx.query(
    `INSERT INTO client_carrier_links AS k (client_carrier_id, update_url, update_key,
       device_change_ack, pre_activation, updated_by)
     VALUES ($1, $2, CASE WHEN $2::text IS NULL THEN NULL ELSE $3 END, $4, $5, $6)
     ON CONFLICT (client_carrier_id) DO UPDATE SET update_url = EXCLUDED.update_url,
       update_key = CASE WHEN EXCLUDED.update_url IS NULL THEN NULL
                         WHEN $7 THEN EXCLUDED.update_key ELSE k.update_key END,
       device_change_ack = EXCLUDED.device_change_ack, pre_activation = EXCLUDED.pre_activation,
       updated_at = now(), updated_by = EXCLUDED.updated_by`,
    [
      id,
      url,
      input.update_key ?? null,
      input.device_change_ack,
      input.pre_activation,
      actor.userId,
      input.update_key !== undefined,
    ],
  );
  const after = await clientCarrierLink(tx, id);
  await recordAudit(tx, {
    ...auditActor(actor, meta),
    action: 'client_carrier_link.saved',
    entityType: 'vendor',
    entityId: id,
    before,
    after: { ...after, key_changed: input.update_key !== undefined },
  });
  return after;
}

// --- The sweep ---

/** Who puts an order failed too long in the backlog: the sweep, with the pick station's right. */
const PAIRING_SWEEP: Actor = {
  userId: null,
  userName: 'system: carrier update failed too long',
  roles: [],
  permissions: ['order.fulfill-processing'],
  roleKeys: [],
};
const SWEEP_META: RequestMeta = { ip: '', userAgent: null, requestId: 'carrier-update-sweep' };

/** How many orders one sweep sends to the backlog; the next sweep takes the rest. */
const SWEEP_BATCH = 100;

/**
 * Fulfilled orders whose latest update failed longer ago than the setting go to the backlog
 * (`pairing_failed`): unpicked, their units back in their boxes and SIMs in stock, released later
 * to be assigned and picked again. Servers sweeping at once skip each other's orders.
 */
export async function sweepFailedUpdates(db: Db): Promise<number> {
  return db.transaction(async (tx) => {
    const due = await tx.query<{ id: number; kind: string; message: string | null }>(
      `SELECT o.id::int AS id, c.kind, c.message
       FROM carrier_updates c JOIN orders o ON o.id = c.order_id
       WHERE c.status = 'failed' AND o.status = 'fulfilled'
         AND c.answered_at < now() - make_interval(hours =>
           (SELECT pairing_failed_hours FROM carrier_update_settings))
         AND c.id = (SELECT max(x.id) FROM carrier_updates x
                     WHERE x.order_id = o.id AND x.status <> 'cancelled')
       ORDER BY o.id LIMIT ${SWEEP_BATCH} FOR UPDATE OF o SKIP LOCKED`,
    );
    const acting = { actor: PAIRING_SWEEP, meta: SWEEP_META };
    for (const order of due) {
      const what = order.kind === 'pairing' ? 'The carrier pairing' : 'The device change';
      await pushToBacklog(
        tx,
        acting,
        order.id,
        'pairing_failed',
        `${what} failed${order.message ? `: ${order.message}` : ''}`,
      );
    }
    return due.length;
  });
}
