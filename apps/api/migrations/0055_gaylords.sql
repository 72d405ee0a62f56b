-- Outbound gaylords and SCAN forms (DOMAIN.md 2.2 Gaylord / ScanForm, 3.3, 4.14 /fulfill/gaylord).
--
-- Labelled parcels are sorted into a gaylord of their carrier and service (packages.gaylord_id,
-- migration 0051, status in_gaylord); the gaylord is closed with its count confirmed; the closed
-- gaylords of a carrier go on the SCAN form of their ship date and origin ZIP (USPS PS Form 5630:
-- one form per ship date, origin ZIP and carrier); the carrier's pickup ships their parcels.
-- A parcel stays linked to its gaylord after a void or a scan-out at the dock; a gaylord's parcels
-- are those not voided.

CREATE SEQUENCE scan_form_numbers;
CREATE TABLE scan_forms (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  number text NOT NULL DEFAULT 'SF-' || lpad(nextval('scan_form_numbers')::text, 6, '0'),
  carrier text NOT NULL CHECK (carrier IN ('usps', 'ups')),
  ship_date date NOT NULL,
  -- shipping_settings.ship_from_zip when the form was made.
  origin_zip text NOT NULL CHECK (length(origin_zip) BETWEEN 3 AND 10),
  -- Parcels on the form when it was last generated.
  package_count integer NOT NULL DEFAULT 0 CHECK (package_count >= 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by bigint REFERENCES users (id) ON DELETE SET NULL,
  -- The carrier took the first of its gaylords: later gaylords go on another day's form.
  picked_up_at timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX scan_forms_number_key ON scan_forms (number);
CREATE UNIQUE INDEX scan_forms_day_key ON scan_forms (carrier, ship_date, origin_zip);

CREATE SEQUENCE gaylord_numbers;
CREATE TABLE gaylords (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  code text NOT NULL DEFAULT 'GL-' || lpad(nextval('gaylord_numbers')::text, 6, '0'),
  direction text NOT NULL DEFAULT 'outbound' CHECK (direction IN ('outbound', 'inbound')),
  carrier text NOT NULL CHECK (carrier IN ('usps', 'ups')),
  service text NOT NULL CHECK (length(service) BETWEEN 1 AND 40),
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed', 'picked_up')),
  opened_at timestamptz NOT NULL DEFAULT now(),
  opened_by bigint REFERENCES users (id) ON DELETE SET NULL,
  closed_at timestamptz,
  closed_by bigint REFERENCES users (id) ON DELETE SET NULL,
  picked_up_at timestamptz,
  picked_up_by bigint REFERENCES users (id) ON DELETE SET NULL,
  scan_form_id bigint REFERENCES scan_forms (id),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((status = 'open') = (closed_at IS NULL)),
  CHECK ((status = 'picked_up') = (picked_up_at IS NOT NULL)),
  -- Only a closed gaylord goes on a SCAN form.
  CHECK (status <> 'open' OR scan_form_id IS NULL)
);
CREATE UNIQUE INDEX gaylords_code_key ON gaylords (code);
-- The board: open gaylords and closed ones awaiting pickup.
CREATE INDEX gaylords_waiting ON gaylords (status, id) WHERE status <> 'picked_up';
-- Today's pickups.
CREATE INDEX gaylords_picked_up ON gaylords (picked_up_at, id) WHERE picked_up_at IS NOT NULL;
CREATE INDEX gaylords_scan_form ON gaylords (scan_form_id, id) WHERE scan_form_id IS NOT NULL;

ALTER TABLE packages
  ADD CONSTRAINT packages_gaylord_id_fkey FOREIGN KEY (gaylord_id) REFERENCES gaylords (id);
-- A gaylord's parcels, their count and weight.
CREATE INDEX packages_gaylord ON packages (gaylord_id, id) WHERE gaylord_id IS NOT NULL;
-- A parcel in a gaylord is linked to it.
ALTER TABLE packages
  ADD CONSTRAINT packages_in_gaylord_has_gaylord CHECK (status <> 'in_gaylord' OR gaylord_id IS NOT NULL);
