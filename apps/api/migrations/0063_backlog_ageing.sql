-- Backlog ageing alerts (DOMAIN.md 4.14 /fulfill/backlog-order: "aging alerts at 24/48/72 h
-- (config)"). The hours are a setting; each threshold an order's current hold passes is alerted
-- once, by a job every 15 minutes, on the order's timeline and in the backlog list.
ALTER TABLE order_settings
  ADD COLUMN backlog_alert_hours integer[] NOT NULL DEFAULT '{24,48,72}'
    CHECK (cardinality(backlog_alert_hours) BETWEEN 1 AND 6
      AND 0 < ALL (backlog_alert_hours) AND 2160 >= ALL (backlog_alert_hours));

-- One row per order, hold (the moment it was put on hold) and threshold passed: a hold alerts each
-- threshold once, whichever app server's job finds it first, and a later hold starts again.
CREATE TABLE backlog_alerts (
  order_id bigint NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  held_at timestamptz NOT NULL,
  hours integer NOT NULL,
  alerted_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (order_id, held_at, hours)
);
