import {
  CERTIFICATE_EXPIRING_DAYS,
  OPEN_ORDER_STATUSES,
  RETAILER_LATEST_ORDERS,
  retailerAttachments,
  retailerList,
  type createPortalUserSchema,
  type CreateRetailerInput,
  type FieldErrors,
  type LinkAgentInput,
  type PortalUser,
  type ResaleCertificateInput,
  type Retailer,
  type RetailerAddressInput,
  type RetailerContactInput,
  type RetailerDetail,
  type RetailerOrder,
  type UpdateRetailerInput,
} from '@inventory/contract';
import type * as z from 'zod/mini';
import type { Db, Queryable, Transaction } from '../../db/db.js';
import {
  ConflictError,
  NotFoundError,
  ValidationError,
  uniqueViolationAs,
} from '../../http/errors.js';
import type { Principal, RequestMeta } from '../../http/principal.js';
import { isoTextSql } from '../../http/sql.js';
import type { AttachmentStore } from '../../toolkit/attachments.js';
import type { PickerSql } from '../../toolkit/pickers.js';
import { findItem, type ListStore } from '../../toolkit/resource.js';
import { insertUser, newTemporaryPassword } from '../access/index.js';
import { auditActor, recordAudit } from '../audit/index.js';

/**
 * Where the resale certificate of retailer `r` stands (CERTIFICATE_STATUSES): it needs its number,
 * its expiry and a file attached to the retailer; it expires at the end of its expiry day.
 */
const CERTIFICATE_STATUS_SQL = `(CASE
    WHEN r.resale_certificate_no IS NULL OR r.resale_certificate_expires_on IS NULL
      OR NOT EXISTS (SELECT 1 FROM attachments a
                     WHERE a.record_kind = '${retailerAttachments.kind}' AND a.record_id = r.id)
      THEN 'missing'
    WHEN r.resale_certificate_expires_on < CURRENT_DATE THEN 'expired'
    WHEN r.resale_certificate_expires_on <= CURRENT_DATE + ${CERTIFICATE_EXPIRING_DAYS} THEN 'expiring'
    ELSE 'valid' END)`;

/** The state a retailer is listed under: its default billing address's, else its shipping one's. */
const STATE_SQL = `(SELECT ad.state FROM retailer_addresses ad
  WHERE ad.retailer_id = r.id AND ad.is_default ORDER BY ad.kind LIMIT 1)`;

/**
 * Order `o` is open. Spelt out as literals (constants, not input) so that it is the predicate of
 * the partial index `orders_retailer_open` (migration 0043) and the planner counts through it.
 */
const OPEN_ORDER = `o.status IN (${OPEN_ORDER_STATUSES.map((status) => `'${status}'`).join(', ')})`;

/** The retailer's open orders: a few rows of `orders_retailer_open`. */
const OPEN_ORDERS_SQL = `(SELECT count(*) FROM orders o
  WHERE o.retailer_id = r.id AND ${OPEN_ORDER})::int`;

/**
 * What the retailer's orders of the last 12 months came to: an index-only range of
 * `orders_retailer`. Cancelled and returned orders brought nothing in.
 */
const REVENUE_12M_SQL = `(SELECT COALESCE(sum(o.total_cents), 0) FROM orders o
  WHERE o.retailer_id = r.id AND o.created_at >= now() - interval '12 months'
    AND o.status NOT IN ('cancelled', 'returned'))::float8`;

const RETAILER_COLUMNS = `r.id, r.name, r.legal_name, r.type, r.tax_id, r.price_tier,
  r.credit_terms, r.credit_limit_cents, r.tax_exempt,
  r.tax_exempt AND ${CERTIFICATE_STATUS_SQL} IN ('valid', 'expiring') AS tax_exempt_now,
  r.resale_certificate_no,
  to_char(r.resale_certificate_expires_on, 'YYYY-MM-DD') AS resale_certificate_expires_on,
  ${CERTIFICATE_STATUS_SQL} AS certificate_status,
  r.account_rep_id, (SELECT u.name FROM users u WHERE u.id = r.account_rep_id) AS account_rep,
  (SELECT c.name FROM retailer_contacts c WHERE c.retailer_id = r.id AND c.is_main) AS main_contact,
  ${STATE_SQL} AS state,
  (SELECT count(*) FROM retailer_portal_users p WHERE p.retailer_id = r.id)::int AS portal_users,
  ${OPEN_ORDERS_SQL} AS open_orders, ${REVENUE_12M_SQL} AS revenue_12m_cents,
  r.status, r.notes, ${isoTextSql('r.created_at')} AS created_at,
  ${isoTextSql('r.updated_at')} AS updated_at`;

