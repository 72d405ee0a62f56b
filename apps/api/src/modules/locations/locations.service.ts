import {
  BULK_CODES_SHOWN,
  DEFAULT_AUDIT_INTERVAL_DAYS,
  LOCATION_KINDS,
  locationList,
  MAX_LOCATIONS_AT_ONCE,
  type BulkCreateLocationsInput,
  type BulkCreateResult,
  type createLocationSchema,
  type Location,
  type LocationKind,
  type RangeLevel,
  type updateLocationSchema,
} from '@inventory/contract';
import type * as z from 'zod/mini';
import type { Queryable, Transaction } from '../../db/db.js';
import { ConflictError, NotFoundError, ValidationError } from '../../http/errors.js';
import type { Principal, RequestMeta } from '../../http/principal.js';
import { isoTextSql } from '../../http/sql.js';
import type { ListSql } from '../../toolkit/list.js';
import type { PickerSql } from '../../toolkit/pickers.js';
import { findItem, type ListQueryOf, type ListStore } from '../../toolkit/resource.js';
import { auditActor, recordAudit, recordAudits } from '../audit/index.js';

const LOCATION_FROM = `locations l
  JOIN locations z ON z.id = l.zone_id
  LEFT JOIN locations p ON p.id = l.parent_id
  LEFT JOIN users au ON au.id = l.last_audit_by`;

/** What a location and all below it hold: the sum of its counters' shards (migration 0032). */
const holdsOf = (id: string) =>
  `(SELECT COALESCE(sum(h.here + h.below), 0)::int FROM location_holdings h
    WHERE h.location_id = ${id})`;

/** A location never audited is never due: it sorts last and is not in the "audit due" filter. */
const NEXT_AUDIT_SORT = `COALESCE(l.next_audit_due, 'infinity'::date)`;

const LOCATION_COLUMNS = `l.id, l.code, l.kind, l.parent_id, p.code AS parent_code, l.zone_id,
  z.code AS zone_code, l.name, l.quarantine, l.capacity_boxes, l.active,
  ${holdsOf('l.id')} AS holds, ${isoTextSql('l.last_audit_at')} AS last_audit_at,
  au.name AS last_audit_by_name, to_char(l.next_audit_due, 'YYYY-MM-DD') AS next_audit_due,
  ${NEXT_AUDIT_SORT} <= current_date AS audit_due, ${isoTextSql('l.created_at')} AS created_at,
  ${isoTextSql('l.updated_at')} AS updated_at`;

const locationSql: ListSql<ListQueryOf<typeof locationList>> = {
  from: LOCATION_FROM,
  id: 'l.id',
  columns: LOCATION_COLUMNS,
  sorts: {
    code: { sql: 'l.code', type: 'text' },
    next_audit_due: { sql: NEXT_AUDIT_SORT, type: 'date' },
    updated_at: { sql: 'l.updated_at', type: 'timestamptz' },
  },
  search: (pattern) => ['(l.code ILIKE ? OR l.name ILIKE ?)', pattern, pattern],
  filters: (query) => [
    query.kind !== undefined && ['l.kind = ?', query.kind],
    query.zone_id !== undefined && ['l.zone_id = ?', query.zone_id],
    query.active !== undefined && ['l.active = ?', query.active],
    query.quarantine !== undefined && ['l.quarantine = ?', query.quarantine],
    query.audit_due !== undefined &&
      (query.audit_due
        ? [`${NEXT_AUDIT_SORT} <= current_date`]
        : [`${NEXT_AUDIT_SORT} > current_date`]),
  ],
};

/**
 * The location list. It keeps its answers: what a location holds is counted as it changes, in
 * location_holdings, whose version moves with every commit that changes a count (migration 0032).
 */
export const locationListStore: ListStore<typeof locationList> = {
  contract: locationList,
  list: locationSql,
  reads: ['locations', 'users', 'location_holdings'],
};

export const findLocation = (db: Queryable, id: number): Promise<Location> =>
  findItem(locationListStore, db, id);

export const PARENT_PICKER: PickerSql = {
  from: 'locations',
  id: 'id',
  label: `code || CASE WHEN name IS NULL THEN '' ELSE ' (' || name || ')' END`,
  where: `kind <> 'bin' AND ($1::text IS NULL OR code ILIKE $1 OR name ILIKE $1)`,
  order: 'code',
};

