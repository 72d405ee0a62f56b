import {
  CLAIM_BOARD_CLOSED_LIMIT,
  CLAIM_PACKAGE_STATUS,
  CLAIM_TYPE_WORDS,
  claimLifecycle,
  normaliseScan,
  type CarrierTerms,
  type ClaimAction,
  type ClaimBoard,
  type ClaimDetail,
  type ClaimDevice,
  type ClaimPackage,
  type ClaimRow,
  type ClaimStatus,
  type CreateClaimInput,
  type PackageStatus,
  type UpdateCarrierTermsInput,
} from '@inventory/contract';
import type { Queryable, Transaction } from '../../db/db.js';
import { ConflictError, NotFoundError } from '../../http/errors.js';
import type { Acting } from '../../http/principal.js';
import { isoTextSql } from '../../http/sql.js';
import {
  runTransition,
  timelineWriter,
  type LifecycleStore,
  type TransitionInput,
} from '../../toolkit/lifecycle.js';
import { auditActor, recordAudit } from '../audit/index.js';
import { applyDeviceAction } from '../devices/index.js';
import { modelDisplayNameOf } from '../master-data/index.js';

/**
 * Carrier claims (DOMAIN.md 3.7, 4.16): drafted from a parcel with values prefilled, filed within
 * the carrier's terms, decided and closed; a paid lost claim writes the parcel's devices off.
 */

/** When the carrier's days start: the parcel's scan-out (its label, for a parcel never scanned). */
const SHIPPED_AT = 'COALESCE(p.scanned_out_at, p.label_created_at)';
const EARLIEST_FILING = `(${SHIPPED_AT} + make_interval(days => t.lost_wait_days))`;
const DEADLINE = `(${SHIPPED_AT} + make_interval(days => t.filing_window_days))`;

const CLAIM_COLUMNS = `c.id::int AS id, c.number, c.type, c.status, c.package_id::int AS package_id,
  p.tracking_number, p.carrier, o.id::int AS order_id, o.number AS order_number,
  c.declared_cents::int AS declared_cents, c.claimed_cents::int AS claimed_cents,
  c.paid_cents::int AS paid_cents, c.carrier_claim_number, c.note,
  ${isoTextSql(SHIPPED_AT)} AS shipped_at,
  CASE WHEN c.type = 'lost' THEN ${isoTextSql(EARLIEST_FILING)} END AS earliest_filing_at,
  ${isoTextSql(DEADLINE)} AS deadline_at,
  (c.status = 'draft' AND now() > ${DEADLINE}) AS past_deadline,
  ${isoTextSql('c.created_at')} AS created_at, cu.name AS created_by_name,
  ${isoTextSql('c.filed_at')} AS filed_at, ${isoTextSql('c.decided_at')} AS decided_at,
  ${isoTextSql('c.closed_at')} AS closed_at`;

const CLAIM_FROM = `claims c
  JOIN packages p ON p.id = c.package_id
  JOIN orders o ON o.id = p.order_id
  JOIN claim_carrier_terms t ON t.carrier = p.carrier
  LEFT JOIN users cu ON cu.id = c.created_by`;

const claimsWhere = (db: Queryable, where: string, params: readonly unknown[] = []) =>
  db.query<ClaimRow>(`SELECT ${CLAIM_COLUMNS} FROM ${CLAIM_FROM} WHERE ${where}`, params);

/** The devices an order shipped, with their cost and the price they were sold at. */
const devicesOfOrder = (db: Queryable, orderId: number) =>
  db.query<ClaimDevice>(
    `SELECT d.id::int AS device_id, d.identifier AS imei,
       ${modelDisplayNameOf('d.model_id')} AS model, d.status,
       d.unit_cost_cents::int AS cost_cents, l.unit_price_cents::int AS price_cents
     FROM order_lines l
     JOIN order_line_units u ON u.order_line_id = l.id AND u.status <> 'cancelled'
     JOIN devices d ON d.id = u.device_id
     WHERE l.order_id = $1
     ORDER BY d.identifier`,
    [orderId],
  );

export const claimStore: LifecycleStore<ClaimStatus, ClaimAction, never> = {
  lifecycle: claimLifecycle,
  table: 'claims',
  label: 'number',
  effects: {
    file: 'filed_at = now()',
    deny: 'decided_at = now()',
    close: 'closed_at = now()',
    pay: {
      set: 'decided_at = now()',
      // A lost parcel's claim paid: its devices are written off (DOMAIN.md 3.1 shipped → lost).
      write: async (tx, steps, { actor, meta }) => {
        const lost = await tx.query<{ id: number; number: string; device_ids: number[] }>(
          `SELECT c.id::int AS id, c.number,
             array_agg(u.device_id::int ORDER BY u.device_id) AS device_ids
           FROM claims c
           JOIN packages p ON p.id = c.package_id
           JOIN order_lines l ON l.order_id = p.order_id
           JOIN order_line_units u ON u.order_line_id = l.id AND u.status <> 'cancelled'
           WHERE c.id = ANY ($1::bigint[]) AND c.type = 'lost' AND u.device_id IS NOT NULL
           GROUP BY c.id, c.number`,
          [steps.map((step) => step.id)],
        );
        for (const claim of lost) {
          await applyDeviceAction(tx, actor, meta, {
            deviceIds: claim.device_ids,
            action: 'mark_lost',
            ref: { type: 'claim', id: claim.id },
            data: { claim: claim.number },
          });
        }
      },
    },
  },
  columns: ['carrier_claim_number', 'paid_cents'],
  writeEvents: timelineWriter('claim_events', 'claim_id'),
};