/**
 * Retailers are read from their tables on every request (no kept answers): the certificate's
 * state moves with the calendar and with the attachments, which carry no data version.
 */
export const retailerStore: ListStore<typeof retailerList> = {
  contract: retailerList,
  list: {
    from: 'retailers r',
    id: 'r.id',
    columns: RETAILER_COLUMNS,
    sorts: {
      name: { sql: 'lower(r.name)', type: 'text' },
      // No certificate sorts as the farthest expiry: those to renew first come first.
      certificate_expires_on: {
        sql: "COALESCE(to_char(r.resale_certificate_expires_on, 'YYYY-MM-DD'), '9999-12-31')",
        type: 'text',
      },
      updated_at: { sql: 'r.updated_at', type: 'timestamptz' },
    },
    search: (pattern) => [
      `(r.name ILIKE ? OR r.legal_name ILIKE ? OR r.tax_id ILIKE ?
        OR r.resale_certificate_no ILIKE ?
        OR EXISTS (SELECT 1 FROM retailer_contacts c
                   WHERE c.retailer_id = r.id AND (c.name ILIKE ? OR c.email ILIKE ?)))`,
      pattern,
      pattern,
      pattern,
      pattern,
      pattern,
      pattern,
    ],
    filters: (query) => [
      query.type !== undefined && ['r.type = ?', query.type],
      query.status !== undefined && ['r.status = ?', query.status],
      query.price_tier !== undefined && ['r.price_tier = ?', query.price_tier],
      query.state !== undefined && [`${STATE_SQL} = ?`, query.state],
      query.certificate !== undefined && [`${CERTIFICATE_STATUS_SQL} = ?`, query.certificate],
    ],
  },
};

/** A retailer's files (its resale certificate) go with it when it is deleted. */
export const retailerAttachmentStore: AttachmentStore = {
  contract: retailerAttachments,
  table: 'retailers',
};

/** Active staff who may look after a retailer: never a retailer's own portal user. */
export const ACCOUNT_REP_PICKER: PickerSql = {
  from: 'users u',
  id: 'u.id',
  label: 'u.name',
  where: `u.status = 'active' AND u.type = 'staff'
    AND NOT EXISTS (SELECT 1 FROM retailer_portal_users p WHERE p.user_id = u.id)
    AND ($1::text IS NULL OR u.name ILIKE $1 OR u.user_name ILIKE $1)`,
  order: 'lower(u.name), u.id',
};

export const findRetailer = (db: Queryable, id: number): Promise<Retailer> =>
  findItem(retailerStore, db, id);

/** The retailer's row locked for the transaction; 404 when there is none. */
async function lockRetailer(tx: Transaction, id: number): Promise<Retailer> {
  const [row] = await tx.query('SELECT 1 FROM retailers WHERE id = $1 FOR UPDATE', [id]);
  if (!row) throw new NotFoundError(`There is no retailer with id ${id}.`);
  return findRetailer(tx, id);
}

const uniqueName = uniqueViolationAs({
  retailers_name_key: ['name', 'A retailer with this name exists.'],
});

type Writing = Partial<CreateRetailerInput> & UpdateRetailerInput;

