-- Retail customers (issue 16, DOMAIN.md 2.2 "Retailer", 4.8): the B2B accounts the business sells
-- to, with their addresses, contacts, commercial terms and resale certificate, and the people of a
-- retailer who sign in to its portal.
--
-- The price tier and the credit terms are closed lists (CHECKs, the contract's RETAILER_PRICE_TIERS
-- and CREDIT_TERMS): a tier is a label that the pricing slice prices by, not a record with fields
-- of its own. Money is in cents. The resale certificate's file is an attachment of record kind
-- 'retailer' (migration 0018); its number and expiry are columns here, so that the list filters and
-- the tax-exempt rule read them without touching the files.

CREATE TABLE retailers (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  legal_name text CHECK (length(legal_name) <= 200),
  type text NOT NULL CHECK (type IN ('store', 'dealer', 'distributor')),
  tax_id text CHECK (length(tax_id) <= 40),
  price_tier text NOT NULL DEFAULT 'standard'
    CHECK (price_tier IN ('standard', 'silver', 'gold', 'platinum')),
  credit_terms text NOT NULL DEFAULT 'prepaid'
    CHECK (credit_terms IN ('prepaid', 'net15', 'net30', 'net60')),
  credit_limit_cents bigint NOT NULL DEFAULT 0 CHECK (credit_limit_cents >= 0),
  tax_exempt boolean NOT NULL DEFAULT false,
  resale_certificate_no text CHECK (length(resale_certificate_no) <= 60),
  resale_certificate_expires_on date,
  account_rep_id bigint REFERENCES users (id) ON DELETE SET NULL,
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'inactive')),
  notes text,
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by bigint REFERENCES users (id) ON DELETE SET NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by bigint REFERENCES users (id) ON DELETE SET NULL,
  -- Prepaid accounts buy on no credit.
  CHECK (credit_terms <> 'prepaid' OR credit_limit_cents = 0)
);
CREATE UNIQUE INDEX retailers_name_key ON retailers (lower(name));

CREATE TABLE retailer_addresses (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  retailer_id bigint NOT NULL REFERENCES retailers (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('billing', 'shipping')),
  line1 text NOT NULL CHECK (length(line1) BETWEEN 1 AND 200),
  line2 text CHECK (length(line2) <= 200),
  city text NOT NULL CHECK (length(city) BETWEEN 1 AND 100),
  state text NOT NULL CHECK (state ~ '^[A-Z]{2}$'),
  zip text NOT NULL CHECK (zip ~ '^[0-9]{5}(-[0-9]{4})?$'),
  is_default boolean NOT NULL DEFAULT false
);
CREATE INDEX retailer_addresses_retailer ON retailer_addresses (retailer_id);
-- One default address of each kind per retailer.
CREATE UNIQUE INDEX retailer_addresses_default_key ON retailer_addresses (retailer_id, kind)
  WHERE is_default;

CREATE TABLE retailer_contacts (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  retailer_id bigint NOT NULL REFERENCES retailers (id) ON DELETE CASCADE,
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  email text CHECK (length(email) <= 254),
  phone text CHECK (length(phone) <= 40),
  role text CHECK (length(role) <= 100),
  is_main boolean NOT NULL DEFAULT false
);
CREATE INDEX retailer_contacts_retailer ON retailer_contacts (retailer_id);
-- One main contact per retailer.
CREATE UNIQUE INDEX retailer_contacts_main_key ON retailer_contacts (retailer_id) WHERE is_main;

-- A retailer's people who sign in to its portal: accounts of type staff without roles, tied to one
-- retailer each (the user's row is the access area's; this says whose portal it opens).
CREATE TABLE retailer_portal_users (
  user_id bigint PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  retailer_id bigint NOT NULL REFERENCES retailers (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX retailer_portal_users_retailer ON retailer_portal_users (retailer_id);

CREATE TRIGGER retailers_attachments AFTER DELETE ON retailers
  FOR EACH ROW EXECUTE FUNCTION attachments_follow_record('retailer');