async function claimRow(db: Queryable, id: number): Promise<ClaimRow> {
  const [claim] = await claimsWhere(db, 'c.id = $1', [id]);
  if (!claim) throw new NotFoundError(`There is no claim with id ${id}.`);
  return claim;
}

export async function claimDetail(db: Queryable, id: number): Promise<ClaimDetail> {
  const claim = await claimRow(db, id);
  const [devices, events] = await Promise.all([
    devicesOfOrder(db, claim.order_id),
    db.query<ClaimDetail['events'][number]>(
      `SELECT id::int AS id, ${isoTextSql('at')} AS at, actor_name, type, from_status, to_status,
         data
       FROM claim_events WHERE claim_id = $1 ORDER BY id`,
      [id],
    ),
  ]);
  return { claim, devices, events };
}

const termsOf = (db: Queryable, where = 'true', params: readonly unknown[] = []) =>
  db.query<CarrierTerms>(
    `SELECT carrier, lost_wait_days, filing_window_days, ${isoTextSql('updated_at')} AS updated_at
     FROM claim_carrier_terms WHERE ${where} ORDER BY carrier`,
    params,
  );

export async function claimBoard(db: Queryable): Promise<ClaimBoard> {
  const [open, closed, terms] = await Promise.all([
    claimsWhere(db, "c.status <> 'closed' ORDER BY c.created_at, c.id"),
    claimsWhere(db, "c.status = 'closed' ORDER BY c.created_at DESC, c.id DESC LIMIT $1", [
      CLAIM_BOARD_CLOSED_LIMIT,
    ]),
    termsOf(db),
  ]);
  return { open, closed, terms };
}

type ParcelRow = {
  id: number;
  tracking_number: string;
  carrier: ClaimPackage['carrier'];
  status: PackageStatus;
  order_id: number;
  order_number: string;
  shipped_at: string | null;
  open_claim_number: string | null;
};

/** The newest parcel of a tracking number (carriers recycle numbers), with its open claim. */
export async function claimParcel(db: Queryable, code: string): Promise<ClaimPackage> {
  const trackingNumber = normaliseScan(code);
  const [parcel] = await db.query<ParcelRow>(
    `SELECT p.id::int AS id, p.tracking_number, p.carrier, p.status, p.order_id::int AS order_id,
       o.number AS order_number, ${isoTextSql('p.scanned_out_at')} AS shipped_at,
       (SELECT c.number FROM claims c WHERE c.package_id = p.id AND c.status <> 'closed')
         AS open_claim_number
     FROM packages p JOIN orders o ON o.id = p.order_id
     WHERE p.tracking_number = $1 ORDER BY p.id DESC LIMIT 1`,
    [trackingNumber],
  );
  if (!parcel)
    throw new NotFoundError(`There is no parcel with tracking number ${trackingNumber}.`);
  const devices = await devicesOfOrder(db, parcel.order_id);
  const sum = (cents: (device: ClaimDevice) => number) =>
    devices.reduce((total, device) => total + cents(device), 0);
  return {
    package_id: parcel.id,
    tracking_number: parcel.tracking_number,
    carrier: parcel.carrier,
    status: parcel.status,
    order_number: parcel.order_number,
    shipped_at: parcel.shipped_at,
    declared_cents: sum((device) => device.price_cents),
    claimed_cents: sum((device) => device.cost_cents ?? 0),
    devices,
    open_claim_number: parcel.open_claim_number,
  };
}

/**
 * Drafts a claim on a parcel in the state its type is for. The open-claim index decides between
 * two drafts at once: the second waits for the first and is told its number (409).
 */
