import { createHash } from 'node:crypto';
import type { Db, Transaction } from '../db/db.js';
import { fieldError } from '../http/errors.js';
import type { ClientCarrierCaller } from '../http/principal.js';

/** A key as a client sends it: 1 to 200 visible ASCII characters (a UUID, an enrolment id). */
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,200}$/;

export const IDEMPOTENCY_KEY_MISSING =
  'Send an Idempotency-Key header (1 to 200 visible characters, such as a UUID) so that a retry creates nothing twice.';
export const IDEMPOTENCY_KEY_REUSED =
  'This Idempotency-Key was used for a different request; use a new key for a new request.';

/** What a client carrier asked, reduced to a hash: the same key must come with the same request. */
export type IdempotentRequest = {
  readonly method: string;
  readonly path: string;
  readonly body: unknown;
};

const hashOf = (request: IdempotentRequest) =>
  createHash('sha256')
    .update(`${request.method} ${request.path}\n${JSON.stringify(request.body ?? null)}`)
    .digest('hex');

/**
 * Runs a client carrier's write once per idempotency key. The key's row is written first, in the
 * transaction of the work, with the answer: a retry after the answer was lost (a timeout, a
 * killed server) gets the first answer and creates nothing; a retry racing the first attempt waits
 * on the key's unique index until that attempt commits (then reads its answer) or rolls back (then
 * does the work itself). Work that fails (422) leaves no row, so the corrected retry runs.
 */
export async function runIdempotent<T>(
  db: Db,
  caller: ClientCarrierCaller,
  key: string | undefined,
  request: IdempotentRequest,
  work: (tx: Transaction) => Promise<T>,
): Promise<{ readonly data: T; readonly replayed: boolean }> {
  if (key === undefined || !IDEMPOTENCY_KEY.test(key)) {
    throw fieldError('idempotency_key', IDEMPOTENCY_KEY_MISSING);
  }
  const requestHash = hashOf(request);
  return db.transaction(async (tx) => {
    const claimed = await tx.query(
      `INSERT INTO client_carrier_requests (client_carrier_id, idempotency_key, request_hash, answer)
       VALUES ($1, $2, $3, 'null') ON CONFLICT DO NOTHING RETURNING 1`,
      [caller.clientCarrierId, key, requestHash],
    );
    if (claimed.length === 0) {
      const [first] = await tx.query<{ request_hash: string; answer: T }>(
        `SELECT request_hash, answer FROM client_carrier_requests
         WHERE client_carrier_id = $1 AND idempotency_key = $2`,
        [caller.clientCarrierId, key],
      );
      if (first!.request_hash !== requestHash) {
        throw fieldError('idempotency_key', IDEMPOTENCY_KEY_REUSED);
      }
      return { data: first!.answer, replayed: true };
    }
    const data = await work(tx);
    await tx.query(
      `UPDATE client_carrier_requests SET answer = $3
       WHERE client_carrier_id = $1 AND idempotency_key = $2`,
      [caller.clientCarrierId, key, JSON.stringify(data)],
    );
    return { data, replayed: false };
  });
}
