import {
  CARRIER_NAMES,
  DOCK_DAY_LEFT_BEHIND_LISTED,
  type DockDay,
  type DockDayFigures,
} from '@inventory/contract';
import type { Queryable, Transaction } from '../../db/db.js';
import { ConflictError, NotFoundError } from '../../http/errors.js';
import { businessDayEndSql, businessDayStartSql, isoTextSql } from '../../http/sql.js';
import type { SheetContent } from '../../toolkit/documents/print.js';
import { auditActor, recordAudit } from '../audit/index.js';
import type { Desk } from './labels.service.js';
import { shippingSettings, weightText } from './shipping-label.js';

/**
 * The dock's end-of-day close (DOMAIN.md 4.14 /fulfill/scan-to-ship). Closing keeps the day's
 * figures as they stand and stops anything more scanning out that business day (the dock's scan
 * and a gaylord's pickup answer "day closed") until a manager reopens it with a reason.
 *
 * Every scan-out holds the dock's advisory lock shared from before it reads whether the day is
 * closed until it commits; the close takes it exclusively. So the close waits for the scans under
 * way, counts them, and a scan that comes after it reads the day closed: no parcel leaves uncounted
 * on a closed day, and scans never wait for one another.
 */

/** The advisory lock key of the dock's day: shared by scans, exclusive for a close. */
const DOCK_DAY_LOCK = 4_014_001;

/** Held by a scan-out (`lockParcels`) before it reads whether today's dock is closed. */
export async function holdDockOpen(tx: Transaction): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock_shared($1)', [DOCK_DAY_LOCK]);
}

/** SQL: whether today's dock is closed, for a scan-out's parcel lock. */
export const DOCK_CLOSED_SQL = `EXISTS (SELECT 1 FROM dock_days d
  WHERE d.business_day = order_business_day(now()) AND d.status = 'closed')`;

const DAY_BOUNDS = businessDayStartSql('$1');
const DAY_END = businessDayEndSql('$1');

/** The day's figures as they stand now: shipped per carrier, left behind, its SCAN forms. */
async function liveFigures(db: Queryable, day: string): Promise<DockDayFigures> {
  const [carriers, leftBehind, scanForms] = await Promise.all([
    db.query<DockDayFigures['carriers'][number]>(
      `SELECT carrier, count(*)::int AS parcels, COALESCE(sum(weight_g), 0)::int AS weight_g
       FROM packages
       WHERE COALESCE(scanned_out_at, '-infinity'::timestamptz) >= ${DAY_BOUNDS}
         AND COALESCE(scanned_out_at, '-infinity'::timestamptz) < ${DAY_END}
       GROUP BY carrier ORDER BY carrier`,
      [day],
    ),
    db.query<DockDayFigures['left_behind'][number] & { total: number }>(
      `SELECT p.id::int AS package_id, p.tracking_number, o.number AS order_number, p.carrier,
         p.status, g.code AS gaylord, ${isoTextSql('p.label_created_at')} AS labelled_at,
         count(*) OVER ()::int AS total
       FROM packages p JOIN orders o ON o.id = p.order_id
       LEFT JOIN gaylords g ON g.id = p.gaylord_id
       WHERE p.status IN ('label_created', 'in_gaylord')
       ORDER BY p.label_created_at, p.id LIMIT $1`,
      [DOCK_DAY_LEFT_BEHIND_LISTED],
    ),
    db.query<DockDayFigures['scan_forms'][number]>(
      `SELECT number, carrier, package_count::int AS package_count,
         picked_up_at IS NOT NULL AS picked_up
       FROM scan_forms WHERE ship_date = $1::date ORDER BY carrier, number`,
      [day],
    ),
  ]);
  return {
    carriers,
    shipped: carriers.reduce((sum, row) => sum + row.parcels, 0),
    left_behind_count: leftBehind[0]?.total ?? 0,
    left_behind: leftBehind.map(({ total: _total, ...parcel }) => parcel),
    scan_forms: scanForms,
  };
}

type DockDayRecord = Omit<DockDay, 'figures'> & { summary: DockDayFigures | null };

const RECORD_SQL = `SELECT to_char(d.day, 'YYYY-MM-DD') AS business_day,
    COALESCE(r.status, 'open') AS status,
    CASE WHEN r.status = 'closed' THEN ${isoTextSql('r.closed_at')} END AS closed_at,
    CASE WHEN r.status = 'closed' THEN (SELECT u.name FROM users u WHERE u.id = r.closed_by)
    END AS closed_by_name,
    ${isoTextSql('r.reopened_at')} AS reopened_at,
    (SELECT u.name FROM users u WHERE u.id = r.reopened_by) AS reopened_by_name,
    r.reopen_reason, CASE WHEN r.status = 'closed' THEN r.summary END AS summary
  FROM (SELECT COALESCE($1::date, order_business_day(now())) AS day) d
  LEFT JOIN dock_days r ON r.business_day = d.day`;

async function dockDayRecord(db: Queryable, day: string | null): Promise<DockDayRecord> {
  const [record] = await db.query<DockDayRecord>(RECORD_SQL, [day]);
  return record!;
}

