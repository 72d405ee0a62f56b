import type {
  StockActionResult,
  StockItemKind,
  StockMove,
  StockMoveReason,
} from '@inventory/contract';
import type { Queryable, Transaction } from '../../db/db.js';
import { ValidationError, fieldError } from '../../http/errors.js';
import type { Principal, RequestMeta } from '../../http/principal.js';
import { auditActor, recordAudit } from '../audit/index.js';

/**
 * The one way counted stock changes (DOMAIN.md invariant 8): each action writes its move to the
 * ledger and the levels it changes in the caller's transaction, with its audit event. A level
 * never goes below what is reserved there: the decrement is one conditional UPDATE, so of many
 * concurrent takers of the last units only as many succeed as there are units.
 */

export type StockWriter = { readonly actor: Principal; readonly meta: RequestMeta };

/** The field names an action's errors land on, as its form names them. */
type Fields = { readonly item: string; readonly from?: string; readonly to?: string };

export type StockMoveRequest = {
  readonly kind: StockItemKind;
  readonly itemId: number;
  readonly qty: number;
  /** Where the units leave from; null for a receipt or units found. */
  readonly from: number | null;
  /** Where the units arrive; null for units consumed or written off. */
  readonly to: number | null;
  readonly reason: StockMoveReason;
  readonly reference?: string | null;
  readonly note?: string | null;
  readonly vendorId?: number | null;
  readonly unitCostCents?: number | null;
};

/** Each kind of item's master table and the column that names an item to people. */
export const ITEM_TABLES: Record<StockItemKind, { table: string; label: string; what: string }> = {
  accessory: { table: 'accessories', label: 'sku', what: 'accessory' },
  part: { table: 'parts', label: 'part_number', what: 'part' },
};

type Item = { label: string; active: boolean; cost_cents: number | null };

/** The item moved, by its SKU or part number; a receipt needs it active. */
async function itemOf(
  tx: Queryable,
  request: StockMoveRequest,
  field: string,
  lock: boolean,
): Promise<Item> {
  const { table, label, what } = ITEM_TABLES[request.kind];
  const [item] = await tx.query<Item>(
    `SELECT ${label} AS label, active, ${request.kind === 'part' ? 'cost_cents' : 'NULL::int'} AS cost_cents
     FROM ${table} WHERE id = $1${lock ? ' FOR UPDATE' : ''}`,
    [request.itemId],
  );
  if (!item) throw fieldError(field, `Choose ${what === 'part' ? 'a part' : 'an accessory'}.`);
  if (request.reason === 'receipt' && !item.active) {
    throw fieldError(field, `${item.label} is inactive: activate it before receiving it.`);
  }
  return item;
}

type Location = { id: number; code: string; active: boolean; quarantine: boolean };

