import {
  normaliseScan,
  parseDeviceId,
  type ReceiveScan,
  type ReceiveScanResult,
  type ScannedDevice,
} from '@inventory/contract';
import type { Queryable } from '../../db/db.js';
import { ConflictError, NotFoundError } from '../../http/errors.js';
import type { Principal, RequestMeta } from '../session/session.service.js';

/** What the database answers for a scan (receive_scan, migrations 0009 and 0014). */
type DatabaseAnswer = {
  result: ReceiveScanResult;
  device: ScannedDevice | null;
  box: ReceiveScan['box'];
  detail: Record<string, string | null> | null;
};

/** A moment in the station's sentence; the server knows no reader's zone, so it says UTC. */
const dayAndTime = (iso: string | null | undefined) =>
  iso ? `${new Date(iso).toISOString().slice(0, 16).replace('T', ' ')} UTC` : 'earlier';

const deviceText = (device: ScannedDevice | null) =>
  device
    ? [device.model, device.color, device.capacity_gb ? `${device.capacity_gb} GB` : null]
        .filter(Boolean)
        .join(', ')
    : '';

/** The sentence a station shows for each result: what happened and what to do. */
function messageOf(answer: DatabaseAnswer): string {
  const detail = answer.detail ?? {};
  const device = deviceText(answer.device);
  switch (answer.result) {
    case 'added':
      return `Added: ${device}.`;
    case 'model_mismatch':
      return `Added, but its TAC says ${answer.device?.model}; the invoice says ${detail.claimed_model}.`;
    case 'unexpected':
      return `Added, but it is not on the invoice: flagged unexpected (${device}).`;
    case 'blacklisted':
      return `Blacklisted (${detail.source}, ${detail.reason}): received on hold. Put it in the quarantine tote.`;
    case 'already_in_box':
      return 'Already in this box: nothing to do.';
    case 'quarantined':
      return `On hold (${String(detail.hold_reason).replace(/_/g, ' ')}) and in quarantine already: put it back in the quarantine tote, not in a box.`;
    case 'in_other_box':
      return `Already received in ${detail.box} (invoice ${detail.invoice_no}) on ${dayAndTime(detail.received_at)}${detail.received_by ? ` by ${detail.received_by}` : ''}.`;
    case 'in_registry':
      return `Already in the registry (${String(detail.status).replace(/_/g, ' ')}): it cannot be received again. Put it aside for a manager.`;
    case 'other_invoice':
      return `On invoice ${detail.invoice_no} of ${detail.vendor}, not this one: put it aside for that invoice's box.`;
    case 'unknown_tac':
      return `TAC ${detail.tac} maps to no model yet: learn the TAC, or put the device aside.`;
    case 'meid_unknown':
      return `A MEID tells no model, and invoice ${detail.invoice_no} does not list it: put it aside.`;
    default:
      return '';
  }
}

/** The result of a code that is no IMEI or MEID at all, by the parser's problem. */
const unreadable = (problem: string): ReceiveScanResult =>
  problem === 'check-digit'
    ? 'bad_check_digit'
    : problem === 'imeisv'
      ? 'imeisv'
      : 'not_an_identifier';

async function boxCounts(db: Queryable, id: number): Promise<ReceiveScan['box']> {
  const [box] = await db.query<ReceiveScan['box']>(
    'SELECT id, code, status, qty_scanned, qty_expected FROM warehouse_boxes WHERE id = $1',
    [id],
  );
  if (!box) throw new NotFoundError(`There is no warehouse box with id ${id}.`);
  return box;
}

/**
 * One scan into a receiving box. The code is read here (a bad check digit or an IMEISV never
 * reaches the database); a readable IMEI or MEID is received in one statement that locks the box,
 * so two stations scanning one device at the same moment get one winner and one "already in".
 */
export async function receiveScan(
  db: Queryable,
  actor: Principal,
  meta: RequestMeta,
  boxId: number,
  scan: { code: string; station?: string | undefined },
): Promise<ReceiveScan> {
  const code = normaliseScan(scan.code);
  const parsed = parseDeviceId(code);
  if (!parsed.ok) {
    return {
      result: unreadable(parsed.problem),
      message: parsed.message,
      code,
      device: null,
      box: await boxCounts(db, boxId),
      tac: null,
    };
  }
  const [row] = await db
    .query<{ answer: string }>(
      'SELECT receive_scan($1, $2, $3, $4, $5, $6, $7, $8)::text AS answer',
      [
        boxId,
        parsed.value.kind,
        parsed.value.value,
        actor.userId,
        actor.userName,
        scan.station ?? null,
        meta.requestId,
        meta.ip,
      ],
    )
    .catch((error: { code?: string; message?: string }) => {
      // The function's own refusals: an unknown box (P0002), a closed box or invoice (P0001).
      if (error.code === 'P0002') throw new NotFoundError(error.message ?? 'Unknown box.');
      if (error.code === 'P0001') throw new ConflictError(error.message ?? 'This box is closed.');
      throw error;
    });
  const answer = JSON.parse(row!.answer) as DatabaseAnswer;
  return {
    result: answer.result,
    message: messageOf(answer),
    code,
    device: answer.device,
    box: answer.box,
    tac: answer.result === 'unknown_tac' ? (answer.detail?.tac ?? null) : null,
  };
}
