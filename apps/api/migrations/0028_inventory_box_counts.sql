-- The device boxes' list and their counts (issue 15, DOMAIN.md 4.2 /inventory-box/device and
-- /inventory-box/scan-device; decision 0021, amended).
--
-- The list pages by keyset over the box code and over the day a box was sealed (opened, while it
-- is open): one index per order with the id as tie-breaker, so any page costs what the first one
-- costs. The second also answers the age filter.
CREATE INDEX inventory_boxes_code_order ON inventory_boxes (code, id);
CREATE INDEX inventory_boxes_sealed_order ON inventory_boxes ((COALESCE(sealed_at, created_at)), id);

-- A count of one box: started from the list, it locks the box (status `locked`, the status it had
-- kept here) until the scan station's verify mode finishes it with what was missing and extra.
-- One running count per box at most.
CREATE TABLE inventory_box_counts (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  box_id bigint NOT NULL REFERENCES inventory_boxes (id),
  -- The box's status before the count locked it, given back when the count is finished.
  box_status text NOT NULL CHECK (box_status IN ('sealed', 'located', 'partially_picked')),
  -- The devices the box held when the count started.
  expected_qty integer NOT NULL CHECK (expected_qty >= 0),
  started_at timestamptz NOT NULL DEFAULT now(),
  started_by bigint REFERENCES users (id) ON DELETE SET NULL,
  finished_at timestamptz,
  finished_by bigint REFERENCES users (id) ON DELETE SET NULL,
  -- What the finished count found: the box's devices not scanned (IMEIs) and the devices scanned
  -- that were not in it (IMEI and the box they were in).
  missing jsonb,
  extra jsonb,
  CHECK ((finished_at IS NULL) = (missing IS NULL) AND (finished_at IS NULL) = (extra IS NULL))
);
CREATE UNIQUE INDEX inventory_box_counts_running ON inventory_box_counts (box_id)
  WHERE finished_at IS NULL;
CREATE INDEX inventory_box_counts_box ON inventory_box_counts (box_id, id);

-- Each device scanned by a count, once: in the box (found) or not (extra). A repeated scan
-- meets the key and is told it was counted already.
CREATE TABLE inventory_box_count_scans (
  count_id bigint NOT NULL REFERENCES inventory_box_counts (id),
  device_id bigint NOT NULL REFERENCES devices (id),
  in_box boolean NOT NULL,
  scanned_at timestamptz NOT NULL DEFAULT now(),
  scanned_by bigint REFERENCES users (id) ON DELETE SET NULL,
  station text,
  PRIMARY KEY (count_id, device_id)
);
CREATE INDEX inventory_box_count_scans_device ON inventory_box_count_scans (device_id);
