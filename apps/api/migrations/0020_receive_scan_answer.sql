-- The scan's answer carries what the station shows after it (issue 14): the station puts the
-- answer on the page instead of reading the whole box again after every scan. Beside 0015's
-- answer it now holds:
--   box.discrepancies   the box's count of devices that need a second look, as the box row has it
--   device.received_at  when the device was received, as the box's list shows it
--   device.undoable     the device is in this box and nothing but receiving happened to it since
--   at, station, user_name   the scan's row of the box's scan log, beside its id and sentence
-- The two rules the answer shares with the box's own reads are functions here, so that the box
-- row, the box's content, the undo and the scan count and decide alike.
-- The scan stays one statement (decision 0008).

-- A device of the box that needs a second look: held, off the manifest, or of another model.
CREATE FUNCTION box_discrepancies(p_box_id bigint) RETURNS int LANGUAGE sql STABLE AS $$
  SELECT count(*)::int FROM devices d
  LEFT JOIN invoice_imeis ii ON ii.device_id = d.id AND ii.invoice_id = d.invoice_id
  WHERE d.warehouse_box_id = p_box_id AND (d.hold_reason IS NOT NULL
    OR ii.match_status IN ('unexpected', 'duplicate')
    OR (ii.tac_model_id IS NOT NULL AND ii.model_id IS NOT NULL AND ii.tac_model_id <> ii.model_id))
$$;

-- Nothing but receiving (its receipt, a hold at receipt) has happened to the device, and no
-- return to vendor holds it: its scan can be taken back.
CREATE FUNCTION receipt_undoable(p_device_id bigint) RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT NOT EXISTS (SELECT 1 FROM device_events e
      WHERE e.device_id = p_device_id AND e.type NOT IN ('received', 'held'))
    AND NOT EXISTS (SELECT 1 FROM vendor_transfer_devices t WHERE t.device_id = p_device_id)
$$;

CREATE OR REPLACE FUNCTION receive_scan_answer(p_result text, p_device_id bigint,
  box warehouse_boxes, p_detail jsonb) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
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
    'detail', p_detail)
$$;

-- 0015's scan, its answer with the log row's moment, station and person.
CREATE OR REPLACE FUNCTION receive_scan(
  p_box_id bigint,
  p_kind text,
  p_code text,
  p_scanned text,
  p_actor_id bigint,
  p_actor_name text,
  p_station text,
  p_request_id text,
  p_ip text
) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  v_answer jsonb := receive_scan_unlogged(p_box_id, p_kind, p_code, p_actor_id, p_actor_name,
    p_station, p_request_id, p_ip);
  v_message text := receive_scan_message(v_answer);
  v_log box_scan_log%ROWTYPE;
BEGIN
  INSERT INTO box_scan_log (box_id, station, actor_id, actor_name, code, result, message)
  VALUES (p_box_id, p_station, p_actor_id, p_actor_name, p_scanned, v_answer->>'result',
    v_message)
  RETURNING * INTO v_log;
  RETURN v_answer || jsonb_build_object('message', v_message, 'log_id', v_log.id, 'at', v_log.at,
    'station', v_log.station, 'user_name', v_log.actor_name);
END
$$;
