import {
  TRADE_IN_BOARD_FINISHED_LIMIT,
  tradeInLifecycle,
  type CreateTradeInInput,
  type InspectTradeInInput,
  type TradeInAction,
  type TradeInBoard,
  type TradeInDetail,
  type TradeInRejection,
  type TradeInRow,
  type TradeInSettings,
  type TradeInStatus,
} from '@inventory/contract';
import type { CarrierConfig } from '../../config.js';
import type { Queryable, Transaction } from '../../db/db.js';
import { ConflictError, fieldError, NotFoundError } from '../../http/errors.js';
import type { Acting } from '../../http/principal.js';
import { isoTextSql } from '../../http/sql.js';
import {
  runTransition,
  timelineWriter,
  TRANSACTION_TIME,
  type LifecycleStore,
  type TransitionInput,
} from '../../toolkit/lifecycle.js';
import { auditActor, recordAudit } from '../audit/index.js';
import { applyDeviceAction } from '../devices/index.js';
import { modelDisplayNameOf } from '../master-data/index.js';
import { carrierAdapter, shippingSettings } from '../shipment/index.js';

/**
 * Trade-ins (DOMAIN.md 3.7, 4.16): expected, received by IMEI (blacklist checked), inspected and
 * graded, accepted at the quote or revalued with an offer that expires, sent back when declined;
 * an accepted phone becomes our device, `returned`, for re-inspection on /RMA/reuse.
 */

const OPEN_STATUSES = ['expected', 'received', 'inspected', 'revalued', 'declined'] as const;

const TRADE_IN_COLUMNS = `t.id::int AS id, t.number, t.status, t.customer_name, t.line1, t.line2,
  t.city, t.state, t.zip, t.declared_model, t.quoted_cents::int AS quoted_cents,
  t.order_id::int AS order_id, o.number AS order_number, t.imei,
  CASE WHEN t.model_id IS NOT NULL THEN ${modelDisplayNameOf('t.model_id')} END AS model,
  ${isoTextSql('t.received_at')} AS received_at, ru.name AS received_by_name,
  t.powers_on, t.erased, t.activation_lock_off, t.functions_ok, t.screen_ok, t.body_ok, t.grade,
  ${isoTextSql('t.inspected_at')} AS inspected_at, t.offer_cents::int AS offer_cents,
  ${isoTextSql('t.offer_expires_at')} AS offer_expires_at,
  (t.status = 'revalued' AND now() > t.offer_expires_at) AS offer_expired,
  t.credit_cents::int AS credit_cents, t.device_id::int AS device_id, t.return_carrier,
  t.return_tracking_number,
  (SELECT e.data ->> 'reason' FROM trade_in_events e
   WHERE e.trade_in_id = t.id AND e.type IN ('rejected', 'declined')
   ORDER BY e.id DESC LIMIT 1) AS reason,
  ${isoTextSql('t.created_at')} AS created_at, ${isoTextSql('t.updated_at')} AS updated_at`;

const TRADE_IN_FROM = `trade_ins t
  LEFT JOIN orders o ON o.id = t.order_id
  LEFT JOIN users ru ON ru.id = t.received_by`;

const tradeInsWhere = (db: Queryable, where: string, params: readonly unknown[] = []) =>
  db.query<TradeInRow>(`SELECT ${TRADE_IN_COLUMNS} FROM ${TRADE_IN_FROM} WHERE ${where}`, params);

/** A revised offer is open for the settings' days from the moment it is made. */
const OFFER_EXPIRES =
  'offer_expires_at = now() + make_interval(days => (SELECT offer_valid_days FROM trade_in_settings))';

export const tradeInStore: LifecycleStore<TradeInStatus, TradeInAction, never> = {
  lifecycle: tradeInLifecycle,
  table: 'trade_ins',
  label: 'number',
  effects: {
    revalue: OFFER_EXPIRES,
    // The credit is the revised offer when there is one, the quote otherwise.
    accept: 'credit_cents = COALESCE(r.offer_cents, r.quoted_cents)',
  },
  columns: [
    'imei',
    'model_id',
    'received_at',
    'received_by',
    'station',
    'powers_on',
    'erased',
    'activation_lock_off',
    'functions_ok',
    'screen_ok',
    'body_ok',
    'grade',
    'inspected_at',
    'inspected_by',
    'offer_cents',
    'device_id',
    'return_carrier',
    'return_tracking_number',
  ],
  writeEvents: timelineWriter('trade_in_events', 'trade_in_id'),
};

