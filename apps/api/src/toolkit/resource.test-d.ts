/**
 * Type tests of a store's writes: compiled by `npm run typecheck`, never run. A store's `prepare`
 * reads the fields of its contract's create and update inputs (and of its import's file rows,
 * when they differ) by their names and types; each `@ts-expect-error` marks a name or a value the
 * compiler must refuse, and fails the typecheck if it were accepted.
 */
import type {
  accessoryImportRowSchema,
  accessoryResource,
  colorResource,
} from '@inventory/contract';
import type { Queryable } from '../db/db.js';
import { prepareOne, type ResourceStore } from './resource.js';

/** The colours' first step of writing. */
type ColorPrepare = Pick<ResourceStore<typeof colorResource>, 'prepare'>;

export const colorFields: ColorPrepare = {
  prepare: async (inputs) =>
    inputs.map(({ input }) => {
      // Typed as the contract types them, not `unknown`.
      const name: string | undefined = input.name;
      const aliases: string[] | undefined = input.aliases;
      return { values: { name: name?.trim(), aliases } };
    }),
};

export const misspeltField: ColorPrepare = {
  prepare: async (inputs) =>
    // @ts-expect-error: `nmae` is no field of a colour's inputs.
    inputs.map(({ input }) => ({ values: { name: input.nmae } })),
};

export const wrongType: ColorPrepare = {
  prepare: async (inputs) =>
    inputs.map(({ input }) => {
      // @ts-expect-error: a colour's name is text.
      const name: number | undefined = input.name;
      return { values: { name } };
    }),
};

/** An accessory's file names its compatible models; its form gives their ids. */
export const fileRowFields: Pick<
  ResourceStore<typeof accessoryResource, typeof accessoryImportRowSchema>,
  'prepare'
> = {
  prepare: async (inputs) =>
    inputs.map(({ input }) => ({
      values: { names: input.compatible_models, ids: input.compatible_model_ids },
    })),
};

export const noFileRowDeclared: Pick<ResourceStore<typeof accessoryResource>, 'prepare'> = {
  prepare: async (inputs) =>
    // @ts-expect-error: without its file row's schema, a store's inputs are the form's only.
    inputs.map(({ input }) => ({ values: { names: input.compatible_models } })),
};

declare const colorStore: ResourceStore<typeof colorResource>;
declare const db: Queryable;

export const preparedColour = () => prepareOne(colorStore, { name: 'Midnight' }, null, db);

// @ts-expect-error: `nmae` is no field of a colour's inputs.
export const misspeltInput = () => prepareOne(colorStore, { nmae: 'Midnight' }, null, db);
