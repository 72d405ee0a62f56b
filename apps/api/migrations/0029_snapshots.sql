-- Kept figures (issue 15, the warehouse dashboard; the main dashboard's widgets later): figures
-- that would cost a count over the devices on every request are read by the server in the
-- background and kept here, one row per named snapshot, with the moment they were read. A page
-- reads one row, whatever the registry holds, and says how old the figures are (UX.md).
--
-- Only the snapshot toolkit (apps/api/src/toolkit/snapshots.ts) writes it, under an advisory lock
-- per snapshot, so several app servers read each snapshot's figures once.

CREATE TABLE snapshots (
  name text PRIMARY KEY,
  figures jsonb NOT NULL,
  -- When the figures were read (the refresh's start), and when they were written.
  as_of timestamptz NOT NULL,
  refreshed_at timestamptz NOT NULL,
  took_ms integer NOT NULL CHECK (took_ms >= 0),
  -- Who asked for them; null: the server's own refresher.
  refreshed_by bigint REFERENCES users (id) ON DELETE SET NULL
);
