-- Files attached to records (issue 14): an invoice's PDF, damage photos, a resale certificate, a
-- claim's proof. One table for every record kind, named as the audit log names it
-- ('purchase_invoice'), so that a new kind needs no table of its own, only the trigger below.
--
-- The content sits in the row as bytea: files are at most 10 MiB (the contract's
-- ATTACHMENT_MAX_BYTES), which one value holds and one answer carries without chunks. It is kept
-- out of line and uncompressed (STORAGE EXTERNAL): PDFs and pictures are compressed already, and
-- a list of a record's files never reads their content.

CREATE TABLE attachments (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  record_kind text NOT NULL,
  record_id bigint NOT NULL,
  file_name text NOT NULL CHECK (length(file_name) BETWEEN 1 AND 255),
  -- Read from the content by the server, never the sender's word.
  content_type text NOT NULL,
  size_bytes integer NOT NULL CHECK (size_bytes > 0),
  sha256 text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  content bytea NOT NULL,
  uploaded_by bigint REFERENCES users (id) ON DELETE SET NULL,
  uploaded_at timestamptz NOT NULL DEFAULT now(),
  CHECK (octet_length(content) = size_bytes)
);
ALTER TABLE attachments ALTER COLUMN content SET STORAGE EXTERNAL;
-- A record's files, and the same file attached to a record once.
CREATE UNIQUE INDEX attachments_record_file_key ON attachments (record_kind, record_id, sha256);
-- A deleted user's files lose their uploader: the delete finds them without reading the table.
CREATE INDEX attachments_uploaded_by ON attachments (uploaded_by);

-- A record's files go with it, whichever statement deletes it. The kind is the trigger's
-- argument: a record kind that carries attachments adds one such trigger on its table.
CREATE FUNCTION attachments_follow_record() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM attachments WHERE record_kind = TG_ARGV[0] AND record_id = OLD.id;
  RETURN NULL;
END $$;

CREATE TRIGGER purchase_invoices_attachments AFTER DELETE ON purchase_invoices
  FOR EACH ROW EXECUTE FUNCTION attachments_follow_record('purchase_invoice');
