import {
  iccidRangeCount,
  iccidsOfRange,
  luhnCheckDigit,
  normaliseScan,
  parseIccid,
  simListImport,
  simListImportOptionsSchema,
  simListRowSchema,
  type FieldErrors,
  type SimBoxRow,
  type SimListImportSummary,
  type SimPack,
  type SimPackSize,
  type SimPrefixAnswer,
} from '@inventory/contract';
import * as z from 'zod/mini';
import type { Queryable, Transaction } from '../../db/db.js';
import { fieldErrorsOf } from '../../http/endpoint.js';
import { ConflictError, fieldError, NotFoundError, ValidationError } from '../../http/errors.js';
import type { Acting } from '../../http/principal.js';
import { isoTextSql } from '../../http/sql.js';
import type { LabelContent } from '../../toolkit/documents/print.js';
import type { ImportStore, Prepared, WriteInput } from '../../toolkit/resource.js';
import { auditActor, recordAudit } from '../audit/index.js';
import { SIM_BOX_COLUMNS } from './sim-boxes.store.js';

/**
 * SIM boxes (DOMAIN.md 4.6 `/sim/box`, invariant 2): a box received by range or by an ICCID
 * list is one transaction that writes the box, every SIM in stock (one set-based insert, its
 * issuer from the prefix table) and each SIM's 'received' step; a unique ICCID decides a race
 * between two receipts of the same SIMs. Split, move and the labels.
 */

type Options = z.output<typeof simListImportOptionsSchema>;

export async function findSimBox(db: Queryable, id: number): Promise<SimBoxRow> {
  const [box] = await db.query<SimBoxRow>(
    `SELECT ${SIM_BOX_COLUMNS} FROM sim_boxes b WHERE b.id = $1`,
    [id],
  );
  if (!box) throw new NotFoundError(`There is no SIM box with id ${id}.`);
  return box;
}

/** The longest prefix of the configurable table that starts the ICCID, with what it names. */
export async function prefixOf(db: Queryable, iccid: string): Promise<SimPrefixAnswer> {
  const [found] = await db.query<SimPrefixAnswer>(
    `SELECT p.prefix, p.issuer, p.client_carrier_id::int AS client_carrier_id,
       (SELECT v.name FROM vendors v WHERE v.id = p.client_carrier_id) AS client_carrier
     FROM sim_prefixes p WHERE starts_with($1, p.prefix) ORDER BY length(p.prefix) DESC LIMIT 1`,
    [iccid],
  );
  return found ?? { prefix: null, issuer: null, client_carrier_id: null, client_carrier: null };
}

async function checkCarrier(db: Queryable, carrierId: number, field: string) {
  const [carrier] = await db.query(
    `SELECT 1 FROM vendors WHERE id = $1 AND type = 'carrier-client' AND active`,
    [carrierId],
  );
  if (!carrier) throw fieldError(field, 'Choose an active client carrier.');
}

async function checkLocation(db: Queryable, locationId: number, field: string) {
  const [location] = await db.query<{ code: string }>(
    'SELECT code FROM locations WHERE id = $1 AND active',
    [locationId],
  );
  if (!location) throw fieldError(field, 'Choose an active location.');
  return location.code;
}

/** The ICCIDs of `iccids` received already, each with its box (the first few, and how many). */
async function receivedAlready(db: Queryable, iccids: readonly string[]) {
  return db.query<{ iccid: string; box_code: string }>(
    `SELECT c.iccid, b.code AS box_code
     FROM sim_cards c JOIN sim_boxes b ON b.id = c.sim_box_id
     WHERE c.iccid = ANY ($1::text[]) ORDER BY c.iccid`,
    [iccids],
  );
}

const namedTaken = (taken: readonly { iccid: string; box_code: string }[]) =>
  `${taken
    .slice(0, 3)
    .map((row) => `${row.iccid} (${row.box_code})`)
    .join(', ')}${taken.length > 3 ? ` and ${taken.length - 3} more` : ''}`;

type NewBox = {
  clientCarrierId: number;
  form: string;
  /** In ICCID order. */
  iccids: readonly string[];
  byRange: boolean;
  locationId: number | null;
  importBatchId: number | null;
  note: string | null;
};

