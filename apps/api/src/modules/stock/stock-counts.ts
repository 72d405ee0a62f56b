import type { StockCountResult, StockItemKind } from '@inventory/contract';
import type { Transaction } from '../../db/db.js';
import { ValidationError, fieldError } from '../../http/errors.js';
import { auditActor, recordAudit } from '../audit/index.js';
import { ITEM_TABLES, recordStockMove, type StockWriter } from './stock.service.js';

/**
 * Physical counts (DOMAIN.md 2.2, StockMove reason 'count'): what was found of an item at a
 * location replaces what the books say, by a 'count' move for the difference written through
 * `recordStockMove`, and the level notes when it was counted. The levels are locked first, so
 * two counts of one level take turns and the second compares with what the first left.
 */

/** One item counted, with the form's names of its fields for the errors that land on it. */
export type CountedItem = {
  readonly itemId: number;
  readonly counted: number;
  readonly fields: { readonly item: string; readonly counted: string };
};

export type StockCount = {
  readonly kind: StockItemKind;
  readonly locationId: number;
  readonly items: readonly CountedItem[];
  readonly note: string | null;
  /**
   * A count of the whole bin: every item of the kind the books have there with units must be
   * among `items` (0 when none was found), so that none is left uncounted.
   */
  readonly wholeBin: boolean;
};

type Level = { item_id: number; on_hand: number; reserved: number };

const WHAT: Record<StockItemKind, { one: string; many: string }> = {
  accessory: { one: 'an accessory', many: 'accessories' },
  part: { one: 'a part', many: 'parts' },
};

/** The levels of the items at the location, locked in item order (and every level, for a bin). */
async function lockLevels(
  tx: Transaction,
  count: StockCount,
  itemIds: readonly number[],
): Promise<Map<number, Level>> {
  const rows = await tx.query<Level>(
    `SELECT item_id::int AS item_id, on_hand, reserved FROM stock_levels
     WHERE item_kind = $1 AND location_id = $2 AND (item_id = ANY($3::bigint[]) OR $4)
     ORDER BY item_id FOR UPDATE`,
    [count.kind, count.locationId, itemIds, count.wholeBin],
  );
  return new Map(rows.map((row) => [row.item_id, row]));
}

