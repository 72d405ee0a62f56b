-- The dock's end-of-day close (DOMAIN.md 4.14 /fulfill/scan-to-ship): once a business day is
-- closed nothing more scans out on it (no parcel, no gaylord pickup) until a manager reopens it
-- with a reason. The close keeps what left, per carrier, and what stayed behind labelled, as it
-- was at the close; the audit log keeps every close and reopening.
CREATE TABLE dock_days (
  business_day date PRIMARY KEY,
  status text NOT NULL CHECK (status IN ('open', 'closed')),
  closed_at timestamptz NOT NULL,
  closed_by bigint NOT NULL REFERENCES users (id),
  summary jsonb NOT NULL,
  reopened_at timestamptz,
  reopened_by bigint REFERENCES users (id),
  reopen_reason text
);