/**
 * Writes a box and its SIMs in stock with their 'received' steps: two statements whatever the
 * size. An ICCID another receipt took meanwhile (ON CONFLICT skips it) refuses the whole box.
 */
async function writeBox(tx: Transaction, { actor, meta }: Acting, box: NewBox) {
  const [written] = await tx.query<{ id: number; code: string }>(
    `INSERT INTO sim_boxes (code, client_carrier_id, issuer, form, received_by_range, iccid_first,
       iccid_last, qty, qty_available, location_id, import_batch_id, note, received_by)
     VALUES ('SB-' || lpad(nextval('sim_box_numbers')::text, 6, '0'), $1, sim_issuer_of($3), $2,
       $4, $3, $5, $6, $6, $7, $8, $9, $10)
     RETURNING id::int AS id, code`,
    [
      box.clientCarrierId,
      box.form,
      box.iccids[0],
      box.byRange,
      box.iccids.at(-1),
      box.iccids.length,
      box.locationId,
      box.importBatchId,
      box.note,
      actor.userId,
    ],
  );
  const { id, code } = written!;
  const [inserted] = await tx.query<{ n: number }>(
    `WITH new AS (
       INSERT INTO sim_cards (iccid, issuer, client_carrier_id, form, sim_box_id)
       SELECT s.iccid, sim_issuer_of(s.iccid), $2, $3, $4
       FROM unnest($1::text[]) AS s (iccid)
       ON CONFLICT (iccid) DO NOTHING
       RETURNING id
     ), steps AS (
       INSERT INTO sim_events (sim_id, actor_id, actor_name, type, to_status, data)
       SELECT id, $5, $6, 'received', 'in_stock', $7::jsonb FROM new
     )
     SELECT count(*)::int AS n FROM new`,
    [
      box.iccids,
      box.clientCarrierId,
      box.form,
      id,
      actor.userId,
      actor.userName,
      JSON.stringify({ box_id: id, box_code: code }),
    ],
  );
  if (inserted!.n !== box.iccids.length) {
    const taken = (await receivedAlready(tx, box.iccids)).filter((row) => row.box_code !== code);
    throw new ConflictError(
      `${taken.length} of these ICCIDs were received a moment ago in another box: ${namedTaken(taken)}. Nothing of this box was received.`,
    );
  }
  await recordAudit(tx, {
    ...auditActor(actor, meta),
    action: 'sim_box.received',
    entityType: 'sim_box',
    entityId: id,
    after: {
      code,
      client_carrier_id: box.clientCarrierId,
      form: box.form,
      by: box.byRange ? 'range' : 'list',
      iccid_first: box.iccids[0],
      iccid_last: box.iccids.at(-1),
      qty: box.iccids.length,
      ...(box.importBatchId !== null && { import_batch_id: box.importBatchId }),
    },
  });
  return id;
}

export type ReceiveRangeInput = {
  client_carrier_id?: number | null | undefined;
  form: string;
  qty: number;
  iccid_first: string;
  iccid_last: string;
  location_id?: number | null | undefined;
  note?: string | null | undefined;
};

/**
 * Receives a box by range: its count must be the quantity given (422 on qty), no ICCID of it may
 * be received already (422 naming them); the client carrier defaults to the prefix's.
 */
