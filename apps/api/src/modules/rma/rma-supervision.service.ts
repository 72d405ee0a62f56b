import type { ClearRmaMismatchInput, CloseRmaShortInput, RmaDetail } from '@inventory/contract';
import type { Transaction } from '../../db/db.js';
import { ConflictError } from '../../http/errors.js';
import type { Acting } from '../../http/principal.js';
import { runTransition } from '../../toolkit/lifecycle.js';
import { writeRmaDeviceEvents } from './open-rma.js';
import { lockedRma, recordRmaFact } from './rma.service.js';
import { rmaDetail, rmaStore } from './rma.store.js';

/**
 * A supervisor's acts on an RMA (DOMAIN.md 4.10, 5.3 step 2a). Receiving flags an RMA whose
 * parcel held a device it does not expect; a supervisor looks at what was scanned and clears the
 * flag, saying what was found. A parcel that came without some of the devices expected is closed
 * short with the reason: those lines are not returned, and their devices stay as they are
 * (shipped or delivered: with the customer). Both lock the RMA first, so two supervisors take
 * turns and the second is refused.
 */

/**
 * Clears receiving's mismatch flag with the supervisor's note. The codes scanned since the last
 * clearance go with it on the timeline and in the audit log.
 */
export async function clearRmaMismatch(
  tx: Transaction,
  acting: Acting,
  id: number,
  input: ClearRmaMismatchInput,
): Promise<RmaDetail> {
  const rma = await lockedRma(tx, id);
  if (!rma.mismatch_flagged) {
    throw new ConflictError(`${rma.number} has no mismatch to clear.`);
  }
  const [scanned] = await tx.query<{ codes: string[] }>(
    `SELECT COALESCE(array_agg(DISTINCT sc.code ORDER BY sc.code), '{}') AS codes
     FROM rma_scans sc
     WHERE sc.rma_id = $1 AND sc.result = 'mismatch'
       AND sc.at > COALESCE((SELECT max(e.at) FROM rma_events e
                             WHERE e.rma_id = $1 AND e.type = 'mismatch_cleared'), '-infinity')`,
    [id],
  );
  await tx.query(`UPDATE rmas SET mismatch_flagged = false, updated_at = now() WHERE id = $1`, [
    id,
  ]);
  await recordRmaFact(
    tx,
    acting,
    { id, number: rma.number },
    'mismatch_cleared',
    { note: input.note, codes: scanned!.codes },
    { before: { mismatch_flagged: true }, after: { mismatch_flagged: false } },
  );
  return rmaDetail(tx, id);
}

/**
 * Closes a received RMA short: every device that came back is routed already and no mismatch
 * waits for a supervisor (what was in the parcel is known), so what is missing is what the
 * customer kept. The lines not received are marked not returned, on those devices' timelines
 * too; the devices' status stays.
 */
export async function closeRmaShort(
  tx: Transaction,
  acting: Acting,
  id: number,
  input: CloseRmaShortInput,
): Promise<RmaDetail> {
  const rma = await lockedRma(tx, id);
  const lines = await tx.query<{
    device_id: string;
    identifier: string;
    received: boolean;
    routed: boolean;
  }>(
    `SELECT l.device_id, d.identifier, l.received_at IS NOT NULL AS received,
       l.route IS NOT NULL AS routed
     FROM rma_lines l JOIN devices d ON d.id = l.device_id
     WHERE l.rma_id = $1 ORDER BY d.identifier`,
    [id],
  );
  // An RMA in another state is refused by its lifecycle, which says why.
  if (rma.status === 'received') {
    if (rma.mismatch_flagged) {
      throw new ConflictError(
        `${rma.number} has a mismatch to clear first: say what was found in the parcel.`,
      );
    }
    const unrouted = lines.filter((line) => line.received && !line.routed);
    if (unrouted.length > 0) {
      throw new ConflictError(
        `${unrouted.map((line) => line.identifier).join(', ')} came back: route it before ${rma.number} is closed short.`,
      );
    }
  }
  const missing = lines.filter((line) => !line.received);
  const returned = lines.filter((line) => line.received);
  await runTransition(tx, rmaStore, {
    id,
    action: 'close_short',
    actor: acting.actor,
    meta: acting.meta,
    reason: input.reason,
    data: { rma: rma.number, not_returned: missing.map((line) => line.identifier) },
  });
  const data = { rma: rma.number, reason: input.reason };
  const idsOf = (some: typeof lines) => some.map((line) => line.device_id);
  await writeRmaDeviceEvents(tx, acting.actor, id, 'rma_not_returned', idsOf(missing), data);
  await writeRmaDeviceEvents(tx, acting.actor, id, 'rma_closed', idsOf(returned), data);
  return rmaDetail(tx, id);
}
