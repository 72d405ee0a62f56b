-- Push-to-sale listings at work (issue 16, DOMAIN.md 4.5): a listing's timeline, the logged
-- batches of the bulk update, one live listing per sellable and channel, the indexes of the
-- list's sorts, and one SQL function for what a sellable has in stock.

-- Every change of a listing: its lifecycle's steps, its creation and edits.
CREATE TABLE pts_listing_events (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  listing_id bigint NOT NULL REFERENCES pts_listings (id) ON DELETE CASCADE,
  at timestamptz NOT NULL DEFAULT now(),
  actor_id bigint REFERENCES users (id) ON DELETE SET NULL,
  actor_name text,
  type text NOT NULL,
  from_status text,
  to_status text,
  data jsonb
);
CREATE INDEX pts_listing_events_listing ON pts_listing_events (listing_id, id);

-- A bulk update or a file applied (`/push-to-sale/update`): who, when, what, and per listing the
-- values before and after. The rows are the log a reviewer reads, never rewritten.
CREATE TABLE pts_update_batches (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  source text NOT NULL CHECK (source IN ('bulk', 'file')),
  -- The operation and the filter as asked (bulk), or the import batch (file).
  request jsonb NOT NULL,
  summary text NOT NULL,
  listing_count integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by bigint REFERENCES users (id) ON DELETE SET NULL
);
CREATE INDEX pts_update_batches_created ON pts_update_batches (created_at, id);

CREATE TABLE pts_update_batch_rows (
  batch_id bigint NOT NULL REFERENCES pts_update_batches (id) ON DELETE CASCADE,
  listing_id bigint NOT NULL REFERENCES pts_listings (id) ON DELETE CASCADE,
  qty_before integer NOT NULL,
  qty_after integer NOT NULL,
  price_before_cents bigint NOT NULL,
  price_after_cents bigint NOT NULL,
  status_before text NOT NULL,
  status_after text NOT NULL,
  PRIMARY KEY (batch_id, listing_id)
);
CREATE INDEX pts_update_batch_rows_listing ON pts_update_batch_rows (listing_id);

-- One open listing per sellable and channel: a file row names a listing by SKU and channel, and
-- two live listings of one thing on one channel would split its cap without saying which counts.
CREATE UNIQUE INDEX pts_listings_sellable_channel_key ON pts_listings (
  COALESCE(variant_id, 0), COALESCE(bundle_id, 0), COALESCE(combo_id, 0), channel)
  WHERE status <> 'ended';

-- The list's sorts (id is the primary key).
CREATE INDEX pts_listings_updated ON pts_listings (updated_at, id);
CREATE INDEX pts_listings_price ON pts_listings (price_cents, id);

/*
 * What a sellable can sell from stock now (DOMAIN.md 3.1, 4.5): a variant its matching sellable
 * devices; a bundle the kits its components build (the minimum over components of stock ÷ qty);
 * a combo the minimum over its slots of the pool of the slot's allowed variants that may be sold
 * (active, of an active product) ÷ the slot's qty. A bundle without components or a combo without
 * slots has none. The same figures as `modules/pts/sellables.ts` gives the catalogue's pages, in
 * one expression that set-based statements (the bulk update over any number of listings) can use.
 */
CREATE FUNCTION pts_sellable_available(p_variant_id bigint, p_bundle_id bigint, p_combo_id bigint)
RETURNS bigint
LANGUAGE sql STABLE AS $$
  SELECT COALESCE(CASE
    WHEN p_variant_id IS NOT NULL THEN
      (SELECT s.available FROM variant_sellable_stock(ARRAY[p_variant_id]) s)
    WHEN p_bundle_id IS NOT NULL THEN
      (SELECT min(s.available / c.qty)
       FROM bundle_components c
       JOIN variant_sellable_stock(
         ARRAY(SELECT variant_id FROM bundle_components WHERE bundle_id = p_bundle_id)) s
         ON s.variant_id = c.variant_id
       WHERE c.bundle_id = p_bundle_id)
    ELSE
      (SELECT min(pool.available / pool.qty)
       FROM (
         -- sum() of bigint is numeric: cast back, so that pool / qty divides as whole units.
         SELECT sl.qty, (SELECT COALESCE(sum(s.available), 0)::bigint FROM variant_sellable_stock(
             ARRAY(SELECT sv.variant_id FROM combo_slot_variants sv
                   JOIN product_variants v ON v.id = sv.variant_id AND v.status = 'active'
                   JOIN products p ON p.id = v.product_id AND p.status = 'active'
                   WHERE sv.slot_id = sl.id)) s) AS available
         FROM combo_slots sl WHERE sl.combo_id = p_combo_id) pool)
  END, 0)
$$;