/** The field errors of a form's values that the schema alone cannot see. */
async function formErrors(tx: Queryable, input: Writing, terms: Retailer['credit_terms']) {
  const errors: FieldErrors = {};
  const limit = input.credit_limit_cents;
  if (terms === 'prepaid' && limit !== undefined && limit > 0) {
    errors.credit_limit_cents = [
      'Prepaid accounts buy on no credit: set the limit to 0 or choose net terms.',
    ];
  }
  if (input.account_rep_id != null) {
    const [rep] = await tx.query(
      `SELECT 1 FROM users u WHERE u.id = $1 AND u.status = 'active' AND u.type = 'staff'
         AND NOT EXISTS (SELECT 1 FROM retailer_portal_users p WHERE p.user_id = u.id)`,
      [input.account_rep_id],
    );
    if (!rep) errors.account_rep_id = ['Choose an active staff member.'];
  }
  const defaults = new Set<string>();
  (input.addresses ?? []).forEach((address, index) => {
    if (!address.is_default) return;
    if (defaults.has(address.kind)) {
      errors[`addresses.${index}.is_default`] = [
        `Only one ${address.kind} address is the default.`,
      ];
    }
    defaults.add(address.kind);
  });
  const mains = (input.contacts ?? []).flatMap((contact, index) => (contact.is_main ? index : []));
  for (const index of mains.slice(1)) {
    errors[`contacts.${index}.is_main`] = ['Only one contact is the main contact.'];
  }
  return errors;
}

/** Tax exemption needs a valid resale certificate (DOMAIN.md 4.8); 422 on `tax_exempt` if not. */
function assertExemptionAllowed(retailer: Retailer) {
  if (!retailer.tax_exempt || retailer.tax_exempt_now) return;
  const why =
    retailer.certificate_status === 'expired'
      ? `its resale certificate expired on ${retailer.resale_certificate_expires_on}`
      : 'it has no resale certificate with a number, an expiry date and its file attached';
  throw new ValidationError({
    tax_exempt: [`${retailer.name} cannot be tax-exempt: ${why}.`],
  });
}

type Child = { readonly id?: number | undefined };
type ChildTable = {
  readonly table: 'retailer_addresses' | 'retailer_contacts';
  readonly field: 'addresses' | 'contacts';
  /** The columns written, with their SQL types; the flag column is cleared before writing. */
  readonly columns: Readonly<Record<string, string>>;
  readonly flag: 'is_default' | 'is_main';
};

const ADDRESSES: ChildTable = {
  table: 'retailer_addresses',
  field: 'addresses',
  columns: {
    kind: 'text',
    line1: 'text',
    line2: 'text',
    city: 'text',
    state: 'text',
    zip: 'text',
    is_default: 'boolean',
  },
  flag: 'is_default',
};
const CONTACTS: ChildTable = {
  table: 'retailer_contacts',
  field: 'contacts',
  columns: {
    name: 'text',
    email: 'text',
    phone: 'text',
    role: 'text',
    is_main: 'boolean',
  },
  flag: 'is_main',
};

/**
 * Writes a form's whole list of addresses or contacts: rows kept by id are updated, new ones added,
 * left-out ones deleted. The default or main flag is cleared first, so that moving it from one row
 * to another never meets the one-per-retailer index half-way.
 */
