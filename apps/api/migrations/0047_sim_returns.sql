-- SIM returns (issue 17, DOMAIN.md 4.6 /sim/return, 7 "Returns"): the return's own timeline, the
-- station each ICCID was scanned at, and finding the returns an ICCID was on (the list's search).

-- A return's steps (created, receiving, closed, cancelled), as sim_request_events are a request's.
CREATE TABLE sim_return_events (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  sim_return_id bigint NOT NULL REFERENCES sim_returns (id),
  at timestamptz NOT NULL DEFAULT now(),
  actor_id bigint REFERENCES users (id) ON DELETE SET NULL,
  actor_name text NOT NULL,
  type text NOT NULL,
  from_status text,
  to_status text,
  data jsonb
);
CREATE INDEX sim_return_events_return ON sim_return_events (sim_return_id, id);

-- The scan station that received the line (a name the browser keeps), for the station's log.
ALTER TABLE sim_return_lines ADD COLUMN station text CHECK (length(station) <= 60);

-- The returns an ICCID was scanned into or listed on: the list's search by ICCID, and the
-- refusal to list a SIM expected back on another open return.
CREATE INDEX sim_return_lines_iccid ON sim_return_lines (iccid, sim_return_id);
