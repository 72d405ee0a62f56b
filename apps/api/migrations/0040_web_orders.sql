-- Web orders (DOMAIN.md 4.1 /dashboard/web-order): a cart checked out by a retailer's portal user
-- or an agent is an order (source 'web') waiting for approval. This table says who placed it, from
-- which channel, and until when its listing units are held; the order itself is in `orders`.

-- How long a web order's units stay held before approval; operators change it here.
ALTER TABLE order_settings ADD COLUMN web_order_hold_hours integer NOT NULL DEFAULT 24
  CHECK (web_order_hold_hours BETWEEN 1 AND 720);

CREATE TABLE web_orders (
  order_id bigint PRIMARY KEY REFERENCES orders (id) ON DELETE CASCADE,
  placed_by bigint REFERENCES users (id) ON DELETE SET NULL,
  -- The listings' channel the customer bought from: 'retailer' (a portal user), 'web' (an agent).
  channel text NOT NULL CHECK (channel IN ('retailer', 'web')),
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