async function writeChildren(
  tx: Transaction,
  retailerId: number,
  of: ChildTable,
  rows: readonly Child[],
) {
  const kept = rows.flatMap((row) => row.id ?? []);
  const known = await tx.query<{ id: number }>(
    `SELECT id FROM ${of.table} WHERE retailer_id = $1 AND id = ANY ($2::bigint[])`,
    [retailerId, kept],
  );
  const knownIds = new Set(known.map((row) => row.id));
  const errors: FieldErrors = {};
  rows.forEach((row, index) => {
    if (row.id !== undefined && !knownIds.has(row.id)) {
      errors[`${of.field}.${index}.id`] = ['This entry is not this retailer’s any more: reload.'];
    }
  });
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);

  await tx.query(
    `DELETE FROM ${of.table} WHERE retailer_id = $1 AND NOT (id = ANY ($2::bigint[]))`,
    [retailerId, kept],
  );
  await tx.query(`UPDATE ${of.table} SET ${of.flag} = false WHERE retailer_id = $1`, [retailerId]);
  const names = Object.keys(of.columns);
  const record = names.map((name) => `${name} ${of.columns[name]}`).join(', ');
  const values = (subset: readonly Child[]) =>
    JSON.stringify(
      subset.map((row) => {
        const value = row as Record<string, unknown>;
        return Object.fromEntries([
          ['id', row.id ?? null],
          ...names.map((name) => [name, value[name] ?? null]),
        ]);
      }),
    );
  const updates = rows.filter((row) => row.id !== undefined);
  if (updates.length > 0) {
    await tx.query(
      `UPDATE ${of.table} x SET ${names.map((name) => `${name} = t.${name}`).join(', ')}
       FROM jsonb_to_recordset($2::jsonb) AS t(id bigint, ${record})
       WHERE x.id = t.id AND x.retailer_id = $1`,
      [retailerId, values(updates)],
    );
  }
  const inserts = rows.filter((row) => row.id === undefined);
  if (inserts.length > 0) {
    await tx.query(
      `INSERT INTO ${of.table} (retailer_id, ${names.join(', ')})
       SELECT $1, ${names.map((name) => `t.${name}`).join(', ')}
       FROM jsonb_to_recordset($2::jsonb) AS t(${record})`,
      [retailerId, values(inserts)],
    );
  }
}

async function writeLists(
  tx: Transaction,
  id: number,
  addresses: readonly RetailerAddressInput[] | undefined,
  contacts: readonly RetailerContactInput[] | undefined,
) {
  if (addresses) await writeChildren(tx, id, ADDRESSES, addresses);
  if (contacts) await writeChildren(tx, id, CONTACTS, contacts);
}

/** The retailer's own columns a form sets. */
const RETAILER_FIELDS = [
  'name',
  'legal_name',
  'type',
  'tax_id',
  'price_tier',
  'credit_terms',
  'credit_limit_cents',
  'tax_exempt',
  'account_rep_id',
  'notes',
] as const;

const columnsOf = (input: Writing) =>
  RETAILER_FIELDS.filter((field) => input[field] !== undefined).map(
    (field) => [field, input[field] ?? null] as const,
  );

/** Creates a retailer with its addresses and contacts. */
export async function createRetailer(
  tx: Transaction,
  actor: Principal,
  meta: RequestMeta,
  input: CreateRetailerInput,
): Promise<RetailerDetail> {
  const errors = await formErrors(tx, input, input.credit_terms ?? 'prepaid');
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  const columns = columnsOf(input);
  const [created] = await tx
    .query<{ id: number }>(
      `INSERT INTO retailers (${columns.map(([name]) => name).join(', ')}, created_by, updated_by)
       VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')}, $${columns.length + 1},
               $${columns.length + 1})
       RETURNING id`,
      [...columns.map(([, value]) => value), actor.userId],
    )
    .catch(uniqueName);
  const id = created!.id;
  await writeLists(tx, id, input.addresses, input.contacts);
  const detail = await retailerDetail(tx, id);
  // A new retailer has no certificate file yet: tax-exempt waits for it.
  assertExemptionAllowed(detail.retailer);
  await recordAudit(tx, {
    ...auditActor(actor, meta),
    action: 'retailer.created',
    entityType: 'retailer',
    entityId: id,
    after: detail,
  });
  return detail;
}

/** Changes what the form gives; `addresses` and `contacts`, when given, are the whole lists. */
export async function updateRetailer(
  tx: Transaction,
  actor: Principal,
  meta: RequestMeta,
  id: number,
  input: UpdateRetailerInput,
): Promise<RetailerDetail> {
  await lockRetailer(tx, id);
  const before = await retailerDetail(tx, id);
  const errors = await formErrors(
    tx,
    {
      ...input,
      credit_limit_cents: input.credit_limit_cents ?? before.retailer.credit_limit_cents,
    },
    input.credit_terms ?? before.retailer.credit_terms,
  );
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  const columns = columnsOf(input);
  await tx
    .query(
      `UPDATE retailers SET ${columns.map(([name], i) => `${name} = $${i + 2}`).join(', ')}
         ${columns.length > 0 ? ',' : ''} updated_at = now(), updated_by = $${columns.length + 2}
       WHERE id = $1`,
      [id, ...columns.map(([, value]) => value), actor.userId],
    )
    .catch(uniqueName);
  await writeLists(tx, id, input.addresses, input.contacts);
  const after = await retailerDetail(tx, id);
  if (input.tax_exempt) assertExemptionAllowed(after.retailer);
  await recordAudit(tx, {
    ...auditActor(actor, meta),
    action: 'retailer.updated',
    entityType: 'retailer',
    entityId: id,
    before,
    after,
  });
  return after;
}

