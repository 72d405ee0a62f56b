-- A retailer's orders in the retailers list (issue 16, DOMAIN.md 4.8): its open orders and its
-- revenue of the last 12 months, counted for the rows of one page out of 1,000,000 orders.

-- The retailer's orders by date carry their status and total, so the 12-month revenue is an
-- index-only range and the order list filtered by retailer still reads its pages in date order.
DROP INDEX orders_retailer;
CREATE INDEX orders_retailer ON orders (retailer_id, created_at, id) INCLUDE (status, total_cents)
  WHERE retailer_id IS NOT NULL;

-- Open orders (OPEN_ORDER_STATUSES in the contract, which the retail area's OPEN_ORDER condition
-- spells out the same way): few at any time, counted per retailer without reading its past.
CREATE INDEX orders_retailer_open ON orders (retailer_id)
  WHERE retailer_id IS NOT NULL AND status IN ('pending', 'ready', 'assigned', 'in_progress',
    'fulfilled', 'labeled', 'shipped', 'on_hold', 'substitution_pending', 'cancel_requested');
