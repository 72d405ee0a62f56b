import {
  blacklistImport,
  blacklistList,
  blacklistRowSchema,
  type BlacklistEntry,
  type CreateBlacklistEntryInput,
} from '@inventory/contract';
import type { Queryable, Transaction } from '../../db/db.js';
import { ConflictError, NotFoundError, uniqueViolationAs } from '../../http/errors.js';
import { prefixCondition } from '../../http/sql.js';
import type {
  ImportStore,
  ListStore,
  Prepared,
  WriteFieldsOf,
  WriteInput,
  Writer,
} from '../../toolkit/resource.js';
import { auditActor, recordAudit } from '../audit/index.js';
import { MODEL_DISPLAY_NAME } from '../master-data/index.js';
import type { Principal, RequestMeta } from '../../http/principal.js';
import { applyDeviceAction } from './devices.service.js';

/** An entry with the device of its IMEI, if we have one (by its IMEI or second IMEI). */
const ENTRY_FROM = `blacklist_entries be
  LEFT JOIN LATERAL (SELECT dd.* FROM devices dd WHERE dd.imei = be.imei OR dd.imei2 = be.imei
                     LIMIT 1) d ON true
  LEFT JOIN device_models m ON m.id = d.model_id
  LEFT JOIN brands b ON b.id = m.brand_id
  LEFT JOIN warehouse_boxes wb ON wb.id = d.warehouse_box_id
  LEFT JOIN vendors v ON v.id = d.vendor_id
  LEFT JOIN purchase_invoices i ON i.id = d.invoice_id
  LEFT JOIN users cu ON cu.id = be.cleared_by`;

const ENTRY_COLUMNS = `be.id, be.imei, be.source, be.reason, be.reference, be.note,
  to_json(be.flagged_at) #>> '{}' AS flagged_at, be.cleared_at IS NULL AS open,
  to_json(be.cleared_at) #>> '{}' AS cleared_at, cu.name AS cleared_by_name, be.clear_evidence,
  d.id AS device_id, CASE WHEN d.id IS NOT NULL THEN ${MODEL_DISPLAY_NAME} END AS model,
  d.status AS device_status, wb.code AS container, d.vendor_id, v.name AS vendor,
  d.invoice_id, i.invoice_no,
  (SELECT vt.code FROM vendor_transfer_devices vtd
   JOIN vendor_transfers vt ON vt.id = vtd.transfer_id
   WHERE vtd.device_id = d.id AND vtd.active) AS transfer`;

export const blacklistStore: ListStore<typeof blacklistList> = {
  contract: blacklistList,
  list: {
    from: ENTRY_FROM,
    id: 'be.id',
    columns: ENTRY_COLUMNS,
    sorts: {
      flagged_at: { sql: 'be.flagged_at', type: 'timestamptz' },
      imei: { sql: 'be.imei', type: 'text' },
    },
    search: (_pattern, term) => {
      const digits = term.replace(/\D/g, '');
      return digits.length >= 4
        ? prefixCondition('be.imei', digits.slice(0, 15))
        : ['be.reference = ?', term];
    },
    filters: (query) => [
      query.open === true && ['be.cleared_at IS NULL'],
      query.open === false && ['be.cleared_at IS NOT NULL'],
      query.source !== undefined && ['be.source = ?', query.source],
      query.reason !== undefined && ['be.reason = ?', query.reason],
      query.in_stock === true && ['d.id IS NOT NULL'],
      query.in_stock === false && ['d.id IS NULL'],
    ],
  },
};

async function findEntry(db: Queryable, id: number): Promise<BlacklistEntry> {
  const [entry] = await db.query<BlacklistEntry>(
    `SELECT ${ENTRY_COLUMNS} FROM ${ENTRY_FROM} WHERE be.id = $1`,
    [id],
  );
  if (!entry) throw new NotFoundError(`There is no blacklist entry with id ${id}.`);
  return entry;
}

/**
 * Marks the devices of listed IMEIs blocked and holds every one that can be held; a device that
 * is held for another reason already, or gone (shipped, returned to its vendor), keeps its status.
 */
async function holdListedDevices(
  tx: Transaction,
  actor: Principal,
  meta: RequestMeta,
  imeis: readonly string[],
  ref: { type: string; id: number | null },
  data: Record<string, unknown>,
) {
  const devices = await tx.query<{ id: number }>(
    `UPDATE devices SET blacklist_state = 'blocked', blacklist_checked_at = now(), updated_at = now()
     WHERE imei = ANY ($1::text[]) OR imei2 = ANY ($1::text[]) RETURNING id`,
    [imeis],
  );
  return applyDeviceAction(tx, actor, meta, {
    deviceIds: devices.map((device) => device.id),
    action: 'hold',
    holdReason: 'blacklist',
    ref,
    data,
    skipRefused: true,
  });
}

/** Lists an IMEI as blocked by hand; its device, if we have it, is held at once. */
export async function createBlacklistEntry(
  tx: Transaction,
  actor: Principal,
  meta: RequestMeta,
  input: Required<Pick<CreateBlacklistEntryInput, 'imei' | 'source' | 'reason'>> &
    Pick<CreateBlacklistEntryInput, 'reference' | 'note'>,
): Promise<BlacklistEntry> {
  const [created] = await tx
    .query<{ id: number }>(
      `INSERT INTO blacklist_entries (imei, source, reason, reference, note, created_by, updated_by)
       VALUES ($1, $2, $3, $4, $5, $6, $6) RETURNING id`,
      [
        input.imei,
        input.source,
        input.reason,
        input.reference ?? null,
        input.note ?? null,
        actor.userId,
      ],
    )
    .catch(
      uniqueViolationAs({
        blacklist_entries_open_imei_key: ['imei', 'This IMEI is on the blacklist already.'],
      }),
    );
  const id = created!.id;
  await holdListedDevices(
    tx,
    actor,
    meta,
    [input.imei],
    { type: 'blacklist_entry', id },
    {
      source: input.source,
      blacklist_reason: input.reason,
    },
  );
  const entry = await findEntry(tx, id);
  await recordAudit(tx, {
    ...auditActor(actor, meta),
    action: 'blacklist_entry.created',
    entityType: 'blacklist_entry',
    entityId: id,
    after: entry,
  });
  return entry;
}

