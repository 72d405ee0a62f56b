import type { Schema } from '@inventory/contract';
import type { Rule } from 'antd/es/form';
import * as z from 'zod/mini';

/** The object schema's field, or nothing for a field the schema does not know. */
export function fieldSchema(schema: Schema, name: string): Schema | undefined {
  const shape = (schema as unknown as { _zod: { def: { shape?: Record<string, Schema> } } })._zod
    .def.shape;
  return shape?.[name];
}

const isEmpty = (value: unknown) => value === undefined || value === null || value === '';

/**
 * A form rule from the contract: the field is checked by the same schema the server uses, so the
 * form and the API say the same thing before the request is sent.
 */
export const zodRule = (schema: Schema | undefined): Rule => ({
  validator: async (_rule, value: unknown) => {
    if (!schema) return;
    if (isEmpty(value) && z.safeParse(schema, undefined).success) return;
    const result = z.safeParse(schema, isEmpty(value) ? '' : value);
    if (result.success) return;
    const issue = result.error.issues[0];
    throw new Error(
      issue?.code === 'invalid_type' && isEmpty(value)
        ? 'Please fill this in.'
        : (issue?.message ?? 'This value is not valid.'),
    );
  },
});
