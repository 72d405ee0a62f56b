-- Product offers (DOMAIN.md 4.1 /dashboard/product-offer): a retailer's quote for a quantity of one
-- listing of the retailer channel at a price of their own, until the end of a day. Accepting holds
-- the units on the listing (`qty_reserved`); converting hands them to the order it creates.

CREATE TABLE product_offers (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  retailer_id bigint NOT NULL REFERENCES retailers (id),
  listing_id bigint NOT NULL REFERENCES pts_listings (id),
  qty integer NOT NULL CHECK (qty BETWEEN 1 AND 100000),
  -- The retailer's price as first offered; unit_price_cents is where the offer stands now
  -- (a counter changes it and the quantity).
  offered_price_cents bigint NOT NULL CHECK (offered_price_cents >= 0),
  unit_price_cents bigint NOT NULL CHECK (unit_price_cents >= 0),
  status text NOT NULL DEFAULT 'submitted'
    CHECK (status IN ('submitted', 'countered', 'accepted', 'rejected', 'expired', 'converted')),
  qty_reserved integer NOT NULL DEFAULT 0 CHECK (qty_reserved IN (0, qty)),
  expires_at timestamptz NOT NULL,
  reject_reason text CHECK (length(reject_reason) <= 500),
  order_id bigint REFERENCES orders (id),
  created_by bigint REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((status = 'accepted') = (qty_reserved > 0)),
  CHECK (order_id IS NULL OR status = 'converted')
);

-- The page: open or closed offers, newest first; the expiry sweep: open offers by expiry.
CREATE INDEX product_offers_status_created ON product_offers (status, created_at DESC, id DESC);
CREATE INDEX product_offers_open_expiry ON product_offers (expires_at)
  WHERE status IN ('submitted', 'countered', 'accepted');
CREATE INDEX product_offers_retailer ON product_offers (retailer_id);
CREATE INDEX product_offers_listing ON product_offers (listing_id);
CREATE UNIQUE INDEX product_offers_order ON product_offers (order_id) WHERE order_id IS NOT NULL;

CREATE TABLE product_offer_events (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  offer_id bigint NOT NULL REFERENCES product_offers (id) ON DELETE CASCADE,
  at timestamptz NOT NULL DEFAULT now(),
  actor_id bigint REFERENCES users (id) ON DELETE SET NULL,
  actor_name text,
  type text NOT NULL,
  from_status text,
  to_status text,
  data jsonb
);
CREATE INDEX product_offer_events_offer ON product_offer_events (offer_id, at);
