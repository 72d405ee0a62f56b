import {
  DEACTIVATION_FILE,
  RETURNED_SIMS_SHOWN,
  type FileFormat,
  type ReturnedSim,
  type ReturnedSimDecision,
} from '@inventory/contract';
import type { Queryable, Transaction } from '../../db/db.js';
import { ConflictError, NotFoundError } from '../../http/errors.js';
import type { Acting } from '../../http/principal.js';
import type { PreparedFile } from '../../toolkit/downloads.js';
import { CONTENT_TYPES, fileStream, type Cell } from '../../toolkit/files.js';
import { runTransitions } from '../../toolkit/lifecycle.js';
import { simStore } from '../sim/index.js';

/**
 * SIMs that came back (DOMAIN.md 4.10 /RMA/sim, 5.3 step 3): every SIM `returned` and waiting,
 * from an unpacked parcel or a SIM return. Those from parcels are decided here through the SIM
 * lifecycle's `restock` and `destroy`; those of a SIM return are decided on its return
 * (/sim/return), which keeps its lines. A SIM ever detected active is destroyed, never restocked
 * (decision 0032).
 */

export async function returnedSims(db: Queryable): Promise<ReturnedSim[]> {
  return db.query<ReturnedSim>(
    `SELECT c.id::int AS id, c.iccid,
       (SELECT v.name FROM vendors v WHERE v.id = c.client_carrier_id) AS client_carrier,
       CASE WHEN c.sim_return_id IS NULL THEN 'parcel' ELSE 'sim_return' END AS source,
       COALESCE((SELECT r.number FROM sim_returns r WHERE r.id = c.sim_return_id),
         (SELECT p.tracking_number FROM unpack_items i JOIN unpacks k ON k.id = i.unpack_id
          JOIN packages p ON p.id = k.package_id
          WHERE i.sim_id = c.id ORDER BY i.id DESC LIMIT 1)) AS reference,
       (SELECT o.number FROM orders o WHERE o.id = c.order_id) AS order_number,
       c.last_detect_state, c.ever_active, to_json(c.updated_at) #>> '{}' AS returned_at
     FROM sim_cards c WHERE c.status = 'returned'
     ORDER BY c.id DESC LIMIT ${RETURNED_SIMS_SHOWN}`,
  );
}

/**
 * Restocks or destroys SIMs that came back in parcels, all or none: locked in id order, so two
 * people deciding the same SIM take turns and the second finds it decided (409).
 */
export async function decideReturnedSims(
  tx: Transaction,
  { actor, meta }: Acting,
  input: Required<Pick<ReturnedSimDecision, 'action' | 'sim_ids'>> &
    Pick<ReturnedSimDecision, 'reason'>,
): Promise<{ moved: number }> {
  const ids = [...new Set(input.sim_ids)].sort((a, b) => a - b);
  const sims = await tx.query<{
    id: number;
    iccid: string;
    status: string;
    ever_active: boolean;
    sim_return: string | null;
  }>(
    `SELECT c.id::int AS id, c.iccid, c.status, c.ever_active,
       (SELECT r.number FROM sim_returns r WHERE r.id = c.sim_return_id) AS sim_return
     FROM sim_cards c WHERE c.id = ANY ($1::bigint[]) ORDER BY c.id FOR UPDATE OF c`,
    [ids],
  );
  if (sims.length !== ids.length) throw new NotFoundError('A chosen SIM does not exist.');
  const problems = sims.flatMap((sim) =>
    sim.status !== 'returned'
      ? [`${sim.iccid} is ${sim.status.replace(/_/g, ' ')} already.`]
      : sim.sim_return
        ? [`${sim.iccid} is decided on its SIM return ${sim.sim_return}.`]
        : input.action === 'restock' && sim.ever_active
          ? [`${sim.iccid} was once active: it is destroyed, never restocked.`]
          : [],
  );
  if (problems.length > 0) throw new ConflictError(problems.join(' '));
  const steps = await runTransitions(tx, simStore, {
    ids,
    action: input.action,
    actor,
    meta,
    reason: input.action === 'destroy' ? (input.reason ?? undefined) : undefined,
    data: { page: '/RMA/sim' },
  });
  return { moved: steps.length };
}

/**
 * The carrier's deactivation list: SIMs we have back (waiting or destroyed) whose line the
 * carrier last saw live. A line deactivated shows inactive at the next detection and leaves it.
 */
export async function deactivationFile(db: Queryable, format: FileFormat): Promise<PreparedFile> {
  const rows = await db.query<{
    iccid: string;
    client_carrier: string;
    last_detect_state: string;
    status: string;
  }>(
    `SELECT c.iccid, (SELECT v.name FROM vendors v WHERE v.id = c.client_carrier_id)
       AS client_carrier, c.last_detect_state, c.status
     FROM sim_cards c
     WHERE c.status IN ('returned', 'destroyed') AND c.last_detect_state IN ('active', 'suspended')
     ORDER BY c.iccid`,
  );
  const cells: Cell[][] = rows.map((row) => [
    row.iccid,
    row.client_carrier,
    row.last_detect_state,
    row.status,
  ]);
  async function* chunks() {
    yield cells;
  }
  return {
    fileName: `sims-to-deactivate-${new Date().toISOString().slice(0, 10)}.${format}`,
    contentType: CONTENT_TYPES[format],
    stream: fileStream(format, DEACTIVATION_FILE.title, DEACTIVATION_FILE.columns, chunks()),
  };
}