export async function receiveRange(
  tx: Transaction,
  acting: Acting,
  input: ReceiveRangeInput,
): Promise<SimBoxRow> {
  const range = iccidRangeCount(input.iccid_first, input.iccid_last);
  if (!range.ok) throw fieldError('iccid_last', range.message);
  if (range.count !== input.qty) {
    throw fieldError(
      'qty',
      `The range from the first to the last ICCID holds ${range.count} SIMs, not ${input.qty}: check the quantity or the ICCIDs scanned.`,
    );
  }
  let carrierId = input.client_carrier_id ?? null;
  if (carrierId === null) {
    const prefix = await prefixOf(tx, input.iccid_first);
    carrierId = prefix.client_carrier_id;
    if (carrierId === null) {
      throw fieldError(
        'client_carrier_id',
        "Choose the client carrier: the ICCID's prefix names none.",
      );
    }
  }
  await checkCarrier(tx, carrierId, 'client_carrier_id');
  if (input.location_id != null) await checkLocation(tx, input.location_id, 'location_id');
  const iccids = iccidsOfRange(input.iccid_first, range.count);
  const taken = await receivedAlready(tx, iccids);
  if (taken.length > 0) {
    throw fieldError(
      'iccid_first',
      `${taken.length} of these ICCIDs ${taken.length === 1 ? 'is' : 'are'} received already: ${namedTaken(taken)}.`,
    );
  }
  const id = await writeBox(tx, acting, {
    clientCarrierId: carrierId,
    form: input.form,
    iccids,
    byRange: true,
    locationId: input.location_id ?? null,
    importBatchId: null,
    note: input.note?.trim() || null,
  });
  return findSimBox(tx, id);
}

/** The options as the check sent them or the batch kept them; a 422 on `options.*` otherwise. */
function optionsOf(options: unknown): Options {
  const parsed = z.safeParse(simListImportOptionsSchema, options ?? {});
  if (!parsed.success) {
    const fields = fieldErrorsOf(parsed.error);
    throw new ValidationError(
      Object.fromEntries(Object.entries(fields).map(([field, m]) => [`options.${field}`, m])),
    );
  }
  return parsed.data;
}

/**
 * An ICCID as the file writes it: with its check digit, or, when the import says the file has
 * none, the 18 or 19 digits the check digit is computed for.
 */
function iccidOfLine(raw: string, withoutCheckDigits: boolean) {
  const scanned = normaliseScan(raw);
  if (withoutCheckDigits && /^89\d{16,17}$/.test(scanned)) {
    return parseIccid(`${scanned}${luhnCheckDigit(scanned)}`);
  }
  if (withoutCheckDigits && /^\d+$/.test(scanned) && scanned.length !== 18) {
    return {
      ok: false as const,
      message: `Without its check digit an ICCID has 18 or 19 digits, not ${scanned.length}.`,
    };
  }
  return parseIccid(scanned);
}

type FileRow = z.output<typeof simListRowSchema>;

/** Every line's ICCID read and checked against the SIMs received already: two statements. */
async function prepareLines(
  inputs: readonly WriteInput<Record<string, unknown>>[],
  db: Queryable,
  rawOptions: unknown,
): Promise<Prepared[]> {
  const options = optionsOf(rawOptions);
  await checkCarrier(db, options.client_carrier_id, 'options.client_carrier_id');
  if (options.location_id != null) {
    await checkLocation(db, options.location_id, 'options.location_id');
  }
  const read = inputs.map(({ input }) =>
    iccidOfLine((input as Partial<FileRow>).iccid ?? '', options.without_check_digits),
  );
  const taken = new Map(
    (
      await receivedAlready(
        db,
        read.flatMap((result) => (result.ok ? [result.value.iccid] : [])),
      )
    ).map((row) => [row.iccid, row.box_code]),
  );
  return read.map((result): Prepared => {
    if (!result.ok) return { errors: { iccid: [result.message] } };
    const box = taken.get(result.value.iccid);
    if (box) {
      const errors: FieldErrors = {
        iccid: [`${result.value.iccid} is received already in ${box}.`],
      };
      return { errors };
    }
    return { values: { iccid: result.value.iccid } };
  });
}

/** The box the right lines make: its size, first and last ICCID and the issuers. */
async function summarizeLines(
  records: readonly Record<string, unknown>[],
  db: Queryable,
): Promise<SimListImportSummary> {
  const iccids = records.map((record) => String(record.iccid)).sort();
  const issuers = await db.query<{ issuer: string | null; qty: number }>(
    `SELECT sim_issuer_of(s.iccid) AS issuer, count(*)::int AS qty
     FROM unnest($1::text[]) AS s (iccid) GROUP BY 1 ORDER BY 2 DESC, 1`,
    [iccids],
  );
  return {
    qty: iccids.length,
    iccid_first: iccids[0] ?? null,
    iccid_last: iccids.at(-1) ?? null,
    issuers,
  };
}

