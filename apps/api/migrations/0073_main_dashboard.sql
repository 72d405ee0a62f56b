-- The main dashboard (DOMAIN.md 4.1): its kept figures count the orders shipped per business day
-- of the last days (decision: kept figures); this index lets the background refresh read those
-- days' orders alone instead of every order ever shipped.
CREATE INDEX orders_shipped ON orders (shipped_at) WHERE shipped_at IS NOT NULL;
