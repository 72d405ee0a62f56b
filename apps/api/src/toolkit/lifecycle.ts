import {
  mayRun,
  nextStatus,
  recordNoun,
  type Lifecycle,
  type LifecycleRecord,
} from '@inventory/contract';
import type { Transaction } from '../db/db.js';
import { ConflictError, fieldError, ForbiddenError, NotFoundError } from '../http/errors.js';
import { auditActor, recordAudits } from '../modules/audit/index.js';
import { accessSubjectOf, type Acting, type Actor, type RequestMeta } from '../http/principal.js';

/**
 * Running a lifecycle's actions (decision 0014): the contract declares the states and actions
 * (`defineLifecycle`), a `LifecycleStore` says where the records and their timeline live, and
 * `runTransition` / `runTransitions` are the only writers of their state.
 */

/** One record moved: its id, what names it in messages, and the states it went between. */
export type TransitionStep<S extends string> = {
  id: number;
  label: string;
  from: S;
  to: S;
};

/** What one run writes on the records' timeline: every step of one action. */
export type TransitionEvents<S extends string> = {
  /** The action's declared event (`held`). */
  readonly type: string;
  readonly steps: readonly TransitionStep<S>[];
  readonly actor: Actor;
  readonly ref: TransitionRef | null;
  /** The run's data, with the reason where the action takes one. */
  readonly data: Record<string, unknown>;
};

/** What caused a step: a blacklist entry, a vendor transfer. */
export type TransitionRef = { readonly type: string; readonly id: number | null };

/**
 * What an action does besides the state: columns set in the same update, as SQL of ours
 * (`warehouse_box_id = NULL`), given alone or as `set`; and `write`, statements of ours on other
 * tables, run on the records it moved right after the update, before their timeline is written
 * (a device leaving its inventory box, whose count goes down).
 */
export type TransitionEffect<S extends string> =
  | string
  | {
      readonly set?: string;
      readonly write?: (
        tx: Transaction,
        steps: readonly TransitionStep<S>[],
        acting: Acting,
      ) => Promise<unknown>;
    };

/**
 * Where a lifecycle's records live. The table has `id`, `status` and `updated_at`, and, when the
 * lifecycle declares a hold, `hold_reason` and `status_before_hold`.
 */
export type LifecycleStore<S extends string, A extends string, R extends string> = {
  readonly lifecycle: Lifecycle<S, A, R>;
  readonly table: string;
  /** The column that names a record in a refusal: a device's IMEI, an order's number. */
  readonly label: string;
  /** What an action does besides the state (`TransitionEffect`). */
  readonly effects?: Partial<Record<A, TransitionEffect<S>>>;
  /** The columns a run's `columns` may write with the step (a station's readings). */
  readonly columns?: readonly string[];
  /** Writes the steps on the records' timeline (one statement for all), after the update. */
  readonly writeEvents: (tx: Transaction, events: TransitionEvents<S>) => Promise<unknown>;
};

/** A run's steps as the arrays a timeline's insert unnests: ids, states before, states after. */
export const stepArrays = <S extends string>(steps: readonly TransitionStep<S>[]) => [
  steps.map((step) => step.id),
  steps.map((step) => step.from),
  steps.map((step) => step.to),
];

/**
 * The usual timeline's writer: a table of events with the record's key column, `actor_id`,
 * `actor_name`, `type`, `from_status`, `to_status` and `data`, one insert for all of a run's steps.
 * With `refInData` the run's reference (a blacklist entry, a request) is kept in the data. Both
 * names are the store's own constants, never input.
 */
