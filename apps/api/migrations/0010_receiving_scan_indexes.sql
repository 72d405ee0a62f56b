-- The receiving scan looks a code up on the open manifests by IMEI, IMEI2 or MEID (receive_scan,
-- migration 0009). invoice_imeis had indexes on `identifier` and `imei2` only, so the IMEI and
-- MEID arms read every manifest row: with a million rows a scan took over a second, against the
-- per-scan budget that must not grow with the table (decision 0008). `open`: closed invoices'
-- rows are never looked up by a scan.
CREATE INDEX invoice_imeis_open_imei ON invoice_imeis (imei) WHERE open;
CREATE INDEX invoice_imeis_open_meid ON invoice_imeis (meid) WHERE open AND meid IS NOT NULL;