async function tradeInRow(db: Queryable, id: number): Promise<TradeInRow> {
  const [row] = await tradeInsWhere(db, 't.id = $1', [id]);
  if (!row) throw new NotFoundError(`There is no trade-in with id ${id}.`);
  return row;
}

export async function tradeInDetail(db: Queryable, id: number): Promise<TradeInDetail> {
  const [tradeIn, events] = await Promise.all([
    tradeInRow(db, id),
    db.query<TradeInDetail['events'][number]>(
      `SELECT id::int AS id, ${isoTextSql('at')} AS at, actor_name, type, from_status, to_status,
         data
       FROM trade_in_events WHERE trade_in_id = $1 ORDER BY id`,
      [id],
    ),
  ]);
  return { trade_in: tradeIn, events };
}

const settingsOf = async (db: Queryable): Promise<TradeInSettings> => {
  const [settings] = await db.query<TradeInSettings>(
    `SELECT offer_valid_days, ${isoTextSql('updated_at')} AS updated_at FROM trade_in_settings`,
  );
  return settings!;
};

export async function tradeInBoard(db: Queryable): Promise<TradeInBoard> {
  const [open, finished, settings] = await Promise.all([
    tradeInsWhere(db, 't.status = ANY ($1::text[]) ORDER BY t.created_at, t.id', [OPEN_STATUSES]),
    tradeInsWhere(
      db,
      `t.status IN ('accepted', 'returned', 'rejected')
       ORDER BY t.created_at DESC, t.id DESC LIMIT $1`,
      [TRADE_IN_BOARD_FINISHED_LIMIT],
    ),
    settingsOf(db),
  ]);
  return { open, finished, settings };
}

export async function createTradeIn(
  tx: Transaction,
  { actor, meta }: Acting,
  input: CreateTradeInInput,
): Promise<TradeInDetail> {
  if (input.order_id) {
    const [order] = await tx.query('SELECT 1 FROM orders WHERE id = $1', [input.order_id]);
    if (!order) throw fieldError('order_id', `There is no order with id ${input.order_id}.`);
  }
  const [created] = await tx.query<{ id: number; number: string }>(
    `INSERT INTO trade_ins (customer_name, line1, line2, city, state, zip, declared_model,
       quoted_cents, order_id, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
     RETURNING id::int AS id, number`,
    [
      input.customer_name,
      input.line1,
      input.line2 ?? null,
      input.city,
      input.state,
      input.zip,
      input.declared_model,
      input.quoted_cents,
      input.order_id ?? null,
      actor.userId,
    ],
  );
  await tx.query(
    `INSERT INTO trade_in_events (trade_in_id, actor_id, actor_name, type, to_status, data)
     VALUES ($1, $2, $3, 'expected', 'expected', $4::jsonb)`,
    [
      created!.id,
      actor.userId,
      actor.userName,
      JSON.stringify({ quoted_cents: input.quoted_cents }),
    ],
  );
  await recordAudit(tx, {
    ...auditActor(actor, meta),
    action: 'trade_in.created',
    entityType: 'trade_in',
    entityId: created!.id,
    after: { number: created!.number, ...input },
  });
  return tradeInDetail(tx, created!.id);
}

type StepInput = Pick<TransitionInput<TradeInAction>, 'reason' | 'columns' | 'data'>;

/** Runs a step of a trade-in's lifecycle and answers the trade-in as it is after it. */
async function tradeInStep(
  tx: Transaction,
  { actor, meta }: Acting,
  id: number,
  action: TradeInAction,
  input: StepInput = {},
): Promise<TradeInDetail> {
  await runTransition(tx, tradeInStore, { id, action, actor, meta, ...input });
  return tradeInDetail(tx, id);
}

/** A device we hold under this IMEI, and whether a trade-in may bring it back (shipped to a customer). */
const deviceOfImei = async (db: Queryable, imei: string) => {
  const [device] = await db.query<{ id: number; status: string }>(
    'SELECT id::int AS id, status FROM devices WHERE imei = $1 OR imei2 = $1 LIMIT 1',
    [imei],
  );
  return device ?? null;
};
const COMES_BACK_FROM = ['shipped', 'delivered'];

/**
 * Receives the phone by its IMEI. A phone on the blacklist is rejected there and then; one we
 * hold in stock, or one in another trade-in, is refused; otherwise its model is read from its TAC,
 * as receiving does. The trade-in's row lock makes two stations receiving it at once one winner
 * and one 409; the open-IMEI index does the same for one phone in two trade-ins.
 */
