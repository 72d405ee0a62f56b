-- The fulfilment dashboard (DOMAIN.md 4.18 /warehouse/dashboard-fulfill): its throughput per hour
-- counts the device units picked since the business day began. Labels and scan-outs are read
-- through the packages' own indexes (packages_created, packages_scanned_out); the picks had none,
-- so a day's picks would read every unit ever picked. Partial: a unit waiting to be picked (or
-- unpicked) has no pick time and no entry.
CREATE INDEX order_line_units_picked ON order_line_units (picked_at) WHERE picked_at IS NOT NULL;