export const ZONE_PICKER: PickerSql = {
  ...PARENT_PICKER,
  where: `kind = 'zone' AND ($1::text IS NULL OR code ILIKE $1 OR name ILIKE $1)`,
};

/** The longest code the table takes (migration 0023). */
const MAX_CODE_LENGTH = 40;

const depthOf = (kind: LocationKind) => LOCATION_KINDS.indexOf(kind);

type ParentRow = { id: number; code: string; kind: LocationKind };

async function findParent(db: Queryable, id: number, field: string): Promise<ParentRow> {
  const [parent] = await db.query<ParentRow>('SELECT id, code, kind FROM locations WHERE id = $1', [
    id,
  ]);
  if (!parent) throw new ValidationError({ [field]: [`There is no location with id ${id}.`] });
  return parent;
}

/** A child sits deeper than its parent: a bin under a level, never an aisle under a rack. */
function checkKindUnder(parent: ParentRow, kind: LocationKind, field: string) {
  if (depthOf(kind) <= depthOf(parent.kind)) {
    throw new ValidationError({
      [field]: [`A ${kind} cannot be under ${parent.kind} ${parent.code}: choose a deeper kind.`],
    });
  }
}

async function auditLocation(
  tx: Queryable,
  actor: Principal,
  meta: RequestMeta,
  verb: string,
  before: Location | undefined,
  after: Location,
) {
  await recordAudit(tx, {
    ...auditActor(actor, meta),
    action: `location.${verb}`,
    entityType: 'location',
    entityId: after.id,
    before,
    after,
  });
}

/** Creates a zone, or one location under a parent whose code is the parent's and the segment. */
export async function createLocation(
  tx: Transaction,
  actor: Principal,
  meta: RequestMeta,
  input: z.output<typeof createLocationSchema>,
): Promise<Location> {
  let code = input.segment;
  if (input.kind === 'zone') {
    if (input.parent_id !== null) {
      throw new ValidationError({
        parent_id: ['A zone is the top of its tree: it has no parent.'],
      });
    }
  } else {
    if (input.parent_id === null) {
      throw new ValidationError({
        parent_id: [`Choose the location this ${input.kind} is under.`],
      });
    }
    const parent = await findParent(tx, input.parent_id, 'parent_id');
    checkKindUnder(parent, input.kind, 'kind');
    code = `${parent.code}-${input.segment}`;
  }
  if (code.length > MAX_CODE_LENGTH) {
    throw new ValidationError({
      segment: [`The code ${code} is longer than ${MAX_CODE_LENGTH} characters.`],
    });
  }
  const [created] = await tx.query<{ id: number }>(
    `INSERT INTO locations (code, kind, parent_id, name, quarantine, capacity_boxes, created_by,
       updated_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $7)
     ON CONFLICT (code) DO NOTHING RETURNING id`,
    [
      code,
      input.kind,
      input.parent_id,
      input.name ?? null,
      input.kind === 'zone' && input.quarantine,
      input.capacity_boxes ?? null,
      actor.userId,
    ],
  );
  if (!created) throw new ConflictError(`Location ${code} exists already: codes are unique.`);
  const after = await findLocation(tx, created.id);
  await auditLocation(tx, actor, meta, 'created', undefined, after);
  return after;
}

/** Changes a location's name or capacity, and a zone's quarantine flag (its locations follow). */
export async function updateLocation(
  tx: Transaction,
  actor: Principal,
  meta: RequestMeta,
  id: number,
  input: z.output<typeof updateLocationSchema>,
): Promise<Location> {
  await tx.query('SELECT 1 FROM locations WHERE id = $1 FOR UPDATE', [id]);
  const before = await findLocation(tx, id);
  if (input.quarantine !== undefined && before.kind !== 'zone') {
    throw new ValidationError({
      quarantine: [
        `A ${before.kind} takes its zone's quarantine flag: change zone ${before.zone_code}.`,
      ],
    });
  }
  await tx.query(
    `UPDATE locations SET
       name = CASE WHEN $2 THEN $3 ELSE name END,
       capacity_boxes = CASE WHEN $4 THEN $5::int ELSE capacity_boxes END,
       quarantine = COALESCE($6, quarantine),
       updated_at = now(), updated_by = $7
     WHERE id = $1`,
    [
      id,
      input.name !== undefined,
      input.name ?? null,
      input.capacity_boxes !== undefined,
      input.capacity_boxes ?? null,
      input.quarantine ?? null,
      actor.userId,
    ],
  );
  const after = await findLocation(tx, id);
  await auditLocation(tx, actor, meta, 'updated', before, after);
  return after;
}

