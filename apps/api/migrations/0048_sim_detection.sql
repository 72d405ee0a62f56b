-- SIM detection against the carrier (issue 17, DOMAIN.md 4.6 /sim/detection): what a run needs
-- beyond migration 0044 to load an export in the background and survive a restart half-way.

-- An uploaded export as it arrived, in parts of about a megabyte, kept until the run's rows are
-- read from it: the upload answers at once and the rows load from here, resumed by line after a
-- restart. Deleted by the transaction that applies the run.
CREATE TABLE sim_detection_files (
  run_id bigint NOT NULL REFERENCES sim_detection_runs (id),
  part integer NOT NULL CHECK (part >= 0),
  content bytea NOT NULL,
  PRIMARY KEY (run_id, part)
);
ALTER TABLE sim_detection_files ALTER COLUMN content SET STORAGE EXTERNAL;

-- The column mapping the run reads its export with (the carrier's kept mapping at upload), so a
-- resumed load reads the file as it was meant to be read.
ALTER TABLE sim_detection_runs ADD COLUMN columns jsonb;
-- Who the run's SIM events and audit name (the person who started it, or a system), kept for a
-- run applied in the background or resumed after a restart.
ALTER TABLE sim_detection_runs ADD COLUMN actor_name text;

-- Why a row was not applied: an ICCID or state the export should not have, or a later line with
-- the same ICCID.
ALTER TABLE sim_detection_rows ADD COLUMN problem text;

-- The runs a starting server resumes.
CREATE INDEX sim_detection_runs_unfinished ON sim_detection_runs (id)
  WHERE status IN ('loading', 'applying');
CREATE INDEX sim_detection_runs_rerun ON sim_detection_runs (rerun_of) WHERE rerun_of IS NOT NULL;
CREATE INDEX sim_anomalies_sim ON sim_anomalies (sim_id, id);