export async function receiveTradeIn(
  tx: Transaction,
  acting: Acting,
  id: number,
  scan: { imei: string; station?: string | undefined },
): Promise<TradeInDetail> {
  const { imei } = scan;
  const [other] = await tx.query<{ number: string }>(
    `SELECT number FROM trade_ins
     WHERE imei = $1 AND status = ANY ($2::text[]) AND id <> $3`,
    [imei, OPEN_STATUSES, id],
  );
  if (other) throw new ConflictError(`IMEI ${imei} is in trade-in ${other.number} already.`);
  const device = await deviceOfImei(tx, imei);
  if (device && !COMES_BACK_FROM.includes(device.status)) {
    throw new ConflictError(
      `IMEI ${imei} is a device in our stock (${device.status.replaceAll('_', ' ')}): it cannot come in as a trade-in.`,
    );
  }
  const [checks] = await tx.query<{ blocked: string | null; model_id: number | null }>(
    `SELECT (SELECT reason FROM blacklist_entries WHERE imei = $1 AND cleared_at IS NULL)
         AS blocked,
       (SELECT model_id::int FROM tac_numbers WHERE tac = left($1, 8) AND active
        ORDER BY id LIMIT 1) AS model_id`,
    [imei],
  );
  const received = {
    imei,
    model_id: checks!.model_id,
    received_at: TRANSACTION_TIME,
    received_by: acting.actor.userId,
    station: scan.station ?? null,
  };
  // Two stations scanning one phone into two trade-ins: the open-IMEI index lets one win.
  const onSameImei = (error: unknown): never => {
    if ((error as { constraint?: string }).constraint === 'trade_ins_open_imei_key') {
      throw new ConflictError(`IMEI ${imei} is in another trade-in already.`);
    }
    throw error;
  };
  if (checks!.blocked) {
    const reason: TradeInRejection = 'blacklisted';
    return tradeInStep(tx, acting, id, 'reject', {
      reason,
      columns: received,
      data: { blacklist_reason: checks!.blocked },
    }).catch(onSameImei);
  }
  if (checks!.model_id === null) {
    throw fieldError(
      'imei',
      `TAC ${imei.slice(0, 8)} is not in the TAC list: add it on the TAC page, then scan again.`,
    );
  }
  return tradeInStep(tx, acting, id, 'receive', { columns: received }).catch(onSameImei);
}

/** Records the checklist and grade; a phone still activation-locked is rejected (DOMAIN.md 4.16). */
export function inspectTradeIn(
  tx: Transaction,
  acting: Acting,
  id: number,
  inspection: InspectTradeInInput,
): Promise<TradeInDetail> {
  const columns = {
    ...inspection,
    inspected_at: TRANSACTION_TIME,
    inspected_by: acting.actor.userId,
  };
  if (!inspection.activation_lock_off) {
    const reason: TradeInRejection = 'activation_locked';
    return tradeInStep(tx, acting, id, 'reject', { reason, columns });
  }
  return tradeInStep(tx, acting, id, 'inspect', { columns });
}

export const revalueTradeIn = (tx: Transaction, acting: Acting, id: number, offerCents: number) =>
  tradeInStep(tx, acting, id, 'revalue', {
    columns: { offer_cents: offerCents },
    data: { offer_cents: offerCents },
  });

export const declineTradeIn = (
  tx: Transaction,
  acting: Acting,
  id: number,
  reason: string | null | undefined,
) => tradeInStep(tx, acting, id, 'decline', { reason });

/**
 * Accepts the trade-in: the customer's credit is recorded (the revised offer while it is open, the
 * quote otherwise) and the phone becomes our device, `returned`, so that /RMA/reuse re-inspects it
 * before it is sold. A phone we once shipped comes back as that same device; a phone new to us
 * gets its row with the model its TAC named at receipt and the credit as its cost.
 */
