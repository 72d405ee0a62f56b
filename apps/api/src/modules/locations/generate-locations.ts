import type { Queryable } from '../../db/db.js';

export type GenerateLocationsOptions = {
  /** Storage zones A, B, C, … (at most 20). Default 3. */
  storageZones?: number;
  /** Aisles per storage zone (default 12), racks per aisle (10), levels per rack (4, A..), bins per level (3). */
  aisles?: number;
  racks?: number;
  levels?: number;
  bins?: number;
  /** The generated data's "now": audits are dated before it. Default today at 00:00 UTC. */
  anchor?: Date;
};

export type GenerateLocationsSummary = { locations: number; bins: number; seconds: number };

const whole = (name: string, value: number, min: number, max: number) => {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new RangeError(`${name} must be a whole number from ${min} to ${max}.`);
  }
  return value;
};

/**
 * A warehouse in use (DOMAIN.md 4.2): a quarantine zone QRT (2 aisles x 4 racks x 3 levels),
 * a receiving and staging zone RCV with 20 staging lanes (bins right under the zone), and storage
 * zones A, B, C, … of aisles x racks x levels x bins ("A-01-03-B-02"), all active. The defaults
 * make 3 x (12 + 120 + 480 + 1,440) storage locations, about 6,200 in all, 4,320 of them bins.
 * About two in three storage locations have been audited in the 120 days before `anchor`, each
 * due 90 days after its audit, so some are due; the rest have never been. Set-based: one
 * statement per level of the tree. The database must hold none of these zones yet.
 */
export async function generateLocations(
  db: Queryable,
  options: GenerateLocationsOptions = {},
): Promise<GenerateLocationsSummary> {
  const started = performance.now();
  const zones = whole('storageZones', options.storageZones ?? 3, 1, 20);
  const aisles = whole('aisles', options.aisles ?? 12, 1, 99);
  const racks = whole('racks', options.racks ?? 10, 1, 99);
  const levels = whole('levels', options.levels ?? 4, 1, 26);
  const bins = whole('bins', options.bins ?? 3, 1, 99);
  const anchorDate = options.anchor ?? new Date(new Date().toISOString().slice(0, 10));
  if (Number.isNaN(anchorDate.getTime())) throw new RangeError('anchor must be a date.');
  const anchor = `'${anchorDate.toISOString()}'::timestamptz`;
  const storage = Array.from({ length: zones }, (_, i) => String.fromCharCode(65 + i));
  const codes = ['QRT', 'RCV', ...storage];

  const [taken] = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM locations WHERE code = ANY($1::text[])',
    [codes],
  );
  if (taken!.n > 0) throw new Error('These zones exist already: generate into a new database.');
  const [admin] = await db.query<{ id: number | null }>('SELECT min(id) AS id FROM users');
  const actor = admin?.id ?? null;

  await db.query(
    `INSERT INTO locations (code, kind, name, quarantine, active, created_by, updated_by)
     SELECT code, 'zone', name, code = 'QRT', true, $2, $2
     FROM unnest($1::text[]) WITH ORDINALITY AS z (code, n)
     CROSS JOIN LATERAL (SELECT CASE code WHEN 'QRT' THEN 'Quarantine'
       WHEN 'RCV' THEN 'Receiving and staging' ELSE 'Storage ' || code END AS name) named
     ORDER BY n`,
    [codes, actor],
  );
  /** Children of every location of `kind` under the zones named, one statement. */
  const children = (
    parentKind: string,
    kind: string,
    zoneCodes: readonly string[],
    count: number,
    segment: string,
    capacity: number | null,
  ) =>
    db.query(
      `INSERT INTO locations (code, kind, parent_id, capacity_boxes, active, created_by, updated_by)
       SELECT p.code || '-' || ${segment}, $2, p.id, $4::int, true, $5, $5
       FROM locations p JOIN locations z ON z.id = p.zone_id
       CROSS JOIN generate_series(1, $3::int) AS s (n)
       WHERE p.kind = $1 AND z.code = ANY($6::text[])
       ORDER BY p.code, s.n`,
      [parentKind, kind, count, capacity, actor, zoneCodes],
    );
  const number = `lpad(s.n::text, 2, '0')`;
  const letter = `chr(64 + s.n)`;

  await children('zone', 'bin', ['RCV'], 20, number, 40);
  await children('zone', 'aisle', ['QRT'], 2, number, null);
  await children('aisle', 'rack', ['QRT'], 4, number, null);
  await children('rack', 'level', ['QRT'], 3, letter, 6);
  await children('zone', 'aisle', storage, aisles, number, null);
  await children('aisle', 'rack', storage, racks, number, null);
  await children('rack', 'level', storage, levels, letter, null);
  await children('level', 'bin', storage, bins, number, 4);

  // Audits: two in three storage locations, spread over the 120 days before the anchor.
  await db.query(
    `UPDATE locations l SET last_audit_at = a.at, last_audit_by = $1,
       next_audit_due = (a.at + interval '90 days')::date
     FROM (SELECT id, ${anchor} - (id * 7919 % 120) * interval '1 day'
             - (id * 104729 % 480) * interval '1 minute' AS at
           FROM locations WHERE kind <> 'zone' AND id % 3 <> 0
             AND zone_id IN (SELECT id FROM locations WHERE code = ANY($2::text[]))) a
     WHERE l.id = a.id`,
    [actor, storage],
  );

  const [counts] = await db.query<{ locations: number; bins: number }>(
    `SELECT count(*)::int AS locations, count(*) FILTER (WHERE l.kind = 'bin')::int AS bins
     FROM locations l JOIN locations z ON z.id = l.zone_id WHERE z.code = ANY($1::text[])`,
    [codes],
  );
  return { ...counts!, seconds: (performance.now() - started) / 1000 };
}