/** An ICCID list file becomes one box (`/sim/box` import), written as a range's box is. */
export const simListImportStore: ImportStore<typeof simListRowSchema> = {
  contract: simListImport,
  table: 'sim_cards',
  entity: 'sim_box',
  imports: {
    rowSchema: simListRowSchema,
    withOptions: { prepare: prepareLines, summarize: summarizeLines },
    writer: {
      // An ICCID twice in a file is the toolkit's "Repeats row N".
      fields: ['iccid'],
      countExisting: async () => 0,
      write: async (records, tx, writer, rawOptions, batch) => {
        const options = optionsOf(rawOptions);
        const iccids = records.map((record) => String(record.iccid)).sort();
        await writeBox(tx, writer, {
          clientCarrierId: options.client_carrier_id,
          form: options.form,
          iccids,
          byRange: false,
          locationId: options.location_id ?? null,
          importBatchId: batch.id,
          note: null,
        });
        return { created: iccids.length, updated: 0 };
      },
    },
  },
};

const PACK_COLUMNS = `p.id::int AS id, p.code, p.sim_box_id::int AS sim_box_id,
  (SELECT b.code FROM sim_boxes b WHERE b.id = p.sim_box_id) AS box_code, p.size,
  COALESCE((SELECT min(c.iccid) FROM sim_cards c WHERE c.sim_pack_id = p.id), '') AS iccid_first,
  COALESCE((SELECT max(c.iccid) FROM sim_cards c WHERE c.sim_pack_id = p.id), '') AS iccid_last,
  ${isoTextSql('p.created_at')} AS created_at`;

export const packsOfBox = (db: Queryable, boxId: number) =>
  db.query<SimPack>(
    `SELECT ${PACK_COLUMNS} FROM sim_packs p WHERE p.sim_box_id = $1 ORDER BY p.id`,
    [boxId],
  );

export async function findSimPack(db: Queryable, id: number): Promise<SimPack> {
  const [pack] = await db.query<SimPack>(
    `SELECT ${PACK_COLUMNS} FROM sim_packs p WHERE p.id = $1`,
    [id],
  );
  if (!pack) throw new NotFoundError(`There is no SIM pack with id ${id}.`);
  return pack;
}

/**
 * Splits the box's in-stock SIMs that are in no pack into packs of `size` (the last may hold
 * fewer), in ICCID order: the packs, the SIMs' pack and their 'split' steps in three statements.
 * Splitting again packs only what is unpacked; nothing left to pack is a 409.
 */
