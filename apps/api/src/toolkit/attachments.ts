import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  ATTACHMENT_TYPES,
  ATTACHMENTS_PER_RECORD_MAX,
  attachmentEndpoints,
  attachmentFileProblem,
  attachmentTypeNamed,
  type Attachment,
  type AttachmentContentType,
  type AttachmentDefinition,
  type AttachmentEndpoints,
  type AttachmentType,
} from '@inventory/contract';
import type { Queryable } from '../db/db.js';
import { Answer } from '../http/endpoint.js';
import { ConflictError, NotFoundError, fieldError } from '../http/errors.js';
import type { Principal } from '../http/principal.js';
import { whereOf } from '../http/sql.js';
import { auditActor, recordAudit } from '../modules/audit/index.js';
import type { ModuleContext } from '../modules/module.js';
import { acceptFileBodies } from './files.js';
import type { Condition } from './list.js';
import { scopeOf } from './scope.js';
import { turns } from './turns.js';
import { ATTACHMENT_FILES_AT_ONCE, ATTACHMENT_FILES_WAITING_MAX } from './upload-limits.js';

/**
 * The server half of a record kind's attachments (migration 0018): the contract's declaration and
 * the table of its records, which carries migration 0018's trigger so that its files go with it.
 */
export type AttachmentStore = {
  readonly contract: AttachmentDefinition;
  readonly table: string;
  /**
   * The records whose files the asker may reach, as one condition on the record's table (its
   * columns by name: `agent_id = ?`), as a list's scope says which rows it shows (an agent's own
   * claims); null: every record. The files of a record outside it are not found (404). Left out:
   * every record that the asker's access reaches.
   */
  readonly scope?: (asker: Principal) => Condition;
};

/**
 * How each accepted type begins. Typed by the contract's list, so that a type added there does not
 * compile until it is known here.
 */
const SIGNATURES: Record<AttachmentContentType, (content: Buffer) => boolean> = {
  'application/pdf': (content) => content.subarray(0, 5).toString('latin1') === '%PDF-',
  'image/png': (content) =>
    content.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  'image/jpeg': (content) => content.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff])),
  'image/webp': (content) =>
    content.subarray(0, 4).toString('latin1') === 'RIFF' &&
    content.subarray(8, 12).toString('latin1') === 'WEBP',
};

/** The type of a file, read from its content: the name and the sender's content type are not. */
export function attachmentTypeOf(content: Buffer): AttachmentType | undefined {
  return ATTACHMENT_TYPES.find((type) => SIGNATURES[type.contentType](content));
}

/** The type of an upload, when its content is one accepted and its name says the same; else 422. */
function checkedType(fileName: string, content: Buffer): AttachmentType {
  const problem = attachmentFileProblem(fileName, content.length);
  if (problem) throw fieldError('file', problem);
  const named = attachmentTypeNamed(fileName)!;
  const read = attachmentTypeOf(content);
  const extension = fileName.slice(fileName.lastIndexOf('.'));
  if (!read) {
    throw fieldError(
      'file',
      `The file is named ${extension} but is not a ${named.label} file: attach the ${named.label} itself.`,
    );
  }
  if (read !== named) {
    throw fieldError(
      'file',
      `The file is named ${extension} but is a ${read.label} file: name it .${read.extensions[0]}.`,
    );
  }
  return read;
}

/** Files sent and received take turns, every record kind's together: each holds its content. */
const transfers = turns(
  ATTACHMENT_FILES_AT_ONCE,
  ATTACHMENT_FILES_WAITING_MAX,
  'The server is busy with other files: send or open this one again in a minute.',
);

const attachedAlready = (fileName: string) =>
  new ConflictError(`This file is attached already, as ${fileName}.`);

/** A file as the database gives it: its content as base64 text on PGlite, as bytes on pg. */
type StoredFile = { file_name: string; content_type: string; content: string | Buffer };

const COLUMNS = `a.id, a.file_name, a.content_type, a.size_bytes, a.sha256, u.name AS uploaded_by,
  to_json(a.uploaded_at) #>> '{}' AS uploaded_at`;

/**
 * A record kind's attachment endpoints. Each answers 404 when the record does not exist or is
 * outside the asker's scope; reading
 * needs the record's view access, attaching and removing its manage access; both are audited on
 * the record (`<kind>.attachment_added`, `<kind>.attachment_removed`).
 */
