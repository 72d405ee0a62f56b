-- A SIM kit of a client carrier (decision 0055's next step): a support order's SIM-only
-- replacement sends the SIM kit of the subscriber's carrier, which the first such order puts in
-- the catalogue. SIMs are carrier stock, so each carrier's kit is its own SKU on the pick list,
-- the packing slip and the duplicate check.
ALTER TABLE product_variants ADD COLUMN sim_carrier_id bigint REFERENCES vendors (id);
CREATE INDEX product_variants_sim_carrier ON product_variants (sim_carrier_id)
  WHERE sim_carrier_id IS NOT NULL;
