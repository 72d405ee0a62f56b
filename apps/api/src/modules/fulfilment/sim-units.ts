import type { Transaction } from '../../db/db.js';

/**
 * SIM-only units (DOMAIN.md 4.14 `/fulfill/support-order`: a SIM-only replacement): a line of a
 * SIM kit (product kind `sim_kit`) ships SIMs alone, a unit per kit and no device. Its units are
 * made at assignment, with no SIM set aside (any in-stock SIM of the order's carrier will do), and
 * each takes the ICCID scanned at the station, which allocates that SIM to the order (DOMAIN.md
 * 3.6); labelled and scanned out, they ship as every unit does. A SIM kit inside a bundle stays an
 * accessory: its SIM is the one paired with the bundle's device.
 */

/** Whether a unit over `order_line_units u` ships a SIM alone: its variant is a SIM kit. */
export const SIM_ONLY_UNIT_SQL = `EXISTS (SELECT 1 FROM product_variants sv
  JOIN products sp ON sp.id = sv.product_id WHERE sv.id = u.variant_id AND sp.kind = 'sim_kit')`;

/** Makes the missing SIM-only units of the orders' SIM kit lines, waiting for an ICCID. */
export async function allocateSimUnits(
  tx: Transaction,
  orderIds: readonly number[],
  actorId: number | null,
): Promise<void> {
  if (orderIds.length === 0) return;
  await tx.query(
    `INSERT INTO order_line_units (order_line_id, variant_id, status, created_by)
     SELECT l.id, l.variant_id, 'allocated', $2
     FROM order_lines l
     JOIN product_variants v ON v.id = l.variant_id
     JOIN products p ON p.id = v.product_id
     CROSS JOIN LATERAL generate_series(1, l.qty - (
       SELECT count(*)::int FROM order_line_units u
       WHERE u.order_line_id = l.id AND u.status IN ('allocated', 'picked', 'packed', 'shipped')))
     WHERE l.order_id = ANY ($1::bigint[]) AND p.kind = 'sim_kit'`,
    [orderIds, actorId],
  );
}