/** Records a count of one item or of a whole bin; a refusal of any item refuses it all. */
export async function countStock(
  tx: Transaction,
  writer: StockWriter,
  count: StockCount,
): Promise<StockCountResult> {
  const { table, label } = ITEM_TABLES[count.kind];
  const [location] = await tx.query<{
    code: string;
    active: boolean;
    quarantine: boolean;
    now: string;
  }>(
    `SELECT code, active, quarantine, to_json(now()) #>> '{}' AS now FROM locations WHERE id = $1`,
    [count.locationId],
  );
  if (!location) throw fieldError('location_id', 'Choose an existing location.');

  // A part's receipts and moves lock the part before its levels: so does a count (its parts in
  // id order, then its levels in item order), so they queue in one order and never deadlock.
  const byId = [...count.items].sort((a, b) => a.itemId - b.itemId);
  const itemIds = byId.map((item) => item.itemId);
  const items = await tx.query<{ id: number; label: string }>(
    `SELECT id::int AS id, ${label} AS label FROM ${table} WHERE id = ANY($1::bigint[])
     ORDER BY id${count.kind === 'part' ? ' FOR UPDATE' : ''}`,
    [itemIds],
  );
  const labels = new Map(items.map((item) => [item.id, item.label]));
  const unknown = byId.filter((item) => !labels.has(item.itemId));
  if (unknown.length > 0) {
    throw new ValidationError(
      Object.fromEntries(
        unknown.map((item) => [item.fields.item, [`Choose ${WHAT[count.kind].one}.`]]),
      ),
    );
  }

  let levels = await lockLevels(tx, count, itemIds);
  if (count.wholeBin) {
    const listed = new Set(itemIds);
    const missingIds = [...levels.values()]
      .filter((level) => level.on_hand > 0 && !listed.has(level.item_id))
      .map((level) => level.item_id);
    if (missingIds.length > 0) {
      const names = (
        await tx.query<{ label: string }>(
          `SELECT ${label} AS label FROM ${table} WHERE id = ANY($1::bigint[]) ORDER BY lower(${label})`,
          [missingIds],
        )
      ).map((item) => item.label);
      const more = names.length > 10 ? ` and ${names.length - 10} more` : '';
      throw fieldError(
        'lines',
        `Count every one of the ${WHAT[count.kind].many} the books have at ${location.code}: ` +
          `${names.slice(0, 10).join(', ')}${more} ${names.length === 1 ? 'is' : 'are'} ` +
          'missing (enter 0 for one not found).',
      );
    }
  }

  // Units found where the books had none: the level is made (and locked) before it is counted,
  // so a second count of it waits for this one. It needs a location that may hold stock.
  const found = byId.filter((item) => !levels.has(item.itemId) && item.counted > 0);
  if (found.length > 0) {
    if (!location.active || location.quarantine) {
      throw fieldError(
        'location_id',
        location.quarantine
          ? `${location.code} is in the quarantine zone, which holds held devices only.`
          : `${location.code} is not active: activate it before counting units into it.`,
      );
    }
    await tx.query(
      `INSERT INTO stock_levels (item_kind, item_id, location_id)
       SELECT $1, item_id, $2 FROM unnest($3::bigint[]) AS item_id ORDER BY item_id
       ON CONFLICT (item_kind, item_id, location_id) DO NOTHING`,
      [count.kind, count.locationId, found.map((item) => item.itemId)],
    );
    levels = await lockLevels(tx, count, itemIds);
  }

  const refusals: Record<string, string[]> = {};
  for (const item of byId) {
    const level = levels.get(item.itemId);
    if (level && item.counted < level.reserved) {
      refusals[item.fields.counted] = [
        `${labels.get(item.itemId)} at ${location.code}: ${item.counted} counted, but ` +
          `${level.reserved} are reserved there for orders or repairs. Release or move the ` +
          'reservations first: on hand never goes below what is reserved.',
      ];
    }
  }
  if (Object.keys(refusals).length > 0) throw new ValidationError(refusals);

  const lines: StockCountResult['lines'] = [];
  for (const item of byId) {
    const itemLabel = labels.get(item.itemId)!;
    const level = levels.get(item.itemId);
    const book = level?.on_hand ?? 0;
    const difference = item.counted - book;
    let moveId: number | null = null;
    if (difference !== 0) {
      const { move } = await recordStockMove(
        tx,
        writer,
        {
          kind: count.kind,
          itemId: item.itemId,
          qty: Math.abs(difference),
          from: difference < 0 ? count.locationId : null,
          to: difference > 0 ? count.locationId : null,
          reason: 'count',
          note: count.note,
        },
        { item: item.fields.item, from: 'location_id', to: 'location_id' },
      );
      moveId = move.id;
    } else if (level) {
      // The books were right: no move, but the count is on record.
      await recordAudit(tx, {
        ...auditActor(writer.actor, writer.meta),
        action: 'stock.count',
        entityType: count.kind,
        entityId: item.itemId,
        after: { item: itemLabel, at: location.code, counted: item.counted, difference: 0 },
      });
    }
    lines.push({
      item_id: item.itemId,
      item: itemLabel,
      book_qty: book,
      counted_qty: item.counted,
      difference,
      move_id: moveId,
      on_hand: item.counted,
      reserved: level?.reserved ?? 0,
    });
  }

  // now() is the transaction's time: the time every level of this count is stamped with.
  await tx.query(
    `UPDATE stock_levels SET last_counted_at = now(), updated_at = now()
     WHERE item_kind = $1 AND location_id = $2 AND item_id = ANY($3::bigint[])`,
    [count.kind, count.locationId, itemIds],
  );
  if (count.wholeBin) {
    await recordAudit(tx, {
      ...auditActor(writer.actor, writer.meta),
      action: 'stock.bin_count',
      entityType: 'location',
      entityId: count.locationId,
      after: {
        location: location.code,
        kind: count.kind,
        note: count.note,
        lines: lines.map((line) => ({
          item: line.item,
          book: line.book_qty,
          counted: line.counted_qty,
        })),
      },
    });
  }
  return {
    location_id: count.locationId,
    location: location.code,
    counted_at: location.now,
    lines,
  };
}
