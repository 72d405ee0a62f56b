import {
  GOV_PROGRAMME_LABELS,
  READ_ONLY_PROGRAMMES,
  type createPlanPriceSchema,
  type FieldErrors,
  type GovProgramme,
  type LifelineMinimums,
  type PlanPrice,
  type schedulePlanPriceChangeSchema,
  type setLifelineMinimumSchema,
} from '@inventory/contract';
import type * as z from 'zod/mini';
import type { Queryable, Transaction } from '../../db/db.js';
import { ConflictError, ValidationError } from '../../http/errors.js';
import type { Principal, RequestMeta } from '../../http/principal.js';
import { isoTextSql } from '../../http/sql.js';
import { auditActor, recordAudit } from '../audit/index.js';
import { findPlanPrice, PLAN_PRICE_COLUMNS, SAME_KEY } from './plan-prices.store.js';

/** Who acts, for the audit log. */
export type Actor = { readonly actor: Principal; readonly meta: RequestMeta };

/** A price's key: the versions of one key never overlap. */
export type PriceKey = {
  readonly carrier_id: number;
  readonly programme: GovProgramme;
  readonly state: string | null;
  readonly model_id: number;
  readonly variant_id: number | null;
};

/** The values of one version besides its key and dates. */
type PriceTerms = {
  readonly device_price_cents: number;
  readonly plan_name: string;
  readonly data_gb: number | null;
  readonly minutes: number | null;
  readonly note: string | null;
};

export type NewVersion = PriceKey &
  PriceTerms & { readonly effective_from: string; readonly effective_to: string | null };

const keyParams = (key: PriceKey) => [
  key.carrier_id,
  key.programme,
  key.state,
  key.model_id,
  key.variant_id,
];

export const isReadOnly = (programme: GovProgramme) => READ_ONLY_PROGRAMMES.includes(programme);

export const READ_ONLY_MESSAGE =
  'ACP ended in June 2024: its prices are kept as they were for the orders that used them, and cannot be added or changed.';

/** "Lifeline, TX, Samsung Galaxy A15 (SKU X)": a key in words. */
export const keyWords = (
  price: Pick<PlanPrice, 'programme' | 'state' | 'model_name' | 'variant_sku'>,
) =>
  `${GOV_PROGRAMME_LABELS[price.programme]}, ${price.state ?? 'every state'}, ${price.model_name}${
    price.variant_sku ? ` (${price.variant_sku})` : ''
  }`;

/** "from 2026-01-01 to 2026-06-30" or "from 2026-01-01, open-ended". */
export const rangeWords = (from: string, to: string | null) =>
  to === null ? `from ${from}, open-ended` : `from ${from} to ${to}`;

export const today = async (db: Queryable): Promise<string> => {
  const [row] = await db.query<{ today: string }>(
    "SELECT to_char(plan_price_today(), 'YYYY-MM-DD') AS today",
  );
  return row!.today;
};

/**
 * Takes the key for the rest of the transaction, so that two writers of one key take turns: the
 * overlap check and the next version number then see every committed version.
 */
export async function lockKey(tx: Transaction, key: PriceKey): Promise<void> {
  await lockKeys(tx, [key]);
}

/**
 * The text a key's lock is taken by: its carrier and programme. A lock per whole key would be one
 * per row of a price file, and a file of 100,000 rows would exhaust the lock table
 * (max_locks_per_transaction); writers of one carrier's programme take turns instead.
 */
const lockTextOf = (key: PriceKey) => `${key.carrier_id}|${key.programme}`;

/** Takes several keys' locks, in one order for every writer, so that two imports never deadlock. */
export async function lockKeys(tx: Transaction, keys: readonly PriceKey[]): Promise<void> {
  await tx.query(
    `SELECT pg_advisory_xact_lock(hashtextextended('gov_plan_prices:' || k, 0))
     FROM (SELECT DISTINCT k FROM unnest($1::text[]) AS k ORDER BY k) AS taken`,
    [keys.map(lockTextOf)],
  );
}

