import { substitutionRuleResource, type FieldErrors } from '@inventory/contract';
import type { Queryable } from '../../db/db.js';
import type {
  Prepared,
  ResourceFieldsOf,
  ResourceStore,
  WriteInput,
} from '../../toolkit/resource.js';
import { stampColumns } from '../master-data/index.js';

/**
 * The substitution rules (DOMAIN.md 4.14): one per client carrier and programme, edited as master
 * data by a manager. The allowed variants are given by SKU and kept as ids (a variant is archived,
 * never deleted); a rule's carrier must be an active client carrier.
 */

type RuleInput = WriteInput<ResourceFieldsOf<typeof substitutionRuleResource>>;

async function prepareRules(inputs: readonly RuleInput[], db: Queryable): Promise<Prepared[]> {
  const skus = inputs.flatMap(({ input }) => input.allowed_skus ?? []);
  const carrierIds = inputs.flatMap(({ input }) =>
    input.client_carrier_id === undefined ? [] : [input.client_carrier_id],
  );
  const variants = await db.query<{ id: number; sku: string }>(
    `SELECT v.id::int AS id, v.sku FROM product_variants v
     JOIN products p ON p.id = v.product_id AND p.kind = 'device'
     WHERE v.sku = ANY ($1::text[])`,
    [skus.map((sku) => sku.toUpperCase())],
  );
  const carriers = await db.query<{ id: number }>(
    `SELECT id::int AS id FROM vendors
     WHERE id = ANY ($1::bigint[]) AND type = 'carrier-client' AND active`,
    [carrierIds],
  );
  const idOfSku = new Map(variants.map((variant) => [variant.sku, variant.id]));
  const carrierSet = new Set(carriers.map((carrier) => carrier.id));
  return inputs.map(({ input }): Prepared => {
    const errors: FieldErrors = {};
    const { allowed_skus: allowed, ...rest } = input;
    const values: Record<string, unknown> = Object.fromEntries(
      Object.entries(rest).filter(([, value]) => value !== undefined),
    );
    if (input.client_carrier_id !== undefined && !carrierSet.has(input.client_carrier_id)) {
      errors.client_carrier_id = ['Choose an active client carrier.'];
    }
    if (allowed !== undefined) {
      const unknown = allowed.filter((sku) => !idOfSku.has(sku.toUpperCase()));
      if (unknown.length > 0) {
        errors.allowed_skus = [`No device variant has the SKU ${unknown.join(', ')}.`];
      }
      values.allowed_variant_ids = [
        ...new Set(allowed.map((sku) => idOfSku.get(sku.toUpperCase()))),
      ];
    }
    return Object.keys(errors).length > 0 ? { errors } : { values };
  });
}

export const substitutionRuleStore: ResourceStore<typeof substitutionRuleResource> = {
  contract: substitutionRuleResource,
  table: 'substitution_rules',
  entity: 'substitution_rule',
  list: {
    from: 'substitution_rules r JOIN vendors c ON c.id = r.client_carrier_id',
    id: 'r.id',
    columns: `r.id::int AS id, r.client_carrier_id::int AS client_carrier_id,
      c.name AS client_carrier, r.program, r.same_os, r.storage_at_least, r.grade_at_least,
      ARRAY(SELECT v.sku FROM product_variants v WHERE v.id = ANY (r.allowed_variant_ids)
            ORDER BY v.sku) AS allowed_skus,
      r.notify_client, r.note, ${stampColumns('r')}`,
    sorts: {
      client_carrier: { sql: "lower(c.name) || ' ' || r.program", type: 'text' },
      updated_at: { sql: 'r.updated_at', type: 'timestamptz' },
    },
    search: (pattern) => ['(c.name ILIKE ? OR r.note ILIKE ?)', pattern, pattern],
    filters: (query) => [
      query.client_carrier_id !== undefined && ['r.client_carrier_id = ?', query.client_carrier_id],
      query.program !== undefined && ['r.program = ?', query.program],
      query.active !== undefined && ['r.active = ?', query.active],
    ],
  },
  uniques: {
    substitution_rules_key: ['program', 'This client carrier has a rule for this programme.'],
  },
  references: [
    {
      label: 'substitutions',
      countSql: 'SELECT count(*) FROM order_substitutions WHERE rule_id = $1',
    },
  ],
  imports: {
    key: {
      fields: ['client_carrier_id', 'program'],
      conflict: 'client_carrier_id, program',
      match: "client_carrier_id::text || '|' || lower(program)",
    },
  },
  prepare: prepareRules,
};