export async function splitBox(
  tx: Transaction,
  { actor, meta }: Acting,
  boxId: number,
  size: SimPackSize,
): Promise<{ box: SimBoxRow; packs: SimPack[] }> {
  const [box] = await tx.query<{ code: string }>(
    'SELECT code FROM sim_boxes WHERE id = $1 FOR UPDATE',
    [boxId],
  );
  if (!box) throw new NotFoundError(`There is no SIM box with id ${boxId}.`);
  const unpacked = await tx.query<{ id: number }>(
    `SELECT id::int AS id FROM sim_cards
     WHERE sim_box_id = $1 AND status = 'in_stock' AND sim_pack_id IS NULL ORDER BY iccid`,
    [boxId],
  );
  if (unpacked.length === 0) {
    throw new ConflictError(`${box.code} has no SIM in stock outside a pack: nothing to split.`);
  }
  const sizes = Array.from({ length: Math.ceil(unpacked.length / size) }, (_, k) =>
    Math.min(size, unpacked.length - k * size),
  );
  // Identities and codes follow the insert's order, which is the packs' order.
  const packIds = (
    await tx.query<{ id: number }>(
      `INSERT INTO sim_packs (code, sim_box_id, size, created_by)
       SELECT 'SP-' || lpad(nextval('sim_pack_numbers')::text, 6, '0'), $1, g.size, $3
       FROM unnest($2::int[]) WITH ORDINALITY AS g (size, k) ORDER BY g.k
       RETURNING id::int AS id`,
      [boxId, sizes, actor.userId],
    )
  )
    .map((row) => row.id)
    .sort((a, b) => a - b);
  const simIds = unpacked.map((sim) => sim.id);
  const packOfSim = simIds.map((_, i) => packIds[Math.floor(i / size)]!);
  const [moved] = await tx.query<{ n: number }>(
    `WITH packed AS (
       UPDATE sim_cards c SET sim_pack_id = s.pack_id, updated_at = now()
       FROM unnest($1::bigint[], $2::bigint[]) AS s (sim_id, pack_id)
       WHERE c.id = s.sim_id AND c.status = 'in_stock' AND c.sim_pack_id IS NULL
       RETURNING c.id, c.sim_pack_id
     ), steps AS (
       INSERT INTO sim_events (sim_id, actor_id, actor_name, type, data)
       SELECT packed.id, $3, $4, 'split',
         jsonb_build_object('box_id', $5::bigint, 'box_code', $6::text, 'pack_id', p.id,
           'pack_code', p.code)
       FROM packed JOIN sim_packs p ON p.id = packed.sim_pack_id
     )
     SELECT count(*)::int AS n FROM packed`,
    [simIds, packOfSim, actor.userId, actor.userName, boxId, box.code],
  );
  if (moved!.n !== simIds.length) {
    throw new ConflictError(`SIMs of ${box.code} moved while it was split: split it again.`);
  }
  await tx.query(
    `UPDATE sim_boxes SET status = CASE WHEN status = 'depleted' THEN status ELSE 'split' END,
       updated_at = now() WHERE id = $1`,
    [boxId],
  );
  await recordAudit(tx, {
    ...auditActor(actor, meta),
    action: 'sim_box.split',
    entityType: 'sim_box',
    entityId: boxId,
    after: { code: box.code, pack_size: size, packs: packIds.length, sims: simIds.length },
  });
  const packs = await tx.query<SimPack>(
    `SELECT ${PACK_COLUMNS} FROM sim_packs p WHERE p.id = ANY ($1::bigint[]) ORDER BY p.id`,
    [packIds],
  );
  return { box: await findSimBox(tx, boxId), packs };
}

/** Moves a box to an active location. */
export async function moveBox(
  tx: Transaction,
  { actor, meta }: Acting,
  boxId: number,
  locationId: number,
): Promise<SimBoxRow> {
  const code = await checkLocation(tx, locationId, 'location_id');
  const [before] = await tx.query<{ code: string; location_id: number | null }>(
    `SELECT b.code, b.location_id::int AS location_id FROM sim_boxes b
     WHERE b.id = $1 FOR UPDATE`,
    [boxId],
  );
  if (!before) throw new NotFoundError(`There is no SIM box with id ${boxId}.`);
  await tx.query('UPDATE sim_boxes SET location_id = $2, updated_at = now() WHERE id = $1', [
    boxId,
    locationId,
  ]);
  await recordAudit(tx, {
    ...auditActor(actor, meta),
    action: 'sim_box.moved',
    entityType: 'sim_box',
    entityId: boxId,
    before: { location_id: before.location_id },
    after: { location_id: locationId, location: code },
  });
  return findSimBox(tx, boxId);
}

/** The box label: its code as a barcode, the carrier, range and quantity. */
export function simBoxLabel(box: SimBoxRow): LabelContent {
  return {
    fileName: box.code,
    labels: [
      {
        barcode: box.code,
        title: box.code,
        lines: [
          box.client_carrier,
          [box.issuer, box.form].filter(Boolean).join(' · '),
          `${box.iccid_first} –`,
          box.iccid_last,
          `${box.qty} SIMs · received ${box.received_at.slice(0, 10)}`,
        ],
      },
    ],
  };
}

/** Pack labels, one a pack: its code as a barcode, the carrier, box, range and size. */
export function simPackLabels(
  fileName: string,
  carrier: string,
  packs: readonly SimPack[],
): LabelContent {
  return {
    fileName,
    labels: packs.map((pack) => ({
      barcode: pack.code,
      title: pack.code,
      lines: [
        `${carrier} · ${pack.box_code}`,
        `${pack.iccid_first} –`,
        pack.iccid_last,
        `${pack.size} SIMs`,
      ],
    })),
  };
}
