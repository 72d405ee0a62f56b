-- A blacklisted device scanned at a box goes to the quarantine tote, not into the box (UX.md,
-- stations: counts match what is physically in the box). Migration 0009's scan received it into
-- the box on hold: the box counted it, listed it, and closed "complete" without it, and clearing
-- the hold left it counted in a box it had never been in.
--
-- Now the device is registered on hold and in no container: "in quarantine" is status `hold`
-- with no box. It is received on its invoice (the manifest row says it arrived) and its events
-- say where it was scanned and where it went; the box's count and content leave it out.
-- Scanned again, anywhere, it answers `quarantined`. Clearing the hold (the blacklist page) makes
-- it `received` in no box; scanned at a receiving box of its invoice it then goes into that box.
-- The scan stays one statement (decision 0008).
--
-- Answers beside 0009's:
--   blacklisted     registered on hold, in no box: it goes to the quarantine tote
--   quarantined     nothing done: the device is on hold in no box, in quarantine
-- and `added`, `model_mismatch` or `unexpected` (what its receipt found) for a device released
-- from quarantine that is scanned into a box of its invoice.

CREATE OR REPLACE FUNCTION receive_scan(
  p_box_id bigint,
  p_kind text,
  p_code text,
  p_actor_id bigint,
  p_actor_name text,
  p_station text,
  p_request_id text,
  p_ip text
) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  box warehouse_boxes%ROWTYPE;
  invoice purchase_invoices%ROWTYPE;
  existing devices%ROWTYPE;
  manifest invoice_imeis%ROWTYPE;
  tac_row tac_numbers%ROWTYPE;
  line_id bigint;
  line invoice_lines%ROWTYPE;
  v_imei text;
  v_imei2 text;
  v_meid text;
  v_model_id bigint;
  v_result text;
  v_status text := 'received';
  v_hold text;
  v_device_id bigint;
  v_detail jsonb;
  v_blacklist blacklist_entries%ROWTYPE;
