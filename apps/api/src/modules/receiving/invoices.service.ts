import {
  purchaseInvoiceAttachments,
  purchaseInvoiceList,
  type CreatePurchaseInvoiceInput,
  type DecideDiscrepanciesInput,
  type FieldErrors,
  type InvoiceLineInput,
  type PurchaseInvoice,
  type PurchaseInvoiceDetail,
  type UpdatePurchaseInvoiceInput,
} from '@inventory/contract';
import type { Queryable } from '../../db/db.js';
import {
  ConflictError,
  NotFoundError,
  ValidationError,
  uniqueViolationAs,
} from '../../http/errors.js';
import type { AttachmentStore } from '../../toolkit/attachments.js';
import type { ListStore } from '../../toolkit/resource.js';
import { auditActor, recordAudit } from '../audit/index.js';
import { MODEL_DISPLAY_NAME } from '../master-data/index.js';
import type { Principal, RequestMeta } from '../../http/principal.js';

/** A received device whose TAC names another model than the vendor's manifest or line. */
export const MISMATCH_SQL = `(ii.match_status = 'received' AND ii.tac_model_id IS NOT NULL
  AND ii.model_id IS NOT NULL AND ii.tac_model_id <> ii.model_id)`;
/** A manifest row that needs a decision before its invoice closes. */
export const DISCREPANCY_SQL = `(ii.match_status IN ('missing', 'unexpected', 'duplicate') OR ${MISMATCH_SQL})`;

/** The reconciliation counts of the invoice `i`, as `reconciliationSchema`. */
const COUNTS_SQL = `(SELECT json_build_object(
    'manifest', count(*) FILTER (WHERE ii.from_manifest),
    'expected', count(*) FILTER (WHERE ii.match_status = 'expected'),
    'received', count(*) FILTER (WHERE ii.match_status = 'received'),
    'missing', count(*) FILTER (WHERE ii.match_status = 'missing'),
    'unexpected', count(*) FILTER (WHERE ii.match_status = 'unexpected'),
    'duplicate', count(*) FILTER (WHERE ii.match_status = 'duplicate'),
    'mismatched', count(*) FILTER (WHERE ${MISMATCH_SQL}),
    'undecided', count(*) FILTER (WHERE ${DISCREPANCY_SQL} AND ii.decision IS NULL))
  FROM invoice_imeis ii WHERE ii.invoice_id = i.id)`;

const INVOICE_FROM = 'purchase_invoices i JOIN vendors v ON v.id = i.vendor_id';

const INVOICE_COLUMNS = `i.id, i.vendor_id, v.name AS vendor, i.invoice_no,
  to_char(i.invoice_date, 'YYYY-MM-DD') AS invoice_date, i.currency, i.total_cents,
  COALESCE((SELECT sum(l.qty * l.unit_cost_cents) FROM invoice_lines l WHERE l.invoice_id = i.id), 0)::float8
    AS lines_total_cents,
  COALESCE((SELECT sum(l.qty) FROM invoice_lines l WHERE l.invoice_id = i.id), 0)::int AS qty_ordered,
  i.status, i.has_manifest, ${COUNTS_SQL} AS counts, i.notes,
  to_json(i.reconciled_at) #>> '{}' AS reconciled_at, to_json(i.closed_at) #>> '{}' AS closed_at,
  to_json(i.created_at) #>> '{}' AS created_at, to_json(i.updated_at) #>> '{}' AS updated_at`;

export const invoiceStore: ListStore<typeof purchaseInvoiceList> = {
  contract: purchaseInvoiceList,
  list: {
    from: INVOICE_FROM,
    id: 'i.id',
    columns: INVOICE_COLUMNS,
    sorts: {
      created_at: { sql: 'i.created_at', type: 'timestamptz' },
      invoice_no: { sql: 'lower(i.invoice_no)', type: 'text' },
    },
    search: (pattern) => ['(i.invoice_no ILIKE ? OR v.name ILIKE ?)', pattern, pattern],
    filters: (query) => [
      query.vendor_id !== undefined && ['i.vendor_id = ?', query.vendor_id],
      query.status !== undefined && ['i.status = ?', query.status],
    ],
  },
};

/** An invoice's files (the vendor's PDF, photos of what arrived) go with it when it is deleted. */
export const invoiceAttachmentStore: AttachmentStore = {
  contract: purchaseInvoiceAttachments,
  table: 'purchase_invoices',
};

