import { Readable } from 'node:stream';
import type { LabelOptions, PrintEndpoint, SheetOptions } from '@inventory/contract';
import * as z from 'zod/mini';
import type { EndpointInput } from '../../http/endpoint.js';
import type { ModuleContext } from '../../modules/module.js';
import type { PreparedFile } from '../downloads.js';
import { labelsPdf, labelsZpl, type PrintedLabel } from './label.js';
import { sheetPdf, type Sheet } from './sheet.js';

/** What a label printable prints: `fileName` without its extension, which the format adds. */
export type LabelContent = { readonly fileName: string; readonly labels: readonly PrintedLabel[] };
export type SheetContent = { readonly fileName: string; readonly sheet: Sheet };

type ContentOf<E extends PrintEndpoint> = E['printable']['kind'] extends 'label'
  ? LabelContent
  : SheetContent;

/** The server half of a printable endpoint (contract `printEndpoint`). */
export type PrintableStore<E extends PrintEndpoint> = {
  readonly endpoint: E;
  /**
   * When the link is asked for, its options checked: answers what the link records to find its
   * subject again (a 404 when there is none), and may record the print in the audit log.
   */
  readonly ask: (input: EndpointInput<E>) => Promise<Record<string, unknown>>;
  /** When the link is followed: what to print, from what `ask` recorded. */
  readonly content: (request: Record<string, unknown>) => Promise<ContentOf<E>>;
};

const PDF = 'application/pdf';
const ZPL = 'application/x-zpl';

/** Labels as a file: a PDF written when it is whole, or ZPL written label by label. */
async function labelFile(content: LabelContent, options: LabelOptions): Promise<PreparedFile> {
  const { fileName, labels } = content;
  const { format, size, copies } = options;
  if (format === 'zpl') {
    return {
      fileName: `${fileName}.zpl`,
      contentType: ZPL,
      stream: Readable.from(labelsZpl(size, labels, copies)),
    };
  }
  return {
    fileName: `${fileName}.pdf`,
    contentType: PDF,
    stream: Readable.from([await labelsPdf(size, labels, copies)]),
  };
}

async function sheetFile(content: SheetContent, options: SheetOptions): Promise<PreparedFile> {
  return {
    fileName: `${content.fileName}.pdf`,
    contentType: PDF,
    stream: Readable.from([await sheetPdf(content.sheet, options.paper, options.copies)]),
  };
}

/**
 * Registers a printable: its endpoint answers a one-use download link (options checked by the
 * contract's schema, 422), and following the link makes the document in the format asked for.
 */
export function registerPrintable<E extends PrintEndpoint>(
  context: ModuleContext,
  store: PrintableStore<E>,
): void {
  const { endpoint: definition, ask, content } = store;
  const { printable } = definition;
  context.downloads.addProducer(printable.name, async (request) => {
    const options = z.parse(printable.options, request.options);
    const made = await content(request);
    return printable.kind === 'label'
      ? labelFile(made as LabelContent, options as LabelOptions)
      : sheetFile(made as SheetContent, options as SheetOptions);
  });
  // Registered as any printable endpoint: its guard is never public, its answer a link.
  context.endpoint<PrintEndpoint>(definition, async (input) =>
    context.downloads.issue(input.principal, {
      ...(await ask(input as EndpointInput<E>)),
      producer: printable.name,
      access: definition.guard,
      options: input.body,
    }),
  );
}
