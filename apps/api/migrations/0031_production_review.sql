-- Production (issue 15, decision 0020 amended): a diagnostic tool's results waiting for the
-- device's test at the grading station, and the photos of a device.

-- The latest results of a diagnostic file for a device, until its test is recorded (the test
-- takes them and the row goes). A later file replaces a device's results.
CREATE TABLE device_diagnostics (
  device_id bigint PRIMARY KEY REFERENCES devices (id) ON DELETE CASCADE,
  -- {"screen": "pass", "touch": "fail", ...}: only the items the file tested.
  items jsonb NOT NULL,
  battery_health integer CHECK (battery_health BETWEEN 0 AND 100),
  file_name text NOT NULL,
  imported_at timestamptz NOT NULL DEFAULT now(),
  imported_by bigint REFERENCES users (id) ON DELETE SET NULL
);

-- A device's files (its photos for grades C and D) go with it (migration 0018's function).
CREATE TRIGGER devices_attachments AFTER DELETE ON devices
  FOR EACH ROW EXECUTE FUNCTION attachments_follow_record('device');
