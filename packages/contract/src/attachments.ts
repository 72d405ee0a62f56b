import * as z from 'zod/mini';
import type { Access } from './access.js';
import { defineEndpoint } from './endpoint.js';
import { idNumber, idParamsSchema } from './list.js';
import { downloadSchema } from './resource.js';

/**
 * Files attached to records: an invoice's PDF, damage photos, a resale certificate, a claim's
 * proof. A record kind declares its attachments once (`defineAttachments`) and gets the same four
 * endpoints as every other kind; the files live in the database, so every app server sees them.
 */

/** The largest file one may attach, in bytes; the web checks it before sending. */
export const ATTACHMENT_MAX_BYTES = 10 * 1024 * 1024;

/** A record holds at most this many files: past it, remove one first. */
export const ATTACHMENTS_PER_RECORD_MAX = 50;

/**
 * The kinds of file accepted, each known by its content (the server reads the first bytes) and
 * named by one of its extensions. Only documents and pictures: nothing a browser would run.
 */
export const ATTACHMENT_TYPES = [
  { contentType: 'application/pdf', label: 'PDF', extensions: ['pdf'] },
  { contentType: 'image/png', label: 'PNG', extensions: ['png'] },
  { contentType: 'image/jpeg', label: 'JPEG', extensions: ['jpg', 'jpeg'] },
  { contentType: 'image/webp', label: 'WebP', extensions: ['webp'] },
] as const;
export type AttachmentType = (typeof ATTACHMENT_TYPES)[number];
export type AttachmentContentType = AttachmentType['contentType'];

const CONTENT_TYPES = ATTACHMENT_TYPES.map((type) => type.contentType) as [
  AttachmentContentType,
  ...AttachmentContentType[],
];

const typeLabels = ATTACHMENT_TYPES.map((type) => type.label);
/** "PDF, PNG, JPEG or WebP" */
const TYPES_IN_WORDS = `${typeLabels.slice(0, -1).join(', ')} or ${typeLabels.at(-1)}`;
/** The rule as a sentence: "PDF, PNG, JPEG or WebP, up to 10 MB." */
export const ATTACHMENT_RULE = `${TYPES_IN_WORDS}, up to ${ATTACHMENT_MAX_BYTES / (1024 * 1024)} MB.`;

/** The type a file's name claims by its extension, if it is one of the accepted. */
export function attachmentTypeNamed(fileName: string): AttachmentType | undefined {
  const extension = /\.([A-Za-z0-9]+)$/.exec(fileName)?.[1]?.toLowerCase() ?? '';
  return ATTACHMENT_TYPES.find((type) =>
    (type.extensions as readonly string[]).includes(extension),
  );
}

/**
 * What is wrong with a file before it is sent, by its name and size, or null. The server asks the
 * same and then reads the content, which alone decides the type.
 */
export function attachmentFileProblem(fileName: string, size: number): string | null {
  if (!attachmentTypeNamed(fileName)) {
    const extensions = ATTACHMENT_TYPES.flatMap((type) => type.extensions.map((e) => `.${e}`));
    return `Attach a ${TYPES_IN_WORDS} file (${extensions.join(', ')}).`;
  }
  if (size === 0) return 'The file is empty.';
  if (size > ATTACHMENT_MAX_BYTES) {
    return `The file is larger than ${ATTACHMENT_MAX_BYTES / (1024 * 1024)} MB: attach a smaller copy.`;
  }
  return null;
}

export const attachmentSchema = z.object({
  id: z.int(),
  file_name: z.string(),
  /** Read from the content, never taken from the sender. */
  content_type: z.enum(CONTENT_TYPES),
  size_bytes: z.int(),
  /** SHA-256 of the content, in hex: the same file is attached to a record once. */
  sha256: z.string(),
  uploaded_by: z.nullable(z.string()),
  uploaded_at: z.string(),
});
export type Attachment = z.infer<typeof attachmentSchema>;

/** The upload's query: the file's name, which is kept and given back on download. */
export const attachmentUploadQuerySchema = z.object({
  fileName: z.string().check(
    z.trim(),
    z.minLength(1, 'The file needs a name.'),
    z.maxLength(255, 'The file name is too long (at most 255 characters).'),
    // Control characters and path separators make no sense in a name and break headers.
    // eslint-disable-next-line no-control-regex -- finding them is the point
    z.regex(/^[^\u0000-\u001f\u007f/\\]*$/, 'The file name holds a character it may not.'),
  ),
});

export const attachmentParamsSchema = z.object({ id: idNumber, attachmentId: idNumber });

/** A record kind that carries attachments. */
export type AttachmentDefinition = {
  /** The record kind as the audit log names it (`purchase_invoice`); stored with each file. */
  readonly kind: string;
  /** The records' path (`/purchase-invoices`): the files sit under `<path>/:id/attachments`. */
  readonly path: string;
  readonly singular: string;
  readonly tag: string;
  /** Who may see a record lists and downloads its files. */
  readonly view: Access & { readonly permission: string };
  /** Who may change a record attaches and removes files. */
  readonly manage: Access & { readonly permission: string };
};

export const defineAttachments = <const D extends AttachmentDefinition>(definition: D): D =>
  definition;

/** The attachment endpoints of a record kind: list, upload, download link, remove. */
export function attachmentEndpoints(definition: AttachmentDefinition) {
  const base = `${definition.path}/:id/attachments`;
  const { tag, view, manage, singular } = definition;
  return {
    list: defineEndpoint({
      method: 'GET',
      path: base,
      summary: `The files attached to a ${singular}, oldest first`,
      tag,
      guard: view,
      params: idParamsSchema,
      response: z.array(attachmentSchema),
    }),
    upload: defineEndpoint({
      method: 'POST',
      path: base,
      summary: `Attach a file to a ${singular}: ${ATTACHMENT_RULE} The body is the file itself; its type is read from its content`,
      tag,
      guard: manage,
      params: idParamsSchema,
      query: attachmentUploadQuerySchema,
      fileBody: { maxBytes: ATTACHMENT_MAX_BYTES },
      response: attachmentSchema,
      successStatus: 201,
    }),
    download: defineEndpoint({
      method: 'POST',
      path: `${base}/:attachmentId/download`,
      summary: `A download link for a file attached to a ${singular}`,
      tag,
      guard: view,
      params: attachmentParamsSchema,
      response: downloadSchema,
      successStatus: 201,
    }),
    remove: defineEndpoint({
      method: 'DELETE',
      path: `${base}/:attachmentId`,
      summary: `Remove a file attached to a ${singular}`,
      tag,
      guard: manage,
      params: attachmentParamsSchema,
      response: z.null(),
    }),
  };
}
export type AttachmentEndpoints = ReturnType<typeof attachmentEndpoints>;