export function timelineWriter<S extends string>(
  eventsTable: string,
  keyColumn: string,
  { refInData = false } = {},
): LifecycleStore<S, never, never>['writeEvents'] {
  const insert = `INSERT INTO ${eventsTable}
       (${keyColumn}, actor_id, actor_name, type, from_status, to_status, data)
     SELECT s.id, $4, $5, $6, s.from_status, s.to_status, $7::jsonb
     FROM unnest($1::bigint[], $2::text[], $3::text[]) AS s (id, from_status, to_status)`;
  return (tx, { type, steps, actor, data, ref }) =>
    tx.query(insert, [
      ...stepArrays(steps),
      actor.userId,
      actor.userName,
      type,
      JSON.stringify(refInData && ref ? { ...data, ref } : data),
    ]);
}

export type TransitionInput<A extends string> = {
  readonly action: A;
  readonly actor: Actor;
  readonly meta: RequestMeta;
  /** Kept only by an action that takes a reason; a hold's must be one of its reasons. */
  readonly reason?: string | null | undefined;
  readonly ref?: TransitionRef | undefined;
  /** Facts for the timeline and the audit entry. */
  readonly data?: Record<string, unknown> | undefined;
  /**
   * Values the caller's station writes on the records with the step, in the same update: one
   * new row version (and one round of index writes) instead of two. Only the store's `columns`;
   * `TRANSACTION_TIME` is the transaction's now().
   */
  readonly columns?: Readonly<Record<string, unknown>> | undefined;
};

/** A `columns` value: the transaction's time, as now() in SQL. */
export const TRANSACTION_TIME: unique symbol = Symbol('now()');

type LockedRecord<S extends string> = LifecycleRecord<S> & { id: number; label: string };

/** At most this many refusals are named in a 409; the rest are counted. */
const NAMED_REFUSALS = 3;

/** The reason an action keeps: refused (422) when it needs one and has none, or a hold's is unknown. */
function reasonOf<S extends string, A extends string, R extends string>(
  lifecycle: Lifecycle<S, A, R>,
  input: TransitionInput<A>,
): string | null {
  const rule = lifecycle.actions[input.action];
  if (!rule.reason) return null;
  const reason = input.reason?.trim() || null;
  if (!reason && rule.reason === 'required') {
    throw fieldError('reason', `Say why you ${rule.label}.`);
  }
  const { hold } = lifecycle;
  if (
    reason &&
    hold &&
    rule.to === hold.state &&
    !(hold.reasons as readonly string[]).includes(reason)
  ) {
    throw fieldError('reason', `Choose the reason: ${hold.reasons.join(', ')}.`);
  }
  return reason;
}

/**
 * Locks the records (in id order, so that two runs over overlapping sets cannot deadlock) and
 * checks each against the lifecycle. Unless a record is refused and `partial` is false, moves
 * those that may take the action in one update, with their timeline and audit entries in one
 * statement each, in the caller's transaction.
 */