export async function findInvoice(
  db: Queryable,
  id: number,
  lock = false,
): Promise<PurchaseInvoice> {
  if (lock) await db.query('SELECT 1 FROM purchase_invoices WHERE id = $1 FOR UPDATE', [id]);
  const [invoice] = await db.query<PurchaseInvoice>(
    `SELECT ${INVOICE_COLUMNS} FROM ${INVOICE_FROM} WHERE i.id = $1`,
    [id],
  );
  if (!invoice) throw new NotFoundError(`There is no purchase invoice with id ${id}.`);
  return invoice;
}

const UNIQUE_NUMBER = {
  purchase_invoices_vendor_no_key: [
    'invoice_no',
    'This vendor has an invoice with this number already.',
  ],
} as const;

/** The field errors of ids that name no active vendor, model or colour. */
async function checkReferences(
  db: Queryable,
  vendorId: number | undefined,
  lines: readonly InvoiceLineInput[],
): Promise<void> {
  const errors: FieldErrors = {};
  if (vendorId !== undefined) {
    const [vendor] = await db.query<{ active: boolean; name: string }>(
      'SELECT active, name FROM vendors WHERE id = $1',
      [vendorId],
    );
    if (!vendor) errors.vendor_id = [`There is no vendor with id ${vendorId}.`];
    else if (!vendor.active) errors.vendor_id = [`${vendor.name} is deactivated.`];
  }
  const known = await db.query<{ kind: string; id: number; active: boolean }>(
    `SELECT 'model' AS kind, id, active FROM device_models WHERE id = ANY ($1::bigint[])
     UNION ALL
     SELECT 'colour', id, active FROM colors WHERE id = ANY ($2::bigint[])`,
    [lines.map((line) => line.model_id), lines.flatMap((line) => line.color_id ?? [])],
  );
  const usable = new Set(known.filter((row) => row.active).map((row) => `${row.kind}:${row.id}`));
  lines.forEach((line, index) => {
    if (!usable.has(`model:${line.model_id}`)) {
      errors[`lines.${index}.model_id`] = ['Choose an active model.'];
    }
    if (line.color_id != null && !usable.has(`colour:${line.color_id}`)) {
      errors[`lines.${index}.color_id`] = ['Choose an active colour.'];
    }
  });
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
}

/** Writes a form's lines: kept lines by id are updated, new ones added, left-out ones deleted. */
async function writeLines(tx: Queryable, invoiceId: number, lines: readonly InvoiceLineInput[]) {
  const kept = lines.flatMap((line) => line.id ?? []);
  const dropped = await tx.query<{ id: number; imeis: number }>(
    `SELECT l.id, (SELECT count(*) FROM invoice_imeis ii WHERE ii.line_id = l.id)::int AS imeis
     FROM invoice_lines l WHERE l.invoice_id = $1 AND NOT (l.id = ANY ($2::bigint[]))`,
    [invoiceId, kept],
  );
  const used = dropped.filter((line) => line.imeis > 0);
  if (used.length > 0) {
    throw new ConflictError(
      `A line with IMEIs on it cannot be removed (${used.map((l) => `line ${l.id}: ${l.imeis} IMEIs`).join(', ')}): change it instead.`,
    );
  }
  await tx.query('DELETE FROM invoice_lines WHERE id = ANY ($1::bigint[])', [
    dropped.map((line) => line.id),
  ]);
  const column = <K extends keyof InvoiceLineInput>(key: K) =>
    lines.map((line) => line[key] ?? null);
  const [written] = await tx.query<{ unknown: number[] }>(
    `WITH input AS (
       SELECT * FROM unnest($2::bigint[], $3::bigint[], $4::bigint[], $5::int[], $6::text[],
         $7::text[], $8::int[], $9::bigint[])
         AS t (id, model_id, color_id, capacity_gb, condition, grade, qty, unit_cost_cents)),
     updated AS (
       UPDATE invoice_lines l SET model_id = t.model_id, color_id = t.color_id,
         capacity_gb = t.capacity_gb, condition = COALESCE(t.condition, 'used'), grade = t.grade,
         qty = t.qty, unit_cost_cents = COALESCE(t.unit_cost_cents, 0)
       FROM input t WHERE l.id = t.id AND l.invoice_id = $1 RETURNING l.id),
     inserted AS (
       INSERT INTO invoice_lines (invoice_id, model_id, color_id, capacity_gb, condition, grade,
         qty, unit_cost_cents)
       SELECT $1, model_id, color_id, capacity_gb, COALESCE(condition, 'used'), grade, qty,
         COALESCE(unit_cost_cents, 0)
       FROM input WHERE id IS NULL RETURNING id)
     SELECT COALESCE(array_agg(t.id) FILTER (WHERE t.id IS NOT NULL
       AND t.id NOT IN (SELECT id FROM updated)), '{}') AS unknown
     FROM input t`,
    [
      invoiceId,
      column('id'),
      column('model_id'),
      column('color_id'),
      column('capacity_gb'),
      column('condition'),
      column('grade'),
      column('qty'),
      column('unit_cost_cents'),
    ],
  );
  if (written && written.unknown.length > 0) {
    throw new NotFoundError(`This invoice has no line ${written.unknown.join(', ')}.`);
  }
}

