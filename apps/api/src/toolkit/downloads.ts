import { createHash, randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { API_BASE, canAccess, type Access, type Download } from '@inventory/contract';
import type { Db } from '../db/db.js';
import { NotFoundError } from '../http/errors.js';
import type { Principal } from '../http/principal.js';

/** A file made when its link is followed. */
export type PreparedFile = {
  readonly fileName: string;
  readonly contentType: string;
  readonly stream: Readable;
  /** Saved, or opened in the browser; by default a PDF opens and anything else is saved. */
  readonly disposition?: 'inline' | 'attachment';
};

/** Makes a file from what the link recorded. */
export type FileProducer = (request: Record<string, unknown>) => Promise<PreparedFile>;

export type DownloadRequest = {
  readonly producer: string;
  /** Checked again when the link is followed. */
  readonly access: Access;
  readonly [key: string]: unknown;
};

const LINK_SECONDS = 60;
const sha256 = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * One-use links to files, so a browser streams a large export straight to disk. A link belongs to
 * the session that asked for it: it dies with the session, after a minute, after one use, and
 * when its user no longer holds the access it needs.
 */
export function createDownloads(db: Db) {
  const producers = new Map<string, FileProducer>();

  return {
    addProducer(name: string, producer: FileProducer) {
      if (producers.has(name)) throw new Error(`File producer ${name} is declared twice.`);
      producers.set(name, producer);
    },

    async issue(principal: Principal, request: DownloadRequest): Promise<Download> {
      if (!producers.has(request.producer))
        throw new Error(`No file producer ${request.producer}.`);
      const token = randomBytes(32).toString('base64url');
      const [row] = await db.query<{ expires_at: string }>(
        `INSERT INTO download_tickets (token_hash, session_id, request, expires_at)
         VALUES ($1, $2, $3, now() + make_interval(secs => $4))
         RETURNING to_json(expires_at) #>> '{}' AS expires_at`,
        [sha256(token), principal.sessionId, JSON.stringify(request), LINK_SECONDS],
      );
      return {
        url: `${API_BASE}/downloads/${token}`,
        expiresAt: new Date(row!.expires_at).toISOString(),
      };
    },

    /** The file of a link, once; a used, expired or foreign link is a 404. */
    async redeem(token: string): Promise<PreparedFile> {
      const [ticket] = await db.query<{
        request: DownloadRequest;
        role_keys: string[];
        permissions: string[];
      }>(
        `WITH used AS (
           DELETE FROM download_tickets WHERE token_hash = $1 AND expires_at > now()
           RETURNING session_id, request)
         SELECT used.request,
           COALESCE((SELECT array_agg(r.key) FROM user_roles ur JOIN roles r ON r.id = ur.role_id
                     WHERE ur.user_id = s.user_id AND r.key IS NOT NULL), '{}') AS role_keys,
           COALESCE((SELECT array_agg(p.name) FROM user_roles ur
                     JOIN role_permissions rp ON rp.role_id = ur.role_id
                     JOIN permissions p ON p.id = rp.permission_id
                     WHERE ur.user_id = s.user_id), '{}') AS permissions
         FROM used JOIN sessions s ON s.id = used.session_id
         JOIN users u ON u.id = s.user_id
         WHERE s.revoked_at IS NULL AND s.expires_at > now() AND u.status = 'active'`,
        [sha256(token)],
      );
      const producer = ticket && producers.get(ticket.request.producer);
      const allowed =
        ticket &&
        canAccess(
          { allRoles: [], allRoleKeys: ticket.role_keys, allPermissions: ticket.permissions },
          ticket.request.access,
        );
      if (!producer || !allowed) {
        throw new NotFoundError('This download link is used, expired or not yours: export again.');
      }
      return producer(ticket.request);
    },
  };
}

export type Downloads = ReturnType<typeof createDownloads>;
