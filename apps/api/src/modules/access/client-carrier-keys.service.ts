import { createHash, randomBytes } from 'node:crypto';
import {
  CLIENT_CARRIER_KEY_PATTERN,
  clientCarrierKeyList,
  type ClientCarrierKey,
  type CreateClientCarrierKeyInput,
} from '@inventory/contract';
import type { Db, Queryable } from '../../db/db.js';
import { ConflictError, NotFoundError, ValidationError } from '../../http/errors.js';
import type { ClientCarrierCaller, Principal, RequestMeta } from '../../http/principal.js';
import { isoTextSql } from '../../http/sql.js';
import type { ListStore } from '../../toolkit/stores.js';
import { auditActor, recordAudit } from '../audit/index.js';

/** SHA-256 of a key: keys are 256 random bits, so a fast hash is as safe as a slow one here. */
const hashOf = (key: string) => createHash('sha256').update(key).digest('hex');

/** How many characters of a key its list shows: enough to tell keys apart, far from enough to use. */
const PREFIX_LENGTH = 8;

/** last_used_at is written at most this often per key, so calls do not each write a row. */
const LAST_USED_EVERY = '5 minutes';

const KEY_COLUMNS = `k.id, k.client_carrier_id, v.name AS client_carrier_name, k.name, k.key_prefix,
  CASE WHEN k.revoked_at IS NULL THEN 'active' ELSE 'revoked' END AS status,
  ${isoTextSql('k.created_at')} AS created_at, creator.user_name AS created_by_name,
  ${isoTextSql('k.last_used_at')} AS last_used_at, ${isoTextSql('k.revoked_at')} AS revoked_at,
  revoker.user_name AS revoked_by_name`;
const KEY_FROM = `client_carrier_api_keys k
  JOIN vendors v ON v.id = k.client_carrier_id
  LEFT JOIN users creator ON creator.id = k.created_by
  LEFT JOIN users revoker ON revoker.id = k.revoked_by`;

export const clientCarrierKeyStore: ListStore<typeof clientCarrierKeyList> = {
  contract: clientCarrierKeyList,
  list: {
    from: KEY_FROM,
    id: 'k.id',
    columns: KEY_COLUMNS,
    sorts: { created_at: { sql: 'k.created_at', type: 'timestamptz' } },
    search: (pattern) => ['(k.name ILIKE ? OR v.name ILIKE ?)', pattern, pattern],
    filters: (query) => [
      query.client_carrier_id !== undefined && ['k.client_carrier_id = ?', query.client_carrier_id],
      query.status === 'active' && ['k.revoked_at IS NULL'],
      query.status === 'revoked' && ['k.revoked_at IS NOT NULL'],
    ],
  },
};

async function keyById(db: Queryable, id: number): Promise<ClientCarrierKey> {
  const [key] = await db.query<ClientCarrierKey>(
    `SELECT ${KEY_COLUMNS} FROM ${KEY_FROM} WHERE k.id = $1`,
    [id],
  );
  if (!key) throw new NotFoundError(`There is no API key with id ${id}.`);
  return key;
}

/** Creates a key for a client carrier (a vendor of type carrier-client); the answer holds it once. */
export async function createClientCarrierKey(
  db: Db,
  actor: Principal,
  input: CreateClientCarrierKeyInput,
  meta: RequestMeta,
): Promise<{ key: ClientCarrierKey; secret: string }> {
  const clientCarrierId = Number(input.client_carrier_id);
  const secret = `ck_${randomBytes(32).toString('base64url')}`;
  return db.transaction(async (tx) => {
    const [carrier] = await tx.query<{ type: string; active: boolean }>(
      'SELECT type, active FROM vendors WHERE id = $1',
      [clientCarrierId],
    );
    if (!carrier || carrier.type !== 'carrier-client' || !carrier.active) {
      throw new ValidationError({
        client_carrier_id: ['Choose an active vendor of type carrier-client.'],
      });
    }
    const [row] = await tx.query<{ id: string }>(
      `INSERT INTO client_carrier_api_keys (client_carrier_id, name, key_prefix, key_hash, created_by)
       VALUES ($1, $2, $3, $4, $5) RETURNING id`,
      [clientCarrierId, input.name, secret.slice(0, PREFIX_LENGTH), hashOf(secret), actor.userId],
    );
    const key = await keyById(tx, Number(row!.id));
    await recordAudit(tx, {
      ...auditActor(actor, meta),
      action: 'client_carrier_key.created',
      entityType: 'client_carrier_api_key',
      entityId: key.id,
      after: { client_carrier_id: key.client_carrier_id, name: key.name, prefix: key.key_prefix },
    });
    return { key, secret };
  });
}

/** Revokes a key: the carrier's next call with it is refused (401). */
export async function revokeClientCarrierKey(
  db: Db,
  actor: Principal,
  id: number,
  meta: RequestMeta,
): Promise<ClientCarrierKey> {
  return db.transaction(async (tx) => {
    const before = await keyById(tx, id);
    const revoked = await tx.query(
      `UPDATE client_carrier_api_keys SET revoked_at = now(), revoked_by = $2
       WHERE id = $1 AND revoked_at IS NULL RETURNING id`,
      [id, actor.userId],
    );
    if (revoked.length === 0) throw new ConflictError('This API key is revoked already.');
    await recordAudit(tx, {
      ...auditActor(actor, meta),
      action: 'client_carrier_key.revoked',
      entityType: 'client_carrier_api_key',
      entityId: id,
      before: { status: before.status },
      after: { status: 'revoked' },
    });
    return keyById(tx, id);
  });
}

/**
 * The client carrier an API key belongs to, or null for a malformed, unknown or revoked key or a
 * carrier no longer active. One statement: it also notes when the key was last used.
 */
export async function authenticateClientCarrier(
  db: Queryable,
  apiKey: string,
): Promise<ClientCarrierCaller | null> {
  if (!CLIENT_CARRIER_KEY_PATTERN.test(apiKey)) return null;
  const [row] = await db.query<{ id: string; client_carrier_id: string; name: string }>(
    `WITH found AS (
       SELECT k.id, k.client_carrier_id, v.name, k.last_used_at
       FROM client_carrier_api_keys k JOIN vendors v ON v.id = k.client_carrier_id
       WHERE k.key_hash = $1 AND k.revoked_at IS NULL AND v.active AND v.type = 'carrier-client'),
     touched AS (
       UPDATE client_carrier_api_keys SET last_used_at = now()
       WHERE id IN (SELECT id FROM found
                    WHERE last_used_at IS NULL OR last_used_at < now() - $2::interval))
     SELECT id, client_carrier_id, name FROM found`,
    [hashOf(apiKey), LAST_USED_EVERY],
  );
  if (!row) return null;
  return {
    keyId: Number(row.id),
    clientCarrierId: Number(row.client_carrier_id),
    clientCarrierName: row.name,
  };
}