/** Creates an invoice by hand, with its lines. */
export async function createInvoice(
  tx: Queryable,
  actor: Principal,
  meta: RequestMeta,
  input: CreatePurchaseInvoiceInput,
): Promise<PurchaseInvoice> {
  const lines = input.lines ?? [];
  await checkReferences(tx, input.vendor_id, lines);
  const [created] = await tx
    .query<{ id: number }>(
      `INSERT INTO purchase_invoices (vendor_id, invoice_no, invoice_date, currency, total_cents,
         notes, created_by, updated_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $7) RETURNING id`,
      [
        input.vendor_id,
        input.invoice_no,
        input.invoice_date ?? null,
        input.currency ?? 'USD',
        input.total_cents ?? null,
        input.notes ?? null,
        actor.userId,
      ],
    )
    .catch(uniqueViolationAs(UNIQUE_NUMBER));
  await writeLines(tx, created!.id, lines);
  const invoice = await findInvoice(tx, created!.id);
  await recordAudit(tx, {
    ...auditActor(actor, meta),
    action: 'purchase_invoice.created',
    entityType: 'purchase_invoice',
    entityId: invoice.id,
    after: { ...invoice, lines },
  });
  return invoice;
}

/** Changes an invoice's header and, when given, its whole list of lines; a closed one is fixed. */
export async function updateInvoice(
  tx: Queryable,
  actor: Principal,
  meta: RequestMeta,
  id: number,
  input: UpdatePurchaseInvoiceInput,
): Promise<PurchaseInvoice> {
  const before = await findInvoice(tx, id, true);
  if (before.status === 'closed') throw new ConflictError('A closed invoice cannot change.');
  if (input.vendor_id !== undefined && input.vendor_id !== before.vendor_id) {
    const [received] = await tx.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM devices WHERE invoice_id = $1',
      [id],
    );
    if (received!.n > 0) {
      throw new ConflictError(
        `${received!.n} devices were received on this invoice: its vendor cannot change.`,
      );
    }
  }
  await checkReferences(
    tx,
    input.vendor_id !== before.vendor_id ? input.vendor_id : undefined,
    input.lines ?? [],
  );
  const fields = {
    vendor_id: input.vendor_id,
    invoice_no: input.invoice_no,
    invoice_date: input.invoice_date,
    currency: input.currency,
    total_cents: input.total_cents,
    notes: input.notes,
  };
  const set = Object.entries(fields).filter(([, value]) => value !== undefined);
  if (set.length > 0) {
    await tx
      .query(
        `UPDATE purchase_invoices SET ${set.map(([column], i) => `${column} = $${i + 2}`).join(', ')},
           updated_at = now(), updated_by = $${set.length + 2}
         WHERE id = $1`,
        [id, ...set.map(([, value]) => value), actor.userId],
      )
      .catch(uniqueViolationAs(UNIQUE_NUMBER));
  }
  if (input.lines) await writeLines(tx, id, input.lines);
  const after = await findInvoice(tx, id);
  await recordAudit(tx, {
    ...auditActor(actor, meta),
    action: 'purchase_invoice.updated',
    entityType: 'purchase_invoice',
    entityId: id,
    before,
    after: input.lines ? { ...after, lines: input.lines } : after,
  });
  return after;
}

