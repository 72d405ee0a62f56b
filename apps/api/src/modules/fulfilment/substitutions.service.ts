import {
  SUBSTITUTION_BACKLOG_LIMIT,
  SUBSTITUTION_LIST_LIMIT,
  type FieldErrors,
  type OrderProgram,
  type Substitution,
  type SubstitutionBacklogLine,
  type SubstitutionRun,
} from '@inventory/contract';
import type { Queryable, Transaction } from '../../db/db.js';
import { ConflictError, fieldError, ValidationError } from '../../http/errors.js';
import type { Acting } from '../../http/principal.js';
import { isoTextSql } from '../../http/sql.js';
import { runTransitions } from '../../toolkit/lifecycle.js';
import { auditActor, recordAudits } from '../audit/index.js';
import { orderStore, validateOrder } from '../order/index.js';

/**
 * Substitutions (DOMAIN.md 4.14 `/fulfill/substitute`, 5.2 step 4a): the lines of orders on hold
 * for want of stock, the variants their client carrier's rule allows instead (SQL
 * `substitution_allows`, migration 0060) with stock, and the batch actions. Every batch locks its
 * orders in id order first, so two sessions acting on the same orders take turns and the second
 * finds them moved on (passed over, never applied twice). A batch is all or nothing: a rule that
 * does not allow the substitute or a price that would rise is a 422, too little stock or an order
 * that validation would not let through a 409.
 */

/** A variant in words, as an order line names it when sold (alias `w`, its product `wp`). */
const VARIANT_WORDS = `concat_ws(' ', wp.name,
  CASE WHEN w.capacity_gb IS NOT NULL THEN w.capacity_gb || ' GB' END,
  (SELECT c.name FROM colors c WHERE c.id = w.color_id), w.grade, w.carrier_lock)`;

/** The no-stock backlog's device lines, oldest order first, with their candidates. */
export function substitutionBacklog(
  db: Queryable,
  query: { client_carrier_id?: number | undefined; program?: OrderProgram | undefined },
): Promise<SubstitutionBacklogLine[]> {
  return db.query<SubstitutionBacklogLine>(
    `WITH held AS (
       SELECT o.id FROM orders o
       WHERE o.status = 'on_hold' AND o.hold_reason = 'no_stock'
         AND ($1::bigint IS NULL OR o.client_carrier_id = $1)
         AND ($2::text IS NULL OR o.program = $2)
       ORDER BY o.created_at, o.id LIMIT $3
     ), lines AS (
       SELECT o.id AS order_id, o.number, cv.name AS client_carrier, o.program, o.created_at,
         o.hold_note, l.id AS line_id, l.variant_id, l.sku, l.description, l.qty,
         l.unit_price_cents,
         (SELECT r.id FROM substitution_rules r WHERE r.client_carrier_id = o.client_carrier_id
            AND r.program = o.program AND r.active) AS rule_id,
         COALESCE((SELECT t.city || ', ' || t.state FROM order_ship_to t
                   WHERE t.order_id = o.id), '') AS place
       FROM held h
       JOIN orders o ON o.id = h.id
       LEFT JOIN vendors cv ON cv.id = o.client_carrier_id
       JOIN order_lines l ON l.order_id = o.id
       JOIN product_variants v ON v.id = l.variant_id
       JOIN products p ON p.id = v.product_id AND p.kind = 'device'
     ), pairs AS (
       SELECT DISTINCT rule_id, variant_id FROM lines WHERE rule_id IS NOT NULL
     ), allowed AS (
       SELECT pr.rule_id, pr.variant_id, w.id AS to_id
       FROM pairs pr
       JOIN substitution_rules r ON r.id = pr.rule_id
       JOIN product_variants w ON w.status = 'active' AND w.id <> pr.variant_id
         AND (cardinality(r.allowed_variant_ids) = 0 OR w.id = ANY (r.allowed_variant_ids))
       JOIN products wp ON wp.id = w.product_id AND wp.kind = 'device'
       WHERE EXISTS (SELECT 1 FROM devices d WHERE d.model_id = wp.model_id
                       AND d.status = 'in_stock' AND d.hold_reason IS NULL)
         AND substitution_allows(pr.rule_id, pr.variant_id, w.id)
     ), stock AS (
       SELECT s.variant_id, s.available::int AS available
       FROM variant_sellable_stock(ARRAY(SELECT to_id FROM allowed
                                         UNION SELECT variant_id FROM lines)) s
     )
     SELECT l.order_id::int AS order_id, l.number, l.client_carrier, l.program, l.place,
       ${isoTextSql('l.created_at')} AS created_at, l.hold_note, l.line_id::int AS line_id,
       l.variant_id::int AS variant_id, l.sku, l.description, l.qty,
       l.unit_price_cents::int AS unit_price_cents,
       COALESCE((SELECT st.available FROM stock st WHERE st.variant_id = l.variant_id), 0)
         AS available,
       l.rule_id::int AS rule_id,
       COALESCE((SELECT json_agg(c) FROM (
           SELECT a.to_id::int AS variant_id, w.sku, ${VARIANT_WORDS} AS description,
             st.available, x.price::int AS price_cents,
             COALESCE(x.price <= l.unit_price_cents, false) AS price_ok
           FROM allowed a
           JOIN stock st ON st.variant_id = a.to_id AND st.available > 0
           JOIN product_variants w ON w.id = a.to_id
           JOIN products wp ON wp.id = w.product_id
           CROSS JOIN LATERAL (SELECT substitute_price_cents(l.line_id, a.to_id) AS price) x
           WHERE a.rule_id = l.rule_id AND a.variant_id = l.variant_id
           ORDER BY st.available DESC, w.sku LIMIT 10) c), '[]') AS candidates
     FROM lines l
     ORDER BY l.created_at, l.order_id, l.line_id`,
    [query.client_carrier_id ?? null, query.program ?? null, SUBSTITUTION_BACKLOG_LIMIT],
  );
}

