-- Indexes behind every declared sort of a list, the audit log's filters, and the foreign keys
-- that a delete check, a merge or a list follows (toolkit/list-indexes.test.ts explains each on
-- generated data). Plain CREATE INDEX: migrations run in one transaction, where CONCURRENTLY is
-- not allowed. On a large production table the build blocks its writes for its duration (about
-- a second per million rows); an operator who cannot take that creates the same index by hand
-- with CREATE INDEX CONCURRENTLY before the upgrade, and IF NOT EXISTS then skips it here.

-- The audit log, newest first, by keyset (at, id): by actor, by action, by entity.
CREATE INDEX IF NOT EXISTS audit_events_actor_order ON audit_events (actor_id, at, id);
CREATE INDEX IF NOT EXISTS audit_events_action_order ON audit_events (action, at, id);
CREATE INDEX IF NOT EXISTS audit_events_entity_order ON audit_events (entity_type, entity_id, at, id);
DROP INDEX IF EXISTS audit_events_entity;

-- The user list's sorts; a user never signed in sorts as the earliest sign-in.
CREATE INDEX IF NOT EXISTS users_user_name_order ON users (lower(user_name), id);
CREATE INDEX IF NOT EXISTS users_created_order ON users (created_at, id);
CREATE INDEX IF NOT EXISTS users_last_login_order
  ON users ((COALESCE(last_login_at, '-infinity'::timestamptz)), id);

-- The invoice IMEI register by last change.
CREATE INDEX IF NOT EXISTS invoice_imeis_updated_order ON invoice_imeis (updated_at, id);

-- Foreign keys that the 409 before a delete and the merges of colours and models read.
CREATE INDEX IF NOT EXISTS devices_color ON devices (color_id) WHERE color_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS devices_tac ON devices (tac);
CREATE INDEX IF NOT EXISTS invoice_lines_model ON invoice_lines (model_id);
CREATE INDEX IF NOT EXISTS invoice_lines_color ON invoice_lines (color_id) WHERE color_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS invoice_imeis_model ON invoice_imeis (model_id) WHERE model_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS invoice_imeis_tac_model
  ON invoice_imeis (tac_model_id) WHERE tac_model_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS invoice_imeis_color ON invoice_imeis (color_id) WHERE color_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS warehouse_boxes_expected_model
  ON warehouse_boxes (expected_model_id) WHERE expected_model_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS warehouse_boxes_inbound_shipment
  ON warehouse_boxes (inbound_shipment_id) WHERE inbound_shipment_id IS NOT NULL;

-- Foreign keys that a delete of the row they name follows (an invoice, a session, a device).
CREATE INDEX IF NOT EXISTS vendor_transfers_invoice
  ON vendor_transfers (invoice_id) WHERE invoice_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS vendor_transfer_devices_device ON vendor_transfer_devices (device_id);
CREATE INDEX IF NOT EXISTS unknown_tacs_last_invoice
  ON unknown_tacs (last_invoice_id) WHERE last_invoice_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS download_tickets_session ON download_tickets (session_id);