/** Deletes an invoice nothing was received on; its lines and manifest go with it. */
export async function deleteInvoice(
  tx: Queryable,
  actor: Principal,
  meta: RequestMeta,
  id: number,
): Promise<void> {
  const before = await findInvoice(tx, id, true);
  const [uses] = await tx.query<{ devices: number; boxes: number; shipments: number }>(
    `SELECT (SELECT count(*) FROM devices WHERE invoice_id = $1)::int AS devices,
       (SELECT count(*) FROM warehouse_boxes WHERE invoice_id = $1)::int AS boxes,
       (SELECT count(*) FROM inbound_shipments WHERE invoice_id = $1)::int AS shipments`,
    [id],
  );
  const used = Object.entries(uses!)
    .filter(([, n]) => n > 0)
    .map(([what, n]) => `${n} ${what}`);
  if (used.length > 0) {
    throw new ConflictError(`This invoice has ${used.join(' and ')}: it cannot be deleted.`);
  }
  await tx.query('DELETE FROM purchase_invoices WHERE id = $1', [id]);
  await recordAudit(tx, {
    ...auditActor(actor, meta),
    action: 'purchase_invoice.deleted',
    entityType: 'purchase_invoice',
    entityId: id,
    before,
  });
}

/** An invoice with its lines (ordered, on the manifest, received) and its boxes. */
export async function invoiceDetail(db: Queryable, id: number): Promise<PurchaseInvoiceDetail> {
  const invoice = await findInvoice(db, id);
  const [lines, boxes] = await Promise.all([
    db.query<PurchaseInvoiceDetail['lines'][number]>(
      `SELECT l.id, l.model_id, ${MODEL_DISPLAY_NAME} AS model, l.color_id, c.name AS color,
         l.capacity_gb, l.condition, l.grade, l.qty, l.unit_cost_cents::float8 AS unit_cost_cents,
         (SELECT count(*) FROM invoice_imeis ii WHERE ii.line_id = l.id AND ii.from_manifest)::int
           AS manifest_count,
         (SELECT count(*) FROM invoice_imeis ii WHERE ii.line_id = l.id
            AND ii.match_status = 'received')::int AS received_count
       FROM invoice_lines l JOIN device_models m ON m.id = l.model_id
       JOIN brands b ON b.id = m.brand_id LEFT JOIN colors c ON c.id = l.color_id
       WHERE l.invoice_id = $1 ORDER BY l.id`,
      [id],
    ),
    db.query<PurchaseInvoiceDetail['boxes'][number]>(
      `SELECT id, code, status, qty_scanned, qty_expected, staging_location
       FROM warehouse_boxes WHERE invoice_id = $1 ORDER BY id`,
      [id],
    ),
  ]);
  return { invoice, lines, boxes };
}

/**
 * Reconciles an invoice once its boxes are closed: every manifest IMEI not received is missing.
 * May run again (a late box); a device that turns up later still counts as received.
 */
export async function reconcileInvoice(
  tx: Queryable,
  actor: Principal,
  meta: RequestMeta,
  id: number,
): Promise<PurchaseInvoice> {
  const before = await findInvoice(tx, id, true);
  if (before.status === 'closed') throw new ConflictError('This invoice is closed.');
  const open = await tx.query<{ code: string }>(
    "SELECT code FROM warehouse_boxes WHERE invoice_id = $1 AND status = 'receiving' ORDER BY id",
    [id],
  );
  if (open.length > 0) {
    throw new ConflictError(
      `Close the boxes still receiving first: ${open.map((box) => box.code).join(', ')}.`,
    );
  }
  await tx.query(
    `UPDATE invoice_imeis SET match_status = 'missing', updated_at = now(), updated_by = $2
     WHERE invoice_id = $1 AND match_status = 'expected'`,
    [id, actor.userId],
  );
  await tx.query(
    `UPDATE purchase_invoices SET status = 'reconciled', reconciled_at = now(), reconciled_by = $2,
       updated_at = now(), updated_by = $2
     WHERE id = $1`,
    [id, actor.userId],
  );
  const after = await findInvoice(tx, id);
  await recordAudit(tx, {
    ...auditActor(actor, meta),
    action: 'purchase_invoice.reconciled',
    entityType: 'purchase_invoice',
    entityId: id,
    before: { status: before.status, counts: before.counts },
    after: { status: after.status, counts: after.counts },
  });
  return after;
}