export async function acceptTradeIn(
  tx: Transaction,
  acting: Acting,
  id: number,
): Promise<TradeInDetail> {
  const { actor, meta } = acting;
  const step = await runTransition(tx, tradeInStore, { id, action: 'accept', actor, meta });
  const [tradeIn] = await tx.query<{ number: string; imei: string; expired_on: string | null }>(
    `SELECT number, imei,
       CASE WHEN $2::text = 'revalued' AND now() > offer_expires_at
         THEN ${isoTextSql('offer_expires_at')} END AS expired_on
     FROM trade_ins WHERE id = $1`,
    [id, step.from],
  );
  if (tradeIn!.expired_on) {
    throw new ConflictError(
      `The offer of ${tradeIn!.number} expired on ${tradeIn!.expired_on.slice(0, 10)}: revalue it again or record the decline.`,
    );
  }
  const existing = await deviceOfImei(tx, tradeIn!.imei);
  const ref = { type: 'trade_in', id };
  let deviceId: number;
  if (existing) {
    await applyDeviceAction(tx, actor, meta, {
      deviceIds: [existing.id],
      action: 'receive_return',
      ref,
      data: { trade_in: tradeIn!.number },
    });
    deviceId = existing.id;
  } else {
    const [created] = await tx.query<{ id: number }>(
      `INSERT INTO devices (imei, tac, model_id, condition, grade, status, blacklist_state,
         blacklist_checked_at, unit_cost_cents, received_at, received_by)
       SELECT imei, left(imei, 8), model_id, 'used', grade, 'returned', 'clean', received_at,
         credit_cents, now(), $2
       FROM trade_ins WHERE id = $1
       RETURNING id::int AS id`,
      [id, actor.userId],
    );
    deviceId = created!.id;
    await tx.query(
      `INSERT INTO device_events (device_id, actor_id, actor_name, type, to_status, ref_type,
         ref_id, data)
       VALUES ($1, $2, $3, 'traded_in', 'returned', 'trade_in', $4, $5::jsonb)`,
      [deviceId, actor.userId, actor.userName, id, JSON.stringify({ trade_in: tradeIn!.number })],
    );
  }
  await tx.query('UPDATE trade_ins SET device_id = $2 WHERE id = $1', [id, deviceId]);
  return tradeInDetail(tx, id);
}

/**
 * Sends a declined trade-in back: a label from the carrier adapter, from our warehouse to the
 * customer, bought under the trade-in's key so a retry gets the same label.
 */
export async function sendBackTradeIn(
  tx: Transaction,
  acting: Acting,
  id: number,
  carrierConfig: CarrierConfig,
): Promise<TradeInDetail> {
  const { actor, meta } = acting;
  await runTransition(tx, tradeInStore, { id, action: 'send_back', actor, meta });
  const [tradeIn] = await tx.query<{
    number: string;
    customer_name: string;
    line1: string;
    line2: string | null;
    city: string;
    state: string;
    zip: string;
  }>('SELECT number, customer_name, line1, line2, city, state, zip FROM trade_ins WHERE id = $1', [
    id,
  ]);
  const settings = await shippingSettings(tx);
  const label = await carrierAdapter(settings, carrierConfig).createLabel({
    idempotencyKey: `trade-in-${id}`,
    orderId: id,
    generation: 0,
    service: 'usps_ground_advantage',
    weightG: settings.default_device_weight_g + settings.packaging_weight_g,
    shipFrom: settings.ship_from,
    shipTo: { ...tradeIn!, name: tradeIn!.customer_name },
    reference: tradeIn!.number,
  });
  await tx.query(
    'UPDATE trade_ins SET return_carrier = $2, return_tracking_number = $3 WHERE id = $1',
    [id, label.carrier, label.trackingNumber],
  );
  await recordAudit(tx, {
    ...auditActor(actor, meta),
    action: 'trade_in.return_label',
    entityType: 'trade_in',
    entityId: id,
    after: { carrier: label.carrier, tracking_number: label.trackingNumber },
  });
  return tradeInDetail(tx, id);
}

/** Changes how long a revised offer stays open (a manager); offers made before keep their time. */
export async function updateTradeInSettings(
  tx: Transaction,
  { actor, meta }: Acting,
  offerValidDays: number,
): Promise<TradeInSettings> {
  const [before] = await tx.query<{ offer_valid_days: number }>(
    'SELECT offer_valid_days FROM trade_in_settings FOR UPDATE',
  );
  await tx.query(
    'UPDATE trade_in_settings SET offer_valid_days = $1, updated_at = now(), updated_by = $2',
    [offerValidDays, actor.userId],
  );
  await recordAudit(tx, {
    ...auditActor(actor, meta),
    action: 'trade_in_settings.updated',
    entityType: 'trade_in_settings',
    before,
    after: { offer_valid_days: offerValidDays },
  });
  return settingsOf(tx);
}
