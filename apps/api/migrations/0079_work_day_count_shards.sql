-- A person's day counts in shards (decision 0054). Every unit of work upserts the counts row of
-- its person, action and day (migration 0071), and holds that row's lock until its transaction
-- commits: one person working at several stations at once (a station login a shift shares, a
-- lead covering two benches) had their scans queue one behind the other on that row. The row is
-- now one of eight, chosen by the transaction (as order_day_counts, migration 0038), and the
-- readers sum them through `work_day_totals`.
ALTER TABLE work_day_counts ADD COLUMN shard smallint NOT NULL DEFAULT 0;
ALTER TABLE work_day_counts DROP CONSTRAINT work_day_counts_pkey;
ALTER TABLE work_day_counts ADD PRIMARY KEY (business_day, user_id, action, shard);

CREATE OR REPLACE FUNCTION work_day_counts_from_logs() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO work_day_counts AS c (business_day, user_id, action, shard, qty, rework,
    duration_s, first_at, last_at)
  SELECT business_day, user_id, action, (pg_current_xact_id()::text::bigint % 8)::smallint,
    sum(qty), COALESCE(sum(qty) FILTER (WHERE rework), 0), COALESCE(sum(duration_s), 0),
    min(at), max(at)
  FROM new_logs GROUP BY business_day, user_id, action
  ORDER BY business_day, user_id, action
  ON CONFLICT (business_day, user_id, action, shard) DO UPDATE SET
    qty = c.qty + EXCLUDED.qty,
    rework = c.rework + EXCLUDED.rework,
    duration_s = c.duration_s + EXCLUDED.duration_s,
    first_at = least(c.first_at, EXCLUDED.first_at),
    last_at = greatest(c.last_at, EXCLUDED.last_at);
  RETURN NULL;
END
$$;

-- One row per person, action and day, as the reports read them.
CREATE VIEW work_day_totals AS
SELECT business_day, user_id, action, sum(qty)::int AS qty, sum(rework)::int AS rework,
  sum(duration_s)::bigint AS duration_s, min(first_at) AS first_at, max(last_at) AS last_at
FROM work_day_counts
GROUP BY business_day, user_id, action;
