import type { Db } from '../../db/db.js';
import { ApiError } from '../../http/errors.js';

/**
 * Agents' scans are limited per agent and minute (DOMAIN.md 7 "rate-limited scans";
 * sim_settings.agent_scans_per_minute), in the database so that every app server counts alike.
 * Like the sign-in throttle (session.service.ts), a scan over the limit is answered 429 with
 * Retry-After. Each scan counts, refused or not, in its own statement before the scan's
 * transaction, so that a refused scan is counted and the count never waits for a scan's locks.
 */
export async function countAgentScan(db: Db, agentId: number): Promise<void> {
  const [window] = await db.query<{ scans: number; scan_limit: number; wait: number }>(
    `INSERT INTO agent_scan_windows AS w (agent_id, minute, scans)
     VALUES ($1, date_trunc('minute', now()), 1)
     ON CONFLICT (agent_id) DO UPDATE SET
       scans = CASE WHEN w.minute = EXCLUDED.minute THEN w.scans + 1 ELSE 1 END,
       minute = EXCLUDED.minute
     RETURNING scans, (SELECT agent_scans_per_minute FROM sim_settings) AS scan_limit,
       ceil(extract(epoch FROM minute + interval '1 minute' - now()))::int AS wait`,
    [agentId],
  );
  if (window!.scans > window!.scan_limit) {
    const wait = Math.max(1, window!.wait);
    throw new ApiError(
      429,
      `Too many scans: at most ${window!.scan_limit} a minute. Wait ${wait} seconds, then scan again.`,
      { 'retry-after': String(wait) },
    );
  }
}
