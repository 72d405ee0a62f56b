import {
  GOV_PROGRAMMES,
  planPriceImport,
  planPriceRowSchema,
  type FieldErrors,
  type GovProgramme,
  type PlanPrice,
} from '@inventory/contract';
import type { Queryable, Transaction } from '../../db/db.js';
import { ConflictError } from '../../http/errors.js';
import type {
  ImportStore,
  Prepared,
  WriteFieldsOf,
  WriteInput,
  Writer,
} from '../../toolkit/resource.js';
import { auditActor, recordAudits } from '../audit/index.js';
import { findModels, matchOf } from '../master-data/index.js';
import {
  isReadOnly,
  lockKeys,
  overlapMessage,
  rangeWords,
  READ_ONLY_MESSAGE,
  today,
  type NewVersion,
} from './plan-prices.service.js';
import { PLAN_PRICE_COLUMNS } from './plan-prices.store.js';

/**
 * Prices by file (the toolkit's import with its dry run): every row is a new version of its key.
 * A row that starts after the start of its key's open-ended version closes that version the day
 * before, as a scheduled change does (tomorrow at the earliest); any other overlap, with a version
 * in the database or another row of the file, is the row's error. ACP rows are refused: the
 * programme ended and its prices are read-only.
 */

type Row = {
  carrier: string;
  programme: string;
  state: string | null;
  model: string;
  variant_sku?: string | null;
  device_price: number;
  plan_name: string;
  data_gb: number | null;
  minutes: number | null;
  effective_from: string;
  effective_to: string | null;
  note?: string | null;
};

/** A checked row: a new version, and the open version it closes, if any. */
type Version = NewVersion & { closes_id: number | null; closes_to: string | null };

/** Programme words as files write them: "Lifeline", "prepaid upgrade", "ACP (legacy)". */
function programmeOf(text: string): GovProgramme | undefined {
  const word = text
    .toLowerCase()
    .replace(/\(.*\)/, '')
    .trim()
    .replace(/[\s-]+/g, '_');
  if (word === 'tribal_lifeline') return 'tribal';
  if (word === 'acp' || word === 'acp_legacy') return 'acp-legacy';
  if (word === 'prepaid_upgrade') return 'prepaid';
  return GOV_PROGRAMMES.find((programme) => programme === word);
}

const keyText = (
  v: Pick<Version, 'carrier_id' | 'programme' | 'state' | 'model_id' | 'variant_id'>,
) => [v.carrier_id, v.programme, v.state ?? '', v.model_id, v.variant_id ?? ''].join('|');

/** Ranges of whole days, both ends inclusive; null: open-ended. */
const overlaps = (a: { from: string; to: string | null }, b: { from: string; to: string | null }) =>
  (a.to === null || b.from <= a.to) && (b.to === null || a.from <= b.to);

function groupBy<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}

const dayBefore = (day: string) => {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() - 1);
  return date.toISOString().slice(0, 10);
};

