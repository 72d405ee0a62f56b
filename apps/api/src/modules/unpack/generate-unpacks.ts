import type { Queryable } from '../../db/db.js';

/**
 * The unpack records of the generated parcels that came back (run after `generateUnits`): a
 * returned parcel whose unit names a device was opened at the unpack desk two days after the
 * carrier's return to sender. Most held their device (`match`); one in twelve held a cable
 * nobody expected besides (`mismatch`); one in twenty-five came back empty, its device still out.
 * A device found is back as `returned`, its unit `returned`: one in five is for repair (the repair
 * generator raises its ticket), one in ten set aside for quarantine (held), the rest wait on the
 * reuse queue. The daily figures and the repeated addresses the statistics read are written as
 * the station keeps them. Set-based, deterministic; answers the parcels unpacked.
 */
export async function generateUnpacks(
  db: Queryable,
  { actor }: { actor: number | null },
): Promise<{ unpacks: number }> {
  const [row] = await db.query<{ unpacks: number }>(
    `WITH parcels AS (
       SELECT p.id AS package_id, p.order_id, p.carrier, p.tracking_number, o.number,
         o.client_carrier_id, u.id AS unit_id, d.id AS device_id, d.identifier,
         p.status_event_at + interval '2 days' + (p.id % 8) * interval '1 hour' AS at,
         CASE WHEN p.id % 25 = 0 THEN 'empty' WHEN p.id % 12 = 1 THEN 'mismatch' ELSE 'match' END
           AS outcome,
         CASE WHEN p.id % 5 = 2 THEN 'repair' WHEN p.id % 10 = 3 THEN 'hold' ELSE 'reuse' END
           AS disposition,
         'unpack-' || (p.id % 3 + 1) AS station,
         COALESCE(upper(regexp_replace(s.line1 || ' ' || COALESCE(s.line2, ''), '\\s+', ' ', 'g'))
           || ' ' || s.zip, 'NO ADDRESS') AS address_key,
         COALESCE(s.zip, '') AS zip
       FROM packages p
       JOIN orders o ON o.id = p.order_id
       JOIN order_lines l ON l.order_id = o.id
       JOIN order_line_units u ON u.order_line_id = l.id AND u.status = 'shipped'
       JOIN devices d ON d.id = u.device_id AND d.status = 'shipped'
       LEFT JOIN order_ship_to s ON s.order_id = o.id
       WHERE p.status = 'returned' AND p.status_event_at IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM unpacks k WHERE k.package_id = p.id)),
     made AS (
       INSERT INTO unpacks (package_id, order_id, carrier, client_carrier_id, reason,
         package_status, outcome, address_key, zip, station, unpacked_by, unpacked_at)
       SELECT package_id, order_id, carrier, client_carrier_id, 'undeliverable',
         'return_to_sender', outcome, address_key, zip, station, $1, at
       FROM parcels ORDER BY at, package_id
       RETURNING id, package_id),
     items AS (
       INSERT INTO unpack_items (unpack_id, kind, code, expected_qty, found_qty, device_id,
         disposition, note)
       SELECT m.id, 'device', p.identifier, 1, (p.outcome <> 'empty')::int, p.device_id,
         CASE WHEN p.outcome <> 'empty' THEN p.disposition END,
         CASE WHEN p.outcome = 'empty' THEN 'Not in the parcel.' END
       FROM made m JOIN parcels p USING (package_id)
       UNION ALL
       SELECT m.id, 'accessory', 'CABLE-USB-C', 0, 1, NULL, NULL, NULL
       FROM made m JOIN parcels p USING (package_id) WHERE p.outcome = 'mismatch'
       RETURNING unpack_id),
     back AS (
       UPDATE devices d
       SET status = CASE WHEN p.disposition = 'hold' THEN 'hold' ELSE 'returned' END,
         hold_reason = CASE WHEN p.disposition = 'hold' THEN 'quarantine' END,
         status_before_hold = CASE WHEN p.disposition = 'hold' THEN 'returned' END,
         blacklist_checked_at = p.at, updated_at = p.at
       FROM parcels p WHERE d.id = p.device_id AND p.outcome <> 'empty'
       RETURNING d.id),
     units AS (
       UPDATE order_line_units u SET status = 'returned', updated_at = p.at
       FROM parcels p WHERE u.id = p.unit_id AND p.outcome <> 'empty'
       RETURNING u.id),
     device_steps AS (
       INSERT INTO device_events (device_id, at, actor_id, actor_name, type, from_status,
         to_status, ref_type, ref_id, station, data)
       SELECT p.device_id, p.at, $1, 'generator', 'returned', 'shipped', 'returned', 'package',
         p.package_id, p.station, jsonb_build_object('tracking', p.tracking_number, 'order', p.number)
       FROM parcels p WHERE p.outcome <> 'empty'
       UNION ALL
       SELECT p.device_id, p.at, $1, 'generator', 'held', 'returned', 'hold', 'package',
         p.package_id, p.station, jsonb_build_object('tracking', p.tracking_number, 'reason', 'quarantine')
       FROM parcels p WHERE p.outcome <> 'empty' AND p.disposition = 'hold'
       RETURNING id),
     day_counts AS (
       INSERT INTO unpack_day_counts (day, carrier, reason, client_carrier_id, shard, returns,
         mismatches, empties)
       SELECT order_business_day(at), carrier, 'undeliverable', COALESCE(client_carrier_id, 0), 0,
         count(*), count(*) FILTER (WHERE outcome = 'mismatch'),
         count(*) FILTER (WHERE outcome = 'empty')
       FROM parcels GROUP BY 1, 2, 4
       ON CONFLICT (day, carrier, reason, client_carrier_id, shard) DO UPDATE SET
         returns = unpack_day_counts.returns + EXCLUDED.returns,
         mismatches = unpack_day_counts.mismatches + EXCLUDED.mismatches,
         empties = unpack_day_counts.empties + EXCLUDED.empties
       RETURNING day),
     addresses AS (
       INSERT INTO unpack_addresses (address_key, zip, returns, first_at, last_at)
       SELECT address_key, min(zip), count(*), min(at), max(at) FROM parcels GROUP BY address_key
       ON CONFLICT (address_key) DO UPDATE SET
         returns = unpack_addresses.returns + EXCLUDED.returns,
         first_at = least(unpack_addresses.first_at, EXCLUDED.first_at),
         last_at = greatest(unpack_addresses.last_at, EXCLUDED.last_at)
       RETURNING address_key)
     SELECT (SELECT count(*)::int FROM made) AS unpacks,
       (SELECT count(*) FROM items) + (SELECT count(*) FROM back) + (SELECT count(*) FROM units)
         + (SELECT count(*) FROM device_steps) + (SELECT count(*) FROM day_counts)
         + (SELECT count(*) FROM addresses) AS written`,
    [actor],
  );
  return { unpacks: row!.unpacks };
}