async function transition<S extends string, A extends string, R extends string>(
  tx: Transaction,
  store: LifecycleStore<S, A, R>,
  ids: readonly number[],
  input: TransitionInput<A>,
  partial: boolean,
) {
  const { lifecycle } = store;
  const rule = lifecycle.actions[input.action];
  if (!mayRun(lifecycle, input.action, accessSubjectOf(input.actor))) {
    throw new ForbiddenError(rule.permission ?? {}, `You cannot ${rule.label}.`);
  }
  const reason = reasonOf(lifecycle, input);
  const hold = lifecycle.hold;
  const records = await tx.query<LockedRecord<S>>(
    `SELECT id, ${store.label} AS label, status${hold ? ', status_before_hold' : ''}
     FROM ${store.table} WHERE id = ANY ($1::bigint[]) ORDER BY id FOR UPDATE`,
    [ids],
  );
  const steps: TransitionStep<S>[] = [];
  const refusals: { label: string; message: string }[] = [];
  for (const record of records) {
    const next = nextStatus(lifecycle, record, input.action);
    if (next.ok)
      steps.push({ id: record.id, label: record.label, from: record.status, to: next.status });
    else refusals.push({ label: record.label, message: next.message });
  }
  if (steps.length > 0 && (partial || refusals.length === 0)) {
    const entersHold = hold !== undefined && rule.to === hold.state;
    const params: unknown[] = [steps.map((step) => step.id), steps.map((step) => step.to)];
    if (entersHold) params.push(reason);
    const effect = store.effects?.[input.action];
    const set = typeof effect === 'string' ? effect : effect?.set;
    const sets = [
      'status = s.target',
      ...(!hold
        ? []
        : entersHold
          ? ['hold_reason = $3', 'status_before_hold = r.status']
          : ['hold_reason = NULL', 'status_before_hold = NULL']),
      ...(set ? [set] : []),
      ...Object.entries(input.columns ?? {}).map(([column, value]) => {
        if (!store.columns?.includes(column)) {
          throw new Error(`${store.table}.${column} is not among the columns a run may write.`);
        }
        if (value === TRANSACTION_TIME) return `${column} = now()`;
        params.push(value);
        return `${column} = $${params.length}`;
      }),
      'updated_at = now()',
    ];
    await tx.query(
      `UPDATE ${store.table} r SET ${sets.join(', ')}
       FROM unnest($1::bigint[], $2::text[]) AS s (id, target)
       WHERE r.id = s.id`,
      params,
    );
    if (typeof effect === 'object' && effect.write) {
      await effect.write(tx, steps, { actor: input.actor, meta: input.meta });
    }
    const data = { ...input.data, ...(reason !== null && { reason }) };
    await store.writeEvents(tx, {
      type: rule.event,
      steps,
      actor: input.actor,
      ref: input.ref ?? null,
      data,
    });
    await recordAudits(
      tx,
      {
        ...auditActor(input.actor, input.meta),
        action: `${lifecycle.name}.${rule.event}`,
        entityType: lifecycle.name,
      },
      steps.map((step) => ({
        entityId: step.id,
        before: { status: step.from },
        after: { status: step.to, ...data },
      })),
    );
  }
  return { found: records.length, steps, refusals };
}

/**
 * Runs an action on one record: 404 when there is none, 403 when the actor may not run it, 422
 * when a needed reason is missing, 409 saying why when the record's state does not allow it.
 */
export async function runTransition<S extends string, A extends string, R extends string>(
  tx: Transaction,
  store: LifecycleStore<S, A, R>,
  input: TransitionInput<NoInfer<A>> & { readonly id: number },
): Promise<TransitionStep<S>> {
  const { found, steps, refusals } = await transition(tx, store, [input.id], input, false);
  if (found === 0) {
    throw new NotFoundError(`There is no ${recordNoun(store.lifecycle)} with id ${input.id}.`);
  }
  if (refusals[0]) throw new ConflictError(refusals[0].message);
  return steps[0]!;
}

/**
 * Runs an action on many records in one set of statements. Ids of no record are passed over.
 * When some records' state does not allow it, nothing moves and the 409 names them, unless
 * `skipRefused` says to move the others and leave those as they are. Answers the steps taken.
 */
export async function runTransitions<S extends string, A extends string, R extends string>(
  tx: Transaction,
  store: LifecycleStore<S, A, R>,
  input: TransitionInput<NoInfer<A>> & {
    readonly ids: readonly number[];
    readonly skipRefused?: boolean | undefined;
  },
): Promise<TransitionStep<S>[]> {
  if (input.ids.length === 0) return [];
  const partial = input.skipRefused === true;
  const { steps, refusals } = await transition(tx, store, input.ids, input, partial);
  if (refusals.length > 0 && !partial) {
    const named = refusals
      .slice(0, NAMED_REFUSALS)
      .map(({ label, message }) => `${label}: ${message}`);
    const more =
      refusals.length > NAMED_REFUSALS ? ` (and ${refusals.length - NAMED_REFUSALS} more)` : '';
    throw new ConflictError(`${named.join(' ')}${more}`);
  }
  return steps;
}