/** One line of a batch: the order, the line of the variant ordered, the substitute and the rule. */
type PlannedLine = {
  order_id: number;
  number: string;
  status: string;
  hold_reason: string | null;
  proposal_id: number | null;
  from_variant_id: number;
  to_variant_id: number;
  from_sku: string;
  to_sku: string;
  to_words: string;
  line_id: number | null;
  qty: number | null;
  ordered_price_cents: number | null;
  rule_id: number | null;
  rule_name: string;
  notify_client: boolean;
  allowed: boolean;
  substitute_price_cents: number | null;
};

type Wanted = { orderId: number; from: number; to: number; proposalId: number | null };

/** Locks the orders in id order (the batch's turn), then reads what each wanted line would be. */
async function planLines(tx: Transaction, wanted: readonly Wanted[]): Promise<PlannedLine[]> {
  await tx.query(`SELECT id FROM orders WHERE id = ANY ($1::bigint[]) ORDER BY id FOR UPDATE`, [
    wanted.map((item) => item.orderId),
  ]);
  return tx.query<PlannedLine>(
    `SELECT o.id::int AS order_id, o.number, o.status, o.hold_reason,
       t.proposal_id::int AS proposal_id, t.from_id::int AS from_variant_id,
       t.to_id::int AS to_variant_id, fv.sku AS from_sku, w.sku AS to_sku,
       ${VARIANT_WORDS} AS to_words, l.id::int AS line_id, l.qty,
       l.unit_price_cents::int AS ordered_price_cents, r.id::int AS rule_id,
       concat_ws(' ', cv.name, o.program) AS rule_name,
       COALESCE(r.notify_client, false) AS notify_client,
       COALESCE(l.id IS NOT NULL AND r.id IS NOT NULL
         AND substitution_allows(r.id, t.from_id, t.to_id), false) AS allowed,
       substitute_price_cents(l.id, t.to_id)::int AS substitute_price_cents
     FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::bigint[])
       AS t (order_id, from_id, to_id, proposal_id)
     JOIN orders o ON o.id = t.order_id
     JOIN product_variants fv ON fv.id = t.from_id
     JOIN product_variants w ON w.id = t.to_id
     JOIN products wp ON wp.id = w.product_id
     LEFT JOIN vendors cv ON cv.id = o.client_carrier_id
     LEFT JOIN order_lines l ON l.order_id = o.id AND l.variant_id = t.from_id
     LEFT JOIN substitution_rules r ON r.client_carrier_id = o.client_carrier_id
       AND r.program = o.program AND r.active
     ORDER BY o.id, l.id`,
    [
      wanted.map((item) => item.orderId),
      wanted.map((item) => item.from),
      wanted.map((item) => item.to),
      wanted.map((item) => item.proposalId),
    ],
  );
}

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/**
 * The rules every line of a batch must pass, or the batch is refused whole (422): the order has
 * a line of the variant, its rule allows the substitute, and the customer's price is known and
 * does not rise.
 */