/** Refuses (409) to let go of a retailer while orders of it are still open. */
function refuseWithOpenOrders(retailer: Retailer, change: string) {
  const n = retailer.open_orders;
  if (n > 0) {
    throw new ConflictError(
      `${retailer.name} has ${n} open order${n === 1 ? '' : 's'}: finish or cancel ${n === 1 ? 'it' : 'them'} before ${change}.`,
    );
  }
}

/**
 * Deletes a retailer created by mistake. One that has ordered or has portal users is deactivated
 * instead (409): its orders keep naming it.
 */
export async function deleteRetailer(
  tx: Transaction,
  actor: Principal,
  meta: RequestMeta,
  id: number,
) {
  const before = await lockRetailer(tx, id);
  refuseWithOpenOrders(before, 'deleting it');
  if (before.portal_users > 0) {
    throw new ConflictError(
      `${before.name} has ${before.portal_users} portal user(s): deactivate it instead.`,
    );
  }
  const [ordered] = await tx.query('SELECT 1 FROM orders WHERE retailer_id = $1 LIMIT 1', [id]);
  if (ordered) {
    throw new ConflictError(`${before.name} has orders on record: deactivate it instead.`);
  }
  await tx.query('DELETE FROM retailers WHERE id = $1', [id]);
  await recordAudit(tx, {
    ...auditActor(actor, meta),
    action: 'retailer.deleted',
    entityType: 'retailer',
    entityId: id,
    before,
  });
}

/** Records the resale certificate's number and expiry; its file is attached beside. */
export async function setResaleCertificate(
  tx: Transaction,
  actor: Principal,
  meta: RequestMeta,
  id: number,
  input: ResaleCertificateInput,
): Promise<Retailer> {
  const before = await lockRetailer(tx, id);
  const [past] = await tx.query<{ past: boolean }>('SELECT $1::date < CURRENT_DATE AS past', [
    input.resale_certificate_expires_on,
  ]);
  if (past!.past) {
    throw new ValidationError({
      resale_certificate_expires_on: ['This certificate has expired: record the renewed one.'],
    });
  }
  await tx.query(
    `UPDATE retailers SET resale_certificate_no = $2, resale_certificate_expires_on = $3,
       updated_at = now(), updated_by = $4
     WHERE id = $1`,
    [id, input.resale_certificate_no, input.resale_certificate_expires_on, actor.userId],
  );
  const after = await findRetailer(tx, id);
  await recordAudit(tx, {
    ...auditActor(actor, meta),
    action: 'retailer.certificate_recorded',
    entityType: 'retailer',
    entityId: id,
    before,
    after,
  });
  return after;
}

/**
 * Deactivates or reactivates a retailer (409 when it already is). Its portal users keep their
 * accounts; what they may do as the retailer follows its status (docs: retail).
 */
export async function setRetailerStatus(
  tx: Transaction,
  actor: Principal,
  meta: RequestMeta,
  id: number,
  status: Retailer['status'],
): Promise<Retailer> {
  const before = await lockRetailer(tx, id);
  if (before.status === status) {
    throw new ConflictError(`${before.name} is ${status} already.`);
  }
  // Locked first: an order placed meanwhile waits for the retailer's row (its foreign key).
  if (status === 'inactive') refuseWithOpenOrders(before, 'deactivating it');
  await tx.query(
    'UPDATE retailers SET status = $2, updated_at = now(), updated_by = $3 WHERE id = $1',
    [id, status, actor.userId],
  );
  const after = await findRetailer(tx, id);
  await recordAudit(tx, {
    ...auditActor(actor, meta),
    action: status === 'active' ? 'retailer.reactivated' : 'retailer.deactivated',
    entityType: 'retailer',
    entityId: id,
    before,
    after,
  });
  return after;
}