async function prepareVersions(
  inputs: readonly WriteInput<WriteFieldsOf<typeof planPriceRowSchema>>[],
  db: Queryable,
): Promise<Prepared[]> {
  const rows = inputs.map(({ input }) => input as Row);
  const now = await today(db);
  const carriers = new Map(
    (
      await db.query<{ name: string; id: number; type: string; active: boolean }>(
        `SELECT lower(name) AS name, id, type, active FROM vendors WHERE lower(name) = ANY ($1::text[])`,
        [[...new Set(rows.map((row) => row.carrier.toLowerCase()))]],
      )
    ).map((carrier) => [carrier.name, carrier]),
  );
  const models = await findModels(db, [], [...new Set(rows.map((row) => row.model.toLowerCase()))]);
  const variants = new Map(
    (
      await db.query<{ sku: string; id: number; model_id: number | null }>(
        `SELECT v.sku, v.id, p.model_id FROM product_variants v JOIN products p ON p.id = v.product_id
         WHERE v.sku = ANY ($1::text[])`,
        [
          [
            ...new Set(
              rows.flatMap((row) => (row.variant_sku ? [row.variant_sku.toUpperCase()] : [])),
            ),
          ],
        ],
      )
    ).map((variant) => [variant.sku, variant]),
  );

  const results: (Prepared & { version?: Version })[] = rows.map((row) => {
    const errors: FieldErrors = {};
    const carrier = carriers.get(row.carrier.toLowerCase());
    if (!carrier) errors.carrier = [`No vendor is named "${row.carrier}".`];
    else if (carrier.type !== 'carrier-client') {
      errors.carrier = [`${row.carrier} is a ${carrier.type}, not a client carrier.`];
    } else if (!carrier.active) errors.carrier = [`${row.carrier} is deactivated.`];
    const programme = programmeOf(row.programme);
    if (!programme) errors.programme = ['Write lifeline, tribal or prepaid.'];
    else if (isReadOnly(programme)) errors.programme = [READ_ONLY_MESSAGE];
    const model = matchOf(models.get(row.model.toLowerCase()), row.model, 'model');
    if (typeof model === 'string') errors.model = [model];
    let variantId: number | null = null;
    if (row.variant_sku) {
      const variant = variants.get(row.variant_sku.toUpperCase());
      if (!variant) errors.variant_sku = [`No variant has the SKU ${row.variant_sku}.`];
      else if (typeof model !== 'string' && variant.model_id !== model.id) {
        errors.variant_sku = [`${variant.sku} is not a variant of ${row.model}.`];
      } else variantId = variant.id;
    }
    if (row.effective_from < now) {
      errors.effective_from = [`Start today (${now}) or later: the past is not rewritten.`];
    }
    if (row.effective_to !== null && row.effective_to < row.effective_from) {
      errors.effective_to = ['The last day is on or after the first day.'];
    }
    if (Object.keys(errors).length > 0) return { errors };
    const version: Version = {
      carrier_id: carrier!.id,
      programme: programme!,
      state: row.state,
      model_id: (model as { id: number }).id,
      variant_id: variantId,
      device_price_cents: Math.round(row.device_price * 100),
      plan_name: row.plan_name,
      data_gb: row.data_gb,
      minutes: row.minutes,
      effective_from: row.effective_from,
      effective_to: row.effective_to,
      note: row.note ?? null,
      closes_id: null,
      closes_to: null,
    };
    return { values: version, version };
  });

  // The versions in the database of every key the file names, in one query.
  const checked = results.flatMap((result, index) =>
    result.version ? [{ index, ...result.version }] : [],
  );
  const existing = await db.query<PlanPrice>(
    `SELECT ${PLAN_PRICE_COLUMNS} FROM gov_plan_prices p
     JOIN unnest($1::bigint[], $2::text[], $3::text[], $4::bigint[], $5::bigint[])
       AS k (carrier_id, programme, state, model_id, variant_id)
       ON p.carrier_id = k.carrier_id AND p.programme = k.programme
      AND COALESCE(p.state, '') = k.state AND p.model_id = k.model_id
      AND COALESCE(p.variant_id, 0) = k.variant_id
     ORDER BY p.effective_from`,
    [
      checked.map((v) => v.carrier_id),
      checked.map((v) => v.programme),
      checked.map((v) => v.state ?? ''),
      checked.map((v) => v.model_id),
      checked.map((v) => v.variant_id ?? 0),
    ],
  );
  const existingByKey = groupBy(existing, keyText);
  const fileByKey = groupBy(checked, keyText);

  for (const [key, versions] of fileByKey) {
    versions.sort((a, b) => a.effective_from.localeCompare(b.effective_from));
    const stored = (existingByKey.get(key) ?? []).map((price) => ({
      price,
      from: price.effective_from,
      to: price.effective_to,
    }));
    // The key's open version, started before the file's first row, is closed by that row.
    const first = versions[0]!;
    const open = stored.find(
      (s) => s.to === null && s.from < first.effective_from && first.effective_from > now,
    );
    if (open) {
      open.to = dayBefore(first.effective_from);
      first.closes_id = open.price.id;
      first.closes_to = open.to;
    }
    const accepted: typeof versions = [];
    for (const version of versions) {
      const range = { from: version.effective_from, to: version.effective_to };
      const clash = stored.find((s) => overlaps(s, range));
      const earlier = accepted.find((other) =>
        overlaps({ from: other.effective_from, to: other.effective_to }, range),
      );
      if (clash) {
        results[version.index] = {
          errors: {
            effective_from: [
              clash.price.status === 'current' && version.effective_from <= now
                ? `${overlapMessage(clash.price)} A change starts tomorrow at the earliest.`
                : overlapMessage(clash.price),
            ],
          },
        };
      } else if (earlier) {
        results[version.index] = {
          errors: {
            effective_from: [
              `It overlaps another row of this file for the same price (${rangeWords(
                earlier.effective_from,
                earlier.effective_to,
              )}).`,
            ],
          },
        };
      } else accepted.push(version);
    }
  }
  // The checked rows as the loop above left them (the version each one closes set).
  const checkedAt = new Map(checked.map(({ index, ...version }) => [index, version]));
  return results.map((result, index) =>
    result.errors ? { errors: result.errors } : { values: checkedAt.get(index)! },
  );
}

