-- An order line may name the device it should ship (issue 19, DOMAIN.md 4.16: a reship of the
-- unit that came back, once it is reusable). The assignment reserves that device for one of the
-- line's units when it is available then, before any other reservation; otherwise the line takes
-- a matching device as usual (reservation.ts). One device per line: a line names at most one.
ALTER TABLE order_lines ADD COLUMN requested_device_id bigint REFERENCES devices (id);
CREATE INDEX order_lines_requested_device ON order_lines (requested_device_id)
  WHERE requested_device_id IS NOT NULL;