/** The segments of one range: numbers keep the width written ("01".."20"), letters run A..Z. */
function segmentsOf(level: RangeLevel, index: number): string[] {
  const field = `levels.${index}`;
  const { from, to } = level;
  if (/^\d+$/.test(from) && /^\d+$/.test(to)) {
    const [first, last] = [Number(from), Number(to)];
    if (first > last) throw new ValidationError({ [field]: [`${from} comes after ${to}.`] });
    if (last - first >= MAX_LOCATIONS_AT_ONCE) {
      throw new ValidationError({
        [field]: [`${from} to ${to} is more than ${MAX_LOCATIONS_AT_ONCE} locations.`],
      });
    }
    const width = Math.max(from.length, to.length);
    return Array.from({ length: last - first + 1 }, (_, i) =>
      String(first + i).padStart(width, '0'),
    );
  }
  if (/^[A-Z]$/.test(from) && /^[A-Z]$/.test(to)) {
    const [first, last] = [from.charCodeAt(0), to.charCodeAt(0)];
    if (first > last) throw new ValidationError({ [field]: [`${from} comes after ${to}.`] });
    return Array.from({ length: last - first + 1 }, (_, i) => String.fromCharCode(first + i));
  }
  throw new ValidationError({
    [field]: ['A range runs from number to number (01 to 20) or from letter to letter (A to D).'],
  });
}

type PlannedLevel = { kind: LocationKind; codes: string[]; parentCodes: string[] };

/** Every code of the ranges, level by level, each with its parent's code. */
function planRanges(parent: ParentRow, levels: readonly RangeLevel[]): PlannedLevel[] {
  let deepest = parent.kind;
  levels.forEach((level, index) => {
    if (depthOf(level.kind) <= depthOf(deepest)) {
      throw new ValidationError({
        [`levels.${index}.kind`]: [
          `A ${level.kind} cannot be under a ${deepest}: each range goes one kind deeper.`,
        ],
      });
    }
    deepest = level.kind;
  });
  const segments = levels.map(segmentsOf);
  let total = 0;
  let width = 1;
  for (const list of segments) {
    width *= list.length;
    total += width;
  }
  if (total > MAX_LOCATIONS_AT_ONCE) {
    throw new ValidationError({
      levels: [
        `These ranges make ${total.toLocaleString('en-US')} locations: create at most ${MAX_LOCATIONS_AT_ONCE.toLocaleString('en-US')} at once.`,
      ],
    });
  }
  const planned: PlannedLevel[] = [];
  let above = [parent.code];
  levels.forEach((level, index) => {
    const codes: string[] = [];
    const parentCodes: string[] = [];
    for (const parentCode of above) {
      for (const segment of segments[index]!) {
        codes.push(`${parentCode}-${segment}`);
        parentCodes.push(parentCode);
      }
    }
    const tooLong = codes.find((code) => code.length > MAX_CODE_LENGTH);
    if (tooLong) {
      throw new ValidationError({
        levels: [`The code ${tooLong} is longer than ${MAX_CODE_LENGTH} characters.`],
      });
    }
    planned.push({ kind: level.kind, codes, parentCodes });
    above = codes;
  });
  return planned;
}

type ExistingRow = { code: string; kind: LocationKind; parent_code: string | null };

/** Codes of the plan that exist already; one that is something else than the plan says is a 409. */
async function existingOf(db: Queryable, level: PlannedLevel): Promise<string[]> {
  const rows = await db.query<ExistingRow>(
    `SELECT l.code, l.kind, p.code AS parent_code
     FROM locations l LEFT JOIN locations p ON p.id = l.parent_id
     WHERE l.code = ANY($1::text[]) ORDER BY l.code`,
    [level.codes],
  );
  const parentOf = new Map(level.codes.map((code, i) => [code, level.parentCodes[i]!]));
  const other = rows.find(
    (row) => row.kind !== level.kind || row.parent_code !== parentOf.get(row.code),
  );
  if (other) {
    throw new ConflictError(
      `Location ${other.code} exists already as a ${other.kind}${other.parent_code ? ` under ${other.parent_code}` : ''}: it cannot be a ${level.kind} under ${parentOf.get(other.code)}.`,
    );
  }
  return rows.map((row) => row.code);
}