/**
 * Clears a listing with its evidence: the device is marked clean and, if the listing held it,
 * goes back to the status it had before the hold.
 */
export async function clearBlacklistEntry(
  tx: Transaction,
  actor: Principal,
  meta: RequestMeta,
  id: number,
  evidence: string,
): Promise<BlacklistEntry> {
  const [entry] = await tx.query<{ imei: string; cleared_at: Date | null }>(
    'SELECT imei, cleared_at FROM blacklist_entries WHERE id = $1 FOR UPDATE',
    [id],
  );
  if (!entry) throw new NotFoundError(`There is no blacklist entry with id ${id}.`);
  if (entry.cleared_at) throw new ConflictError('This listing is cleared already.');
  const before = await findEntry(tx, id);
  await tx.query(
    `UPDATE blacklist_entries SET cleared_at = now(), cleared_by = $2, clear_evidence = $3,
       updated_at = now(), updated_by = $2
     WHERE id = $1`,
    [id, actor.userId, evidence],
  );
  const devices = await tx.query<{ id: number; held: boolean }>(
    `UPDATE devices SET blacklist_state = 'clean', blacklist_checked_at = now(), updated_at = now()
     WHERE imei = $1 OR imei2 = $1
     RETURNING id, hold_reason = 'blacklist' AS held`,
    [entry.imei],
  );
  await applyDeviceAction(tx, actor, meta, {
    deviceIds: devices.filter((device) => device.held).map((device) => device.id),
    action: 'clear_hold',
    ref: { type: 'blacklist_entry', id },
    data: { evidence },
  });
  const after = await findEntry(tx, id);
  await recordAudit(tx, {
    ...auditActor(actor, meta),
    action: 'blacklist_entry.cleared',
    entityType: 'blacklist_entry',
    entityId: id,
    before,
    after,
  });
  return after;
}

type BlacklistRow = {
  imei: string;
  result: 'blocked' | 'clean';
  source: string;
  reason: string;
  checked_at: string | null;
  reference: string | null;
};

/** A clean result cannot clear a listing: that takes a person and evidence, on the page. */
async function prepareBlacklistRows(
  inputs: readonly WriteInput<WriteFieldsOf<typeof blacklistRowSchema>>[],
  db: Queryable,
): Promise<Prepared[]> {
  // A file without a Result column reads as one whose result cells are all empty: blocked.
  const rows = inputs.map(
    ({ input }) => ({ ...input, result: input.result ?? 'blocked' }) as BlacklistRow,
  );
  const cleanImeis = rows.filter((row) => row.result === 'clean').map((row) => row.imei);
  const listed = new Map(
    (
      await db.query<{ imei: string; flagged_at: string }>(
        `SELECT imei, to_char(flagged_at, 'YYYY-MM-DD') AS flagged_at FROM blacklist_entries
           WHERE cleared_at IS NULL AND imei = ANY ($1::text[])`,
        [cleanImeis],
      )
    ).map((row) => [row.imei, row.flagged_at]),
  );
  return rows.map((row): Prepared => {
    const since = row.result === 'clean' ? listed.get(row.imei) : undefined;
    if (since) {
      return {
        errors: {
          result: [
            `This IMEI is on the blacklist since ${since}: clear it on the page, with this result as evidence.`,
          ],
        },
      };
    }
    return {
      values: {
        imei: row.imei,
        result: row.result,
        source: row.source,
        reason: row.reason,
        reference: row.reference,
        flagged_at: row.checked_at ?? new Date().toISOString(),
      },
    };
  });
}

/** Blocked IMEIs hold their devices; clean ones mark theirs clean. Answers the entries to write. */
async function finishBlacklistRows(
  records: Record<string, unknown>[],
  tx: Transaction,
  { actor, meta }: Writer,
) {
  const blocked = records.filter((record) => record.result === 'blocked');
  const clean = records.filter((record) => record.result === 'clean');
  await tx.query(
    `UPDATE devices d SET blacklist_state = 'clean', blacklist_checked_at = c.checked_at::timestamptz,
         updated_at = now()
       FROM unnest($1::text[], $2::text[]) AS c (imei, checked_at)
       WHERE d.imei = c.imei OR d.imei2 = c.imei`,
    [clean.map((record) => record.imei), clean.map((record) => record.flagged_at)],
  );
  await holdListedDevices(
    tx,
    actor,
    meta,
    blocked.map((record) => String(record.imei)),
    { type: 'blacklist_import', id: null },
    {},
  );
  return blocked.map(({ result: _result, ...columns }) => columns);
}

/**
 * Provider results: a blocked IMEI is listed (or its listing refreshed) and its device held; a
 * clean one marks its device clean.
 */
export const blacklistImportStore: ImportStore<typeof blacklistRowSchema> = {
  contract: blacklistImport,
  table: 'blacklist_entries',
  entity: 'blacklist_entry',
  prepare: prepareBlacklistRows,
  finish: finishBlacklistRows,
  imports: {
    key: {
      fields: ['imei'],
      conflict: 'imei',
      conflictWhere: 'cleared_at IS NULL',
      match: 'imei',
    },
    rowSchema: blacklistRowSchema,
  },
};
