import * as z from 'zod/mini';
import type { Access } from './access.js';
import { defineEndpoint, type Schema } from './endpoint.js';
import { downloadSchema } from './resource.js';

/**
 * Printed documents (decision 0015): labels on label stock and sheets on paper. Each printable
 * thing is declared once here with the parameters of its download, which its endpoint checks
 * (422), and the server makes it as PDF or, for labels, as ZPL for Zebra printers.
 */

/** Label stock in inches: 4x6 for boxes and parcels, 2x1 for devices (DOMAIN.md B). */
export const LABEL_SIZES = ['4x6', '2x1'] as const;
export type LabelSize = (typeof LABEL_SIZES)[number];

export const PAPER_SIZES = ['letter', 'a4'] as const;
export type PaperSize = (typeof PAPER_SIZES)[number];

/** ZPL is the Zebra printers' own language: labels only. */
export const LABEL_FORMATS = ['pdf', 'zpl'] as const;
export type LabelFormat = (typeof LABEL_FORMATS)[number];

/** Reprints beyond these are another request: a print run stays a few seconds of work. */
export const MAX_LABEL_COPIES = 50;
export const MAX_SHEET_COPIES = 5;

const copies = (max: number) =>
  z._default(
    z
      .number('The number of copies must be a whole number.')
      .check(
        z.int('The number of copies must be a whole number.'),
        z.gte(1, 'Print at least one copy.'),
        z.lte(max, `Print at most ${max} copies at a time.`),
      ),
    1,
  );

const oneOf = <const T extends readonly [string, ...string[]]>(values: T, what: string) =>
  z._default(z.enum(values, `Choose the ${what}: ${values.join(' or ')}.`), values[0]);

/** A label printed on the stock `sizes` names (the first is the default), as PDF or ZPL. */
export const labelPrintable = <const S extends readonly [LabelSize, ...LabelSize[]]>(
  name: string,
  sizes: S,
) => ({
  name,
  kind: 'label' as const,
  options: z.object({
    format: oneOf(LABEL_FORMATS, 'format'),
    size: oneOf(sizes, 'label size'),
    copies: copies(MAX_LABEL_COPIES),
  }),
});

/** A sheet document (a list, a slip, a bill of lading) printed on letter or A4 paper as PDF. */
export const sheetPrintable = (name: string) => ({
  name,
  kind: 'sheet' as const,
  options: z.object({
    format: oneOf(['pdf'], 'format'),
    paper: oneOf(PAPER_SIZES, 'paper size'),
    copies: copies(MAX_SHEET_COPIES),
  }),
});

/** A printable thing: its name (the file producer's) and the options of its download. */
export type Printable = {
  readonly name: string;
  readonly kind: 'label' | 'sheet';
  readonly options: Schema;
};
export type LabelOptions = { format: LabelFormat; size: LabelSize; copies: number };
export type SheetOptions = { format: 'pdf'; paper: PaperSize; copies: number };

/**
 * The endpoint that asks for a printable's one-use download link; its body is the printable's
 * options, all optional, so an empty body prints one PDF copy on the default stock.
 */
export function printEndpoint<
  const P extends Printable,
  const Params extends Schema,
  const G extends Access & { readonly permission: string },
>(definition: {
  readonly path: string;
  readonly summary: string;
  readonly tag: string;
  readonly guard: G;
  readonly params: Params;
  readonly printable: P;
}): {
  readonly method: 'POST';
  readonly path: string;
  readonly summary: string;
  readonly tag: string;
  readonly guard: G;
  readonly params: Params;
  readonly body: P['options'];
  readonly response: typeof downloadSchema;
  readonly successStatus: 201;
  readonly printable: P;
} {
  const { printable, ...rest } = definition;
  return {
    ...defineEndpoint({
      ...rest,
      method: 'POST',
      body: printable.options,
      response: downloadSchema,
      successStatus: 201,
    }),
    printable,
  };
}
export type PrintEndpoint = ReturnType<
  typeof printEndpoint<Printable, Schema, Access & { readonly permission: string }>
>;