const shown = (codes: readonly string[]) => [...codes].sort().slice(0, BULK_CODES_SHOWN);

/**
 * Creates the ranges under a parent in one transaction (or, on a dry run, counts them): codes
 * that exist already are left as they are and named in the answer. Two people creating
 * overlapping ranges at once each create a code once: the unique code makes the later insert
 * wait for the earlier one and then skip it, so the later answer names it as existing.
 */
export async function bulkCreateLocations(
  tx: Transaction,
  actor: Principal,
  meta: RequestMeta,
  input: BulkCreateLocationsInput & { dry_run: boolean },
): Promise<BulkCreateResult> {
  const parent = await findParent(tx, input.parent_id, 'parent_id');
  const plan = planRanges(parent, input.levels);
  const created: { id: number; code: string }[] = [];
  const existing: string[] = [];
  if (input.dry_run) {
    for (const level of plan) existing.push(...(await existingOf(tx, level)));
    const found = new Set(existing);
    const toCreate = plan.flatMap((level) => level.codes).filter((code) => !found.has(code));
    return {
      dry_run: true,
      created: toCreate.length,
      created_codes: shown(toCreate),
      existing: existing.length,
      existing_codes: shown(existing),
    };
  }
  const innermost = plan.length - 1;
  for (const [index, level] of plan.entries()) {
    // In code order, so that two overlapping ranges wait for each other's codes in one order.
    const rows = await tx.query<{ id: number; code: string }>(
      `INSERT INTO locations (code, kind, parent_id, capacity_boxes, created_by, updated_by)
       SELECT n.code, $3, p.id, $4::int, $5, $5
       FROM unnest($1::text[], $2::text[]) AS n (code, parent_code)
       JOIN locations p ON p.code = n.parent_code
       ORDER BY n.code
       ON CONFLICT (code) DO NOTHING
       RETURNING id, code`,
      [
        level.codes,
        level.parentCodes,
        level.kind,
        index === innermost ? (input.capacity_boxes ?? null) : null,
        actor.userId,
      ],
    );
    created.push(...rows);
    if (rows.length < level.codes.length) {
      const made = new Set(rows.map((row) => row.code));
      existing.push(...(await existingOf(tx, level)).filter((code) => !made.has(code)));
    }
  }
  if (created.length > 0) {
    await recordAudits(
      tx,
      { ...auditActor(actor, meta), action: 'location.created', entityType: 'location' },
      created.map((row) => ({
        entityId: row.id,
        after: { code: row.code, range_under: parent.code },
      })),
    );
  }
  return {
    dry_run: false,
    created: created.length,
    created_codes: shown(created.map((row) => row.code)),
    existing: existing.length,
    existing_codes: shown(existing),
  };
}

/** Locks the chosen locations in id order; an id that names none is a 404. */
async function lockChosen(tx: Queryable, ids: readonly number[]) {
  const rows = await tx.query<{ id: number; code: string }>(
    'SELECT id, code FROM locations WHERE id = ANY($1::bigint[]) ORDER BY id FOR UPDATE',
    [ids],
  );
  const found = new Set(rows.map((row) => row.id));
  const missing = [...new Set(ids)].filter((id) => !found.has(id));
  if (missing.length > 0) {
    throw new NotFoundError(
      `There is no location with id ${missing.slice(0, 10).join(', ')}${missing.length > 10 ? ', …' : ''}.`,
    );
  }
  return rows;
}

/** Refuses (409) a deactivation of locations that hold anything, in them or below them. */
async function refuseHolding(tx: Queryable, ids: readonly number[]) {
  const holding = await tx.query<{ code: string; holds: number }>(
    `SELECT code, holds FROM (
       SELECT l.code, ${holdsOf('l.id')} AS holds FROM locations l WHERE l.id = ANY($1::bigint[])
     ) chosen WHERE holds > 0 ORDER BY code LIMIT 5`,
    [ids],
  );
  if (holding.length > 0) {
    const named = holding.map((row) => `${row.code} (${row.holds})`).join(', ');
    throw new ConflictError(
      `Not deactivated: ${named} ${holding.length === 1 ? 'holds' : 'hold'} stock, in ${holding.length === 1 ? 'it' : 'them'} or in the locations below. Move it out first.`,
    );
  }
}