/** Settles discrepancies of an invoice (each row must be one). */
export async function decideDiscrepancies(
  tx: Queryable,
  actor: Principal,
  meta: RequestMeta,
  id: number,
  input: DecideDiscrepanciesInput,
): Promise<PurchaseInvoice> {
  const invoice = await findInvoice(tx, id, true);
  if (invoice.status === 'closed') throw new ConflictError('This invoice is closed.');
  const [outcome] = await tx.query<{ decided: number; others: string[] }>(
    `WITH chosen AS (
       SELECT ii.id, ${DISCREPANCY_SQL} AS discrepancy
       FROM invoice_imeis ii WHERE ii.id = ANY ($2::bigint[]) AND ii.invoice_id = $1),
     decided AS (
       UPDATE invoice_imeis SET decision = $3, decision_note = $4, decided_at = now(),
         decided_by = $5, updated_at = now(), updated_by = $5
       WHERE id IN (SELECT id FROM chosen WHERE discrepancy) RETURNING id)
     SELECT (SELECT count(*) FROM decided)::int AS decided,
       ARRAY(SELECT x::text FROM unnest($2::bigint[]) AS x
             WHERE x NOT IN (SELECT id FROM chosen WHERE discrepancy) LIMIT 5) AS others`,
    [id, input.ids, input.decision, input.note ?? null, actor.userId],
  );
  if (outcome!.others.length > 0) {
    throw new ValidationError({
      ids: [`Not a discrepancy of this invoice: ${outcome!.others.join(', ')}.`],
    });
  }
  const after = await findInvoice(tx, id);
  await recordAudit(tx, {
    ...auditActor(actor, meta),
    action: 'purchase_invoice.discrepancies_decided',
    entityType: 'purchase_invoice',
    entityId: id,
    after: {
      decision: input.decision,
      note: input.note ?? null,
      count: outcome!.decided,
      invoice_imei_ids: input.ids.slice(0, 1000),
    },
  });
  return after;
}

/** Closes a reconciled invoice whose every discrepancy has a decision; its IMEIs are no longer open. */
export async function closeInvoice(
  tx: Queryable,
  actor: Principal,
  meta: RequestMeta,
  id: number,
): Promise<PurchaseInvoice> {
  const before = await findInvoice(tx, id, true);
  if (before.status === 'closed') throw new ConflictError('This invoice is closed already.');
  if (before.status !== 'reconciled') {
    throw new ConflictError('Reconcile the invoice before closing it.');
  }
  const { undecided } = before.counts;
  if (undecided > 0) {
    throw new ConflictError(
      `${undecided} ${undecided === 1 ? 'discrepancy has' : 'discrepancies have'} no decision yet: decide each before closing.`,
    );
  }
  await tx.query('UPDATE invoice_imeis SET open = false WHERE invoice_id = $1', [id]);
  await tx.query(
    `UPDATE purchase_invoices SET status = 'closed', closed_at = now(), closed_by = $2,
       updated_at = now(), updated_by = $2
     WHERE id = $1`,
    [id, actor.userId],
  );
  const after = await findInvoice(tx, id);
  await recordAudit(tx, {
    ...auditActor(actor, meta),
    action: 'purchase_invoice.closed',
    entityType: 'purchase_invoice',
    entityId: id,
    before: { status: before.status },
    after: { status: after.status, counts: after.counts },
  });
  return after;
}

/**
 * An invoice whose boxes are all closed and whose manifest has nothing left to expect is
 * received. Called when a box closes.
 */
export async function markReceivedWhenComplete(tx: Queryable, id: number): Promise<void> {
  await tx.query(
    `UPDATE purchase_invoices i SET status = 'received', updated_at = now()
     WHERE i.id = $1 AND i.status IN ('expected', 'receiving') AND i.has_manifest
       AND NOT EXISTS (SELECT 1 FROM invoice_imeis ii
                       WHERE ii.invoice_id = i.id AND ii.match_status = 'expected')
       AND NOT EXISTS (SELECT 1 FROM warehouse_boxes wb
                       WHERE wb.invoice_id = i.id AND wb.status = 'receiving')`,
    [id],
  );
}
