import {
  CARRIER_NAMES,
  type GenerateScanFormInput,
  type ScanFormAnswer,
  type ScanFormRow,
} from '@inventory/contract';
import type { Queryable, Transaction } from '../../db/db.js';
import { ConflictError, fieldError, NotFoundError } from '../../http/errors.js';
import { auditActor, recordAudit } from '../audit/index.js';
import { SCAN_FORM_ROW_COLUMNS, writePackageEvents } from './gaylords.service.js';
import type { Desk } from './labels.service.js';

/**
 * SCAN forms (DOMAIN.md 2.2 ScanForm, 4.14 /fulfill/gaylord; USPS PS Form 5630): a carrier's
 * closed gaylords go on the form of their ship date and origin ZIP (shipping_settings'
 * ship_from_zip), one form per ship date, origin ZIP and carrier (a unique index). Generating
 * again the same day adds the gaylords closed since to the same form, until the carrier has taken
 * one of its gaylords: then the form is complete and another ship date is asked for.
 */

/** One SCAN form's row; 404 when there is none. */
export async function scanFormRow(db: Queryable, id: number): Promise<ScanFormRow> {
  const [row] = await db.query<ScanFormRow>(
    `SELECT ${SCAN_FORM_ROW_COLUMNS} FROM scan_forms f WHERE f.id = $1`,
    [id],
  );
  if (!row) throw new NotFoundError(`There is no SCAN form with id ${id}.`);
  return row;
}

type DayForm = { id: number; number: string; picked_up_at: string | null };

const FORM_OF_DAY = `SELECT id::int AS id, number,
    to_char(picked_up_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') AS picked_up_at
  FROM scan_forms WHERE carrier = $1 AND ship_date = $2 AND origin_zip = $3 FOR UPDATE`;

export async function generateScanForm(
  tx: Transaction,
  desk: Desk,
  input: GenerateScanFormInput,
): Promise<ScanFormAnswer> {
  const { carrier } = input;
  const [day] = await tx.query<{ today: string; origin_zip: string }>(
    `SELECT to_char(order_business_day(now()), 'YYYY-MM-DD') AS today,
       (SELECT ship_from_zip FROM shipping_settings) AS origin_zip`,
  );
  const { today, origin_zip: originZip } = day!;
  const shipDate = input.ship_date ?? today;
  if (shipDate < today) {
    throw fieldError('ship_date', `A SCAN form is for today (${today}) or a later day.`);
  }
  const gaylords = await tx.query<{ id: number; code: string }>(
    `SELECT id::int AS id, code FROM gaylords
     WHERE carrier = $1 AND direction = 'outbound' AND status = 'closed' AND scan_form_id IS NULL
     ORDER BY id FOR UPDATE`,
    [carrier],
  );
  if (gaylords.length === 0) {
    throw new ConflictError(
      `No closed ${CARRIER_NAMES[carrier]} gaylord is waiting for a SCAN form: close a gaylord first.`,
    );
  }
  const key = [carrier, shipDate, originZip];
  let [form] = await tx.query<DayForm>(FORM_OF_DAY, key);
  let created = false;
  if (!form) {
    // Two generations at once for one day: the second finds the first's form.
    [form] = await tx.query<DayForm>(
      `INSERT INTO scan_forms (carrier, ship_date, origin_zip, created_by) VALUES ($1, $2, $3, $4)
       ON CONFLICT (carrier, ship_date, origin_zip) DO NOTHING
       RETURNING id::int AS id, number, NULL::text AS picked_up_at`,
      [...key, desk.principal.userId],
    );
    created = form !== undefined;
    form ??= (await tx.query<DayForm>(FORM_OF_DAY, key))[0];
  }
  const { id, number } = form!;
  if (form!.picked_up_at) {
    throw new ConflictError(
      `SCAN form ${number} (${CARRIER_NAMES[carrier]}, ship date ${shipDate}, ZIP ${originZip}) ` +
        `went with the carrier at ${form!.picked_up_at} UTC: a ship date and origin ZIP have one ` +
        'form. Put these gaylords on the next ship date.',
    );
  }
  const ids = gaylords.map((gaylord) => gaylord.id);
  await tx.query(
    'UPDATE gaylords SET scan_form_id = $2, updated_at = now() WHERE id = ANY ($1::bigint[])',
    [ids, id],
  );
  await writePackageEvents(
    tx,
    desk,
    'manifested',
    { scan_form: number, ship_date: shipDate },
    "p.gaylord_id = ANY ($1::bigint[]) AND p.status <> 'voided'",
    [ids],
  );
  await tx.query(
    `UPDATE scan_forms f SET updated_at = now(), package_count = (
       SELECT count(*) FROM gaylords g JOIN packages p ON p.gaylord_id = g.id
       WHERE g.scan_form_id = f.id AND p.status <> 'voided')
     WHERE f.id = $1`,
    [id],
  );
  const row = await scanFormRow(tx, id);
  const codes = gaylords.map((gaylord) => gaylord.code);
  await recordAudit(tx, {
    ...auditActor(desk.principal, desk.meta),
    action: created ? 'scan_form.created' : 'scan_form.gaylords_added',
    entityType: 'scan_form',
    entityId: id,
    after: { number, carrier, ship_date: shipDate, origin_zip: originZip, gaylords: codes },
  });
  return { form: row, created, gaylords: codes };
}