/** A retailer with its addresses and contacts. */
export async function retailerDetail(db: Queryable, id: number): Promise<RetailerDetail> {
  const retailer = await findRetailer(db, id);
  const [addresses, contacts] = await Promise.all([
    db.query<RetailerDetail['addresses'][number]>(
      `SELECT id, kind, line1, line2, city, state, zip, is_default FROM retailer_addresses
       WHERE retailer_id = $1 ORDER BY kind, is_default DESC, id`,
      [id],
    ),
    db.query<RetailerDetail['contacts'][number]>(
      `SELECT id, name, email, phone, role, is_main FROM retailer_contacts
       WHERE retailer_id = $1 ORDER BY is_main DESC, lower(name), id`,
      [id],
    ),
  ]);
  return { retailer, addresses, contacts };
}

/** The retailer's latest orders, newest first (the order list filtered by retailer has all). */
export async function retailerOrders(db: Queryable, retailerId: number): Promise<RetailerOrder[]> {
  await findRetailer(db, retailerId);
  return db.query<RetailerOrder>(
    `SELECT o.id, o.number, o.status, o.total_cents::int AS total_cents,
       ${isoTextSql('o.created_at')} AS created_at
     FROM orders o WHERE o.retailer_id = $1
     ORDER BY o.created_at DESC, o.id DESC LIMIT ${RETAILER_LATEST_ORDERS}`,
    [retailerId],
  );
}

const PORTAL_USER_COLUMNS = `u.id, u.user_name, u.name, u.type, u.email, u.status, u.first_login,
  ${isoTextSql('u.last_login_at')} AS last_login_at, ${isoTextSql('u.created_at')} AS created_at`;

/** The retailer's portal users, by name. */
export async function portalUsers(db: Queryable, retailerId: number): Promise<PortalUser[]> {
  await findRetailer(db, retailerId);
  return db.query<PortalUser>(
    `SELECT ${PORTAL_USER_COLUMNS} FROM retailer_portal_users p JOIN users u ON u.id = p.user_id
     WHERE p.retailer_id = $1 ORDER BY lower(u.name), u.id`,
    [retailerId],
  );
}

/**
 * Creates a portal user of an active retailer: an account of type staff without roles, made by the
 * access area's own rules (user name, unique email, temporary password shown once, first sign-in
 * sets their own), tied to the retailer in the same transaction.
 */
export async function createPortalUser(
  db: Db,
  actor: Principal,
  meta: RequestMeta,
  retailerId: number,
  input: z.output<typeof createPortalUserSchema>,
) {
  const { password, hash } = await newTemporaryPassword();
  const user = await db.transaction(async (tx) => {
    const retailer = await lockRetailer(tx, retailerId);
    if (retailer.status !== 'active') {
      throw new ConflictError(`${retailer.name} is deactivated: reactivate it first.`);
    }
    const created = await insertUser(
      tx,
      actor,
      { ...input, type: 'staff', role_ids: [] },
      hash,
      meta,
    );
    await tx.query('INSERT INTO retailer_portal_users (user_id, retailer_id) VALUES ($1, $2)', [
      created.id,
      retailerId,
    ]);
    await recordAudit(tx, {
      ...auditActor(actor, meta),
      action: 'retailer.portal_user_created',
      entityType: 'retailer',
      entityId: retailerId,
      after: { user_id: created.id, user_name: created.user_name },
    });
    return created;
  });
  return { user, temporary_password: password };
}

/** Active field agents who work for no dealer yet: whom a dealer's tab may link. */
export const AGENT_PICKER: PickerSql = {
  from: 'users u',
  id: 'u.id',
  label: "u.name || ' (' || u.user_name || ')'",
  where: `u.status = 'active' AND u.type = 'agent'
    AND NOT EXISTS (SELECT 1 FROM retailer_portal_users p WHERE p.user_id = u.id)
    AND ($1::text IS NULL OR u.name ILIKE $1 OR u.user_name ILIKE $1)`,
  order: 'lower(u.name), u.id',
};

