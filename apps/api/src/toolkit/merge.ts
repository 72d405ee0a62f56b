import type { Queryable } from '../db/db.js';
import { ConflictError } from '../http/errors.js';
import { quoteIdentifier } from '../http/sql.js';

/** A column that refers to the merged table: a plain id, or an array of ids. */
export type Repoint = {
  readonly table: string;
  readonly column: string;
  readonly array?: boolean;
};

/**
 * Repoints every reference from row `from` to row `into`, then deletes `from`: the caller checks
 * both rows and records the audit event, in the same transaction.
 */
export async function repointAndDelete(
  db: Queryable,
  table: string,
  from: number,
  into: number,
  repoints: readonly Repoint[],
): Promise<void> {
  if (from === into) throw new ConflictError('A row cannot be merged into itself.');
  for (const { table: referring, column, array } of repoints) {
    const name = quoteIdentifier(column);
    await db.query(
      array
        ? `UPDATE ${referring} SET ${name} = (
             SELECT COALESCE(array_agg(DISTINCT CASE WHEN id = $1 THEN $2 ELSE id END), '{}')
             FROM unnest(${name}) AS id)
           WHERE $1 = ANY (${name})`
        : `UPDATE ${referring} SET ${name} = $2 WHERE ${name} = $1`,
      [from, into],
    );
  }
  await db.query(`DELETE FROM ${table} WHERE id = $1`, [from]);
}