BEGIN
  SELECT * INTO box FROM warehouse_boxes WHERE id = p_box_id FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'There is no warehouse box with id %.', p_box_id USING ERRCODE = 'P0002';
  END IF;
  IF box.status <> 'receiving' THEN
    RAISE EXCEPTION 'Box % is closed (%): reopen it or use another box.', box.code, box.status;
  END IF;
  SELECT * INTO invoice FROM purchase_invoices WHERE id = box.invoice_id;
  IF invoice.status = 'closed' THEN
    RAISE EXCEPTION 'Invoice % is closed: nothing more can be received on it.', invoice.invoice_no;
  END IF;

  -- Known already: by any of its identifiers.
  IF p_kind = 'imei' THEN
    SELECT * INTO existing FROM devices WHERE imei = p_code OR imei2 = p_code LIMIT 1;
  ELSE
    SELECT * INTO existing FROM devices WHERE meid = p_code;
  END IF;
  IF existing.id IS NOT NULL THEN
    RETURN receive_scan_known(box, existing, p_actor_id, p_actor_name, p_station, p_request_id,
      p_ip);
  END IF;

  -- On a manifest: this invoice's first, then any other open one.
  IF p_kind = 'imei' THEN
    SELECT * INTO manifest FROM invoice_imeis
    WHERE open AND (imei = p_code OR imei2 = p_code)
    ORDER BY (invoice_id = box.invoice_id) DESC LIMIT 1;
  ELSE
    SELECT * INTO manifest FROM invoice_imeis WHERE open AND meid = p_code;
  END IF;
  IF manifest.id IS NOT NULL AND manifest.invoice_id <> box.invoice_id THEN
    SELECT jsonb_build_object('invoice_id', i.id, 'invoice_no', i.invoice_no, 'vendor', v.name)
    INTO v_detail
    FROM purchase_invoices i JOIN vendors v ON v.id = i.vendor_id WHERE i.id = manifest.invoice_id;
    RETURN receive_scan_answer('other_invoice', NULL, box, v_detail);
  END IF;

  IF manifest.id IS NOT NULL THEN
    v_imei := manifest.imei;
    v_imei2 := manifest.imei2;
    v_meid := manifest.meid;
  ELSIF p_kind = 'imei' THEN
    v_imei := p_code;
  ELSE
    RETURN receive_scan_answer('meid_unknown', NULL, box,
      jsonb_build_object('invoice_no', invoice.invoice_no));
  END IF;

  -- The model: the TAC's, which outranks what the vendor claims; a MEID has only the claim.
  IF v_imei IS NOT NULL THEN
    SELECT * INTO tac_row FROM tac_numbers WHERE tac = left(v_imei, 8) AND active;
    IF tac_row.id IS NULL THEN
      INSERT INTO unknown_tacs AS u (tac, last_imei, last_invoice_id, last_seen_by)
      VALUES (left(v_imei, 8), v_imei, invoice.id, p_actor_id)
      ON CONFLICT (tac) DO UPDATE SET last_seen_at = now(), seen_count = u.seen_count + 1,
        last_imei = EXCLUDED.last_imei, last_invoice_id = EXCLUDED.last_invoice_id,
        last_seen_by = EXCLUDED.last_seen_by;
      RETURN receive_scan_answer('unknown_tac', NULL, box,
        jsonb_build_object('tac', left(v_imei, 8)));
    END IF;
    v_model_id := tac_row.model_id;
  ELSE
    v_model_id := manifest.model_id;
  END IF;

  IF manifest.id IS NOT NULL THEN
    line_id := manifest.line_id;
    v_result := CASE WHEN manifest.model_id IS NOT NULL AND manifest.model_id <> v_model_id
      THEN 'model_mismatch' ELSE 'added' END;
  ELSIF NOT invoice.has_manifest THEN
    -- An invoice without an IMEI list: the device counts against a line of its model.
    SELECT l.id INTO line_id FROM invoice_lines l
    WHERE l.invoice_id = invoice.id AND l.model_id = v_model_id ORDER BY l.id LIMIT 1;
    v_result := CASE WHEN line_id IS NULL THEN 'unexpected' ELSE 'added' END;
  ELSE
    v_result := 'unexpected';
  END IF;
  IF line_id IS NOT NULL THEN
    SELECT * INTO line FROM invoice_lines WHERE id = line_id;
  END IF;

  IF v_imei IS NOT NULL THEN
    SELECT * INTO v_blacklist FROM blacklist_entries WHERE imei = v_imei AND cleared_at IS NULL;
    IF v_blacklist.id IS NOT NULL THEN
      v_result := 'blacklisted';
      v_status := 'hold';
      v_hold := 'blacklist';
    END IF;
  END IF;

  -- A held device goes to the quarantine tote: it is in no box.
  INSERT INTO devices (imei, imei2, meid, serial, tac, model_id, color_id, capacity_gb, condition,
    grade, status, hold_reason, status_before_hold, blacklist_state, blacklist_checked_at,
    warehouse_box_id, invoice_id, vendor_id, unit_cost_cents, received_by)
  VALUES (v_imei, v_imei2, v_meid, manifest.serial, left(v_imei, 8), v_model_id,
    COALESCE(tac_row.color_id, manifest.color_id, line.color_id),
    COALESCE(tac_row.capacity_gb, manifest.capacity_gb, line.capacity_gb),
    COALESCE(manifest.condition, line.condition), COALESCE(manifest.grade, line.grade),
    v_status, v_hold, CASE WHEN v_hold IS NOT NULL THEN 'received' END,
    CASE WHEN v_hold IS NOT NULL THEN 'blocked' ELSE 'unknown' END,
    CASE WHEN v_hold IS NOT NULL THEN now() END,
    CASE WHEN v_hold IS NULL THEN box.id END, invoice.id, invoice.vendor_id,
    COALESCE(manifest.unit_cost_cents, line.unit_cost_cents), p_actor_id)
  ON CONFLICT DO NOTHING
  RETURNING id INTO v_device_id;

  IF v_device_id IS NULL THEN
    -- Another station received it a moment ago: tell where it went.
    IF p_kind = 'imei' THEN
      SELECT * INTO existing FROM devices WHERE imei = p_code OR imei2 = p_code LIMIT 1;
    ELSE
      SELECT * INTO existing FROM devices WHERE meid = p_code;
    END IF;
    RETURN receive_scan_known(box, existing, p_actor_id, p_actor_name, p_station, p_request_id,
      p_ip);
  END IF;

  IF manifest.id IS NOT NULL THEN
    UPDATE invoice_imeis SET match_status = 'received', device_id = v_device_id,
      tac_model_id = v_model_id, updated_at = now(), updated_by = p_actor_id
    WHERE id = manifest.id;
  ELSE
    INSERT INTO invoice_imeis (invoice_id, line_id, imei, model_id, tac_model_id, color_id,
      capacity_gb, condition, grade, unit_cost_cents, match_status, from_manifest, device_id,
      created_by, updated_by)
    VALUES (invoice.id, line_id, v_imei, line.model_id, v_model_id,
      COALESCE(tac_row.color_id, line.color_id), COALESCE(tac_row.capacity_gb, line.capacity_gb),
      line.condition, line.grade, line.unit_cost_cents,
      CASE WHEN line_id IS NULL THEN 'unexpected' ELSE 'received' END, false,
      v_device_id, p_actor_id, p_actor_id);
  END IF;

  -- An event's container is where the device is after it; a quarantined device's receipt names
  -- the box it was scanned at (the box content lists it apart by that).
  INSERT INTO device_events (device_id, actor_id, actor_name, type, from_status, to_status,
    container, ref_type, ref_id, station, data)
  VALUES (v_device_id, p_actor_id, p_actor_name, 'received', NULL, 'received',
    CASE WHEN v_hold IS NULL THEN box.code END, 'purchase_invoice', invoice.id, p_station,
    jsonb_build_object('result', v_result, 'invoice_no', invoice.invoice_no)
      || CASE WHEN v_hold IS NOT NULL THEN jsonb_build_object('scanned_at_box', box.code)
         ELSE '{}' END);
  IF v_hold IS NOT NULL THEN
    INSERT INTO device_events (device_id, actor_id, actor_name, type, from_status, to_status,
      container, ref_type, ref_id, station, data)
    VALUES (v_device_id, p_actor_id, p_actor_name, 'held', 'received', 'hold', NULL,
      'blacklist_entry', v_blacklist.id, p_station,
      jsonb_build_object('reason', 'blacklist', 'source', v_blacklist.source,
        'blacklist_reason', v_blacklist.reason, 'sent_to', 'quarantine'));
  END IF;
  INSERT INTO audit_events (actor_id, actor_name, action, entity_type, entity_id, after, ip,
    request_id)
  VALUES (p_actor_id, p_actor_name, 'device.received', 'device', v_device_id::text,
    jsonb_build_object('imei', v_imei, 'meid', v_meid, 'box', box.code,
      'invoice_id', invoice.id, 'result', v_result, 'status', v_status)
      || CASE WHEN v_hold IS NOT NULL THEN jsonb_build_object('sent_to', 'quarantine')
         ELSE '{}' END,
    p_ip, p_request_id);

  IF v_hold IS NULL THEN
    UPDATE warehouse_boxes SET qty_scanned = qty_scanned + 1, updated_at = now(),
      updated_by = p_actor_id
    WHERE id = box.id
    RETURNING * INTO box;
  END IF;
  IF invoice.status = 'expected' THEN
    UPDATE purchase_invoices SET status = 'receiving', updated_at = now() WHERE id = invoice.id;
  END IF;

  RETURN receive_scan_answer(v_result, v_device_id, box,
    CASE WHEN v_result = 'model_mismatch' THEN
      (SELECT jsonb_build_object('claimed_model', b.name || ' ' || m.name)
       FROM device_models m JOIN brands b ON b.id = m.brand_id WHERE m.id = manifest.model_id)
    WHEN v_result = 'blacklisted' THEN
      jsonb_build_object('source', v_blacklist.source, 'reason', v_blacklist.reason)
    END);
