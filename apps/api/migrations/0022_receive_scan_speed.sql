-- The scan's cost no longer grows with the box, and its helpers keep their plans (issue 14's
-- speed gates, decision 0017).
--
-- box_discrepancies (0020) visited every device of the box and its manifest row on every scan:
-- a box of 300 devices cost half a millisecond and grew with each scan. It now starts from the
-- few rows that can be discrepancies: the box's held devices and the flagged manifest rows of
-- the box's invoice (refused, or of another model than the TAC says), each behind a partial
-- index. A receiving box only ever holds devices of its own invoice (receive_scan puts a device
-- in a box of the invoice it is received on; a device released from quarantine goes only into a
-- box of its invoice), so the invoice's flagged rows are the only ones that can count.
--
-- The three helpers were SQL functions: PostgreSQL plans a SQL function that it cannot inline
-- again on every call, which was most of the answer's cost. As PL/pgSQL functions their
-- statements are planned once per connection.

CREATE INDEX devices_box_held ON devices (warehouse_box_id)
  WHERE hold_reason IS NOT NULL AND warehouse_box_id IS NOT NULL;
CREATE INDEX invoice_imeis_refused ON invoice_imeis (invoice_id)
  WHERE match_status IN ('unexpected', 'duplicate');

CREATE OR REPLACE FUNCTION box_discrepancies(p_box_id bigint) RETURNS int
LANGUAGE plpgsql STABLE AS $$
DECLARE
  v_invoice_id bigint := (SELECT invoice_id FROM warehouse_boxes WHERE id = p_box_id);
  v_count int;
BEGIN
  -- Materialised: the planner then starts from the invoice's few flagged rows, never from the
  -- box's devices.
  WITH flagged AS MATERIALIZED (
    SELECT device_id FROM invoice_imeis
    WHERE invoice_id = v_invoice_id AND match_status IN ('unexpected', 'duplicate')
    UNION
    SELECT device_id FROM invoice_imeis
    WHERE invoice_id = v_invoice_id AND tac_model_id IS DISTINCT FROM model_id
      AND tac_model_id IS NOT NULL AND model_id IS NOT NULL
  )
  SELECT count(*)::int INTO v_count FROM (
    SELECT d.id FROM devices d WHERE d.warehouse_box_id = p_box_id AND d.hold_reason IS NOT NULL
    UNION
    SELECT d.id FROM flagged f JOIN devices d ON d.id = f.device_id
    WHERE d.warehouse_box_id = p_box_id AND d.invoice_id = v_invoice_id
  ) discrepancies;
  RETURN v_count;
END
$$;

CREATE OR REPLACE FUNCTION receipt_undoable(p_device_id bigint) RETURNS boolean
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN NOT EXISTS (SELECT 1 FROM device_events e
      WHERE e.device_id = p_device_id AND e.type NOT IN ('received', 'held'))
    AND NOT EXISTS (SELECT 1 FROM vendor_transfer_devices t WHERE t.device_id = p_device_id);
END
$$;

CREATE OR REPLACE FUNCTION receive_scan_answer(p_result text, p_device_id bigint,
  box warehouse_boxes, p_detail jsonb) RETURNS jsonb LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN jsonb_build_object(
    'result', p_result,
    'device', (SELECT jsonb_build_object('id', d.id, 'imei', d.imei, 'imei2', d.imei2,
        'meid', d.meid, 'model', b.name || ' ' || m.name, 'color', c.name,
        'capacity_gb', d.capacity_gb, 'status', d.status, 'hold_reason', d.hold_reason,
        'received_at', d.received_at,
        'undoable', d.warehouse_box_id IS NOT DISTINCT FROM box.id AND box.status = 'receiving'
          AND receipt_undoable(d.id))
      FROM devices d JOIN device_models m ON m.id = d.model_id JOIN brands b ON b.id = m.brand_id
      LEFT JOIN colors c ON c.id = d.color_id WHERE d.id = p_device_id),
    'box', jsonb_build_object('id', box.id, 'code', box.code, 'status', box.status,
      'qty_scanned', box.qty_scanned, 'qty_expected', box.qty_expected,
      'discrepancies', box_discrepancies(box.id)),
    'detail', p_detail);
END
$$;