/** One portal user or linked agent of the retailer, as its tab lists them. */
async function portalUserOf(db: Queryable, retailerId: number, userId: number) {
  const [user] = await db.query<PortalUser>(
    `SELECT ${PORTAL_USER_COLUMNS} FROM retailer_portal_users p JOIN users u ON u.id = p.user_id
     WHERE p.retailer_id = $1 AND p.user_id = $2`,
    [retailerId, userId],
  );
  return user!;
}

/**
 * Links a field agent to the dealer they work for (decision 0031): they then shop the web channel
 * on its account. Only an active agent, and one dealer per agent: the agent's row lock orders two
 * links of the same agent, and the link's key (one row per user) holds it whatever happens.
 */
export async function linkAgent(
  tx: Transaction,
  actor: Principal,
  meta: RequestMeta,
  retailerId: number,
  input: LinkAgentInput,
): Promise<PortalUser> {
  const retailer = await lockRetailer(tx, retailerId);
  if (retailer.status !== 'active') {
    throw new ConflictError(`${retailer.name} is deactivated: reactivate it first.`);
  }
  const [agent] = await tx.query<{ name: string; user_name: string; type: string; status: string }>(
    'SELECT name, user_name, type, status FROM users WHERE id = $1 FOR UPDATE',
    [input.user_id],
  );
  if (!agent || agent.type !== 'agent') {
    throw new ValidationError({ user_id: ['Choose a field agent.'] });
  }
  if (agent.status !== 'active') {
    throw new ValidationError({ user_id: [`${agent.name} is disabled.`] });
  }
  const [linked] = await tx.query<{ retailer_id: number; name: string }>(
    `SELECT p.retailer_id::int AS retailer_id, r.name FROM retailer_portal_users p
     JOIN retailers r ON r.id = p.retailer_id WHERE p.user_id = $1`,
    [input.user_id],
  );
  if (linked) {
    throw new ConflictError(
      linked.retailer_id === retailerId
        ? `${agent.name} is linked to ${retailer.name} already.`
        : `${agent.name} works for ${linked.name}: unlink them there first.`,
    );
  }
  await tx.query('INSERT INTO retailer_portal_users (user_id, retailer_id) VALUES ($1, $2)', [
    input.user_id,
    retailerId,
  ]);
  await recordAudit(tx, {
    ...auditActor(actor, meta),
    action: 'retailer.agent_linked',
    entityType: 'retailer',
    entityId: retailerId,
    after: { user_id: input.user_id, user_name: agent.user_name },
  });
  return portalUserOf(tx, retailerId, input.user_id);
}

/**
 * Unlinks a field agent from the dealer: they no longer shop on its account; the orders they
 * placed stay its own. A portal user of the retailer is no agent: not found. Answers what was
 * done, in words.
 */
export async function unlinkAgent(
  tx: Transaction,
  actor: Principal,
  meta: RequestMeta,
  retailerId: number,
  userId: number,
): Promise<string> {
  const retailer = await lockRetailer(tx, retailerId);
  const [unlinked] = await tx.query<{ user_name: string; name: string }>(
    `DELETE FROM retailer_portal_users p USING users u
     WHERE p.retailer_id = $1 AND p.user_id = $2 AND u.id = p.user_id AND u.type = 'agent'
     RETURNING u.user_name, u.name`,
    [retailerId, userId],
  );
  if (!unlinked) {
    throw new NotFoundError(
      `There is no field agent with id ${userId} linked to ${retailer.name}.`,
    );
  }
  await recordAudit(tx, {
    ...auditActor(actor, meta),
    action: 'retailer.agent_unlinked',
    entityType: 'retailer',
    entityId: retailerId,
    before: { user_id: userId, user_name: unlinked.user_name },
  });
  return `${unlinked.name} no longer orders for ${retailer.name}.`;
}