/** The locations of a move: units come from one that exists, and go to an active one outside quarantine. */
async function locationsOf(
  tx: Queryable,
  request: StockMoveRequest,
  fields: Fields,
): Promise<Map<number, Location>> {
  const ids = [request.from, request.to].filter((id): id is number => id !== null);
  const rows = await tx.query<Location>(
    'SELECT id::int AS id, code, active, quarantine FROM locations WHERE id = ANY($1::bigint[])',
    [ids],
  );
  const found = new Map(rows.map((row) => [row.id, row]));
  const errors: Record<string, string[]> = {};
  if (request.from !== null && !found.has(request.from)) {
    errors[fields.from!] = ['Choose an existing location.'];
  }
  if (request.to !== null) {
    const to = found.get(request.to);
    if (!to) errors[fields.to!] = ['Choose an existing location.'];
    else if (!to.active) errors[fields.to!] = [`${to.code} is not active: activate it first.`];
    else if (to.quarantine) {
      errors[fields.to!] = [`${to.code} is in the quarantine zone, which holds held devices only.`];
    }
  }
  if (request.from !== null && request.from === request.to) {
    errors[fields.to!] = ['Choose another location than the one the units come from.'];
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  return found;
}

/** Takes units from a level, never below what is reserved there; names what there is when it cannot. */
async function takeUnits(
  tx: Queryable,
  request: StockMoveRequest,
  item: Item,
  location: Location,
): Promise<void> {
  const taken = await tx.query(
    `UPDATE stock_levels SET on_hand = on_hand - $4, last_moved_at = now(), updated_at = now()
     WHERE item_kind = $1 AND item_id = $2 AND location_id = $3 AND on_hand - reserved >= $4
     RETURNING id`,
    [request.kind, request.itemId, location.id, request.qty],
  );
  if (taken.length > 0) return;
  const [level] = await tx.query<{ on_hand: number; reserved: number }>(
    `SELECT on_hand, reserved FROM stock_levels
     WHERE item_kind = $1 AND item_id = $2 AND location_id = $3`,
    [request.kind, request.itemId, location.id],
  );
  const onHand = level?.on_hand ?? 0;
  const reserved = level?.reserved ?? 0;
  const held = reserved > 0 ? ` (${onHand} on hand, ${reserved} reserved)` : '';
  throw fieldError(
    'qty',
    `Only ${onHand - reserved} of ${item.label} available at ${location.code}${held}: ` +
      `${request.qty} cannot be taken. Stock never goes below zero.`,
  );
}

async function putUnits(tx: Queryable, request: StockMoveRequest, location: Location) {
  await tx.query(
    `INSERT INTO stock_levels (item_kind, item_id, location_id, on_hand, last_moved_at)
     VALUES ($1, $2, $3, $4, now())
     ON CONFLICT (item_kind, item_id, location_id) DO UPDATE
       SET on_hand = stock_levels.on_hand + EXCLUDED.on_hand, last_moved_at = now(),
           updated_at = now()`,
    [request.kind, request.itemId, location.id, request.qty],
  );
}

/**
 * A part's average cost after a receipt: what was held at the old average and what came in at
 * its unit cost, over all of it. The part is locked, so concurrent receipts average in turn.
 */
async function averageCost(
  tx: Queryable,
  request: StockMoveRequest,
  writer: StockWriter,
): Promise<{ before: number; after: number }> {
  const [cost] = await tx.query<{ before: number; after: number }>(
    `WITH held AS (
       SELECT COALESCE(sum(on_hand), 0)::numeric AS units FROM stock_levels WHERE part_id = $1
     ), before AS (SELECT cost_cents FROM parts WHERE id = $1)
     UPDATE parts p
       SET cost_cents = round((before.cost_cents * held.units + $2::numeric * $3) / (held.units + $2))::int,
           updated_at = now(), updated_by = $4
     FROM held, before WHERE p.id = $1
     RETURNING before.cost_cents AS before, p.cost_cents AS after`,
    [request.itemId, request.qty, request.unitCostCents ?? 0, writer.actor.userId],
  );
  return cost!;
}

const MOVE_COLUMNS = `id::int AS id, item_kind, item_id::int AS item_id, qty,
  from_location_id::int AS from_location_id, to_location_id::int AS to_location_id, reason,
  reference, note, to_json(at) #>> '{}' AS at`;

/**
 * Records one move and changes its levels: units leave `from` (refused below what is reserved)
 * and arrive at `to`. Of two levels, the one of the lower location id changes first, so two
 * moves in opposite directions never wait for each other.
 */
export async function recordStockMove(
  tx: Transaction,
  writer: StockWriter,
  request: StockMoveRequest,
  fields: Fields,
): Promise<StockActionResult> {
  const item = await itemOf(tx, request, fields.item, request.kind === 'part');
  const locations = await locationsOf(tx, request, fields);
  const from = request.from === null ? null : locations.get(request.from)!;
  const to = request.to === null ? null : locations.get(request.to)!;

  const cost =
    request.kind === 'part' && request.reason === 'receipt'
      ? await averageCost(tx, request, writer)
      : null;
  const steps = [
    from && { location: from, run: () => takeUnits(tx, request, item, from) },
    to && { location: to, run: () => putUnits(tx, request, to) },
  ].filter((step) => !!step);
  steps.sort((a, b) => a.location.id - b.location.id);
  for (const step of steps) await step.run();

  const [move] = await tx.query<StockMove>(
    `INSERT INTO stock_moves (item_kind, item_id, qty, from_location_id, to_location_id, reason,
       reference, note, vendor_id, unit_cost_cents, actor_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
     RETURNING ${MOVE_COLUMNS}`,
    [
      request.kind,
      request.itemId,
      request.qty,
      from?.id ?? null,
      to?.id ?? null,
      request.reason,
      request.reference ?? null,
      request.note ?? null,
      request.vendorId ?? null,
      request.unitCostCents ?? null,
      writer.actor.userId,
    ],
  );
  const levels = await tx.query<StockActionResult['levels'][number]>(
    `SELECT s.location_id::int AS location_id, l.code AS location, s.on_hand, s.reserved
     FROM stock_levels s JOIN locations l ON l.id = s.location_id
     WHERE s.item_kind = $1 AND s.item_id = $2 AND s.location_id = ANY($3::bigint[])
     ORDER BY l.code`,
    [request.kind, request.itemId, steps.map((step) => step.location.id)],
  );
  await recordAudit(tx, {
    ...auditActor(writer.actor, writer.meta),
    action: `stock.${request.reason}`,
    entityType: request.kind,
    entityId: request.itemId,
    after: {
      move_id: move!.id,
      item: item.label,
      qty: request.qty,
      from: from?.code ?? null,
      to: to?.code ?? null,
      reference: request.reference ?? null,
      note: request.note ?? null,
      ...(request.vendorId ? { vendor_id: request.vendorId } : {}),
      ...(request.unitCostCents != null ? { unit_cost_cents: request.unitCostCents } : {}),
      ...(cost ? { average_cost_cents: cost } : {}),
      levels: Object.fromEntries(levels.map((level) => [level.location, level.on_hand])),
    },
  });
  return { move: move!, levels };
}

/** Receives units into a location from outside, with the paper they came with. */
export function receiveStock(
  tx: Transaction,
  writer: StockWriter,
  input: {
    kind: StockItemKind;
    itemId: number;
    locationId: number;
    qty: number;
    reference: string;
    note?: string | null;
    vendorId?: number | null;
    unitCostCents?: number | null;
  },
  itemField: string,
) {
  return recordStockMove(
    tx,
    writer,
    {
      kind: input.kind,
      itemId: input.itemId,
      qty: input.qty,
      from: null,
      to: input.locationId,
      reason: 'receipt',
      reference: input.reference,
      note: input.note ?? null,
      vendorId: input.vendorId ?? null,
      unitCostCents: input.unitCostCents ?? null,
    },
    { item: itemField, to: 'location_id' },
  );
}

/** Adds units found or takes units lost at a location; the reason goes on the move. */
export function adjustStock(
  tx: Transaction,
  writer: StockWriter,
  input: { kind: StockItemKind; itemId: number; locationId: number; qty: number; reason: string },
  itemField: string,
) {
  const taking = input.qty < 0;
  return recordStockMove(
    tx,
    writer,
    {
      kind: input.kind,
      itemId: input.itemId,
      qty: Math.abs(input.qty),
      from: taking ? input.locationId : null,
      to: taking ? null : input.locationId,
      reason: 'adjust',
      note: input.reason,
    },
    taking ? { item: itemField, from: 'location_id' } : { item: itemField, to: 'location_id' },
  );
}

/** Moves units between two locations. */
export function moveStock(
  tx: Transaction,
  writer: StockWriter,
  input: {
    kind: StockItemKind;
    itemId: number;
    fromLocationId: number;
    toLocationId: number;
    qty: number;
    note?: string | null;
  },
  itemField: string,
) {
  return recordStockMove(
    tx,
    writer,
    {
      kind: input.kind,
      itemId: input.itemId,
      qty: input.qty,
      from: input.fromLocationId,
      to: input.toLocationId,
      reason: 'move',
      note: input.note ?? null,
    },
    { item: itemField, from: 'from_location_id', to: 'to_location_id' },
  );
}

/**
 * Uses units up (a part fitted on a repair ticket, an accessory packed with an order): the
 * ticket's or order's number is the reference. For the repair and fulfilment areas.
 */
export function consumeStock(
  tx: Transaction,
  writer: StockWriter,
  input: {
    kind: StockItemKind;
    itemId: number;
    locationId: number;
    qty: number;
    reference: string;
  },
) {
  return recordStockMove(
    tx,
    writer,
    {
      kind: input.kind,
      itemId: input.itemId,
      qty: input.qty,
      from: input.locationId,
      to: null,
      reason: 'consume',
      reference: input.reference,
    },
    { item: input.kind === 'part' ? 'part_id' : 'accessory_id', from: 'location_id' },
  );
}