function refuseWhatRulesForbid(lines: readonly PlannedLine[]) {
  const errors: FieldErrors = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  for (const line of lines) {
    if (line.line_id === null) {
      add('order_ids', `${line.number} has no line of ${line.from_sku}.`);
    } else if (line.rule_id === null) {
      add('to_variant_id', `${line.number}: ${line.rule_name} has no substitution rule.`);
    } else if (!line.allowed) {
      add(
        'to_variant_id',
        `${line.number}: the ${line.rule_name} rule does not allow ${line.to_sku} in place of ${line.from_sku}.`,
      );
    } else if (line.substitute_price_cents === null) {
      add(
        'to_variant_id',
        `${line.number}: no plan co-pay or listing price is known for ${line.to_sku}, so the customer's price cannot be checked.`,
      );
    } else if (line.substitute_price_cents > line.ordered_price_cents!) {
      add(
        'to_variant_id',
        `${line.number}: the customer's price would rise: ${line.to_sku} is ${dollars(line.substitute_price_cents)}, ${line.from_sku} was ${dollars(line.ordered_price_cents!)}.`,
      );
    }
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
}

/** Too little stock of a substitute for the whole batch: a 409 naming it. */
async function refuseWithoutStock(tx: Transaction, lines: readonly PlannedLine[]) {
  const needed = new Map<number, { sku: string; qty: number }>();
  for (const line of lines) {
    const entry = needed.get(line.to_variant_id) ?? { sku: line.to_sku, qty: 0 };
    entry.qty += line.qty!;
    needed.set(line.to_variant_id, entry);
  }
  const stock = await tx.query<{ variant_id: number; available: number }>(
    `SELECT variant_id::int AS variant_id, available::int AS available
     FROM variant_sellable_stock($1::bigint[])`,
    [[...needed.keys()]],
  );
  for (const { variant_id, available } of stock) {
    const { sku, qty } = needed.get(variant_id)!;
    if (available < qty) {
      throw new ConflictError(`Only ${available} of ${sku} in stock: the batch needs ${qty}.`);
    }
  }
}

/** Splits a batch's lines into those in the state the action takes and those passed over. */
function sortOut(lines: readonly PlannedLine[], takes: (line: PlannedLine) => boolean) {
  const skipped = new Map<number, { id: number; number: string; why: string }>();
  const taken: PlannedLine[] = [];
  for (const line of lines) {
    if (takes(line)) taken.push(line);
    else {
      const state = line.status === 'on_hold' ? `on hold (${line.hold_reason})` : line.status;
      skipped.set(line.order_id, {
        id: line.order_id,
        number: line.number,
        why: `${line.number} is ${state.replace(/_/g, ' ')} now: it no longer waits for this substitution.`,
      });
    }
  }
  return { taken, skipped: [...skipped.values()] };
}

const ordersOf = (lines: readonly PlannedLine[]) => [
  ...new Map(
    lines.map((line) => [line.order_id, { id: line.order_id, number: line.number }]),
  ).values(),
];

const noStockHold = (line: PlannedLine) =>
  line.status === 'on_hold' && line.hold_reason === 'no_stock' && line.proposal_id === null;

/**
 * The lines take the substitute: their variant, SKU and name change, the variant ordered is kept
 * (`substituted_from_variant_id`, the first one when substituted again), the substitutions are
 * written applied, each order is validated again (its listing units, the new variant's stock)
 * and moves to ready through its lifecycle, with its timeline and audit.
 */
async function substitute(
  tx: Transaction,
  acting: Acting,
  lines: readonly PlannedLine[],
  note: string | null,
) {
  const lineIds = lines.map((line) => line.line_id!);
  await tx.query(
    `UPDATE order_lines l SET variant_id = x.to_id, sku = w.sku,
       description = ${VARIANT_WORDS},
       substituted_from_variant_id = COALESCE(l.substituted_from_variant_id, l.variant_id)
     FROM unnest($1::bigint[], $2::bigint[]) AS x (line_id, to_id)
     JOIN product_variants w ON w.id = x.to_id
     JOIN products wp ON wp.id = w.product_id
     WHERE l.id = x.line_id`,
    [lineIds, lines.map((line) => line.to_variant_id)],
  );
  const proposed = lines.filter((line) => line.proposal_id !== null);
  if (proposed.length > 0) {
    await tx.query(
      `UPDATE order_substitutions SET status = 'applied', decided_at = now(), decided_by = $2
       WHERE id = ANY ($1::bigint[])`,
      [proposed.map((line) => line.proposal_id), acting.actor.userId],
    );
  }
  await writeSubstitutions(
    tx,
    acting,
    lines.filter((line) => line.proposal_id === null),
    'applied',
    note,
  );
  for (const order of ordersOf(lines)) {
    const failure = await validateOrder(tx, acting, order.id);
    if (failure) throw new ConflictError(`${order.number} cannot be ready: ${failure.note}`);
  }
  await runTransitions(tx, orderStore, {
    ids: ordersOf(lines).map((order) => order.id),
    action: 'substitute',
    actor: acting.actor,
    meta: acting.meta,
    data: { substitutions: changesOf(lines) },
  });
}

/** What a batch changes, for the timeline: "MOTO-G-BLK-A → MOTO-G-BLU-A". */
const changesOf = (lines: readonly PlannedLine[]) => [
  ...new Set(lines.map((line) => `${line.from_sku} → ${line.to_sku}`)),
];

async function writeSubstitutions(
  tx: Transaction,
  acting: Acting,
  lines: readonly PlannedLine[],
  status: 'proposed' | 'applied',
  note: string | null,
) {
  if (lines.length === 0) return;
  const written = await tx.query<{ id: number; order_id: number }>(
    `INSERT INTO order_substitutions (order_id, order_line_id, rule_id, from_variant_id,
       to_variant_id, qty, ordered_price_cents, substitute_price_cents, status, notify_client,
       note, proposed_by, decided_at, decided_by)
     SELECT x.order_id, x.line_id, x.rule_id, x.from_id, x.to_id, x.qty, x.ordered, x.price, $10,
       x.notify, $11, $12, CASE WHEN $10 = 'applied' THEN now() END,
       CASE WHEN $10 = 'applied' THEN $12::bigint END
     FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::bigint[], $5::bigint[], $6::int[],
       $7::bigint[], $8::bigint[], $9::boolean[])
       AS x (order_id, line_id, rule_id, from_id, to_id, qty, ordered, price, notify)
     RETURNING id::int AS id, order_id::int AS order_id`,
    [
      lines.map((line) => line.order_id),
      lines.map((line) => line.line_id),
      lines.map((line) => line.rule_id),
      lines.map((line) => line.from_variant_id),
      lines.map((line) => line.to_variant_id),
      lines.map((line) => line.qty),
      lines.map((line) => line.ordered_price_cents),
      lines.map((line) => line.substitute_price_cents),
      lines.map((line) => line.notify_client),
      status,
      note,
      acting.actor.userId,
    ],
  );
  await recordAudits(
    tx,
    {
      ...auditActor(acting.actor, acting.meta),
      action: `order_substitution.${status}`,
      entityType: 'order_substitution',
    },
    written.map((row, n) => ({
      entityId: row.id,
      after: {
        order_id: row.order_id,
        from: lines[n]!.from_sku,
        to: lines[n]!.to_sku,
        qty: lines[n]!.qty,
        substitute_price_cents: lines[n]!.substitute_price_cents,
      },
    })),
  );
}

type BatchInput = {
  from_variant_id: number;
  to_variant_id: number;
  order_ids: readonly number[];
  note?: string | null | undefined;
};

async function planBatch(tx: Transaction, input: BatchInput) {
  if (input.from_variant_id === input.to_variant_id) {
    throw fieldError('to_variant_id', 'Choose another variant than the one ordered.');
  }
  const [known] = await tx.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM product_variants WHERE id = ANY ($1::bigint[])`,
    [[input.from_variant_id, input.to_variant_id]],
  );
  if (known!.n < 2) throw fieldError('to_variant_id', 'Choose a variant of the catalogue.');
  return planLines(
    tx,
    [...new Set(input.order_ids)].map((orderId) => ({
      orderId,
      from: input.from_variant_id,
      to: input.to_variant_id,
      proposalId: null,
    })),
  );
}

/** Proposes a substitute for the no-stock orders of a batch: they wait for a manager. */
export async function proposeSubstitutions(
  tx: Transaction,
  acting: Acting,
  input: BatchInput,
): Promise<SubstitutionRun> {
  const { taken, skipped } = sortOut(await planBatch(tx, input), noStockHold);
  refuseWhatRulesForbid(taken);
  await writeSubstitutions(tx, acting, taken, 'proposed', input.note ?? null);
  await runTransitions(tx, orderStore, {
    ids: ordersOf(taken).map((order) => order.id),
    action: 'propose_substitution',
    actor: acting.actor,
    meta: acting.meta,
    data: { substitutions: changesOf(taken) },
  });
  return { done: ordersOf(taken), skipped };
}

/** Applies a substitute at once to the no-stock orders of a batch (a manager). */
export async function applySubstitutions(
  tx: Transaction,
  acting: Acting,
  input: BatchInput,
): Promise<SubstitutionRun> {
  const { taken, skipped } = sortOut(await planBatch(tx, input), noStockHold);
  refuseWhatRulesForbid(taken);
  await refuseWithoutStock(tx, taken);
  if (taken.length > 0) await substitute(tx, acting, taken, input.note ?? null);
  return { done: ordersOf(taken), skipped };
}

/** The proposals named, with the orders they are on: read before the orders are locked. */
async function proposalsOf(tx: Transaction, ids: readonly number[]): Promise<Wanted[]> {
  const rows = await tx.query<{ id: number; order_id: number; from: number; to: number }>(
    `SELECT id::int AS id, order_id::int AS order_id, from_variant_id::int AS from,
       to_variant_id::int AS to
     FROM order_substitutions WHERE id = ANY ($1::bigint[]) ORDER BY id`,
    [ids],
  );
  return rows.map((row) => ({
    orderId: row.order_id,
    from: row.from,
    to: row.to,
    proposalId: row.id,
  }));
}

/** Locks the proposals' orders, then keeps the lines whose proposal is still open. */
async function openProposals(tx: Transaction, ids: readonly number[]) {
  const lines = await planLines(tx, await proposalsOf(tx, ids));
  const open = new Set(
    (
      await tx.query<{ id: number }>(
        `SELECT id::int AS id FROM order_substitutions
         WHERE id = ANY ($1::bigint[]) AND status = 'proposed'`,
        [ids],
      )
    ).map((row) => row.id),
  );
  return sortOut(
    lines,
    (line) => line.status === 'substitution_pending' && open.has(line.proposal_id!),
  );
}

/** Approves proposals: each order is ready with its substitute (the rules checked again). */
export async function approveSubstitutions(
  tx: Transaction,
  acting: Acting,
  ids: readonly number[],
): Promise<SubstitutionRun> {
  const { taken, skipped } = await openProposals(tx, ids);
  refuseWhatRulesForbid(taken);
  await refuseWithoutStock(tx, taken);
  if (taken.length > 0) await substitute(tx, acting, taken, null);
  return { done: ordersOf(taken), skipped };
}

/** Rejects proposals: the orders go back to the backlog, no stock, with the reason. */
export async function rejectSubstitutions(
  tx: Transaction,
  acting: Acting,
  ids: readonly number[],
  reason: string,
): Promise<SubstitutionRun> {
  const { taken, skipped } = await openProposals(tx, ids);
  await tx.query(
    `UPDATE order_substitutions SET status = 'rejected', decided_at = now(), decided_by = $2,
       note = $3
     WHERE id = ANY ($1::bigint[])`,
    [taken.map((line) => line.proposal_id), acting.actor.userId, reason],
  );
  await runTransitions(tx, orderStore, {
    ids: ordersOf(taken).map((order) => order.id),
    action: 'reject_substitution',
    actor: acting.actor,
    meta: acting.meta,
    reason: 'no_stock',
    data: { note: reason, substitutions: changesOf(taken) },
    columns: { hold_note: `Substitution rejected: ${reason}` },
  });
  return { done: ordersOf(taken), skipped };
}

const SUBSTITUTION_COLUMNS = `s.id::int AS id, s.order_id::int AS order_id, o.number,
  cv.name AS client_carrier, o.program, s.status,
  (SELECT v.sku FROM product_variants v WHERE v.id = s.from_variant_id) AS from_sku,
  w.sku AS to_sku, ${VARIANT_WORDS} AS to_description, s.qty,
  s.ordered_price_cents::int AS ordered_price_cents,
  s.substitute_price_cents::int AS substitute_price_cents, s.notify_client, s.note,
  ${isoTextSql('s.proposed_at')} AS proposed_at,
  (SELECT u.name FROM users u WHERE u.id = s.proposed_by) AS proposed_by,
  ${isoTextSql('s.decided_at')} AS decided_at,
  (SELECT u.name FROM users u WHERE u.id = s.decided_by) AS decided_by`;

const SUBSTITUTION_FROM = `order_substitutions s
  JOIN orders o ON o.id = s.order_id
  LEFT JOIN vendors cv ON cv.id = o.client_carrier_id
  JOIN product_variants w ON w.id = s.to_variant_id
  JOIN products wp ON wp.id = w.product_id`;

/** Proposals awaiting a manager, oldest first. */
export const pendingProposals = (db: Queryable) =>
  db.query<Substitution>(
    `SELECT ${SUBSTITUTION_COLUMNS} FROM ${SUBSTITUTION_FROM}
     WHERE s.status = 'proposed' ORDER BY s.proposed_at, s.id LIMIT $1`,
    [SUBSTITUTION_LIST_LIMIT],
  );

/** Applied substitutions the client carrier wants to hear of and has not yet, oldest first. */
export const substitutionsToNotify = (db: Queryable) =>
  db.query<Substitution>(
    `SELECT ${SUBSTITUTION_COLUMNS} FROM ${SUBSTITUTION_FROM}
     WHERE s.status = 'applied' AND s.notify_client AND s.client_notified_at IS NULL
     ORDER BY s.decided_at, s.id LIMIT $1`,
    [SUBSTITUTION_LIST_LIMIT],
  );

/** Records that the client carrier was told: each substitution once (a repeat is passed over). */
export async function recordClientNotified(
  tx: Transaction,
  acting: Acting,
  ids: readonly number[],
): Promise<SubstitutionRun> {
  const marked = await tx.query<{ id: number; order_id: number; number: string }>(
    `UPDATE order_substitutions s SET client_notified_at = now(), client_notified_by = $2
     FROM orders o
     WHERE s.id = ANY ($1::bigint[]) AND o.id = s.order_id AND s.status = 'applied'
       AND s.notify_client AND s.client_notified_at IS NULL
     RETURNING s.id::int AS id, s.order_id::int AS order_id, o.number`,
    [ids, acting.actor.userId],
  );
  await recordAudits(
    tx,
    {
      ...auditActor(acting.actor, acting.meta),
      action: 'order_substitution.client_notified',
      entityType: 'order_substitution',
    },
    marked.map((row) => ({ entityId: row.id, after: { order: row.number } })),
  );
  return {
    done: [
      ...new Map(
        marked.map((row) => [row.order_id, { id: row.order_id, number: row.number }]),
      ).values(),
    ],
    skipped: [],
  };
}