/** A business day's dock (today's when none is named): live while open, as closed once closed. */
export async function dockDay(db: Queryable, day: string | null = null): Promise<DockDay> {
  const { summary, ...record } = await dockDayRecord(db, day);
  return { ...record, figures: summary ?? (await liveFigures(db, record.business_day)) };
}

const atText = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

/** Closes today's dock with its figures as they stand; 409 when it is closed already. */
export async function closeDockDay(tx: Transaction, desk: Desk): Promise<DockDay> {
  await tx.query('SELECT pg_advisory_xact_lock($1)', [DOCK_DAY_LOCK]);
  const today = await dockDayRecord(tx, null);
  if (today.status === 'closed') {
    throw new ConflictError(
      `The dock's day ${today.business_day} was closed at ${atText(today.closed_at!)} by ${today.closed_by_name}.`,
    );
  }
  const figures = await liveFigures(tx, today.business_day);
  await tx.query(
    `INSERT INTO dock_days (business_day, status, closed_at, closed_by, summary)
     VALUES ($1, 'closed', now(), $2, $3)
     ON CONFLICT (business_day) DO UPDATE
       SET status = 'closed', closed_at = now(), closed_by = $2, summary = $3`,
    [today.business_day, desk.principal.userId, JSON.stringify(figures)],
  );
  await recordAudit(tx, {
    ...auditActor(desk.principal, desk.meta),
    action: 'dock_day.closed',
    entityType: 'dock_day',
    entityId: today.business_day,
    after: { shipped: figures.shipped, left_behind: figures.left_behind_count },
  });
  return dockDay(tx, today.business_day);
}

/** Reopens today's closed dock with a reason; 409 when it is open. */
export async function reopenDockDay(tx: Transaction, desk: Desk, reason: string): Promise<DockDay> {
  const [row] = await tx.query<{ business_day: string }>(
    `UPDATE dock_days SET status = 'open', reopened_at = now(), reopened_by = $1,
       reopen_reason = $2
     WHERE business_day = order_business_day(now()) AND status = 'closed'
     RETURNING to_char(business_day, 'YYYY-MM-DD') AS business_day`,
    [desk.principal.userId, reason],
  );
  if (!row) throw new ConflictError("Today's dock is open: there is nothing to reopen.");
  await recordAudit(tx, {
    ...auditActor(desk.principal, desk.meta),
    action: 'dock_day.reopened',
    entityType: 'dock_day',
    entityId: row.business_day,
    after: { reason },
  });
  return dockDay(tx, row.business_day);
}

/** The business day a print asks for: today, or a day whose dock was closed; 404 otherwise. */
export async function printableDockDay(db: Queryable, day: string): Promise<string> {
  const [found] = await db.query<{ ok: boolean }>(
    `SELECT $1::date = order_business_day(now())
       OR EXISTS (SELECT 1 FROM dock_days WHERE business_day = $1::date) AS ok`,
    [day],
  );
  if (!found!.ok) throw new NotFoundError(`The dock was never closed on ${day}.`);
  return day;
}

/** The end-of-day report: what left per carrier, the SCAN forms, and what stayed behind. */
export async function dockDaySheet(db: Queryable, day: string): Promise<SheetContent> {
  const record = await dockDay(db, day);
  const { ship_from: from } = await shippingSettings(db);
  const { figures } = record;
  const state =
    record.status === 'closed'
      ? `Closed ${atText(record.closed_at!)} by ${record.closed_by_name}`
      : 'Open: figures as of the print';
  return {
    fileName: `dock-day-${record.business_day}`,
    sheet: {
      title: 'End-of-day dock report',
      number: `DOCK-${record.business_day}`,
      parties: [{ title: 'Dock', lines: [from.name, `${from.city}, ${from.state} ${from.zip}`] }],
      fields: [
        { label: 'Business day', value: record.business_day },
        { label: 'State', value: state },
        ...figures.carriers.map((row) => ({
          label: `${CARRIER_NAMES[row.carrier]} shipped`,
          value: `${row.parcels} (${weightText(row.weight_g)})`,
        })),
        {
          label: 'SCAN forms',
          value:
            figures.scan_forms.map((form) => `${form.number} (${form.package_count})`).join(', ') ||
            'none',
        },
      ],
      columns: [
        { header: '#', width: 1, align: 'right' },
        { header: 'Left behind: tracking', width: 5 },
        { header: 'Carrier', width: 2 },
        { header: 'Order', width: 3 },
        { header: 'Where', width: 3 },
        { header: 'Labelled', width: 3 },
      ],
      rows: figures.left_behind.map((parcel, index) => [
        String(index + 1),
        parcel.tracking_number,
        CARRIER_NAMES[parcel.carrier],
        parcel.order_number,
        parcel.gaylord ? `gaylord ${parcel.gaylord}` : 'label printed',
        atText(parcel.labelled_at),
      ]),
      totals: [
        { label: 'Shipped', value: String(figures.shipped) },
        { label: 'Left behind', value: String(figures.left_behind_count) },
      ],
      notes: [
        figures.left_behind_count > figures.left_behind.length
          ? `The first ${figures.left_behind.length} of ${figures.left_behind_count} parcels left behind are listed.`
          : 'Every parcel labelled and not scanned out is listed: it ships on a later day.',
      ],
      signatures: ['Closed by (shipping lead)'],
      footer: `Dock ${record.business_day}`,
    },
  };
}