END
$$;

-- 0009's answer about a known device took no actor: putting a released device into the box
-- writes its event and audit.
DROP FUNCTION receive_scan_known(warehouse_boxes, devices);

-- The answer about a device that exists already: in this box, another box, in quarantine,
-- released from quarantine (it goes into this box), or out of receiving.
CREATE FUNCTION receive_scan_known(
  box warehouse_boxes,
  existing devices,
  p_actor_id bigint,
  p_actor_name text,
  p_station text,
  p_request_id text,
  p_ip text
) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  v_detail jsonb;
  v_result text;
BEGIN
  IF existing.warehouse_box_id = box.id THEN
    RETURN receive_scan_answer('already_in_box', existing.id, box, NULL);
  END IF;
  IF existing.warehouse_box_id IS NOT NULL THEN
    SELECT jsonb_build_object('box', wb.code, 'invoice_no', i.invoice_no,
      'received_at', to_json(existing.received_at) #>> '{}',
      'received_by', (SELECT name FROM users WHERE id = existing.received_by))
    INTO v_detail
    FROM warehouse_boxes wb JOIN purchase_invoices i ON i.id = wb.invoice_id
    WHERE wb.id = existing.warehouse_box_id;
    RETURN receive_scan_answer('in_other_box', existing.id, box, v_detail);
  END IF;
  IF existing.status = 'hold' THEN
    RETURN receive_scan_answer('quarantined', existing.id, box,
      jsonb_build_object('hold_reason', existing.hold_reason));
  END IF;
  -- Received on this box's invoice yet in no box: its hold was cleared in quarantine (the only
  -- way to get there while the invoice is open). Scanned here, it goes into this box. Of two
  -- stations doing so at once, the second finds it boxed and answers as above.
  IF existing.status = 'received' AND existing.invoice_id = box.invoice_id THEN
    UPDATE devices SET warehouse_box_id = box.id, updated_at = now()
    WHERE id = existing.id AND warehouse_box_id IS NULL AND status = 'received';
    IF NOT FOUND THEN
      SELECT * INTO existing FROM devices WHERE id = existing.id;
      RETURN receive_scan_known(box, existing, p_actor_id, p_actor_name, p_station,
        p_request_id, p_ip);
    END IF;
    INSERT INTO device_events (device_id, actor_id, actor_name, type, container, station, data)
    VALUES (existing.id, p_actor_id, p_actor_name, 'put_in_box', box.code, p_station,
      jsonb_build_object('from', 'quarantine'));
    INSERT INTO audit_events (actor_id, actor_name, action, entity_type, entity_id, after, ip,
      request_id)
    VALUES (p_actor_id, p_actor_name, 'device.put_in_box', 'device', existing.id::text,
      jsonb_build_object('box', box.code, 'from', 'quarantine'), p_ip, p_request_id);
    UPDATE warehouse_boxes SET qty_scanned = qty_scanned + 1, updated_at = now(),
      updated_by = p_actor_id
    WHERE id = box.id
    RETURNING * INTO box;
    -- What its receipt found, as the box content reads it back.
    SELECT CASE WHEN ii.match_status = 'unexpected' THEN 'unexpected'
        WHEN ii.model_id <> ii.tac_model_id THEN 'model_mismatch' END,
      CASE WHEN ii.match_status <> 'unexpected' AND ii.model_id <> ii.tac_model_id THEN
        jsonb_build_object('claimed_model', b.name || ' ' || m.name) END
    INTO v_result, v_detail
    FROM invoice_imeis ii
    LEFT JOIN device_models m ON m.id = ii.model_id LEFT JOIN brands b ON b.id = m.brand_id
    WHERE ii.device_id = existing.id AND ii.invoice_id = existing.invoice_id;
    RETURN receive_scan_answer(COALESCE(v_result, 'added'), existing.id, box, v_detail);
  END IF;
  RETURN receive_scan_answer('in_registry', existing.id, box,
    jsonb_build_object('status', existing.status));
END
$$;

-- The devices in quarantine of an invoice, for its boxes' content: few, whatever the registry
-- holds.
CREATE INDEX devices_quarantined ON devices (invoice_id)
  WHERE status = 'hold' AND warehouse_box_id IS NULL;