export function registerAttachments(
  context: ModuleContext,
  store: AttachmentStore,
): AttachmentEndpoints {
  const { endpoint, db, downloads, app } = context;
  const { contract, table } = store;
  const { kind, singular } = contract;
  const endpoints = attachmentEndpoints(contract);
  // PGlite's own bytea encoding takes seconds on a file of megabytes: it is given and gives base64
  // text. pg sends and reads the bytes as they are.
  const asBase64 = db.kind === 'pglite';

  /**
   * 404 unless the record exists within the asker's scope. `hold` keeps it from being deleted
   * until the transaction ends, so that its delete takes the new file with it, and makes uploads
   * to it wait for each other, so that two at once cannot both pass the count of its files (FOR NO
   * KEY UPDATE: edits of the record wait for it too, for as long as a file is stored).
   */
  const findRecord = async (db: Queryable, id: number, asker: Principal, hold = false) => {
    const where = whereOf([['id = ?', id], scopeOf(store, asker)]);
    const [found] = await db.query(
      `SELECT 1 AS found FROM ${table} ${where.sql} ${hold ? 'FOR NO KEY UPDATE' : ''}`,
      where.params,
    );
    if (!found) throw new NotFoundError(`There is no ${singular} with id ${id}.`);
  };

  const noSuchFile = (attachmentId: number) =>
    new NotFoundError(`This ${singular} has no attached file ${attachmentId}.`);

  const findAttachment = async (
    db: Queryable,
    asker: Principal,
    recordId: number,
    attachmentId: number,
  ) => {
    await findRecord(db, recordId, asker);
    const [found] = await db.query<Attachment>(
      `SELECT ${COLUMNS} FROM attachments a LEFT JOIN users u ON u.id = a.uploaded_by
       WHERE a.record_kind = $1 AND a.record_id = $2 AND a.id = $3`,
      [kind, recordId, attachmentId],
    );
    if (!found) throw noSuchFile(attachmentId);
    return found;
  };

  endpoint(endpoints.list, async ({ params, principal }) => {
    await findRecord(db, params.id, principal);
    return db.query<Attachment>(
      `SELECT ${COLUMNS} FROM attachments a LEFT JOIN users u ON u.id = a.uploaded_by
       WHERE a.record_kind = $1 AND a.record_id = $2 ORDER BY a.uploaded_at, a.id`,
      [kind, params.id],
    );
  });

  endpoint(endpoints.upload, async ({ request, principal, params, query, meta }) => {
    const content = request.body;
    if (!Buffer.isBuffer(content)) {
      throw fieldError('file', 'Send the file itself as the body, as application/octet-stream.');
    }
    const type = checkedType(query.fileName, content);
    const sha256 = createHash('sha256').update(content).digest('hex');
    const store = async (tx: Queryable) => {
      await findRecord(tx, params.id, principal, true);
      const [held] = await tx.query<{ files: number; same: string | null }>(
        `SELECT count(*)::int AS files, min(file_name) FILTER (WHERE sha256 = $3) AS same
         FROM attachments WHERE record_kind = $1 AND record_id = $2`,
        [kind, params.id, sha256],
      );
      if (held!.same !== null) throw attachedAlready(held!.same);
      if (held!.files >= ATTACHMENTS_PER_RECORD_MAX) {
        throw new ConflictError(
          `This ${singular} holds ${ATTACHMENTS_PER_RECORD_MAX} files, the most it may: remove one first.`,
        );
      }
      const [row] = await tx.query<{ id: number }>(
        `INSERT INTO attachments (record_kind, record_id, file_name, content_type, size_bytes,
           sha256, content, uploaded_by)
         VALUES ($1, $2, $3, $4, $5, $6, ${asBase64 ? "decode($7, 'base64')" : '$7'}, $8)
         RETURNING id`,
        [
          kind,
          params.id,
          query.fileName,
          type.contentType,
          content.length,
          sha256,
          asBase64 ? content.toString('base64') : content,
          principal.userId,
        ],
      );
      const attachment = await findAttachment(tx, principal, params.id, row!.id);
      await recordAudit(tx, {
        ...auditActor(principal, meta),
        action: `${kind}.attachment_added`,
        entityType: kind,
        entityId: params.id,
        after: attachment,
      });
      return new Answer(attachment, `${attachment.file_name} is attached.`);
    };
    await transfers.take();
    try {
      return await db.transaction(store).catch(async (error: unknown) => {
        const { code, constraint } = error as { code?: string; constraint?: string };
        if (code !== '23505' || constraint !== 'attachments_record_file_key') throw error;
        // The same file sent twice at once: the one stored first is the one the user has.
        const [same] = await db.query<{ file_name: string }>(
          `SELECT file_name FROM attachments
             WHERE record_kind = $1 AND record_id = $2 AND sha256 = $3`,
          [kind, params.id, sha256],
        );
        throw attachedAlready(same?.file_name ?? query.fileName);
      });
    } finally {
      transfers.end();
    }
  });

  const producer = `${kind}:attachment`;
  downloads.addProducer(producer, async (request) => {
    await transfers.take();
    try {
      const [file] = await db.query<StoredFile>(
        `SELECT file_name, content_type, ${asBase64 ? "encode(content, 'base64')" : 'content'}
           AS content
         FROM attachments WHERE record_kind = $1 AND record_id = $2 AND id = $3`,
        [kind, request.recordId, request.attachmentId],
      );
      if (!file) throw noSuchFile(Number(request.attachmentId));
      // The turn lasts until the content is sent, or the download is given up.
      const stream = Readable.from([
        typeof file.content === 'string' ? Buffer.from(file.content, 'base64') : file.content,
      ]).once('close', transfers.end);
      return {
        fileName: file.file_name,
        contentType: file.content_type,
        stream,
        // Saved, never shown in the app's own origin: the file is what a user sent.
        disposition: 'attachment',
      };
    } catch (error) {
      transfers.end();
      throw error;
    }
  });
  endpoint(endpoints.download, async ({ principal, params }) => {
    await findAttachment(db, principal, params.id, params.attachmentId);
    return downloads.issue(principal, {
      producer,
      access: contract.view,
      recordId: params.id,
      attachmentId: params.attachmentId,
    });
  });

  endpoint(endpoints.remove, async ({ principal, params, meta }) => {
    const removed = await db.transaction(async (tx) => {
      const attachment = await findAttachment(tx, principal, params.id, params.attachmentId);
      const deleted = await tx.query('DELETE FROM attachments WHERE id = $1 RETURNING id', [
        attachment.id,
      ]);
      // Removed by another request since it was read: that one said so in the audit log.
      if (deleted.length === 0) throw noSuchFile(params.attachmentId);
      await recordAudit(tx, {
        ...auditActor(principal, meta),
        action: `${kind}.attachment_removed`,
        entityType: kind,
        entityId: params.id,
        before: attachment,
      });
      return attachment;
    });
    return new Answer(null, `${removed.file_name} is removed.`);
  });

  acceptFileBodies(app);
  return endpoints;
}
