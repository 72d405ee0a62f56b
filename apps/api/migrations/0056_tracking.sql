-- Parcel tracking (issue 18, DOMAIN.md 2.2 TrackingEvent, 3.3, 4.16 /shipment-management/shipment).
--
-- A carrier's events reach us from a tracking file, the carrier adapter (a refresh, the polling
-- job) or, later, a webhook. Each is kept once per parcel (its dedup key: the moment, the
-- normalised status, the carrier's words and the place), with the carrier's code or words as
-- given and the normalised status (one set for every carrier, as EasyPost's). The newest event
-- by the time it happened moves the parcel through its lifecycle; an older one arriving late is
-- kept and moves nothing.

-- No event for this many days after scan-out (or after the last event) marks a parcel on its way
-- "possible lost".
ALTER TABLE shipping_settings
  ADD COLUMN possible_lost_days integer NOT NULL DEFAULT 7
    CHECK (possible_lost_days BETWEEN 1 AND 90);

-- What the parcels list shows of the newest event, kept with the parcel when an event is
-- recorded, so the list reads one row per parcel.
ALTER TABLE packages
  -- The normalised status of the newest event.
  ADD COLUMN tracking_status text CHECK (tracking_status IN ('pre_transit', 'in_transit',
    'out_for_delivery', 'failed_attempt', 'available_for_pickup', 'delivered', 'return_to_sender',
    'failure', 'cancelled', 'unknown')),
  ADD COLUMN last_event_at timestamptz,
  ADD COLUMN last_event_text text,
  ADD COLUMN last_event_location text,
  -- When the event that set the parcel's state happened: an older event moves nothing.
  ADD COLUMN status_event_at timestamptz,
  ADD COLUMN delivered_at timestamptz,
  -- When the carrier was last asked for the parcel's events (a refresh, the polling job).
  ADD COLUMN tracked_at timestamptz;

CREATE TABLE tracking_events (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  package_id bigint NOT NULL REFERENCES packages (id) ON DELETE CASCADE,
  tracking_number text NOT NULL,
  carrier text NOT NULL CHECK (carrier IN ('usps', 'ups')),
  -- The carrier's code or words, as given.
  carrier_status text NOT NULL CHECK (length(carrier_status) BETWEEN 1 AND 100),
  description text CHECK (length(description) <= 500),
  status text NOT NULL CHECK (status IN ('pre_transit', 'in_transit', 'out_for_delivery',
    'failed_attempt', 'available_for_pickup', 'delivered', 'return_to_sender', 'failure',
    'cancelled', 'unknown')),
  occurred_at timestamptz NOT NULL,
  location text CHECK (length(location) <= 200),
  source text NOT NULL CHECK (source IN ('file', 'adapter', 'webhook')),
  dedup_key text NOT NULL,
  -- The state the event moved the parcel to; null when it moved nothing.
  moved_to text,
  recorded_at timestamptz NOT NULL DEFAULT now(),
  recorded_by bigint REFERENCES users (id) ON DELETE SET NULL
);
-- An event repeated (a file imported twice, a refresh asked again) is the same row.
CREATE UNIQUE INDEX tracking_events_dedup_key ON tracking_events (package_id, dedup_key);

-- The list's sort by the last event, and its filters with the sort by ship date.
CREATE INDEX packages_last_event ON packages ((COALESCE(last_event_at, '-infinity'::timestamptz)), id);
CREATE INDEX packages_status_shipped
  ON packages (status, (COALESCE(scanned_out_at, '-infinity'::timestamptz)), id);
CREATE INDEX packages_tracking_status_shipped
  ON packages (tracking_status, (COALESCE(scanned_out_at, '-infinity'::timestamptz)), id)
  WHERE tracking_status IS NOT NULL;
-- Parcels on their way, the least recently asked first: the polling job's queue.
CREATE INDEX packages_in_flight_tracked
  ON packages ((COALESCE(tracked_at, '-infinity'::timestamptz)), id)
  WHERE status IN ('scanned_out', 'in_transit', 'out_for_delivery', 'failed_attempt',
    'available_for_pickup', 'exception');
-- Parcels on their way by their last news: the "possible lost" filter.
CREATE INDEX packages_in_flight_quiet
  ON packages ((GREATEST(last_event_at, scanned_out_at)), id)
  WHERE status IN ('scanned_out', 'in_transit', 'out_for_delivery', 'failed_attempt',
    'available_for_pickup', 'exception');
