-- The receiving scan (docs/decisions/0008): one IMEI or MEID scanned into a warehouse box, in one
-- statement, so that a scan costs one round trip and one cached plan whatever the tables hold.
-- The caller (the receiving service) has already read the code: p_kind is 'imei' or 'meid' and
-- p_code a valid IMEI (15 digits, Luhn checked) or MEID (14 upper-case hex digits).
--
-- Answers a JSON object: `result` (below), the device's row when it has one, the box's counts,
-- and `detail` with what the result names (the other box, invoice or TAC):
--   added           received against the invoice's manifest (or a line of its model)
--   model_mismatch  received, but the TAC's model is not the one the vendor claims
--   unexpected      received, but on no open manifest: flagged on this box's invoice
--   blacklisted     received on hold: an open blacklist entry lists the IMEI
--   already_in_box  nothing done: the device is in this box already
--   in_other_box    nothing done: the device is in another warehouse box
--   in_registry     nothing done: the device is in the registry already, out of receiving
--   other_invoice   nothing done: the IMEI is on another open invoice's manifest
--   unknown_tac     nothing done: no active TAC maps the IMEI to a model (the sighting is kept)
--   meid_unknown    nothing done: a MEID tells no model, so it must be on this invoice's manifest
-- A box that is not receiving, or whose invoice is closed, raises P0001 with the reason.

CREATE FUNCTION receive_scan(
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
    RETURN receive_scan_known(box, existing);
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
    box.id, invoice.id, invoice.vendor_id, COALESCE(manifest.unit_cost_cents, line.unit_cost_cents),
    p_actor_id)
  ON CONFLICT DO NOTHING
  RETURNING id INTO v_device_id;

  IF v_device_id IS NULL THEN
    -- Another station received it a moment ago: tell where it went.
    IF p_kind = 'imei' THEN
      SELECT * INTO existing FROM devices WHERE imei = p_code OR imei2 = p_code LIMIT 1;
    ELSE
      SELECT * INTO existing FROM devices WHERE meid = p_code;
    END IF;
    RETURN receive_scan_known(box, existing);
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

  INSERT INTO device_events (device_id, actor_id, actor_name, type, from_status, to_status,
    container, ref_type, ref_id, station, data)
  VALUES (v_device_id, p_actor_id, p_actor_name, 'received', NULL, 'received', box.code,
    'purchase_invoice', invoice.id, p_station,
    jsonb_build_object('result', v_result, 'invoice_no', invoice.invoice_no));
  IF v_hold IS NOT NULL THEN
    INSERT INTO device_events (device_id, actor_id, actor_name, type, from_status, to_status,
      container, ref_type, ref_id, station, data)
    VALUES (v_device_id, p_actor_id, p_actor_name, 'held', 'received', 'hold', box.code,
      'blacklist_entry', v_blacklist.id, p_station,
      jsonb_build_object('reason', 'blacklist', 'source', v_blacklist.source,
        'blacklist_reason', v_blacklist.reason));
  END IF;
  INSERT INTO audit_events (actor_id, actor_name, action, entity_type, entity_id, after, ip,
    request_id)
  VALUES (p_actor_id, p_actor_name, 'device.received', 'device', v_device_id::text,
    jsonb_build_object('imei', v_imei, 'meid', v_meid, 'box', box.code,
      'invoice_id', invoice.id, 'result', v_result, 'status', v_status),
    p_ip, p_request_id);

  UPDATE warehouse_boxes SET qty_scanned = qty_scanned + 1, updated_at = now(),
    updated_by = p_actor_id
  WHERE id = box.id
  RETURNING * INTO box;
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

-- The answer about a device that exists already: in this box, another box, or out of receiving.
CREATE FUNCTION receive_scan_known(box warehouse_boxes, existing devices) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_detail jsonb;
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
  RETURN receive_scan_answer('in_registry', existing.id, box,
    jsonb_build_object('status', existing.status));
END
$$;

-- A scan's answer: the result, the device as the station shows it, the box's counts, the detail.
CREATE FUNCTION receive_scan_answer(p_result text, p_device_id bigint, box warehouse_boxes,
  p_detail jsonb) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'result', p_result,
    'device', (SELECT jsonb_build_object('id', d.id, 'imei', d.imei, 'imei2', d.imei2,
        'meid', d.meid, 'model', b.name || ' ' || m.name, 'color', c.name,
        'capacity_gb', d.capacity_gb, 'status', d.status, 'hold_reason', d.hold_reason)
      FROM devices d JOIN device_models m ON m.id = d.model_id JOIN brands b ON b.id = m.brand_id
      LEFT JOIN colors c ON c.id = d.color_id WHERE d.id = p_device_id),
    'box', jsonb_build_object('id', box.id, 'code', box.code, 'status', box.status,
      'qty_scanned', box.qty_scanned, 'qty_expected', box.qty_expected),
    'detail', p_detail)
$$;
