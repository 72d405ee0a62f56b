import {
  OPEN_ORDER_STATUSES,
  type FieldErrors,
  type kitList,
  type Schema,
  type SellableStatus,
} from '@inventory/contract';
import type { Queryable, Transaction } from '../../db/db.js';
import { ConflictError, NotFoundError, uniqueViolationAs } from '../../http/errors.js';
import type { Principal, RequestMeta } from '../../http/principal.js';
import type { ListSql } from '../../toolkit/list.js';
import type { ListQueryOf } from '../../toolkit/stores.js';
import { auditActor, recordAudit } from '../audit/index.js';
import {
  claimSkus,
  isoText,
  LIVE_LISTING,
  refuseWhileListed,
  taggedWith,
  tagsOf,
  writeTags,
} from './catalogue-fields.js';

/*
 * What bundles and combos (kits, kits.contract.ts) do alike: their list, SKUs claimed across every
 * sellable, and the rule that a kit sold by a live listing keeps its shape and stays active. Each
 * kind brings its own shape (components, slots): how it is checked, written and compared.
 */

export type KitKind = 'bundle' | 'combo';

type KitQuery = ListQueryOf<ReturnType<typeof kitList<Schema>>>;

/**
 * The list of a kind's kits, as `kit` rows: its own shape column and the condition of "holds
 * variant ?" given.
 */
export const kitListSql = (
  kind: KitKind,
  own: { shapeColumn: string; holdsVariant: string },
): ListSql<KitQuery> => ({
  from: `${kind}s kit`,
  id: 'kit.id',
  columns: `kit.id, kit.sku, kit.name, kit.status, ${own.shapeColumn},
    (SELECT count(*)::int FROM pts_listings l WHERE l.${kind}_id = kit.id AND ${LIVE_LISTING})
      AS live_listings,
    ${tagsOf(kind, 'kit.id')} AS tags,
    ${isoText('kit.created_at')} AS created_at, ${isoText('kit.updated_at')} AS updated_at`,
  sorts: {
    sku: { sql: 'kit.sku', type: 'text' },
    name: { sql: 'lower(kit.name)', type: 'text' },
  },
  search: (pattern) => ['(kit.sku ILIKE ? OR kit.name ILIKE ?)', pattern, pattern],
  filters: (query) => [
    query.status !== undefined && ['kit.status = ?', query.status],
    query.variant_id !== undefined && [own.holdsVariant, query.variant_id],
    query.tag_id !== undefined && [taggedWith(kind, 'kit.id'), query.tag_id],
  ],
});

/**
 * The field messages of variants that cannot be sold in a kit or choice: unknown, archived or of
 * an archived product, or named twice. `field(index)` names the input's field.
 */
export async function variantProblems(
  db: Queryable,
  variantIds: readonly number[],
  field: (index: number) => string,
): Promise<FieldErrors> {
  const rows = await db.query<{ id: number; sku: string; sellable: boolean }>(
    `SELECT v.id, v.sku, v.status = 'active' AND p.status = 'active' AS sellable
     FROM product_variants v JOIN products p ON p.id = v.product_id
     WHERE v.id = ANY ($1::bigint[])`,
    [variantIds],
  );
  const byId = new Map(rows.map((row) => [Number(row.id), row]));
  const errors: FieldErrors = {};
  variantIds.forEach((id, index) => {
    const variant = byId.get(id);
    if (!variant) errors[field(index)] = [`There is no variant with id ${id}.`];
    else if (variantIds.indexOf(id) !== index) {
      errors[field(index)] = [`${variant.sku} is named twice.`];
    } else if (!variant.sellable) errors[field(index)] = [`${variant.sku} is archived.`];
  });
  return errors;
}

/**
 * Refuses (409) to change a kit's shape while open orders sell it (DOMAIN.md 4.5): they ship what
 * was ordered. Called under the kit's FOR UPDATE lock; an order line inserted meanwhile takes the
 * kit's row FOR KEY SHARE by its foreign key, so the two run in turn and this count sees it.
 */
async function refuseWhileOrdered(
  tx: Transaction,
  kind: KitKind,
  id: number,
  what: string,
  shapeName: string,
): Promise<void> {
  const [row] = await tx.query<{ orders: number }>(
    `SELECT count(DISTINCT l.order_id)::int AS orders
     FROM order_lines l JOIN orders o ON o.id = l.order_id
     WHERE l.${kind}_id = $1 AND o.status = ANY ($2::text[])`,
    [id, OPEN_ORDER_STATUSES],
  );
  const orders = row!.orders;
  if (orders > 0) {
    throw new ConflictError(
      `${what} is in ${orders} open order${orders === 1 ? '' : 's'}: its ${shapeName} cannot change until ${orders === 1 ? 'it is' : 'they are'} shipped or cancelled.`,
    );
  }
}