/**
 * Activates or deactivates the chosen locations and every location below them, all or none. A
 * location that holds anything, itself or below it, is not deactivated: the 409 names it.
 *
 * Exact under concurrent putaway and stock moves: whoever puts something in a location keeps it
 * locked until commit (migration 0032), so the update below waits for them, and what they put
 * is counted by the check after it (the transaction then rolls back). Locked in id order, as
 * those writers lock theirs.
 */
export async function setLocationsActive(
  tx: Transaction,
  actor: Principal,
  meta: RequestMeta,
  ids: readonly number[],
  active: boolean,
): Promise<{ changed: number }> {
  await lockChosen(tx, ids);
  // A first answer before any row changes: a zone that holds stock is refused at once.
  if (!active) await refuseHolding(tx, ids);
  const changed = await tx.query<{ id: number; code: string }>(
    `WITH below AS (
       SELECT id FROM locations
       WHERE id IN (SELECT location_subtree(chosen) FROM unnest($1::bigint[]) AS chosen)
         AND active <> $2
       ORDER BY id FOR NO KEY UPDATE
     )
     UPDATE locations SET active = $2, updated_at = now(), updated_by = $3
     WHERE id IN (SELECT id FROM below)
     RETURNING id, code`,
    [ids, active, actor.userId],
  );
  if (!active) await refuseHolding(tx, ids);
  if (changed.length > 0) {
    await recordAudits(
      tx,
      {
        ...auditActor(actor, meta),
        action: active ? 'location.activated' : 'location.deactivated',
        entityType: 'location',
      },
      changed.map((row) => ({
        entityId: row.id,
        before: { active: !active },
        after: { code: row.code, active },
      })),
    );
  }
  return { changed: changed.length };
}

/**
 * Records an audit of the chosen locations: now, by the actor, and the next one due on the date
 * chosen (after today) or DEFAULT_AUDIT_INTERVAL_DAYS from today.
 */
export async function recordLocationAudit(
  tx: Transaction,
  actor: Principal,
  meta: RequestMeta,
  ids: readonly number[],
  nextDue: string | null,
): Promise<{ audited: number; next_audit_due: string }> {
  const [due] = await tx.query<{ due: string; after_today: boolean }>(
    `SELECT to_char(d, 'YYYY-MM-DD') AS due, d > current_date AS after_today
     FROM (SELECT COALESCE($1::date, current_date + $2::int) AS d) chosen`,
    [nextDue, DEFAULT_AUDIT_INTERVAL_DAYS],
  );
  if (!due!.after_today) {
    throw new ValidationError({ next_audit_due: ['The next audit is due after today.'] });
  }
  await lockChosen(tx, ids);
  const rows = await tx.query<{ id: number; code: string; before: string | null }>(
    `UPDATE locations l SET last_audit_at = now(), last_audit_by = $2, next_audit_due = $3::date,
       updated_at = now(), updated_by = $2
     FROM (SELECT id, to_char(next_audit_due, 'YYYY-MM-DD') AS before FROM locations
           WHERE id = ANY($1::bigint[])) old
     WHERE l.id = old.id
     RETURNING l.id, l.code, old.before`,
    [ids, actor.userId, due!.due],
  );
  await recordAudits(
    tx,
    { ...auditActor(actor, meta), action: 'location.audited', entityType: 'location' },
    rows.map((row) => ({
      entityId: row.id,
      before: { next_audit_due: row.before },
      after: { code: row.code, next_audit_due: due!.due },
    })),
  );
  return { audited: rows.length, next_audit_due: due!.due };
}

/** The codes and words of the chosen locations' labels, in code order; a 404 for an unknown id. */
export async function labelledLocations(db: Queryable, ids: readonly number[]) {
  const rows = await db.query<{
    id: number;
    code: string;
    kind: LocationKind;
    name: string | null;
    zone_code: string;
    quarantine: boolean;
  }>(
    `SELECT l.id, l.code, l.kind, l.name, z.code AS zone_code, l.quarantine
     FROM locations l JOIN locations z ON z.id = l.zone_id
     WHERE l.id = ANY($1::bigint[]) ORDER BY l.code`,
    [ids],
  );
  const found = new Set(rows.map((row) => row.id));
  const missing = [...new Set(ids)].filter((id) => !found.has(id));
  if (missing.length > 0) {
    throw new NotFoundError(`There is no location with id ${missing.slice(0, 10).join(', ')}.`);
  }
  return rows;
}
