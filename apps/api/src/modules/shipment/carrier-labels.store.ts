import type { LabelFormat } from '@inventory/contract';
import type { Queryable } from '../../db/db.js';
import { ConflictError } from '../../http/errors.js';
import type { LabelFile } from '../../toolkit/documents/label.js';

/**
 * Labels bought from an aggregator (migration 0062): the carrier's label file, which the label
 * desk prints instead of our rendering, and the aggregator's id of what it sold, for the void.
 */

export type CarrierLabel = {
  readonly packageId: number;
  readonly carrierRef: string;
  readonly document: LabelFile;
};

/** Keeps the carrier's labels of new packages. */
export async function keepCarrierLabels(
  db: Queryable,
  labels: readonly CarrierLabel[],
): Promise<void> {
  if (labels.length === 0) return;
  await db.query(
    `INSERT INTO package_carrier_labels (package_id, carrier_ref, format, content)
     SELECT s.package_id, s.carrier_ref, s.format, decode(s.content, 'hex')
     FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[])
       AS s (package_id, carrier_ref, format, content)`,
    [
      labels.map((label) => label.packageId),
      labels.map((label) => label.carrierRef),
      labels.map((label) => label.document.format),
      labels.map((label) => Buffer.from(label.document.content).toString('hex')),
    ],
  );
}

/** The aggregator's id of a package's label; null for a label of the offline carrier. */
export async function carrierRefOf(db: Queryable, packageId: number): Promise<string | null> {
  const [row] = await db.query<{ carrier_ref: string }>(
    'SELECT carrier_ref FROM package_carrier_labels WHERE package_id = $1',
    [packageId],
  );
  return row?.carrier_ref ?? null;
}

/** The carrier's label files of packages, by package. */
export async function carrierLabelFiles(
  db: Queryable,
  packageIds: readonly number[],
): Promise<Map<number, LabelFile>> {
  const rows = await db.query<{ package_id: number; format: LabelFormat; content: Uint8Array }>(
    `SELECT package_id::int AS package_id, format, content FROM package_carrier_labels
     WHERE package_id = ANY ($1::bigint[])`,
    [packageIds],
  );
  return new Map(rows.map((row) => [row.package_id, { format: row.format, content: row.content }]));
}

/**
 * Refuses (409) a print in one format of labels the carrier made in the other: a carrier's file
 * prints as it is. `where` chooses the packages over `packages p`, its parameters from $1.
 */
export async function refuseOtherFormat(
  db: Queryable,
  where: string,
  params: unknown[],
  format: LabelFormat,
): Promise<void> {
  const [other] = await db.query<{ tracking_number: string; format: LabelFormat }>(
    `SELECT p.tracking_number, c.format FROM packages p
     JOIN package_carrier_labels c ON c.package_id = p.id
     WHERE ${where} AND p.status IN ('label_created', 'in_gaylord') AND c.format <> $${params.length + 1}
     LIMIT 1`,
    [...params, format],
  );
  if (other) {
    const theirs = other.format.toUpperCase();
    throw new ConflictError(
      `Label ${other.tracking_number} is the carrier's own ${theirs} file: print it as ${theirs}.`,
    );
  }
}
