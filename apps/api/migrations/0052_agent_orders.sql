-- The agent portal's order history (DOMAIN.md 7 History): an agent reads the web orders they
-- placed, newest first, so web orders are found by who placed them in order id order.
CREATE INDEX web_orders_placed_by ON web_orders (placed_by, order_id);