export async function createClaim(
  tx: Transaction,
  { actor, meta }: Acting,
  input: CreateClaimInput,
): Promise<ClaimDetail> {
  const [parcel] = await tx.query<{ tracking_number: string; status: PackageStatus }>(
    'SELECT tracking_number, status FROM packages WHERE id = $1 FOR KEY SHARE',
    [input.package_id],
  );
  if (!parcel) throw new NotFoundError(`There is no parcel with id ${input.package_id}.`);
  const needed = CLAIM_PACKAGE_STATUS[input.type];
  if (parcel.status !== needed) {
    throw new ConflictError(
      needed === 'lost'
        ? `Parcel ${parcel.tracking_number} is ${parcel.status.replaceAll('_', ' ')}, not flagged lost: flag it lost on Parcel shipments first.`
        : `A claim for a ${CLAIM_TYPE_WORDS[input.type].toLowerCase()} parcel needs it delivered; ${parcel.tracking_number} is ${parcel.status.replaceAll('_', ' ')}.`,
    );
  }
  const [created] = await tx.query<{ id: number; number: string }>(
    `INSERT INTO claims (package_id, type, declared_cents, claimed_cents, note, created_by)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (package_id) WHERE status <> 'closed' DO NOTHING
     RETURNING id::int AS id, number`,
    [
      input.package_id,
      input.type,
      input.declared_cents,
      input.claimed_cents,
      input.note ?? null,
      actor.userId,
    ],
  );
  if (!created) {
    const [open] = await tx.query<{ number: string }>(
      `SELECT number FROM claims WHERE package_id = $1 AND status <> 'closed'`,
      [input.package_id],
    );
    throw new ConflictError(
      `Parcel ${parcel.tracking_number} has an open claim already: ${open?.number ?? 'another claim'}.`,
    );
  }
  await tx.query(
    `INSERT INTO claim_events (claim_id, actor_id, actor_name, type, to_status, data)
     VALUES ($1, $2, $3, 'created', 'draft', $4::jsonb)`,
    [created.id, actor.userId, actor.userName, JSON.stringify({ type: input.type })],
  );
  await recordAudit(tx, {
    ...auditActor(actor, meta),
    action: 'claim.created',
    entityType: 'claim',
    entityId: created.id,
    after: { number: created.number, ...input },
  });
  return claimDetail(tx, created.id);
}

type StepInput = Pick<TransitionInput<ClaimAction>, 'reason' | 'columns'>;

/** Runs a step of a claim's lifecycle and answers the claim as it is after it. */
export async function claimStep(
  tx: Transaction,
  { actor, meta }: Acting,
  id: number,
  action: ClaimAction,
  input: StepInput = {},
): Promise<ClaimDetail> {
  await runTransition(tx, claimStore, { id, action, actor, meta, ...input });
  return claimDetail(tx, id);
}

/**
 * Files a draft with the carrier: not before a lost parcel's waiting period ends, never past the
 * carrier's window (DOMAIN.md 4.16, its terms as they are now).
 */
export async function fileClaim(
  tx: Transaction,
  acting: Acting,
  id: number,
  carrierClaimNumber: string,
): Promise<ClaimDetail> {
  const [window] = await tx.query<{ number: string; early: string | null; late: string | null }>(
    `SELECT c.number,
       CASE WHEN c.type = 'lost' AND now() < ${EARLIEST_FILING}
         THEN ${isoTextSql(EARLIEST_FILING)} END AS early,
       CASE WHEN now() > ${DEADLINE} THEN ${isoTextSql(DEADLINE)} END AS late
     FROM ${CLAIM_FROM} WHERE c.id = $1`,
    [id],
  );
  if (window?.early) {
    throw new ConflictError(
      `${window.number} cannot be filed before ${window.early.slice(0, 10)}: the carrier searches for a lost parcel until then.`,
    );
  }
  if (window?.late) {
    throw new ConflictError(
      `${window.number} was due by ${window.late.slice(0, 10)}: the carrier's filing window has passed. Close it.`,
    );
  }
  return claimStep(tx, acting, id, 'file', {
    columns: { carrier_claim_number: carrierClaimNumber },
  });
}

/** Records the carrier's payment; a lost parcel's devices are written off in the same step. */
export const payClaim = (tx: Transaction, acting: Acting, id: number, paidCents: number) =>
  claimStep(tx, acting, id, 'pay', { columns: { paid_cents: paidCents } });

/** Changes a carrier's filing terms (a manager), with the terms before and after in the audit. */
export async function updateCarrierTerms(
  tx: Transaction,
  { actor, meta }: Acting,
  carrier: CarrierTerms['carrier'],
  input: UpdateCarrierTermsInput,
): Promise<CarrierTerms> {
  await tx.query('SELECT 1 FROM claim_carrier_terms WHERE carrier = $1 FOR UPDATE', [carrier]);
  const [before] = await termsOf(tx, 'carrier = $1', [carrier]);
  if (!before) throw new NotFoundError(`There are no claim terms for ${carrier}.`);
  await tx.query(
    `UPDATE claim_carrier_terms
     SET lost_wait_days = $2, filing_window_days = $3, updated_at = now(), updated_by = $4
     WHERE carrier = $1`,
    [carrier, input.lost_wait_days, input.filing_window_days, actor.userId],
  );
  const [after] = await termsOf(tx, 'carrier = $1', [carrier]);
  await recordAudit(tx, {
    ...auditActor(actor, meta),
    action: 'claim_carrier_terms.updated',
    entityType: 'claim_carrier_terms',
    entityId: carrier,
    before,
    after,
  });
  return after!;
}
