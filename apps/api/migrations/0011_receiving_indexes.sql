-- The receiving scan looks a code up on the open manifests by IMEI, IMEI2 or MEID (receive_scan,
-- migration 0009). invoice_imeis had indexes on `identifier` and `imei2` only, so the IMEI and
-- MEID arms read every manifest row: with a million rows a scan took over a second, against the
-- per-scan budget that must not grow with the table (decision 0008). `open`: closed invoices'
-- rows are never looked up by a scan.
CREATE INDEX invoice_imeis_open_imei ON invoice_imeis (imei) WHERE open;
CREATE INDEX invoice_imeis_open_meid ON invoice_imeis (meid) WHERE open AND meid IS NOT NULL;

-- Deleting an invoice's lines (or the invoice, which cascades to them) sets its manifest rows'
-- line_id to null: without an index each deleted line read the whole manifest table.
CREATE INDEX invoice_imeis_line ON invoice_imeis (line_id) WHERE line_id IS NOT NULL;

-- The device list filtered by model and status (stock of a model) in identifier order: the
-- index gives the page's 50 rows in order whatever plan PostgreSQL caches. (model_id, status)
-- alone made the generic plan read and sort every matching device. The dashboards' grouping by
-- model and status reads this index as it read the one it replaces.
CREATE INDEX devices_model_status_order ON devices (model_id, status, identifier, id);
DROP INDEX devices_model_status;