/** The versions of a key that share a day with the range, except one. */
export async function overlapping(
  db: Queryable,
  key: PriceKey,
  from: string,
  to: string | null,
  except: number | null = null,
): Promise<PlanPrice[]> {
  return db.query<PlanPrice>(
    `SELECT ${PLAN_PRICE_COLUMNS} FROM gov_plan_prices p
     WHERE ${SAME_KEY}
       AND daterange(p.effective_from, p.effective_to, '[]') && daterange($6::date, $7::date, '[]')
       AND p.id IS DISTINCT FROM $8::bigint
     ORDER BY p.effective_from`,
    [...keyParams(key), from, to, except],
  );
}

export const overlapMessage = (clash: PlanPrice) =>
  `It overlaps version ${clash.version} of ${keyWords(clash)} (${rangeWords(
    clash.effective_from,
    clash.effective_to,
  )}, id ${clash.id}): versions of one price never share a day.`;

/** The carrier, model and variant a key names, each checked (422 on its field). */
export async function checkKeyReferences(db: Queryable, key: PriceKey): Promise<void> {
  const [found] = await db.query<{
    carrier_type: string | null;
    model: boolean;
    variant_model_id: number | null;
    variant: boolean;
  }>(
    `SELECT (SELECT type FROM vendors WHERE id = $1) AS carrier_type,
       EXISTS (SELECT 1 FROM device_models WHERE id = $2) AS model,
       EXISTS (SELECT 1 FROM product_variants WHERE id = $3) AS variant,
       (SELECT pr.model_id FROM product_variants v JOIN products pr ON pr.id = v.product_id
        WHERE v.id = $3) AS variant_model_id`,
    [key.carrier_id, key.model_id, key.variant_id],
  );
  const errors: FieldErrors = {};
  if (found!.carrier_type === null) {
    errors.carrier_id = [`There is no vendor with id ${key.carrier_id}.`];
  } else if (found!.carrier_type !== 'carrier-client') {
    errors.carrier_id = ['Choose a client carrier: a vendor of type carrier-client.'];
  }
  if (!found!.model) errors.model_id = [`There is no model with id ${key.model_id}.`];
  if (key.variant_id !== null) {
    if (!found!.variant) errors.variant_id = [`There is no variant with id ${key.variant_id}.`];
    else if (found!.variant_model_id !== key.model_id) {
      errors.variant_id = ['Choose a variant of a product of this model.'];
    }
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
}

/** The next version number of a key (the key is locked). */
async function nextVersion(tx: Queryable, key: PriceKey): Promise<number> {
  const [row] = await tx.query<{ next: number }>(
    `SELECT COALESCE(max(p.version), 0) + 1 AS next FROM gov_plan_prices p WHERE ${SAME_KEY}`,
    keyParams(key),
  );
  return row!.next;
}

/**
 * Writes a new version of a locked key, whose overlaps were checked: the exclusion constraint
 * answers a version written meanwhile by a path that did not lock (there is none) as a 409.
 */
export async function insertVersion(
  tx: Transaction,
  version: NewVersion,
  actorId: number,
): Promise<number> {
  const number = await nextVersion(tx, version);
  const [row] = await tx
    .query<{ id: number }>(
      `INSERT INTO gov_plan_prices (carrier_id, programme, state, model_id, variant_id, version,
         device_price_cents, plan_name, data_gb, minutes, effective_from, effective_to, note,
         created_by, updated_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $14)
       RETURNING id`,
      [
        ...keyParams(version),
        number,
        version.device_price_cents,
        version.plan_name,
        version.data_gb,
        version.minutes,
        version.effective_from,
        version.effective_to,
        version.note,
        actorId,
      ],
    )
    .catch(async (error: unknown) => {
      if ((error as { code?: string }).code !== '23P01') throw error;
      throw new ConflictError(
        'Another version of this price was written at the same moment and overlaps it: look at the history and try again.',
      );
    });
  return row!.id;
}

async function audit(
  tx: Queryable,
  { actor, meta }: Actor,
  verb: string,
  id: number,
  before: PlanPrice | undefined,
  after: PlanPrice | undefined,
) {
  await recordAudit(tx, {
    ...auditActor(actor, meta),
    action: `gov_plan_price.${verb}`,
    entityType: 'gov_plan_price',
    entityId: id,
    before,
    after,
  });
}

/** Adds a version: from today on, not overlapping another version of its key (409 naming it). */
export async function createPlanPrice(
  tx: Transaction,
  actor: Actor,
  input: z.output<typeof createPlanPriceSchema>,
): Promise<PlanPrice> {
  if (isReadOnly(input.programme)) throw new ConflictError(READ_ONLY_MESSAGE);
  const key: PriceKey = input;
  await checkKeyReferences(tx, key);
  const now = await today(tx);
  const errors: FieldErrors = {};
  if (input.effective_from < now) {
    errors.effective_from = [`Start today (${now}) or later: the past is not rewritten.`];
  }
  if (input.effective_to !== null && input.effective_to < input.effective_from) {
    errors.effective_to = ['The last day is on or after the first day.'];
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  await lockKey(tx, key);
  const [clash] = await overlapping(tx, key, input.effective_from, input.effective_to);
  if (clash) throw new ConflictError(overlapMessage(clash));
  const id = await insertVersion(tx, { ...input, note: input.note ?? null }, actor.actor.userId);
  const created = await findPlanPrice(tx, id);
  await audit(tx, actor, 'created', id, undefined, created);
  return created;
}

/** A version locked for a change, after its key: refused for ACP and for a version past. */
async function lockedVersion(tx: Transaction, id: number): Promise<PlanPrice> {
  const price = await findPlanPrice(tx, id);
  if (isReadOnly(price.programme)) throw new ConflictError(READ_ONLY_MESSAGE);
  await lockKey(tx, price);
  await tx.query('SELECT 1 FROM gov_plan_prices WHERE id = $1 FOR UPDATE', [id]);
  const locked = await findPlanPrice(tx, id);
  if (locked.status === 'past') {
    throw new ConflictError(
      `Version ${locked.version} of ${keyWords(locked)} ended on ${locked.effective_to}: a past price is kept as it was.`,
    );
  }
  return locked;
}

/**
 * Schedules a change of a version: a new version from a later day (tomorrow at the earliest, after
 * the version's first day, within its range) with the terms given, the others kept; the version
 * changed ends the day before.
 */
export async function schedulePlanPriceChange(
  tx: Transaction,
  actor: Actor,
  id: number,
  input: z.output<typeof schedulePlanPriceChangeSchema>,
): Promise<PlanPrice> {
  const base = await lockedVersion(tx, id);
  const now = await today(tx);
  const from = input.effective_from;
  const refuse = (message: string) => {
    throw new ValidationError({ effective_from: [message] });
  };
  if (from <= now) {
    refuse(`A change starts tomorrow at the earliest: every order of today keeps today’s price.`);
  }
  if (from <= base.effective_from) {
    refuse(`A change starts after the version it changes (from ${base.effective_from}).`);
  }
  if (base.effective_to !== null && from > base.effective_to) {
    refuse(`This version ends on ${base.effective_to}: add a new price for a later day instead.`);
  }
  const [dayBefore] = await tx.query<{ day: string }>(
    `SELECT to_char($1::date - 1, 'YYYY-MM-DD') AS day`,
    [from],
  );
  await tx.query(
    `UPDATE gov_plan_prices SET effective_to = $2, updated_at = now(), updated_by = $3
     WHERE id = $1`,
    [id, dayBefore!.day, actor.actor.userId],
  );
  const [clash] = await overlapping(tx, base, from, base.effective_to, id);
  if (clash) throw new ConflictError(overlapMessage(clash));
  const newId = await insertVersion(
    tx,
    {
      carrier_id: base.carrier_id,
      programme: base.programme,
      state: base.state,
      model_id: base.model_id,
      variant_id: base.variant_id,
      device_price_cents: input.device_price_cents ?? base.device_price_cents,
      plan_name: input.plan_name ?? base.plan_name,
      data_gb: input.data_gb === undefined ? base.data_gb : input.data_gb,
      minutes: input.minutes === undefined ? base.minutes : input.minutes,
      note: input.note === undefined ? base.note : input.note,
      effective_from: from,
      effective_to: base.effective_to,
    },
    actor.actor.userId,
  );
  const closed = await findPlanPrice(tx, id);
  const created = await findPlanPrice(tx, newId);
  await audit(tx, actor, 'closed_by_change', id, base, closed);
  await audit(tx, actor, 'change_scheduled', newId, undefined, created);
  return created;
}

/** Expires a version: its last day becomes the day given, today at the earliest. */
export async function expirePlanPrice(
  tx: Transaction,
  actor: Actor,
  id: number,
  lastDay: string | null,
): Promise<PlanPrice> {
  const before = await lockedVersion(tx, id);
  const now = await today(tx);
  const last = lastDay ?? now;
  const refuse = (message: string) => {
    throw new ValidationError({ last_day: [message] });
  };
  if (last < now) refuse(`Today (${now}) at the earliest: the past is not rewritten.`);
  if (last < before.effective_from) {
    refuse(
      `This version starts on ${before.effective_from}: withdraw it instead of ending it before it starts.`,
    );
  }
  if (before.effective_to !== null && last > before.effective_to) {
    refuse(`This version ends on ${before.effective_to} already.`);
  }
  await tx.query(
    `UPDATE gov_plan_prices SET effective_to = $2, updated_at = now(), updated_by = $3
     WHERE id = $1`,
    [id, last, actor.actor.userId],
  );
  const after = await findPlanPrice(tx, id);
  await audit(tx, actor, 'expired', id, before, after);
  return after;
}

/** Withdraws a version that has not started; one that has is kept (409). */
export async function withdrawPlanPrice(tx: Transaction, actor: Actor, id: number): Promise<void> {
  const before = await lockedVersion(tx, id);
  if (before.status !== 'scheduled') {
    throw new ConflictError(
      `Version ${before.version} of ${keyWords(before)} started on ${before.effective_from}: it is kept; expire it instead.`,
    );
  }
  await tx.query('DELETE FROM gov_plan_prices WHERE id = $1', [id]);
  await audit(tx, actor, 'withdrawn', id, before, undefined);
}

/** Every version of a price's key, oldest first. */
export async function planPriceVersions(db: Queryable, id: number): Promise<PlanPrice[]> {
  const price = await findPlanPrice(db, id);
  return db.query<PlanPrice>(
    `SELECT ${PLAN_PRICE_COLUMNS} FROM gov_plan_prices p WHERE ${SAME_KEY}
     ORDER BY p.effective_from, p.version`,
    [price.carrier_id, price.programme, price.state, price.model_id, price.variant_id],
  );
}

const MINIMUM_COLUMNS = `to_char(s.effective_from, 'YYYY-MM-DD') AS effective_from,
  s.data_gb::float8 AS data_gb, s.note, ${isoTextSql('s.set_at')} AS set_at,
  (SELECT u.name FROM users u WHERE u.id = s.set_by) AS set_by_name`;

/** The Lifeline minimum in effect today and every value, the latest first. */
export async function lifelineMinimums(db: Queryable): Promise<LifelineMinimums> {
  const standards = await db.query<LifelineMinimums['standards'][number] & { in_effect: boolean }>(
    `SELECT ${MINIMUM_COLUMNS}, s.effective_from <= plan_price_today() AS in_effect
     FROM lifeline_minimum_standards s ORDER BY s.effective_from DESC`,
  );
  const shown = standards.map(({ in_effect: _inEffect, ...standard }) => standard);
  const current = standards.findIndex((standard) => standard.in_effect);
  return { current: current < 0 ? null : shown[current]!, standards: shown };
}

/** Sets the minimum from a day; a value from the same day is replaced. */
export async function setLifelineMinimum(
  tx: Transaction,
  { actor, meta }: Actor,
  input: z.output<typeof setLifelineMinimumSchema>,
): Promise<LifelineMinimums> {
  const [before] = await tx.query<{ data_gb: number }>(
    `SELECT data_gb::float8 AS data_gb FROM lifeline_minimum_standards WHERE effective_from = $1
     FOR UPDATE`,
    [input.effective_from],
  );
  await tx.query(
    `INSERT INTO lifeline_minimum_standards (effective_from, data_gb, note, set_by)
     VALUES ($1, $2, $3, $4)
     ON CONFLICT (effective_from) DO UPDATE
       SET data_gb = EXCLUDED.data_gb, note = EXCLUDED.note, set_at = now(), set_by = EXCLUDED.set_by`,
    [input.effective_from, input.data_gb, input.note ?? null, actor.userId],
  );
  await recordAudit(tx, {
    ...auditActor(actor, meta),
    action: 'lifeline_minimum.set',
    entityType: 'lifeline_minimum_standard',
    entityId: input.effective_from,
    before,
    after: { data_gb: input.data_gb, note: input.note ?? null },
  });
  return lifelineMinimums(tx);
}