/** A kind of kit's own shape: how it is read back, checked (422), written and compared. */
export type KitShapeRules<Kit, Shape> = {
  kind: KitKind;
  find: (db: Queryable, id: number) => Promise<Kit>;
  /** What a live listing locks, in words: `components`, `slots`. */
  shapeName: string;
  check: (db: Queryable, shape: Shape) => Promise<void>;
  /** Puts exactly this shape on kit `id`. */
  write: (tx: Transaction, id: number, shape: Shape) => Promise<void>;
  /** Whether the kit has this shape already (an unchanged shape is no change while listed). */
  same: (kit: Kit, shape: Shape) => boolean;
};

type NewKit = { sku: string; name: string; tag_ids?: number[] | undefined };
type KitChange = {
  sku?: string | undefined;
  name?: string | undefined;
  tag_ids?: number[] | undefined;
};

/** Creating, changing and (de)activating a kind of kit, each with its audit entry. */
export function kitWrites<
  Kit extends { sku: string; status: SellableStatus; live_listings: number },
  Shape,
>(rules: KitShapeRules<Kit, Shape>) {
  const { kind, find } = rules;
  const table = `${kind}s`;
  const uniques = { [`${table}_sku_key`]: ['sku', `A ${kind} with this SKU exists.`] } as const;

  const audit = (
    tx: Transaction,
    actor: Principal,
    meta: RequestMeta,
    action: string,
    id: number,
    before: unknown,
    after: unknown,
  ) =>
    recordAudit(tx, {
      ...auditActor(actor, meta),
      action: `${kind}.${action}`,
      entityType: kind,
      entityId: id,
      before,
      after,
    });

  async function lock(tx: Transaction, id: number): Promise<Kit> {
    const [row] = await tx.query(`SELECT id FROM ${table} WHERE id = $1 FOR UPDATE`, [id]);
    if (!row) throw new NotFoundError(`There is no ${kind} with id ${id}.`);
    return find(tx, id);
  }

  return {
    /** Creates a kit with its shape and tags; its SKU is unique across every sellable. */
    async create(
      tx: Transaction,
      actor: Principal,
      meta: RequestMeta,
      input: NewKit,
      shape: Shape,
    ): Promise<Kit> {
      await rules.check(tx, shape);
      await claimSkus(tx, [input.sku], 'sku');
      const [created] = await tx
        .query<{ id: number }>(
          `INSERT INTO ${table} (sku, name, created_by) VALUES ($1, $2, $3) RETURNING id`,
          [input.sku, input.name, actor.userId],
        )
        .catch(uniqueViolationAs(uniques));
      const id = Number(created!.id);
      await rules.write(tx, id, shape);
      await writeTags(tx, kind, id, input.tag_ids ?? []);
      const kit = await find(tx, id);
      await audit(tx, actor, meta, 'created', id, undefined, kit);
      return kit;
    },

    /**
     * Changes a kit. Its shape (when given) stays as it is while a listing sells it (409): a
     * channel sells the kit it was pushed as.
     */
    async update(
      tx: Transaction,
      actor: Principal,
      meta: RequestMeta,
      id: number,
      input: KitChange,
      given: Shape | undefined,
    ): Promise<Kit> {
      const before = await lock(tx, id);
      const shape = given !== undefined && !rules.same(before, given) ? given : undefined;
      if (shape !== undefined) {
        refuseWhileListed(
          before.live_listings,
          `The ${kind} ${before.sku}`,
          `its ${rules.shapeName} cannot change`,
        );
        await refuseWhileOrdered(tx, kind, id, `The ${kind} ${before.sku}`, rules.shapeName);
        await rules.check(tx, shape);
      }
      if (input.sku !== undefined && input.sku !== before.sku) {
        await claimSkus(tx, [input.sku], 'sku', { kind, id });
      }
      await tx
        .query(
          `UPDATE ${table} SET sku = COALESCE($2, sku), name = COALESCE($3, name), updated_at = now()
           WHERE id = $1`,
          [id, input.sku ?? null, input.name ?? null],
        )
        .catch(uniqueViolationAs(uniques));
      if (shape !== undefined) await rules.write(tx, id, shape);
      if (input.tag_ids) await writeTags(tx, kind, id, input.tag_ids);
      const after = await find(tx, id);
      await audit(tx, actor, meta, 'updated', id, before, after);
      return after;
    },

    /** Deactivates (refused while a listing sells it) or activates a kit again. */
    async setStatus(
      tx: Transaction,
      actor: Principal,
      meta: RequestMeta,
      id: number,
      status: SellableStatus,
    ): Promise<Kit> {
      const before = await lock(tx, id);
      if (before.status === status) return before;
      if (status === 'inactive') {
        refuseWhileListed(
          before.live_listings,
          `The ${kind} ${before.sku}`,
          'it cannot be deactivated',
        );
      }
      await tx.query(`UPDATE ${table} SET status = $2, updated_at = now() WHERE id = $1`, [
        id,
        status,
      ]);
      const after = await find(tx, id);
      await audit(
        tx,
        actor,
        meta,
        status === 'inactive' ? 'deactivated' : 'activated',
        id,
        { status: before.status },
        { status: after.status },
      );
      return after;
    },
  };
}
