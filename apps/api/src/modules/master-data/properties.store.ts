import { propertyResource, type FieldErrors } from '@inventory/contract';
import type { Queryable } from '../../db/db.js';
import type {
  Prepared,
  ResourceFieldsOf,
  ResourceStore,
  WriteInput,
} from '../../toolkit/resource.js';
import { stampColumns } from './stamps.js';

/** A property as a form or an import row gives it. */
type PropertyInput = WriteInput<ResourceFieldsOf<typeof propertyResource>>;

type Stored = {
  id: number;
  key: string;
  name: string;
  data_type: string;
  enum_values: string[];
  value_count: number;
};

/**
 * The rows the inputs would change: by id for an update, by name for a create (an import
 * updates the property of the same name), in one query.
 */
async function storedRows(inputs: readonly PropertyInput[], db: Queryable) {
  const ids = inputs.flatMap(({ id }) => (id === null ? [] : [id]));
  const names = inputs.flatMap(({ input, id }) =>
    id === null && typeof input.name === 'string' ? [input.name.toLowerCase()] : [],
  );
  const rows = await db.query<Stored>(
    `SELECT p.id, lower(p.name) AS key, p.name, p.data_type, p.enum_values,
       (SELECT count(*)::int FROM property_values v WHERE v.property_id = p.id) AS value_count
     FROM properties p
     WHERE p.id = ANY ($1::bigint[]) OR lower(p.name) = ANY ($2::text[])`,
    [ids, names],
  );
  return {
    byId: new Map(rows.map((row) => [Number(row.id), row])),
    byKey: new Map(rows.map((row) => [row.key, row])),
  };
}

const valuesWord = (n: number) => (n === 1 ? '1 value' : `${n} values`);

/**
 * The rules that need the stored row. The data type of a property with values cannot change:
 * a 422 on data_type (a field message, so that a form and an import row show it where it
 * belongs) saying how many values exist. An enum has at least one value to choose from; any
 * other type has none (given values are a 422, stored ones are cleared when the type changes).
 * Whenever data_type is written, enum_values is written too, so that import rows have the same
 * columns.
 */
async function prepareProperties(
  inputs: readonly PropertyInput[],
  db: Queryable,
): Promise<Prepared[]> {
  const { byId, byKey } = await storedRows(inputs, db);
  return inputs.map(({ input, id }): Prepared => {
    const current =
      id !== null
        ? byId.get(id)
        : typeof input.name === 'string'
          ? byKey.get(input.name.toLowerCase())
          : undefined;
    const values = Object.fromEntries(
      Object.entries(input).filter(([, value]) => value !== undefined),
    );
    const errors: FieldErrors = {};
    const dataType = input.data_type ?? current?.data_type;
    const given = input.enum_values;

    if (
      current &&
      input.data_type !== undefined &&
      input.data_type !== current.data_type &&
      current.value_count > 0
    ) {
      errors.data_type = [
        `"${current.name}" has ${valuesWord(current.value_count)} as ${current.data_type}: its data type cannot change.`,
      ];
    }
    if (dataType === 'enum') {
      const list = given ?? current?.enum_values ?? [];
      if (list.length === 0) {
        errors.enum_values = ['An enum property needs at least one value to choose from.'];
      } else if (given === undefined && input.data_type !== undefined) {
        values.enum_values = list;
      }
    } else if (given !== undefined && given.length > 0) {
      errors.enum_values = [
        `Only an enum property has values to choose from: leave them empty for ${dataType ?? 'this type'}.`,
      ];
    } else if (input.data_type !== undefined) {
      values.enum_values = [];
    }
    return Object.keys(errors).length > 0 ? { errors } : { values };
  });
}

export const propertyStore: ResourceStore<typeof propertyResource> = {
  contract: propertyResource,
  reads: ['properties', 'property_values'],
  table: 'properties',
  entity: 'property',
  list: {
    from: 'properties p',
    id: 'p.id',
    columns: `p.id, p.name, p.data_type, p.unit, p.enum_values, p.applies_to,
      (SELECT count(*)::int FROM property_values v WHERE v.property_id = p.id) AS usage_count,
      ${stampColumns('p')}`,
    sorts: {
      name: { sql: 'lower(p.name)', type: 'text' },
      data_type: { sql: 'p.data_type', type: 'text' },
      usage_count: {
        sql: '(SELECT count(*) FROM property_values v WHERE v.property_id = p.id)',
        type: 'bigint',
      },
      updated_at: { sql: 'p.updated_at', type: 'timestamptz' },
    },
    search: (pattern) => ['(p.name ILIKE ? OR p.unit ILIKE ?)', pattern, pattern],
    filters: (query) => [
      query.active !== undefined && ['p.active = ?', query.active],
      query.data_type !== undefined && ['p.data_type = ?', query.data_type],
      query.applies_to !== undefined && ['? = ANY (p.applies_to)', query.applies_to],
    ],
  },
  uniques: { properties_name_key: ['name', 'A property with this name exists.'] },
  references: [
    {
      label: 'product and variant values',
      countSql: 'SELECT count(*) FROM property_values WHERE property_id = $1',
    },
  ],
  prepare: prepareProperties,
  imports: { key: { fields: ['name'], conflict: 'lower(name)', match: 'lower(name)' } },
};
