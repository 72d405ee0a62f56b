-- Campaigns (issue 16, DOMAIN.md 2.2 Campaign, 4.15): a client carrier's file of express orders,
-- imported through the toolkit's import steps; each right row is an order of the campaign.

CREATE TABLE campaigns (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 120),
  -- The client (a vendor of type carrier-client) and the programme its orders are under.
  client_carrier_id bigint NOT NULL REFERENCES vendors (id),
  program text NOT NULL CHECK (program IN ('lifeline', 'tribal', 'acp-legacy', 'prepaid')),
  fulfilment_type text NOT NULL CHECK (fulfilment_type IN ('new_lifeline', 'ota', 'prepaid',
    'existing_customer', 'replacement', 'support')),
  -- The channel whose live listings the rows were sold from, at their price.
  channel text NOT NULL CHECK (channel IN ('web', 'retailer', 'campaign', 'carrier')),
  -- The file it came from (one campaign per committed file).
  import_batch_id bigint REFERENCES import_batches (id) ON DELETE SET NULL,
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed')),
  -- Orders made by the commit (the rows the file left out are its import batch's errors).
  order_count integer NOT NULL DEFAULT 0 CHECK (order_count >= 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by bigint REFERENCES users (id) ON DELETE SET NULL,
  closed_at timestamptz,
  closed_by bigint REFERENCES users (id) ON DELETE SET NULL,
  CHECK ((status = 'closed') = (closed_at IS NOT NULL))
);
CREATE UNIQUE INDEX campaigns_import_batch_key ON campaigns (import_batch_id)
  WHERE import_batch_id IS NOT NULL;
CREATE INDEX campaigns_client_carrier ON campaigns (client_carrier_id);
CREATE INDEX campaigns_created ON campaigns (created_at, id);
CREATE INDEX campaigns_status_created ON campaigns (status, created_at, id);

-- Orders name their campaign (the column came with the orders, migration 0038; its index
-- orders_campaign leads by it).
ALTER TABLE orders ADD CONSTRAINT orders_campaign_id_fkey
  FOREIGN KEY (campaign_id) REFERENCES campaigns (id);

-- What the whole file of an import shares, given with its dry run and read again by its commit
-- (a campaign's name, client carrier, programme and channel); null for imports without options.
ALTER TABLE import_batches ADD COLUMN options jsonb;
