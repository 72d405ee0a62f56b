-- Labels bought from a carrier aggregator (EasyPost, issue 18, DOMAIN.md 4.14): the label file
-- the aggregator made is kept with its package, so the label desk prints the carrier's label
-- (and reprints it) instead of our own 4x6 rendering, and the aggregator's id of what it sold is
-- kept for the void. A package bought from the offline carrier has no row.
CREATE TABLE package_carrier_labels (
  package_id bigint PRIMARY KEY REFERENCES packages (id) ON DELETE CASCADE,
  -- The aggregator's id of the label's shipment (EasyPost's shp_...), which its refund names.
  carrier_ref text NOT NULL CHECK (length(carrier_ref) BETWEEN 1 AND 100),
  format text NOT NULL CHECK (format IN ('pdf', 'zpl')),
  -- A 4x6 label file is tens of kilobytes.
  content bytea NOT NULL CHECK (octet_length(content) BETWEEN 1 AND 2097152),
  created_at timestamptz NOT NULL DEFAULT now()
);
