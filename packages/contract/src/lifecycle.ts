import { canAccess, type Access, type AccessSubject } from './access.js';

/**
 * Lifecycles (DOMAIN.md 3, invariant 6): a document's stored states and the named actions that
 * move it between them, declared once. The server runs an action only as its declaration allows
 * (`toolkit/lifecycle.ts`), and a page shows only the actions its user can run on a record
 * (`allowedActions`), both reading the same rules.
 */

/** An action's `to` that sends a held record back to the state it was held in. */
export const BEFORE_HOLD = 'before-hold';

export type LifecycleAction<S extends string> = {
  /** The states the action starts from. */
  readonly from: readonly S[];
  readonly to: S | typeof BEFORE_HOLD;
  /** What the action does, as it reads after "cannot": 'return to its vendor'. */
  readonly label: string;
  /** The event written on the record's timeline (`held`); audited as `<name>.<event>`. */
  readonly event: string;
  /** Who may run it, checked besides the guard of the endpoint that runs it; anyone without. */
  readonly permission?: Access;
  /**
   * Whether the action takes a reason (a hold's reason, why an order is cancelled), kept on the
   * timeline and in the audit log; an action without one records none.
   */
  readonly reason?: 'required' | 'optional';
};

/**
 * A hold: a state a record is put in with a reason (one of `reasons`) and taken out of by an
 * action to `BEFORE_HOLD`, which brings it back to the state it was held in. Actions that do not
 * start from the hold state are refused while the record is held.
 */
export type LifecycleHold<S extends string, R extends string> = {
  readonly state: S;
  readonly reasons: readonly R[];
};

export type LifecycleDeclaration<S extends string, A extends string, R extends string> = {
  /** The record's name: its audit entity type and, with spaces, the noun of messages. */
  readonly name: string;
  /** Every stored state; a record starts in the first. */
  readonly states: readonly [S, ...S[]];
  /** States no action leaves. */
  readonly terminal?: readonly NoInfer<S>[];
  readonly actions: { readonly [Action in A]: LifecycleAction<NoInfer<S>> };
  readonly hold?: LifecycleHold<NoInfer<S>, R>;
  /** A state in words ('failed QC'); its name with spaces by default. */
  stateText?(state: NoInfer<S>): string;
};

export type Lifecycle<
  S extends string = string,
  A extends string = string,
  R extends string = string,
> = LifecycleDeclaration<S, A, R> & { stateText(state: S): string };

export type StateOf<L extends Lifecycle> = L extends Lifecycle<infer S> ? S : never;
export type ActionOf<L extends Lifecycle> = keyof L['actions'] & string;

/** What an action reads of a record: its state and, under a hold, the state it was held in. */
export type LifecycleRecord<S extends string> = {
  readonly status: S;
  readonly status_before_hold?: S | null;
};

/** The state an action leads to, or why the record's state does not allow it, in words. */
export type LifecycleStep<S extends string> =
  { ok: true; status: S } | { ok: false; message: string };

/**
 * Declares a lifecycle and checks at once what its types cannot: no action leaves a terminal
 * state, only a hold is left to `BEFORE_HOLD`, an action into the hold starts outside it and
 * takes the hold's reason.
 */
export function defineLifecycle<
  const S extends string,
  const A extends string,
  const R extends string = never,
>(declaration: LifecycleDeclaration<S, A, R>): Lifecycle<S, A, R> {
  const { name, terminal = [], hold } = declaration;
  const fail = (problem: string) => {
    throw new Error(`The ${name} lifecycle: ${problem}`);
  };
  for (const [action, rule] of Object.entries<LifecycleAction<S>>(declaration.actions)) {
    const leaves = rule.from.find((state) => terminal.includes(state));
    if (leaves) fail(`${action} leaves the terminal state ${leaves}.`);
    if (rule.to === BEFORE_HOLD && (!hold || rule.from.some((state) => state !== hold.state))) {
      fail(`${action} goes back to the state before a hold, so it starts from the hold only.`);
    }
    if (hold && rule.to === hold.state) {
      if (rule.from.includes(hold.state)) fail(`${action} puts on hold what is held already.`);
      if (rule.reason !== 'required') fail(`${action} puts on hold, so it requires a reason.`);
    }
  }
  return {
    ...declaration,
    stateText: declaration.stateText ?? ((state) => state.replace(/_/g, ' ')),
  };
}

/** What a record of the lifecycle is called in messages: 'repair ticket' for `repair_ticket`. */
export const recordNoun = (lifecycle: { readonly name: string }) =>
  lifecycle.name.replace(/_/g, ' ');
const withArticle = (noun: string) => `${/^[aeiou]/i.test(noun) ? 'An' : 'A'} ${noun}`;

/** The state `action` leads `record` to, or why its state does not allow it. */
export function nextStatus<S extends string, A extends string, R extends string>(
  lifecycle: Lifecycle<S, A, R>,
  record: LifecycleRecord<S>,
  action: NoInfer<A>,
): LifecycleStep<S> {
  const rule: LifecycleAction<S> = lifecycle.actions[action];
  const { hold } = lifecycle;
  if (hold && record.status === hold.state && !rule.from.includes(hold.state)) {
    const held = `The ${recordNoun(lifecycle)} is ${lifecycle.stateText(hold.state)}`;
    if (rule.to === hold.state) return { ok: false, message: `${held} already.` };
    const release = Object.values<LifecycleAction<S>>(lifecycle.actions).find(
      (other) => other.to === BEFORE_HOLD,
    );
    if (release) {
      return { ok: false, message: `${held}: ${release.label} before you ${rule.label}.` };
    }
  }
  if (!rule.from.includes(record.status)) {
    const noun = withArticle(recordNoun(lifecycle));
    return {
      ok: false,
      message: `${noun} that is ${lifecycle.stateText(record.status)} cannot ${rule.label}.`,
    };
  }
  if (rule.to === BEFORE_HOLD) {
    return { ok: true, status: record.status_before_hold ?? lifecycle.states[0] };
  }
  return { ok: true, status: rule.to };
}

/** Whether the subject may run the action at all, whatever the record's state. */
export const mayRun = <S extends string, A extends string, R extends string>(
  lifecycle: Lifecycle<S, A, R>,
  action: NoInfer<A>,
  subject: AccessSubject | null | undefined,
): boolean => {
  const { permission } = lifecycle.actions[action];
  return permission ? canAccess(subject, permission) : subject != null;
};

/** Whether the subject may run the action on the record now: its state allows it, and its rights. */
export const canRun = <S extends string, A extends string, R extends string>(
  lifecycle: Lifecycle<S, A, R>,
  record: LifecycleRecord<S>,
  action: NoInfer<A>,
  subject: AccessSubject | null | undefined,
): boolean => mayRun(lifecycle, action, subject) && nextStatus(lifecycle, record, action).ok;

/** The actions the subject can run on the record now, in their declared order: a page's buttons. */
export const allowedActions = <S extends string, A extends string, R extends string>(
  lifecycle: Lifecycle<S, A, R>,
  record: LifecycleRecord<S>,
  subject: AccessSubject | null | undefined,
): A[] =>
  (Object.keys(lifecycle.actions) as A[]).filter((action) =>
    canRun(lifecycle, record, action, subject),
  );
