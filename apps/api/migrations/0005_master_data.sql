-- Master data (DOMAIN.md 2.2, 4.4, 4.5). Rows are deactivated, never deleted while referenced.

CREATE TABLE brands (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX brands_name_key ON brands (lower(name));

CREATE TABLE device_models (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  brand_id bigint NOT NULL REFERENCES brands (id),
  name text NOT NULL,
  model_numbers text[] NOT NULL DEFAULT '{}',
  device_type text NOT NULL CHECK (device_type IN ('phone', 'tablet', 'hotspot', 'watch', 'other')),
  os text NOT NULL CHECK (os IN ('android', 'ios', 'other')),
  storage_gb integer,
  ram_gb integer,
  network text NOT NULL CHECK (network IN ('3G', '4G', '5G')),
  esim boolean NOT NULL DEFAULT false,
  dual_sim boolean NOT NULL DEFAULT false,
  hotspot boolean NOT NULL DEFAULT false,
  weight_g integer,
  active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by bigint REFERENCES users (id) ON DELETE SET NULL,
  updated_by bigint REFERENCES users (id) ON DELETE SET NULL
);
CREATE UNIQUE INDEX device_models_brand_name_key ON device_models (brand_id, lower(name));
CREATE INDEX device_models_name_order ON device_models (lower(name), id);

CREATE TABLE colors (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name text NOT NULL,
  hex text,
  aliases text[] NOT NULL DEFAULT '{}',
  active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by bigint REFERENCES users (id) ON DELETE SET NULL,
  updated_by bigint REFERENCES users (id) ON DELETE SET NULL
);
CREATE UNIQUE INDEX colors_name_key ON colors (lower(name));

CREATE TABLE tac_numbers (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tac char(8) NOT NULL CHECK (tac ~ '^[0-9]{8}$'),
  model_id bigint NOT NULL REFERENCES device_models (id),
  capacity_gb integer,
  color_id bigint REFERENCES colors (id),
  source text NOT NULL DEFAULT 'manual' CHECK (source IN ('gsma', 'manual', 'learned', 'import')),
  active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by bigint REFERENCES users (id) ON DELETE SET NULL,
  updated_by bigint REFERENCES users (id) ON DELETE SET NULL
);
CREATE UNIQUE INDEX tac_numbers_tac_key ON tac_numbers (tac);
CREATE INDEX tac_numbers_model ON tac_numbers (model_id, tac);
CREATE INDEX tac_numbers_color ON tac_numbers (color_id) WHERE color_id IS NOT NULL;
CREATE INDEX tac_numbers_created_order ON tac_numbers (created_at, id);

CREATE TABLE accessories (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  sku text NOT NULL,
  name text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('charger', 'cable', 'case', 'protector', 'earbuds', 'other')),
  barcode text,
  compatible_model_ids bigint[] NOT NULL DEFAULT '{}',
  reorder_point integer NOT NULL DEFAULT 0,
  active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by bigint REFERENCES users (id) ON DELETE SET NULL,
  updated_by bigint REFERENCES users (id) ON DELETE SET NULL
);
CREATE UNIQUE INDEX accessories_sku_key ON accessories (lower(sku));
CREATE UNIQUE INDEX accessories_barcode_key ON accessories (barcode) WHERE barcode IS NOT NULL;
CREATE INDEX accessories_models ON accessories USING gin (compatible_model_ids);

CREATE TABLE parts (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  part_number text NOT NULL,
  name text NOT NULL,
  category text NOT NULL
    CHECK (category IN ('screen', 'battery', 'port', 'back', 'camera', 'board', 'other')),
  compatible_model_ids bigint[] NOT NULL DEFAULT '{}',
  cost_cents integer NOT NULL DEFAULT 0,
  reorder_point integer NOT NULL DEFAULT 0,
  barcode text,
  active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by bigint REFERENCES users (id) ON DELETE SET NULL,
  updated_by bigint REFERENCES users (id) ON DELETE SET NULL
);
CREATE UNIQUE INDEX parts_part_number_key ON parts (lower(part_number));
CREATE UNIQUE INDEX parts_barcode_key ON parts (barcode) WHERE barcode IS NOT NULL;
CREATE INDEX parts_models ON parts USING gin (compatible_model_ids);

CREATE TABLE vendors (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name text NOT NULL,
  type text NOT NULL CHECK (type IN ('supplier', 'recycler', 'repair', 'carrier-client')),
  contact_name text,
  email text,
  phone text,
  terms text,
  rtv_address text,
  notes text,
  active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by bigint REFERENCES users (id) ON DELETE SET NULL,
  updated_by bigint REFERENCES users (id) ON DELETE SET NULL
);
CREATE UNIQUE INDEX vendors_name_key ON vendors (lower(name));

CREATE TABLE tags (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name text NOT NULL,
  color text,
  scope text[] NOT NULL DEFAULT '{}',
  active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by bigint REFERENCES users (id) ON DELETE SET NULL,
  updated_by bigint REFERENCES users (id) ON DELETE SET NULL
);
CREATE UNIQUE INDEX tags_name_key ON tags (lower(name));

-- Which products, bundles and combos carry a tag (written by the catalogue area).
CREATE TABLE tag_assignments (
  tag_id bigint NOT NULL REFERENCES tags (id),
  entity_type text NOT NULL,
  entity_id bigint NOT NULL,
  PRIMARY KEY (tag_id, entity_type, entity_id)
);

CREATE TABLE properties (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name text NOT NULL,
  data_type text NOT NULL CHECK (data_type IN ('text', 'int', 'decimal', 'bool', 'enum')),
  unit text,
  enum_values text[] NOT NULL DEFAULT '{}',
  applies_to text[] NOT NULL DEFAULT '{}',
  active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by bigint REFERENCES users (id) ON DELETE SET NULL,
  updated_by bigint REFERENCES users (id) ON DELETE SET NULL
);
CREATE UNIQUE INDEX properties_name_key ON properties (lower(name));

-- Property values on products and variants (written by the catalogue area).
CREATE TABLE property_values (
  property_id bigint NOT NULL REFERENCES properties (id),
  entity_type text NOT NULL,
  entity_id bigint NOT NULL,
  value jsonb NOT NULL,
  PRIMARY KEY (property_id, entity_type, entity_id)
);

-- Imports: the uploaded file is kept until committed, so the dry run and the commit read the same
-- bytes; the errors of the last dry run are kept for the error file.
CREATE TABLE import_batches (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  resource text NOT NULL,
  file_name text NOT NULL,
  format text NOT NULL CHECK (format IN ('csv', 'xlsx')),
  content bytea,
  headers text[] NOT NULL,
  mapping jsonb,
  status text NOT NULL DEFAULT 'uploaded'
    CHECK (status IN ('uploaded', 'checked', 'committed', 'failed')),
  row_count integer NOT NULL DEFAULT 0,
  error_count integer NOT NULL DEFAULT 0,
  created_count integer NOT NULL DEFAULT 0,
  updated_count integer NOT NULL DEFAULT 0,
  errors jsonb NOT NULL DEFAULT '[]',
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by bigint REFERENCES users (id) ON DELETE SET NULL,
  committed_at timestamptz
);
CREATE INDEX import_batches_resource ON import_batches (resource, id DESC);

-- One-use, short-lived links for file downloads, so a browser streams a file straight to disk.
CREATE TABLE download_tickets (
  token_hash text PRIMARY KEY,
  session_id bigint NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  request jsonb NOT NULL,
  expires_at timestamptz NOT NULL
);
