-- The scan log of a box (UX.md, stations: "the scan log stays with the station and its box on the
-- server; a supervisor can read it later"). Every scan at a box gets one row, accepted or refused,
-- repeats included: which station and who, when, the code as read, the result and the sentence
-- the station showed. Until now a refused scan wrote nothing and the station kept its answers in
-- the tab's session storage, lost with the tab.
--
-- The row is written by the scan's own statement (decision 0008): `receive_scan` is now a thin
-- function that runs the rules (0014's function, renamed `receive_scan_unlogged`), says the
-- sentence and logs it, in one round trip and one transaction. A change to the rules replaces
-- `receive_scan_unlogged`. A code that is no IMEI or MEID never reaches the rules; the service
-- logs it with the box's counts in one statement of its own.
--
-- The log is history: undoing a scan leaves its row (the audit log says it was undone), and the
-- rows go only with their box. It has no data version (decision 0010): it is written by every
-- scan, many times a second, and its list is read from the table.

CREATE TABLE box_scan_log (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  box_id bigint NOT NULL REFERENCES warehouse_boxes (id) ON DELETE CASCADE,
  at timestamptz NOT NULL DEFAULT now(),
  station text,
  actor_id bigint REFERENCES users (id) ON DELETE SET NULL,
  actor_name text,
  -- The code as read (scanner noise dropped), as the station showed it.
  code text NOT NULL,
  result text NOT NULL,
  message text NOT NULL
);
-- A box's log, newest first: the one index, so that a scan's insert stays cheap.
CREATE INDEX box_scan_log_box ON box_scan_log (box_id, at);

ALTER FUNCTION receive_scan(bigint, text, text, bigint, text, text, text, text)
  RENAME TO receive_scan_unlogged;

-- The sentence a station shows for an answer of the rules: what happened and what to do. It was
-- said by the service until now; it is said here so that the log keeps the very words shown.
CREATE FUNCTION receive_scan_message(p_answer jsonb) RETURNS text LANGUAGE plpgsql STABLE AS $$
DECLARE
  d jsonb := p_answer->'device';
  x jsonb := COALESCE(p_answer->'detail', '{}');
  v_device text := concat_ws(', ', d->>'model', d->>'color',
    NULLIF((d->>'capacity_gb')::int, 0)::text || ' GB');
BEGIN
  RETURN CASE p_answer->>'result'
    WHEN 'added' THEN format('Added: %s.', v_device)
    WHEN 'model_mismatch' THEN format('Added, but its TAC says %s; the invoice says %s.',
      d->>'model', x->>'claimed_model')
    WHEN 'unexpected' THEN
      format('Added, but it is not on the invoice: flagged unexpected (%s).', v_device)
    WHEN 'blacklisted' THEN
      format('Blacklisted (%s, %s): received on hold. Put it in the quarantine tote.',
        x->>'source', x->>'reason')
    WHEN 'already_in_box' THEN 'Already in this box: nothing to do.'
    WHEN 'quarantined' THEN
      format('On hold (%s) and in quarantine already: put it back in the quarantine tote, not in a box.',
        replace(x->>'hold_reason', '_', ' '))
    -- The server knows no reader's zone, so the moment is said in UTC.
    WHEN 'in_other_box' THEN format('Already received in %s (invoice %s) on %s%s.',
      x->>'box', x->>'invoice_no',
      COALESCE(to_char(NULLIF(x->>'received_at', '')::timestamptz AT TIME ZONE 'UTC',
        'YYYY-MM-DD HH24:MI') || ' UTC', 'earlier'),
      COALESCE(' by ' || NULLIF(x->>'received_by', ''), ''))
    WHEN 'in_registry' THEN
      format('Already in the registry (%s): it cannot be received again. Put it aside for a manager.',
        replace(x->>'status', '_', ' '))
    WHEN 'other_invoice' THEN
      format('On invoice %s of %s, not this one: put it aside for that invoice''s box.',
        x->>'invoice_no', x->>'vendor')
    WHEN 'unknown_tac' THEN
      format('TAC %s maps to no model yet: learn the TAC, or put the device aside.', x->>'tac')
    WHEN 'meid_unknown' THEN
      format('A MEID tells no model, and invoice %s does not list it: put it aside.',
        x->>'invoice_no')
    ELSE ''
  END;
END
$$;

-- One scan into a box: the rules, then its log row; the answer carries the sentence and the row.
-- A refusal raised by the rules (no such box, a closed box or invoice) rolls back and logs
-- nothing: the station is told by the error, and nothing was scanned into the box.
CREATE FUNCTION receive_scan(
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
  v_log_id bigint;
BEGIN
  INSERT INTO box_scan_log (box_id, station, actor_id, actor_name, code, result, message)
  VALUES (p_box_id, p_station, p_actor_id, p_actor_name, p_scanned, v_answer->>'result',
    v_message)
  RETURNING id INTO v_log_id;
  RETURN v_answer || jsonb_build_object('message', v_message, 'log_id', v_log_id);
END
$$;