/**
 * Writes the checked versions: their keys locked (one order for every writer), the open versions
 * they follow closed, then every version in one statement, numbered after its key's last.
 */
async function writeVersions(
  records: readonly Record<string, unknown>[],
  tx: Transaction,
  { actor, meta }: Writer,
) {
  const versions = records as readonly Version[];
  await lockKeys(tx, versions);
  const closing = versions.filter((version) => version.closes_id !== null);
  for (const version of closing) {
    await tx.query(
      `UPDATE gov_plan_prices SET effective_to = $2, updated_at = now(), updated_by = $3
       WHERE id = $1 AND effective_to IS NULL`,
      [version.closes_id, version.closes_to, actor.userId],
    );
  }
  const created = await tx
    .query<{ id: number }>(
      `INSERT INTO gov_plan_prices (carrier_id, programme, state, model_id, variant_id, version,
         device_price_cents, plan_name, data_gb, minutes, effective_from, effective_to, note,
         created_by, updated_by)
       SELECT r.carrier_id, r.programme, r.state, r.model_id, r.variant_id,
         (SELECT COALESCE(max(p.version), 0) FROM gov_plan_prices p
          WHERE p.carrier_id = r.carrier_id AND p.programme = r.programme
            AND COALESCE(p.state, '') = COALESCE(r.state, '') AND p.model_id = r.model_id
            AND COALESCE(p.variant_id, 0) = COALESCE(r.variant_id, 0))
         + row_number() OVER (
             PARTITION BY r.carrier_id, r.programme, r.state, r.model_id, r.variant_id
             ORDER BY r.effective_from),
         r.device_price_cents, r.plan_name, r.data_gb, r.minutes, r.effective_from,
         r.effective_to, r.note, $2, $2
       FROM json_populate_recordset(NULL::gov_plan_prices, $1::json) AS r
       RETURNING id`,
      [JSON.stringify(versions), actor.userId],
    )
    .catch((error: unknown) => {
      if ((error as { code?: string }).code !== '23P01') throw error;
      throw new ConflictError(
        'A price of this file overlaps a version written since the check: nothing was written. Check again.',
      );
    });
  const shared = { ...auditActor(actor, meta), entityType: 'gov_plan_price' };
  await recordAudits(
    tx,
    { ...shared, action: 'gov_plan_price.closed_by_change' },
    closing.map((version) => ({
      entityId: version.closes_id!,
      after: { effective_to: version.closes_to, source: 'import' },
    })),
  );
  await recordAudits(
    tx,
    { ...shared, action: 'gov_plan_price.created' },
    created.map(({ id }) => ({ entityId: id, after: { source: 'import' } })),
  );
  return { created: created.length, updated: closing.length };
}

export const planPriceImportStore: ImportStore<typeof planPriceRowSchema> = {
  contract: planPriceImport,
  table: 'gov_plan_prices',
  entity: 'gov_plan_price',
  prepare: prepareVersions,
  imports: {
    rowSchema: planPriceRowSchema,
    writer: {
      fields: ['carrier_id', 'programme', 'state', 'model_id', 'variant_id', 'effective_from'],
      // Every row is a new version; the versions it closes are counted when it is written.
      countExisting: async () => 0,
      write: writeVersions,
    },
  },
};
